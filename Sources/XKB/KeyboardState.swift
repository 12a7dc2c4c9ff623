import CLazyXKBCommon

/// The state of one keyboard (or of all keyboards of a seat together): which modifiers and keys are
/// down, hence what the next key gives, and how far a Compose sequence has come. Feed it every key press
/// and release, in order.
///
/// Not `Sendable`: one owner (the runtime's main actor) updates and reads it.
public final class KeyboardState {
    /// The keymap the state follows; kept alive by this reference.
    public let keymap: Keymap
    /// The Compose sequences it follows, if any; kept alive by this reference.
    public let composeTable: ComposeTable?
    /// The `struct xkb_state *`, released in `deinit`.
    private let pointer: OpaquePointer
    /// The `struct xkb_compose_state *` when there is a table, released in `deinit`.
    private let compose: OpaquePointer?
    /// Keycodes whose press went into a Compose sequence and gave nothing: their release gives nothing
    /// either, so a consumer sees neither half of a dead key.
    private var swallowed: Set<UInt32> = []

    /// A state with nothing pressed (`xkb_state_new`), following `composeTable`'s sequences when given
    /// (`xkb_compose_state_new`).
    public init(keymap: Keymap, composeTable: ComposeTable? = nil) {
        // xkb_state_new and xkb_compose_state_new fail only when calloc does; Swift traps on allocation
        // failure everywhere else.
        guard let state = xkb_state_new(keymap.pointer) else { fatalError("xkb_state_new: out of memory") }
        self.keymap = keymap
        self.composeTable = composeTable
        self.pointer = state
        if let composeTable {
            guard let compose = xkb_compose_state_new(composeTable.pointer, XKB_COMPOSE_STATE_NO_FLAGS) else {
                fatalError("xkb_compose_state_new: out of memory")
            }
            self.compose = compose
        } else {
            self.compose = nil
        }
    }

    deinit {
        xkb_state_unref(pointer)
        if let compose { xkb_compose_state_unref(compose) }
    }

    /// Applies a key press or release, `evdevKey` being libinput's evdev code (`KEY_A` is 30), and returns
    /// what the key gives: its keysym (`xkb_state_key_get_one_sym`) and, for a press, its text
    /// (`xkb_state_key_get_utf8`), both read with the modifiers as they were before this key; then the
    /// state is updated (`xkb_state_update_key`). That order is xkbcommon's: the Shift key itself gives
    /// `Shift_L` and no text, the next key is shifted.
    ///
    /// xkb keycodes are evdev codes + 8 (the X11 offset xkeyboard-config's `evdev` keycodes keep).
    /// `keysym` is 0 (`NoSymbol`) for a key without one or with several. `text` is empty for releases
    /// (so a consumer inserts a character once), for keys without text (Shift, arrows), and holds a
    /// control character for Return (`"\r"`), BackSpace (`"\u{8}"`), Tab, Escape, and for Control
    /// combinations (`Ctrl+C` gives `"\u{3}"`, xkbcommon's Control transformation): filter those before
    /// inserting text.
    ///
    /// With a Compose table, each press's keysym is fed to the sequence (`xkb_compose_state_feed`) and
    /// its status (`xkb_compose_state_get_status`) decides what the press gives. A press that starts or
    /// continues a sequence gives nothing (0 and `""`, and so does its release). The press that completes
    /// one gives the sequence's keysym and text (`xkb_compose_state_get_one_sym`,
    /// `xkb_compose_state_get_utf8`): on `de`, `dead_acute` then `e` give nothing, then `eacute` and
    /// `"é"`. A press that breaks one (`dead_acute` then `q`) gives nothing, and the next press starts
    /// afresh (`xkb_compose_state_reset`). Any other press gives its own. Modifier keys are no part of
    /// a sequence (xkbcommon ignores them), so Shift can be held in the middle of one.
    @discardableResult
    public func update(evdevKey: UInt32, pressed: Bool) -> (keysym: UInt32, text: String) {
        let keycode = evdevKey + 8
        let keysym = xkb_state_key_get_one_sym(pointer, keycode)
        let result: (keysym: UInt32, text: String)
        if pressed {
            result = composed(keysym, keycode: keycode) ?? (keysym, utf8(keycode))
        } else {
            result = swallowed.remove(keycode) == nil ? (keysym, "") : (0, "")
        }
        _ = xkb_state_update_key(pointer, keycode, pressed ? XKB_KEY_DOWN : XKB_KEY_UP)
        return result
    }

