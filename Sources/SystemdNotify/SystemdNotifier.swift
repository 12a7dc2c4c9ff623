import Glibc

/// Tells systemd how the service is doing, as `sd_notify(3)` does, without linking libsystemd: the
/// protocol is one `KEY=VALUE` line per field in a datagram to the unix socket that `NOTIFY_SOCKET`
/// names (an absolute path, or `@name` in the abstract namespace). Boards that build their own image
/// often ship systemd without its development files, and the protocol is stable and tiny.
///
///     if let notifier = SystemdNotifier.fromEnvironment() {
///         try? notifier.ready()                       // after the first frame is on screen
///         if let interval = notifier.watchdogPingInterval { ... }   // WATCHDOG=1 from a main-queue timer
///         try? notifier.stopping()                    // on SIGTERM, before restoring the CRTCs
///     }
///
/// Failures are thrown as `SystemdNotifyError` and are never fatal: a service that cannot reach
/// systemd still runs (systemd then times it out or restarts it, which the error, logged, explains).
///
/// A fresh socket is opened for every message, as libsystemd does: no descriptor is kept open, so the
/// value is a plain `Sendable` struct and nothing leaks into processes we might spawn.
public struct SystemdNotifier: Sendable, Equatable {
    /// The socket as `NOTIFY_SOCKET` names it: `/run/systemd/notify`, or `@name` for the abstract
    /// namespace (the `@` stands for the leading NUL byte of the address).
    public let socket: String

    /// How often systemd expects `WATCHDOG=1` (the unit's `WatchdogSec=`, passed as `WATCHDOG_USEC`),
    /// or nil when the watchdog is off or is meant for another process (`WATCHDOG_PID`).
    public let watchdogInterval: Duration?

    /// A notifier for `socket` (same syntax as `NOTIFY_SOCKET`). Nothing is opened or checked until the
    /// first message is sent, so an unusable address is reported where it can be logged.
    public init(socket: String, watchdogInterval: Duration? = nil) {
        self.socket = socket
        self.watchdogInterval = watchdogInterval
    }

    /// The notifier systemd set up for this process, or nil when it was not started by systemd with
    /// `Type=notify` (no `NOTIFY_SOCKET`, or an empty one, as `sd_notify` treats it).
    ///
    /// An address this module cannot use (systemd 254's `vsock:`) still gives a notifier: its sends
    /// throw an error naming the address. Returning nil there would hide the problem until systemd
    /// kills the service for never reporting `READY=1`, with nothing in the log to say why.
    ///
    /// - Parameters:
    ///   - environment: the variables to read; nil reads the process environment (`getenv`). Tests
    ///     pass a dictionary so they never touch the environment other tests share.
    ///   - processID: compared with `WATCHDOG_PID`; defaults to our own pid.
    public static func fromEnvironment(
        _ environment: [String: String]? = nil,
        processID: pid_t = getpid()
    ) -> SystemdNotifier? {
        let lookup: (String) -> String? = { name in
            if let environment { return environment[name] }
            return getenv(name).map { String(cString: $0) }
        }
        guard let socket = lookup("NOTIFY_SOCKET"), !socket.isEmpty else { return nil }
        let interval = watchdogInterval(
            usec: lookup("WATCHDOG_USEC"), pid: lookup("WATCHDOG_PID"),
            processID: processID)
        return SystemdNotifier(socket: socket, watchdogInterval: interval)
    }
}
