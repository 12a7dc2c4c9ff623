import Glibc
import KioskConfig
import KioskKit
import Logging

/// Display power of the running kiosk: idle blanking (`idle-timeout`, global or a screen's own: a screen
/// with no input on it for that long is turned off), schedules (`[[power.schedule]]`: off and on again by the local clock) and waking (a
/// touch or key on a screen that is off turns it on, unless the schedule turned it off and
/// `wake-during-schedule` is false; the waking event itself reaches no window, `Application.route`
/// swallows it). One idle timer per screen, set to the moment its idle time runs out and moved by input,
/// and one schedule timer at the next scheduled change: an idle kiosk wakes to blank, then not until the
/// schedule's next change.
///
/// A dim stage may come first (`dim-after`, `dim-brightness`), on screens with a backlight only: the timer
/// then first runs to the dim moment, dims the screen (remembering its level) and is set again for the
/// rest of the idle time. A dimmed screen is still on: input restores its level and is delivered as usual.
/// Waking a screen that went off dimmed restores the level too.
@MainActor
final class PowerManager {
    unowned let application: Application
    private let log = Logger(label: "kiosk.power")
    /// Seconds without input before a screen turns off; 0 never. A screen's own (`screenIdleTimeout`) wins.
    var idleTimeout: TimeInterval {
        didSet { if idleTimeout != oldValue { restartChangedIdleTimers() } }
    }
    /// A screen's own idle timeout (`[screens.NAME] idle-timeout`; 0 never), nil: `idleTimeout`. The runtime
    /// reads it from the settings the display backend resolved for the screen; a reload that resolved them
    /// again calls `screenSettingsChanged()`.
    var screenIdleTimeout: @MainActor (Screen) -> TimeInterval? = { _ in nil } {
        didSet { restartChangedIdleTimers() }
    }
    /// The idle timeout each screen's timer was last set with, so a reload restarts only the timers of the
    /// screens whose timeout it changed (the others keep counting from their last input).
    private var timeoutsInUse: [ObjectIdentifier: TimeInterval] = [:]
    /// The schedules and whether input wakes a screen they turned off.
    var power: PowerConfiguration {
        didSet { if power.ignoringWhereWritten != oldValue.ignoringWhereWritten { followSchedule() } }
    }
    /// Why each screen that is off went off (for the log and the trace, and to know what a touch may undo).
    private(set) var reasons: [ObjectIdentifier: String] = [:]
    private var timers: [ObjectIdentifier: FrameTimer] = [:]
    private var scheduleTimer: FrameTimer?
    /// What the schedule said for each screen at its last look: a change is acted on, not a state (a screen
    /// woken during a scheduled off stays on until it is idle).
    private var scheduled: [ObjectIdentifier: Bool] = [:]
    /// Screens (by name) that disconnected while the schedule had them off. Many TVs drop hotplug detect
    /// in standby and come back only once woken, so the schedule's `on` for them still goes out, to
    /// `wakeDisconnected` (HDMI-CEC's Image View On).
    private(set) var disconnectedInScheduledOff: Set<String> = []
    /// Wakes the display of a disconnected screen, by name, for a reason; false when nothing can
    /// (`CECController.wakeDisconnected`). Called when the schedule turns a screen in
    /// `disconnectedInScheduledOff` on, and by `wake(disconnected:reason:)`.
    var wakeDisconnected: ((_ screen: String, _ reason: String) -> Bool)?
    /// Disconnected screens whose display `wake(disconnected:reason:)` woke: when one connects again during
    /// a scheduled off, it counts as woken during it rather than being turned off again.
    private var wokenWhileDisconnected: Set<String> = []
    private var observations: [NotificationObservation] = []
    /// Input activity (`InstrumentationEvent.activity`), which restarts the idle timers.
    private var activityToken: InstrumentationToken?
    /// The wall clock (seconds since 1970, CLOCK_REALTIME) and local time at a wall-clock moment (the
    /// system's time zone, `localtime_r`); tests give their own.
    private let wallClock: () -> Double
    private let localTime: (Double) -> LocalTime

