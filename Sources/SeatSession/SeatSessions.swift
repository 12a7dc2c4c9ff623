import KioskBackend
import Logging
import Seat
import Synchronization

/// How the kiosk gets its seat: libseat with the backend `LIBSEAT_BACKEND` names, else the first that
/// works (seatd, logind, builtin). A backend named in `LIBSEAT_BACKEND` must work: a kiosk that asked for
/// logind and quietly opened devices as root would hide the misconfiguration until the next boot as the
/// kiosk user. Unnamed, a seat that cannot be had is a warning, and devices are opened directly.
public enum SeatSessions {
    /// libseat's backends, as `LIBSEAT_BACKEND` names them.
    public static let backends = ["seatd", "logind", "builtin", "noop"]
    /// Whether libseat is trying its backends in turn (its errors then are a backend skipped).
    private static let probing = Atomic<Bool>(false)

    /// Loads libseat (and libsystemd, which it links) now, before another thread's `dlopen` holds the
    /// dynamic loader's lock: a kiosk that loaded it first when the display opened the seat waited 170 ms
    /// for pango's 35 libraries on a cold disk. A failure is said by `open`, which loads it again.
    public static func preload() {
        _ = try? LibSeatLibrary.shared.load()
    }

    @MainActor
    public static func open(seatName: String, environment: [String: String]) throws(BackendError) -> any DeviceSession {
        let log = Logger(label: "kiosk.seat")
        let named = environment["LIBSEAT_BACKEND"].flatMap { $0.isEmpty ? nil : $0 }
        if let named, !backends.contains(named) {
            throw .failed("seat", "LIBSEAT_BACKEND=\(named) is not a libseat backend; valid: \(backends.joined(separator: ", "))")
        }
        // libseat is loaded now, not at exec (LazyLink); without it, devices are opened directly, unless a
        // libseat backend was asked for by name.
        do {
            try LibSeatLibrary.shared.load()
        } catch {
            if named != nil { throw .failed("seat", error.description) }
            log.warning("\(error.description); opening devices directly (needs root or the video and input groups)")
            return DirectSession(seatName: seatName)
        }
        // libseat's own lines say what errno cannot ("Could not get primary session for user", "Could not
        // connect to socket /run/seatd.sock"). libseat says those at its info level: notice here, so they are
        // in the journal at the levels a kiosk runs at.
        let label = "kiosk.seat"
        let levels: [Seat.LogLevel: Logger.Level] = [.error: .error, .info: .notice, .debug: .debug]
        // The forked seatd's lines (libseat's builtin backend) are written by C, in the same words, and
        // only at the levels the log shows now (an empty word drops the line).
        let shown = Logger(label: label).logLevel
        let word = { (level: Seat.LogLevel) in levels[level].map { $0 >= shown ? $0.rawValue : "" } ?? "" }
        let forked = Seat.ForkedLogFormat(label: label, error: word(.error), info: word(.info), debug: word(.debug))
        // While libseat tries its backends one after the other (none named), a backend's failure is no
        // error of the kiosk's: libseat goes on to the next ("Could not get primary session for user" where
        // there is no logind, then the builtin backend opens the seat). Notice then; an error once a seat is
        // open, or when every backend failed (said below as a warning, the devices opened directly).
        probing.store(named == nil, ordering: .relaxed)
        Seat.setLogHandler(level: .info, forked: forked) { level, message in
            let probing = SeatSessions.probing.load(ordering: .relaxed)
            let shown = level == .error && probing ? Logger.Level.notice : levels[level] ?? .debug
            Logger(label: label).log(level: shown, Logger.Message(stringLiteral: message))
        }
        defer { probing.store(false, ordering: .relaxed) }
        do {
            return try LibSeatSession.open(backend: named)
        } catch {
            if named != nil { throw error }
            log.warning("\(error.reason); opening devices directly (needs root or the video and input groups)")
            return DirectSession(seatName: seatName)
        }
    }
}
