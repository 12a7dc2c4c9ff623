import CLazyLibInput
import Glibc

extension LibInput {
    /// libinput's log priorities (`enum libinput_log_priority`).
    public enum LogPriority: UInt32, Sendable, Comparable {
        case debug = 10
        case info = 20
        case error = 30

        public static func < (lhs: LogPriority, rhs: LogPriority) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Routes this context's log lines at `priority` or more severe to `handler`, instead of libinput's
    /// default (errors only, to stderr as `libinput error: ...`) (`libinput_log_set_handler`,
    /// `libinput_log_set_priority`). The lines say what errno cannot: "client bug: Invalid path
    /// /dev/input/event9", "event4 - ... kernel bug: Touch jump detected and discarded", "event processing
    /// lagging behind by 32ms, your system is too slow".
    ///
    /// The handler runs on the main actor, inside the libinput call that logs. Lines end without the
    /// newline libinput puts there.
    public func setLogHandler(priority: LogPriority, _ handler: @escaping (LogPriority, String) -> Void) {
        callbacks.logHandler = handler
        libinput_log_set_handler(context) { context, priority, format, arguments in
            guard let context, let format, let arguments else { return }
            // One formatting pass into a fixed buffer: a va_list cannot be walked twice from Swift
            // (no va_copy), and libinput's lines are short; longer ones are truncated.
            var buffer = [CChar](repeating: 0, count: 1024)
            _ = vsnprintf(&buffer, buffer.count, format, arguments)
            var bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
            if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
            let message = String(decoding: bytes, as: UTF8.self)
            let level = LogPriority(rawValue: priority.rawValue) ?? .error
            let callbacks = LibInputCallbacks.from(libinput_get_user_data(context))
            MainActor.assumeIsolated { callbacks.logHandler?(level, message) }
        }
        libinput_log_set_priority(context, libinput_log_priority(rawValue: priority.rawValue))
    }
}