    /// A screen woken during a scheduled off goes off again after this long without input when there is no
    /// idle timeout (one would keep it on all night).
    static let scheduledWakeTimeout: TimeInterval = 60
    /// Seconds without input before a screen with a backlight dims; 0 never. Less than `idleTimeout` when
    /// both are set (the configuration says so), else the screen just turns off.
    var dimAfter: TimeInterval {
        didSet { if dimAfter != oldValue { for screen in application.connectedScreens { restartIdleTimer(screen) } } }
    }
    /// The brightness a screen dims to.
    var dimBrightness: Double
    /// The level each dimmed screen had before it dimmed.
    private(set) var dimmed: [ObjectIdentifier: Double] = [:]
    /// Set while the dim stage sets a brightness, so its own changes are told from others'.
    private var settingBrightness = false

    init(
        application: Application, idleTimeout: TimeInterval, dimAfter: TimeInterval = 0, dimBrightness: Double = 0.2,
        power: PowerConfiguration = PowerConfiguration(), wallClock: @escaping () -> Double = PowerManager.realtime,
        localTime: @escaping (Double) -> LocalTime = PowerManager.local
    ) {
        self.application = application
        self.idleTimeout = idleTimeout
        self.dimAfter = dimAfter
        self.dimBrightness = dimBrightness
        self.power = power
        self.wallClock = wallClock
        self.localTime = localTime
        application.wakeHandler = { [weak self] screen in self?.wake(screen, reason: "input") }
        activityToken = application.instrumentation.observe { [weak self] event in
            if case .activity(let screen) = event { self?.activity(on: screen) }
        }
        let center = application.notificationCenter
        observations.append(
            center.addObserver(forName: Screen.didConnectNotification) { [weak self] note in
                guard let self, let screen = note.object as? Screen else { return }
                self.disconnectedInScheduledOff.remove(screen.name)
                if self.wokenWhileDisconnected.remove(screen.name) != nil {
                    self.scheduled[ObjectIdentifier(screen)] = self.power.isScheduledOff(
                        screen.name, at: self.scheduleTime(at: self.wallClock()))
                }
                self.restartIdleTimer(screen)
                self.followSchedule()
            })
        observations.append(
            center.addObserver(forName: Screen.didDisconnectNotification) { [weak self] note in
                guard let self, let screen = note.object as? Screen else { return }
                if self.scheduled[ObjectIdentifier(screen)] == true, self.reasons[ObjectIdentifier(screen)] != nil {
                    self.disconnectedInScheduledOff.insert(screen.name)
                }
                self.timers.removeValue(forKey: ObjectIdentifier(screen))?.cancel()
                self.reasons[ObjectIdentifier(screen)] = nil
                self.scheduled[ObjectIdentifier(screen)] = nil
                self.dimmed[ObjectIdentifier(screen)] = nil
                self.timeoutsInUse[ObjectIdentifier(screen)] = nil
            })
        observeBrightness()
        for screen in application.connectedScreens { restartIdleTimer(screen) }
        followSchedule()
    }

    func stop() {
        for timer in timers.values { timer.cancel() }
        timers.removeAll()
        scheduleTimer?.cancel()
        scheduleTimer = nil
        observations.removeAll()
        application.wakeHandler = nil
        activityToken?.cancel()
        activityToken = nil
    }

    // MARK: Idle

    /// Input happened on `screen` (nil: on every screen, as a keyboard's keys, which map to none).
    private func activity(on screen: Screen?) {
        for screen in screen.map({ [$0] }) ?? application.connectedScreens {
            if screen.powerState == .on { undim(screen) }
            restartIdleTimer(screen)
        }
    }

    /// The idle timeout that applies to `screen`: its own, else the global one.
    func idleTimeout(of screen: Screen) -> TimeInterval { screenIdleTimeout(screen) ?? idleTimeout }

