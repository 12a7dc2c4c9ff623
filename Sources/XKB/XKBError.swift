/// An environment error from xkbcommon: a keymap that cannot be compiled because a layout, variant,
/// model or option does not exist in the installed xkeyboard-config data (package `xkb-data`), or that
/// data is missing altogether. It names the C function, the names asked for (with the environment
/// variables that filled the ones left nil) and what xkbcommon logged while failing:
///
///     xkb_keymap_new_from_names(layout "xx"): failed; xkbcommon: Couldn't find file "symbols/xx" in include
///     paths; 1 include paths searched:; /usr/share/X11/xkb; ...; Failed to compile xkb_symbols; Failed to
///     compile keymap
///
/// (xkbcommon 1.5.0 on Debian 12.) xkbcommon reports no errno; its log lines are the only explanation, so
/// they are kept here.
public struct XKBError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The C function that failed, e.g. `xkb_keymap_new_from_names`.
    public let operation: String
    /// What was asked for, e.g. `layout "xx", variant "nodeadkeys"`.
    public let detail: String?
    /// xkbcommon's log lines (errors and warnings) from the failing call, without trailing newlines.
    public let messages: [String]

    private init(operation: String, detail: String?, messages: [String]) {
        self.operation = operation
        self.detail = detail
        self.messages = messages
    }

    public var description: String {
        let call = detail.map { "\(operation)(\($0))" } ?? operation
        guard !messages.isEmpty else { return "\(call): failed" }
        return "\(call): failed; xkbcommon: \(messages.joined(separator: "; "))"
    }

    /// A failed xkbcommon call; `messages` are what it logged meanwhile.
    static func failed(_ operation: String, detail: String? = nil, messages: [String] = []) -> XKBError {
        XKBError(operation: operation, detail: detail, messages: messages)
    }
}

// MARK: - xkbcommon's return convention

/// xkbcommon's constructors (`xkb_context_new`, `xkb_keymap_new_from_names`) return NULL and set no
/// errno; the reason is in the context's log, collected by the caller into `messages`.
func xkbCreate(
    _ operation: String, detail: @autoclosure () -> String? = nil,
    messages: @autoclosure () -> [String] = [],
    _ body: () -> OpaquePointer?
) throws(XKBError) -> OpaquePointer {
    if let pointer = body() { return pointer }
    throw XKBError.failed(operation, detail: detail(), messages: messages())
}
