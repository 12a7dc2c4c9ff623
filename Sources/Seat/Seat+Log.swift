import CLazyLibSeat
import Glibc
import Synchronization

extension Seat {
    /// libseat's log levels (`enum libseat_log_level`).
    public enum LogLevel: UInt32, Sendable, Comparable {
        case silent = 0
        case error = 1
        case info = 2
        case debug = 3

        public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// Routes libseat's own log lines to `handler` from now on, for messages at `level` or more severe
    /// (`libseat_set_log_handler`, `libseat_set_log_level`). Passing nil restores libseat's default
    /// handler (stderr). libseat is silent by default (observed: no output at all from 0.7.0 until a
    /// level is set).
    ///
    /// These lines carry what errno cannot: "Could not get primary session for user: No data
    /// available", "/dev/null is not a supported device type". The setting is process-wide (libseat
    /// has one global handler and no userdata), hence a static function.
    ///
    /// `handler` may run on any thread that calls libseat. With the builtin backend libseat also forks a
    /// process that runs its embedded seatd and logs there (its lines start with `[seatd/`). A child forked
    /// from a process with threads may only do work that takes no lock, so there `handler` is not called:
    /// the line is written to standard error directly, as `forked` says (`kiosk_seat_log_forked`).
    public nonisolated static func setLogHandler(
        level: LogLevel, forked: ForkedLogFormat = ForkedLogFormat(),
        _ handler: (@Sendable (LogLevel, String) -> Void)?
    ) {
        logHandler.withLock { $0 = handler }
        loggingProcess.store(getpid(), ordering: .relaxed)
        kiosk_seat_set_forked_log_format(forked.label, forked.error, forked.info, forked.debug)
        libseat_set_log_handler(
            handler == nil
                ? nil
                : { level, format, arguments in
                    guard let format, let arguments else { return }
                    guard getpid() == loggingProcess.load(ordering: .relaxed) else {
                        kiosk_seat_log_forked(level, format, arguments)
                        return
                    }
                    // One formatting pass into a fixed buffer: a va_list cannot be walked twice from Swift
                    // (no va_copy), and libseat's lines are short; longer ones are truncated.
                    var buffer = [CChar](repeating: 0, count: 1024)
                    _ = vsnprintf(&buffer, buffer.count, format, arguments)
                    let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    let handler = logHandler.withLock { $0 }
                    handler?(LogLevel(rawValue: level.rawValue) ?? .debug, message)
                })
        libseat_set_log_level(libseat_log_level(rawValue: level.rawValue))
    }
}

extension Seat {
    /// How a line from libseat's forked seatd is written: "<UTC time> <level word> <label>: <message>";
    /// a level whose word is empty is not written.
    public struct ForkedLogFormat: Sendable {
        public var label: String
        public var error: String
        public var info: String
        public var debug: String

        public init(label: String = "libseat", error: String = "error", info: String = "info", debug: String = "debug") {
            self.label = label
            self.error = error
            self.info = info
            self.debug = debug
        }
    }
}

/// The one process-wide handler behind `Seat.setLogHandler`: libseat's C log callback has no userdata,
/// so it must be reached through a global.
private let logHandler = Mutex<(@Sendable (Seat.LogLevel, String) -> Void)?>(nil)

/// The process that set the handler: a line logged from any other is from a child libseat forked.
private let loggingProcess = Atomic<Int32>(0)