    private func restartIdleTimer(_ screen: Screen) {
        let id = ObjectIdentifier(screen)
        timers.removeValue(forKey: id)?.cancel()
        let idleTimeout = idleTimeout(of: screen)
        timeoutsInUse[id] = idleTimeout
        guard screen.isConnected, screen.powerState == .on else { return }
        // Woken during a scheduled off: back off when idle, even without an idle timeout (dimming first).
        let timeout = idleTimeout > 0 ? idleTimeout : (scheduled[id] == true ? Self.scheduledWakeTimeout : 0)
        if dims(screen, before: timeout) {
            scheduleDim(screen, offAfter: timeout)
            return
        }
        guard timeout > 0 else { return }
        scheduleOff(screen, in: timeout)
    }

    /// The screens' settings were resolved again (a reload): the timers of the screens whose own idle
    /// timeout changed start again.
    func screenSettingsChanged() { restartChangedIdleTimers() }

    private func restartChangedIdleTimers() {
        for screen in application.connectedScreens where timeoutsInUse[ObjectIdentifier(screen)] != idleTimeout(of: screen) {
            restartIdleTimer(screen)
        }
    }

    /// The timer that turns `screen` off `seconds` from now (the idle time, or what is left of it after dimming).
    private func scheduleOff(_ screen: Screen, in seconds: TimeInterval) {
        let id = ObjectIdentifier(screen)
        let clock = application.clock
        timers[id] = clock.schedule(at: clock.now + seconds) { [weak self, weak screen] in
            guard let self, let screen else { return }
            self.timers[id] = nil
            let idleTimeout = self.idleTimeout(of: screen)
            let reason =
                self.scheduled[id] == true
                ? "schedule (idle again after waking)" : "idle for \(formatted(idleTimeout > 0 ? idleTimeout : seconds)) s"
            self.turn(screen, .off, reason: reason, retry: true)
        }
    }

    /// A touch or key reached `screen` while it was off.
    func wake(_ screen: Screen, reason: String) {
        guard screen.powerState == .off else { return }
        if scheduled[ObjectIdentifier(screen)] == true, !power.wakeDuringSchedule {
            log.info("\(screen.name) stays off: the schedule turned it off and wake-during-schedule is false")
            return
        }
        turn(screen, .on, reason: reason)
    }

    // MARK: Schedule

    /// Acts on what changed in the schedules' verdict for each screen since the last look, then sets the
    /// timer for the next change.
    private func followSchedule() {
        scheduleTimer?.cancel()
        scheduleTimer = nil
        let wall = wallClock()
        let now = scheduleTime(at: wall)
        for screen in application.connectedScreens {
            let id = ObjectIdentifier(screen)
            let off = power.isScheduledOff(screen.name, at: now)
            let before = scheduled[id]
            scheduled[id] = off
            guard off != before else { continue }
            if off, screen.powerState == .on {
                turn(screen, .off, reason: "schedule", retry: true)
            } else if !off, before == true, screen.powerState == .off {
                turn(screen, .on, reason: "schedule", retry: true)
            }
        }
        for name in disconnectedInScheduledOff.sorted() where !power.isScheduledOff(name, at: now) {
            disconnectedInScheduledOff.remove(name)
            if wakeDisconnected?(name, "schedule") == true {
                log.notice("\(name) on: schedule (disconnected since it went off: its display was woken)")
            } else {
                log.notice("\(name): the schedule turns it on, but it is disconnected and nothing can wake its display")
            }
        }
        guard let next = nextChange(after: wall) else { return }
        let clock = application.clock
        // The monotonic clock runs the timer; a wall clock set meanwhile is told by `wallClockWasSet`.
        scheduleTimer = clock.schedule(at: clock.now + max(next - wall, 0)) { [weak self] in
            self?.scheduleTimer = nil
            self?.followSchedule()
        }
    }

    /// `kiosk power on` for `name`, a disconnected screen: wakes its display if something can (a TV that
    /// dropped hotplug detect in standby, over HDMI-CEC). When it connects again during a scheduled off it
    /// stays on until idle, as a screen woken by input does.
    func wake(disconnected name: String, reason: String) -> Bool {
        guard wakeDisconnected?(name, reason) == true else { return false }
        disconnectedInScheduledOff.remove(name)
        wokenWhileDisconnected.insert(name)
        log.notice("\(name) on: \(reason) (disconnected: its display was woken)")
        return true
    }