    /// What a press of `keysym` gives through the Compose sequence, or nil when the sequence has nothing
    /// to say (no table, a modifier, no sequence under way or starting): then the key gives its own.
    private func composed(_ keysym: UInt32, keycode: UInt32) -> (keysym: UInt32, text: String)? {
        guard let compose, xkb_compose_state_feed(compose, keysym) == XKB_COMPOSE_FEED_ACCEPTED else { return nil }
        switch xkb_compose_state_get_status(compose) {
        case XKB_COMPOSE_COMPOSING:
            swallowed.insert(keycode)
            return (0, "")
        case XKB_COMPOSE_COMPOSED:
            let result = (xkb_compose_state_get_one_sym(compose), composedText(compose))
            xkb_compose_state_reset(compose)
            return result
        case XKB_COMPOSE_CANCELLED:
            // The key that broke the sequence is swallowed with it, as libX11 does (the first of the
            // choices xkbcommon-compose.h's "Cancellation Behavior" lists).
            swallowed.insert(keycode)
            xkb_compose_state_reset(compose)
            return (0, "")
        default:
            return nil
        }
    }

    /// Whether Shift is in effect, held or latched (`xkb_state_mod_name_is_active`, `XKB_MOD_NAME_SHIFT`).
    public var shift: Bool { isActive(XKB_MOD_NAME_SHIFT) }
    /// Whether Control is in effect (`XKB_MOD_NAME_CTRL`).
    public var control: Bool { isActive(XKB_MOD_NAME_CTRL) }
    /// Whether Alt is in effect (`XKB_MOD_NAME_ALT`, the real modifier `Mod1` Alt maps to in
    /// xkeyboard-config).
    public var alt: Bool { isActive(XKB_MOD_NAME_ALT) }
    /// Whether Caps Lock is on (`XKB_MOD_NAME_CAPS`, `Lock`).
    public var capsLock: Bool { isActive(XKB_MOD_NAME_CAPS) }

    /// The keysym's name, e.g. `a`, `Return`, `Shift_L`, or nil for a value that is no keysym
    /// (`xkb_keysym_get_name`). For logs and key bindings.
    public static func keysymName(_ keysym: UInt32) -> String? {
        // The longest names are under 64 bytes (xkbcommon's own buffers for them are 64).
        var buffer = [CChar](repeating: 0, count: 64)
        guard xkb_keysym_get_name(keysym, &buffer, buffer.count) >= 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The character the keysym stands for (`xkb_keysym_to_utf32`): `a` for `a`, `é` for `eacute`, `1`
    /// for `KP_1`, U+000D for `Return`; nil for keysyms that stand for none (modifiers, dead keys, arrows,
    /// function keys, `NoSymbol`).
    public static func keysymCharacter(_ keysym: UInt32) -> Unicode.Scalar? {
        let value = xkb_keysym_to_utf32(keysym)
        return value == 0 ? nil : Unicode.Scalar(value)
    }

    private func isActive(_ modifier: String) -> Bool {
        // Effective = depressed + latched + locked; > 0 active, 0 inactive, -1 no such modifier.
        xkb_state_mod_name_is_active(pointer, modifier, XKB_STATE_MODS_EFFECTIVE) > 0
    }

    /// The key's text (`xkb_state_key_get_utf8`).
    private func utf8(_ keycode: UInt32) -> String {
        Self.string { xkb_state_key_get_utf8(pointer, keycode, $0, $1) }
    }

    /// The completed sequence's text (`xkb_compose_state_get_utf8`).
    private func composedText(_ compose: OpaquePointer) -> String {
        Self.string { xkb_compose_state_get_utf8(compose, $0, $1) }
    }

    /// A string from one of xkbcommon's snprintf-style getters: asked once for the length, then written.
    private static func string(_ get: (UnsafeMutablePointer<CChar>?, Int) -> Int32) -> String {
        let length = get(nil, 0)
        guard length > 0 else { return "" }
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        _ = get(&buffer, buffer.count)
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
