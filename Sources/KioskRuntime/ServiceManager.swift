import Dispatch
import KioskConfig
import KioskKit
import Logging
import SystemdNotify

/// Talking to systemd (`Type=notify`): `READY=1` once the first frame is on screen (or at once when no
/// display is connected: waiting for one would get the kiosk killed by `TimeoutStartSec` and restarted
/// in a loop), `WATCHDOG=1` from the main queue at half of `WatchdogSec` (a stalled loop stops pinging
/// and systemd restarts the kiosk), `STOPPING=1` on the way out. Does nothing outside systemd.
@MainActor
final class ServiceManager {
    private let notifier: SystemdNotifier?
    private var isReady = false
    private var watchdogTimer: (any DispatchSourceTimer)?
    private let log = Logger(label: "kiosk.systemd")

    init(environment: [String: String] = ProcessEnvironment.current()) {
        notifier = SystemdNotifier.fromEnvironment(environment)
    }

    /// Starts the watchdog pings, when systemd asked for them.
    func start() {
        guard let notifier, let interval = notifier.watchdogPingInterval else { return }
        let timer = DispatchSource.makeTimerSource(queue: .main)
        let nanoseconds = Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)
        let period = DispatchTimeInterval.nanoseconds(max(nanoseconds, 1_000_000))
        timer.schedule(deadline: .now() + period, repeating: period, leeway: .milliseconds(50))
        timer.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.send("WATCHDOG=1") { try $0.watchdog() } } }
        timer.resume()
        watchdogTimer = timer
        log.info("watchdog ping every \(interval)")
    }

    /// The first frame is on screen, or there is no display to wait for.
    func ready(status: String) {
        guard !isReady else { return }
        isReady = true
        send("READY=1") { try $0.ready() }
        send("STATUS") { try $0.status(status) }
    }

    func reloading() { send("RELOADING=1") { try $0.reloading() } }

    func reloaded(status: String) {
        send("READY=1") { try $0.ready() }
        send("STATUS") { try $0.status(status) }
    }

    func stopping() {
        watchdogTimer?.cancel()
        send("STOPPING=1") { try $0.stopping() }
    }

    private func send(_ what: String, _ body: (SystemdNotifier) throws -> Void) {
        guard let notifier else { return }
        do { try body(notifier) } catch { log.error("sd_notify \(what) failed: \(error)") }
    }
}