    /// The wall clock was set (`WallClockWatch`: NTP's first correction on a board without a real-time
    /// clock, `date`): the schedule is looked at again now, as its timer ran toward a moment the old time gave.
    func wallClockWasSet() {
        guard !power.schedules.isEmpty else { return }
        log.notice("the wall clock was set: the power schedule is looked at again")
        followSchedule()
    }

    /// The first minute boundary within eight days at which a connected screen's scheduled state, or a
    /// disconnected one's that went off by it, differs from now's, in wall-clock seconds. Minute by minute
    /// through the local clock, so daylight-saving changes fall where the clock puts them (a spring-forward
    /// hour that holds an `off` time turns the screens off when the clock shows a later time; an hour the
    /// autumn repeats changes nothing again, see `scheduleTime(at:)`).
    func nextChange(after wall: Double) -> Double? {
        let screens = application.connectedScreens.map(\.name) + disconnectedInScheduledOff.sorted()
        guard !power.schedules.isEmpty, !screens.isEmpty else { return nil }
        var local = scheduleTime(at: wall)
        let states = screens.map { power.isScheduledOff($0, at: local) }
        var minute = (wall / 60).rounded(.down) * 60 + 60
        let limit = wall + 8 * 86_400
        while minute <= limit {
            local = Self.later(localTime(minute), orStill: local)
            if zip(screens, states).contains(where: { power.isScheduledOff($0, at: local) != $1 }) { return minute }
            minute += 60
        }
        return nil
    }

    /// The local time the schedule reads at `wall`: the clock's, except while it shows again times it
    /// already showed in the last hour (the autumn's daylight-saving change): then the latest it showed.
    /// The changes of a repeated hour happened the first time through, so an `off` at 02:30 is not undone
    /// for half an hour when the clock goes from 02:59 back to 02:00, nor an `on` at 02:30 redone.
    func scheduleTime(at wall: Double) -> LocalTime {
        var latest = localTime(wall - 3600)
        var minute = ((wall - 3600) / 60).rounded(.down) * 60 + 60
        while minute < wall {
            latest = Self.later(localTime(minute), orStill: latest)
            minute += 60
        }
        return Self.later(localTime(wall), orStill: latest)
    }

    /// `time`, unless it is behind `latest` (within half a week, across the week's end): then `latest`.
    nonisolated static func later(_ time: LocalTime, orStill latest: LocalTime) -> LocalTime {
        let week = 7 * 1440
        let ahead = ((time.weekday.rawValue - latest.weekday.rawValue) * 1440 + time.minute - latest.minute + week) % week
        return ahead <= week / 2 ? time : latest
    }

    // MARK: Turning

    /// How long a change the schedule or idle wanted and the display refused (a paused session, a busy
    /// driver) waits before it is tried again.
    static let retryDelay: TimeInterval = 30

    /// Turns `screen` on or off for `reason` (the control socket's `power` command comes here too, and is
    /// answered the error). A change of the schedule or idle (`retry`) that fails is tried again after
    /// `retryDelay` while it is still wanted: without, a refused scheduled off left the screen on all night.
    @discardableResult
    func turn(_ screen: Screen, _ state: Screen.PowerState, reason: String, retry: Bool = false) -> ScreenError? {
        // A screen that went off dimmed lights at the level it had before (set first: the panel then comes
        // on at that level rather than dim for a moment).
        if state == .on, screen.powerState == .off { undim(screen) }
        do {
            try screen.setPower(state, reason: reason)
        } catch {
            log.error(
                "\(screen.name) \(state.rawValue) (\(reason)) failed: \(error)\(retry ? "; trying again in \(formatted(Self.retryDelay)) s" : "")"
            )
            if retry { scheduleRetry(screen, state, reason: reason) }
            return error
        }
        reasons[ObjectIdentifier(screen)] = state == .off ? reason : nil
        log.notice("\(screen.name) \(state.rawValue): \(reason)")
        if state == .on { restartIdleTimer(screen) } else { timers.removeValue(forKey: ObjectIdentifier(screen))?.cancel() }
        return nil
    }

