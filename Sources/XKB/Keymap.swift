import CLazyXKBCommon
import Glibc

/// A compiled keyboard keymap: which keysym and text each key gives under each modifier state, from the
/// xkeyboard-config rules, model, layout, variant and options ("RMLVO").
///
/// Fields left nil take xkbcommon's defaults, which honour the environment: `XKB_DEFAULT_RULES`,
/// `XKB_DEFAULT_MODEL`, `XKB_DEFAULT_LAYOUT`, `XKB_DEFAULT_VARIANT`, `XKB_DEFAULT_OPTIONS`, else
/// `evdev`, `pc105`, `us`, no variant, no options. Layout and variant go together (xkbcommon's
/// `xkb_context_sanitize_rule_names`): a nil layout takes both the default layout and the default variant,
/// ignoring `variant`; a layout given without a variant gets none. `options: ""` means no options even
/// when `XKB_DEFAULT_OPTIONS` is set.
///
/// Not `Sendable`: xkbcommon's reference counts are not atomic. One owner (the runtime's main actor)
/// creates and uses it.
public final class Keymap {
    /// The `struct xkb_keymap *`, released in `deinit`. It holds its own reference to its context.
    let pointer: OpaquePointer

    /// The names of the keymap's layouts (groups) in order, e.g. `["English (US)"]`, `["German"]`
    /// (`xkb_keymap_num_layouts`, `xkb_keymap_layout_get_name`). For the log line that says which
    /// keymap is in use.
    public let layoutNames: [String]

    /// Compiles the keymap named by these fields (`xkb_context_new`, `xkb_keymap_new_from_names`).
    /// xkbcommon's log lines during compilation are collected (instead of going to stderr) and carried
    /// by the error if it fails; on success they are dropped.
    ///
    /// Throws naming the fields and the environment variables used when a layout, variant, model or option
    /// does not exist, or when the xkeyboard-config data (`/usr/share/X11/xkb`, package `xkb-data`) is
    /// missing. Compiling takes a few milliseconds (it parses the data files): do it once per layout.
    public init(
        rules: String? = nil, model: String? = nil, layout: String? = nil,
        variant: String? = nil, options: String? = nil
    ) throws(XKBError) {
        let keymap = try withLoggingContext { (context, messages) throws(XKBError) -> OpaquePointer in
            try Keymap.withRuleNames(rules, model, layout, variant, options) { (names) throws(XKBError) in
                try xkbCreate(
                    "xkb_keymap_new_from_names",
                    detail: Keymap.describe(rules, model, layout, variant, options),
                    messages: messages()
                ) {
                    xkb_keymap_new_from_names(context, names, XKB_KEYMAP_COMPILE_NO_FLAGS)
                }
            }
        }
        pointer = keymap
        layoutNames = (0..<xkb_keymap_num_layouts(keymap)).map {
            xkb_keymap_layout_get_name(keymap, $0).map { String(cString: $0) } ?? ""
        }
    }

    deinit {
        xkb_keymap_unref(pointer)
    }

    /// Whether holding the key repeats it (`xkb_keymap_key_repeats`): letters, digits, Backspace and the
    /// arrows do; modifiers and locks do not. `evdevKey` is the kernel's key code (`KEY_A` = 30).
    public func keyRepeats(evdevKey: UInt32) -> Bool {
        xkb_keymap_key_repeats(pointer, evdevKey + 8) == 1
    }

    /// Calls `body` with an `xkb_rule_names` whose nil fields are NULL (xkbcommon's "use the default").
    private static func withRuleNames<T>(
        _ rules: String?, _ model: String?, _ layout: String?, _ variant: String?, _ options: String?,
        _ body: (UnsafePointer<xkb_rule_names>) throws(XKBError) -> T
    ) throws(XKBError) -> T {
        let strings = [rules, model, layout, variant, options].map { $0.map { strdup($0) } ?? nil }
        defer { for string in strings { free(string) } }
        var names = xkb_rule_names(
            rules: strings[0], model: strings[1], layout: strings[2],
            variant: strings[3], options: strings[4])
        return try body(&names)
    }

    /// `layout "de", variant "nodeadkeys"`, with the `XKB_DEFAULT_*` variable that fills each nil field
    /// (`layout "xx" (XKB_DEFAULT_LAYOUT)`); `defaults` when nothing is named either way. This is what the
    /// error shows, so it follows xkbcommon's pairing of layout and variant (see the type).
    static func describe(
        _ rules: String?, _ model: String?, _ layout: String?, _ variant: String?,
        _ options: String?
    ) -> String {
        func field(_ name: String, _ value: String?, _ variable: String) -> String? {
            if let value { return "\(name) \"\(value)\"" }
            guard let environment = getenv(variable), environment.pointee != 0 else { return nil }
            return "\(name) \"\(String(cString: environment))\" (\(variable))"
        }
        let parts = [
            field("rules", rules, "XKB_DEFAULT_RULES"),
            field("model", model, "XKB_DEFAULT_MODEL"),
            field("layout", layout, "XKB_DEFAULT_LAYOUT"),
            // With a layout, only the given variant counts; without one, only the default variant.
            layout == nil ? field("variant", nil, "XKB_DEFAULT_VARIANT") : variant.map { "variant \"\($0)\"" },
            field("options", options, "XKB_DEFAULT_OPTIONS"),
        ].compactMap { $0 }
        return parts.isEmpty ? "defaults" : parts.joined(separator: ", ")
    }
}
