import KioskKit
import Logging

/// Display power of the running kiosk: idle blanking (`idle-timeout`: a screen with no input for that long
/// is turned off) and waking (a touch or key on a screen that is off turns it on; the waking event itself
/// reaches no window, `Application.route` swallows it). One timer per screen, set to the moment its idle
/// time runs out and moved by input: an idle kiosk wakes once, to blank, then never.
@MainActor
final class PowerManager {
    unowned let application: Application
    private let log = Logger(label: "kiosk.power")
    /// Seconds without input before a screen turns off; 0 never.
    var idleTimeout: TimeInterval {
        didSet { if idleTimeout != oldValue { for screen in application.connectedScreens { restartIdleTimer(screen) } } }
    }
    /// Why each screen that is off went off (for the log and the trace, and to know what a touch may undo).
    private(set) var reasons: [ObjectIdentifier: String] = [:]
    private var timers: [ObjectIdentifier: FrameTimer] = [:]
    private var observations: [NotificationObservation] = []

    init(application: Application, idleTimeout: TimeInterval) {
        self.application = application
        self.idleTimeout = idleTimeout
        application.wakeHandler = { [weak self] screen in self?.wake(screen, reason: "input") }
        application.activityObserver = { [weak self] screen in self?.activity(on: screen) }
        let center = application.notificationCenter
        observations.append(
            center.addObserver(forName: Screen.didConnectNotification) { [weak self] note in
                guard let screen = note.object as? Screen else { return }
                self?.restartIdleTimer(screen)
            })
        observations.append(
            center.addObserver(forName: Screen.didDisconnectNotification) { [weak self] note in
                guard let self, let screen = note.object as? Screen else { return }
                self.timers.removeValue(forKey: ObjectIdentifier(screen))?.cancel()
                self.reasons[ObjectIdentifier(screen)] = nil
            })
        for screen in application.connectedScreens { restartIdleTimer(screen) }
    }

    func stop() {
        for timer in timers.values { timer.cancel() }
        timers.removeAll()
        observations.removeAll()
        application.wakeHandler = nil
        application.activityObserver = nil
    }

    /// Input happened on `screen` (nil: on every screen, as a keyboard's keys, which map to none).
    private func activity(on screen: Screen?) {
        if let screen {
            restartIdleTimer(screen)
        } else {
            for screen in application.connectedScreens { restartIdleTimer(screen) }
        }
    }

    private func restartIdleTimer(_ screen: Screen) {
        let id = ObjectIdentifier(screen)
        timers.removeValue(forKey: id)?.cancel()
        guard idleTimeout > 0, screen.isConnected, screen.powerState == .on else { return }
        let clock = application.clock
        timers[id] = clock.schedule(at: clock.now + idleTimeout) { [weak self, weak screen] in
            guard let self, let screen else { return }
            self.timers[id] = nil
            self.turn(screen, .off, reason: "idle for \(formatted(self.idleTimeout)) s")
        }
    }

    /// A touch or key reached `screen` while it was off.
    func wake(_ screen: Screen, reason: String) {
        guard screen.powerState == .off else { return }
        turn(screen, .on, reason: reason)
    }

    /// Turns `screen` on or off for `reason` (the control socket's `power` command comes here too).
    @discardableResult
    func turn(_ screen: Screen, _ state: Screen.PowerState, reason: String) -> ScreenError? {
        do {
            try screen.setPower(state, reason: reason)
        } catch {
            log.error("\(error)")
            return error
        }
        reasons[ObjectIdentifier(screen)] = state == .off ? reason : nil
        log.notice("\(screen.name) \(state.rawValue): \(reason)")
        if state == .on { restartIdleTimer(screen) } else { timers.removeValue(forKey: ObjectIdentifier(screen))?.cancel() }
        return nil
    }
}

/// `300` or `2.5`: seconds as the log writes them.
private func formatted(_ seconds: TimeInterval) -> String {
    seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
}
