import CLazyXKBCommon

/// The state of one keyboard (or of all keyboards of a seat together): which modifiers and keys are
/// down, hence what the next key gives. Feed it every key press and release, in order.
///
/// Not `Sendable`: one owner (the runtime's main actor) updates and reads it.
public final class KeyboardState {
    /// The keymap the state follows; kept alive by this reference.
    public let keymap: Keymap
    /// The `struct xkb_state *`, released in `deinit`.
    private let pointer: OpaquePointer

    /// A state with nothing pressed (`xkb_state_new`).
    public init(keymap: Keymap) {
        // xkb_state_new fails only when calloc does; Swift traps on allocation failure everywhere else.
        guard let state = xkb_state_new(keymap.pointer) else { fatalError("xkb_state_new: out of memory") }
        self.keymap = keymap
        self.pointer = state
    }

    deinit {
        xkb_state_unref(pointer)
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
    @discardableResult
    public func update(evdevKey: UInt32, pressed: Bool) -> (keysym: UInt32, text: String) {
        let keycode = evdevKey + 8
        let keysym = xkb_state_key_get_one_sym(pointer, keycode)
        let text = pressed ? utf8(keycode) : ""
        _ = xkb_state_update_key(pointer, keycode, pressed ? XKB_KEY_DOWN : XKB_KEY_UP)
        return (keysym, text)
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

    private func isActive(_ modifier: String) -> Bool {
        // Effective = depressed + latched + locked; > 0 active, 0 inactive, -1 no such modifier.
        xkb_state_mod_name_is_active(pointer, modifier, XKB_STATE_MODS_EFFECTIVE) > 0
    }

    /// The key's text (`xkb_state_key_get_utf8`): asked once for the length, then written.
    private func utf8(_ keycode: UInt32) -> String {
        let length = xkb_state_key_get_utf8(pointer, keycode, nil, 0)
        guard length > 0 else { return "" }
        var buffer = [CChar](repeating: 0, count: Int(length) + 1)
        _ = xkb_state_key_get_utf8(pointer, keycode, &buffer, buffer.count)
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