    /// Tries `state` again after `retryDelay` in the screen's one timer, if the schedule or idle still
    /// wants it then (input since restarts the idle timer instead; a schedule that changed its mind wins).
    private func scheduleRetry(_ screen: Screen, _ state: Screen.PowerState, reason: String) {
        let id = ObjectIdentifier(screen)
        let clock = application.clock
        timers[id] = clock.schedule(at: clock.now + Self.retryDelay) { [weak self, weak screen] in
            guard let self, let screen, screen.isConnected else { return }
            self.timers[id] = nil
            // The schedule's own change is wanted while the schedule still says so; idle's while nothing
            // changed the screen (input would have replaced this timer).
            let wanted = screen.powerState != state && (reason != "schedule" || self.scheduled[id] == (state == .off))
            if wanted {
                self.turn(screen, state, reason: reason, retry: true)
            } else if screen.powerState == .on {
                self.restartIdleTimer(screen)
            }
        }
    }

    // MARK: Clocks

    /// CLOCK_REALTIME in seconds.
    nonisolated static func realtime() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// The local weekday and minute at `wall` (`localtime_r`: TZ, else /etc/localtime).
    nonisolated static func local(_ wall: Double) -> LocalTime {
        var seconds = time_t(wall.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        return LocalTime(
            weekday: PowerSchedule.Weekday(rawValue: Int(parts.tm_wday)) ?? .sunday, minute: Int(parts.tm_hour) * 60 + Int(parts.tm_min))
    }
}

// MARK: - The dim stage

extension PowerManager {
    /// Whether `screen`'s idle time starts with the dim stage: set, before it turns off after `timeout`
    /// (0: never), with a backlight. A screen whose timeout comes first just turns off.
    private func dims(_ screen: Screen, before timeout: TimeInterval) -> Bool {
        dimAfter > 0 && (timeout == 0 || dimAfter < timeout) && screen.hasBacklight
    }

    /// The timer that dims `screen` at the dim moment, then runs on to turn it off `timeout` after the last
    /// input, if any.
    private func scheduleDim(_ screen: Screen, offAfter timeout: TimeInterval) {
        let id = ObjectIdentifier(screen)
        let clock = application.clock
        timers[id] = clock.schedule(at: clock.now + dimAfter) { [weak self, weak screen] in
            guard let self, let screen else { return }
            self.timers[id] = nil
            self.dim(screen)
            if timeout > 0 { self.scheduleOff(screen, in: timeout - self.dimAfter) }
        }
    }

    /// Dims `screen` to `dimBrightness`, remembering its level; one already that dim is left alone.
    private func dim(_ screen: Screen) {
        let level = screen.brightness
        guard level > dimBrightness, dimmed[ObjectIdentifier(screen)] == nil else { return }
        guard setBrightness(dimBrightness, of: screen) else { return }
        dimmed[ObjectIdentifier(screen)] = level
        log.notice("\(screen.name) dimmed to \(formatted(dimBrightness)): idle for \(formatted(dimAfter)) s")
    }

    /// Restores the level `screen` had before it dimmed.
    private func undim(_ screen: Screen) {
        guard let level = dimmed.removeValue(forKey: ObjectIdentifier(screen)) else { return }
        if setBrightness(level, of: screen) { log.info("\(screen.name) brightness \(level.formatted(places: 3)) again") }
    }

    private func setBrightness(_ value: Double, of screen: Screen) -> Bool {
        settingBrightness = true
        defer { settingBrightness = false }
        do {
            try screen.setBrightness(value)
            return true
        } catch {
            log.error("\(error)")
            return false
        }
    }

    /// A brightness set by anyone else (the app, the control socket) while a screen is dimmed is the level
    /// from then on: input must not put back the one from before.
    private func observeBrightness() {
        observations.append(
            application.notificationCenter.addObserver(forName: Screen.brightnessDidChangeNotification) { [weak self] note in
                guard let self, !self.settingBrightness, let screen = note.object as? Screen else { return }
                self.dimmed[ObjectIdentifier(screen)] = nil
            })
    }
}

/// `300` or `2.5`: seconds as the log writes them.
private func formatted(_ seconds: TimeInterval) -> String {
    seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
}
