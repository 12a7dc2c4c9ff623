import CLazyXKBCommon
import Glibc

/// Calls `body` with a new xkbcommon context (`xkb_context_new`) whose log lines are collected instead of
/// going to stderr, and with a function that returns the lines so far; the context is released after.
/// What `body` compiles with it (a keymap, a Compose table) keeps its own reference to the context.
///
/// The lines are what explains a failure (xkbcommon reports no errno), so `body` passes them to the
/// error it throws; on success they are dropped.
func withLoggingContext<T>(
    _ body: (_ context: OpaquePointer, _ messages: () -> [String]) throws(XKBError) -> T
) throws(XKBError) -> T {
    let log = LogCollector()
    // XKB_CONTEXT_NO_FLAGS: the default include path (/usr/share/X11/xkb, or XKB_CONFIG_ROOT) and
    // the XKB_DEFAULT_* environment variables are wanted.
    let context = try xkbCreate("xkb_context_new") { xkb_context_new(XKB_CONTEXT_NO_FLAGS) }
    defer { xkb_context_unref(context) }
    xkb_context_set_user_data(context, Unmanaged.passUnretained(log).toOpaque())
    xkb_context_set_log_fn(context) { context, level, format, arguments in
        guard let format, let arguments, let userdata = xkb_context_get_user_data(context) else { return }
        // One formatting pass into a fixed buffer: a va_list cannot be walked twice from Swift (no
        // va_copy); longer lines are truncated.
        var buffer = [CChar](repeating: 0, count: 1024)
        _ = vsnprintf(&buffer, buffer.count, format, arguments)
        var bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        // Lines end in a newline; include paths come indented with a tab.
        while bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        while bytes.first == UInt8(ascii: "\t") || bytes.first == UInt8(ascii: " ") { bytes.removeFirst() }
        Unmanaged<LogCollector>.fromOpaque(userdata).takeUnretainedValue()
            .lines.append(String(decoding: bytes, as: UTF8.self))
    }
    // Warnings too: an unknown option is only a warning in some versions, and says why a key is odd.
    xkb_context_set_log_level(context, XKB_LOG_LEVEL_WARNING)
    defer {
        // What was compiled keeps the context (and its log function) alive; later lines have nowhere to go.
        xkb_context_set_user_data(context, nil)
    }
    return try withExtendedLifetime(log) { () throws(XKBError) -> T in
        try body(context) { log.lines }
    }
}

/// Receives a context's log lines during compilation, through the context's user data.
private final class LogCollector {
    var lines: [String] = []
}
