import KioskConfig
import KioskKit
import KioskTesting
import Testing

@testable import KioskRuntime

/// Idle blanking on a manual clock: a screen with no input for `idle-timeout` goes off, input on it (or a
/// key) moves the moment, the touch on an off screen wakes it without reaching a window, and nothing ticks
/// in between.
@MainActor
struct PowerManagerTests {
    /// A 50 ms tap at (10, 10) on `screen`, the clock first advanced to `time`.
    static func tap(_ application: Application, on screen: Screen, at time: TimeInterval, clock: ManualClock) {
        clock.advance(to: time)
        let touch = Touch(screen: screen, location: Point(x: 10, y: 10), timestamp: time)
        application.sendEvent(Event(touches: [touch], timestamp: time))
        touch.update(phase: .ended, location: Point(x: 10, y: 10), timestamp: time + 0.05)
        application.sendEvent(Event(touches: [touch], timestamp: time + 0.05))
    }

    @Test func idleScreensGoOffAndInputWakesThem() throws {
        let application = Application.reset()
        let clock = ManualClock(now: 100)
        application.clock = clock
        let backend = InMemoryDisplayBackend()
        let left = backend.connect("DSI-1", modes: [Screen.Mode(width: 800, height: 480, refreshRate: 60)])
        let right = backend.connect("HDMI-A-1", modes: [Screen.Mode(width: 1280, height: 720, refreshRate: 60)])
        let power = PowerManager(application: application, idleTimeout: 30)
        defer { power.stop() }
        let window = Window(screen: left)
        window.makeKeyAndVisible()
        var touches = 0
        window.addGestureRecognizer(TapGestureRecognizer { _ in touches += 1 })
        func tap(on screen: Screen, at time: TimeInterval) { Self.tap(application, on: screen, at: time, clock: clock) }
        // One timer per screen, nothing more.
        #expect(clock.pendingTimers.count == 2)
        tap(on: left, at: 120)
        #expect(touches == 1)
        clock.advance(to: 130.5)
        #expect(left.powerState == .on && right.powerState == .off)
        #expect(power.reasons[ObjectIdentifier(right)] == "idle for 30 s")
        clock.advance(to: 150.1)
        #expect(left.powerState == .off)
        #expect(backend.powerLog == ["HDMI-A-1 off", "DSI-1 off"])
        // No timer while both are off: an idle kiosk does not wake.
        #expect(clock.pendingTimers.isEmpty)
        // The waking tap reaches no window; the next one does.
        tap(on: left, at: 200)
        #expect(left.powerState == .on && touches == 1)
        tap(on: left, at: 201)
        #expect(touches == 2)
        // A key counts as input on every screen that is on; it does not wake the screens that are off.
        clock.advance(to: 220)
        application.sendEvent(Event(presses: [Press(phase: .began, keysym: 0x61, text: "a", timestamp: 220)], timestamp: 220))
        clock.advance(to: 245)
        #expect(left.powerState == .on && right.powerState == .off)
        clock.advance(to: 250.1)
        #expect(left.powerState == .off)
        // 0 turns idle blanking off.
        tap(on: right, at: 300)
        power.idleTimeout = 0
        clock.advance(to: 10_000)
        #expect(right.powerState == .on && clock.pendingTimers.isEmpty)
    }

    /// `[screens.NAME] idle-timeout`: a screen's own timeout wins over the global one (0: never on that
    /// screen), input on one screen does not keep the other on, and changing one screen's timeout (a
    /// reload) restarts that screen's timer only.
    @Test func aScreensOwnIdleTimeoutWins() throws {
        let application = Application.reset()
        let clock = ManualClock(now: 100)
        application.clock = clock
        let backend = InMemoryDisplayBackend()
        let panel = backend.connect("DSI-1", modes: [Screen.Mode(width: 800, height: 480, refreshRate: 60)])
        let tv = backend.connect("HDMI-A-1", modes: [Screen.Mode(width: 1280, height: 720, refreshRate: 60)])
        let lobby = backend.connect("HDMI-A-2", modes: [Screen.Mode(width: 1280, height: 720, refreshRate: 60)])
        let power = PowerManager(application: application, idleTimeout: 60)
        defer { power.stop() }
        let own: [String: TimeInterval] = ["DSI-1": 10, "HDMI-A-2": 0]
        power.screenIdleTimeout = { own[$0.name] }
        #expect(power.idleTimeout(of: panel) == 10 && power.idleTimeout(of: tv) == 60 && power.idleTimeout(of: lobby) == 0)
        // HDMI-A-2 never blanks: no timer for it.
        #expect(clock.pendingTimers.count == 2)
        Self.tap(application, on: tv, at: 105, clock: clock)
        clock.advance(to: 110.1)
        #expect(panel.powerState == .off && tv.powerState == .on && lobby.powerState == .on)
        #expect(power.reasons[ObjectIdentifier(panel)] == "idle for 10 s")
        // A reload that changes the TV's timeout only: its timer starts again from now, the lobby's stays unset.
        clock.advance(to: 150)
        let reloaded = own.merging(["HDMI-A-1": 20]) { $1 }
        power.screenIdleTimeout = { reloaded[$0.name] }
        clock.advance(to: 165.1)
        #expect(tv.powerState == .on)
        clock.advance(to: 170.1)
        #expect(tv.powerState == .off && power.reasons[ObjectIdentifier(tv)] == "idle for 20 s")
        clock.advance(to: 10_000)
        #expect(lobby.powerState == .on && clock.pendingTimers.isEmpty)
        #expect(backend.powerLog == ["DSI-1 off", "HDMI-A-1 off"])
    }
}

/// Schedules on a manual clock and a made-up local clock: day 0 is a Monday at 00:00 local time, and a
/// daylight-saving change can be put anywhere.
@MainActor
struct PowerScheduleRuntimeTests {
    @MainActor
    final class Clocks {
        let monotonic = ManualClock(now: 1000)
        /// Wall-clock seconds at the monotonic clock's 1000.
        var wallAtStart: Double
        /// Local time is wall time, an hour more from `springForward` on, and an hour less again from
        /// `fallBack` on.
        var springForward = Double.infinity
        var fallBack = Double.infinity

        init(startingAt local: Double) { wallAtStart = local }

        var wall: Double { wallAtStart + monotonic.now - 1000 }

        func local(_ wall: Double) -> LocalTime {
            let shifted = wall + (wall >= springForward ? 3600 : 0) - (wall >= fallBack ? 3600 : 0)
            let day = Int((shifted / 86_400).rounded(.down))
            let minute = Int((shifted - Double(day) * 86_400) / 60)
            return LocalTime(weekday: PowerSchedule.Weekday(rawValue: (day % 7 + 1) % 7)!, minute: minute)
        }
    }

    private func bed(
        _ clocks: Clocks, schedules: [PowerSchedule], wake: Bool = true, idle: TimeInterval = 0, dimAfter: TimeInterval = 0
    ) -> (Application, Screen, PowerManager, InMemoryDisplayBackend) {
        let application = Application.reset()
        application.clock = clocks.monotonic
        let backend = InMemoryDisplayBackend()
        if dimAfter > 0 { backend.backlights = ["HDMI-A-1"] }
        let screen = backend.connect("HDMI-A-1", modes: [Screen.Mode(width: 1920, height: 1080, refreshRate: 60)])
        let power = PowerManager(
            application: application, idleTimeout: idle, dimAfter: dimAfter,
            power: PowerConfiguration(schedules: schedules, wakeDuringSchedule: wake), wallClock: { clocks.wall }, localTime: clocks.local)
        return (application, screen, power, backend)
    }

    private func tap(_ application: Application, _ screen: Screen, at time: TimeInterval) {
        let touch = Touch(screen: screen, location: Point(x: 5, y: 5), timestamp: time)
        application.sendEvent(Event(touches: [touch], timestamp: time))
    }

    @Test func offOvernightWokenByATouchBackOffWhenIdleOnInTheMorning() {
        // Monday 21:00.
        let clocks = Clocks(startingAt: 21 * 3600)
        let weeknights = PowerSchedule(days: [.monday, .tuesday, .wednesday, .thursday, .friday], off: 22 * 60, on: 7 * 60)
        let (application, screen, power, backend) = bed(clocks, schedules: [weeknights])
        defer { power.stop() }
        #expect(screen.powerState == .on && clocks.monotonic.pendingTimers.count == 1)
        clocks.monotonic.advance(by: 3599)
        #expect(screen.powerState == .on)
        clocks.monotonic.advance(by: 1)
        #expect(screen.powerState == .off && power.reasons[ObjectIdentifier(screen)] == "schedule")
        // 23:00: a touch wakes it; a minute without input and it is off again.
        clocks.monotonic.advance(by: 3600)
        tap(application, screen, at: clocks.monotonic.now)
        #expect(screen.powerState == .on)
        clocks.monotonic.advance(by: 59)
        #expect(screen.powerState == .on)
        clocks.monotonic.advance(by: 1)
        #expect(screen.powerState == .off && power.reasons[ObjectIdentifier(screen)] == "schedule (idle again after waking)")
        // Tuesday 07:00: on again.
        clocks.monotonic.advance(to: 1000 + 10 * 3600 - 1)
        #expect(screen.powerState == .off)
        clocks.monotonic.advance(by: 1)
        #expect(screen.powerState == .on)
        #expect(backend.powerLog == ["HDMI-A-1 off", "HDMI-A-1 on", "HDMI-A-1 off", "HDMI-A-1 on"])
        // Nothing but the next change (Tuesday 22:00) is waited for.
        #expect(clocks.monotonic.pendingTimers.map(\.deadline) == [1000 + 25 * 3600])
    }

    /// A board without a real-time clock boots believing it is 23:00 and turns its screen off; NTP then sets
    /// the clock to 12:00 (`WallClockWatch` tells): the screen comes on at once, not at the old 07:00.
    @Test func aWallClockSetDuringTheOffPeriodIsFollowedAtOnce() {
        let clocks = Clocks(startingAt: 23 * 3600)
        let nightly = PowerSchedule(days: Set(PowerSchedule.Weekday.allCases), off: 22 * 60, on: 7 * 60)
        let (_, screen, power, backend) = bed(clocks, schedules: [nightly])
        defer { power.stop() }
        #expect(screen.powerState == .off)
        clocks.monotonic.advance(by: 120)
        clocks.wallAtStart += 13 * 3600
        power.wallClockWasSet()
        #expect(screen.powerState == .on && backend.powerLog == ["HDMI-A-1 off", "HDMI-A-1 on"])
        // The next change is 22:00 by the new time, ten hours on, and the old timer is gone.
        #expect(clocks.monotonic.pendingTimers.map(\.deadline) == [clocks.monotonic.now + 10 * 3600 - 120])
        // Set back into the off period: off again.
        clocks.wallAtStart -= 13 * 3600
        power.wallClockWasSet()
        #expect(screen.powerState == .off && power.reasons[ObjectIdentifier(screen)] == "schedule")
    }

    /// With a dim stage and no idle timeout, a screen woken during a scheduled off dims, then goes off again
    /// a minute after the touch (it stayed on, dimmed, until the morning).
    @Test func aScreenWokenDuringTheScheduleDimsThenGoesOffAgain() {
        let clocks = Clocks(startingAt: 23 * 3600)
        let nightly = PowerSchedule(days: Set(PowerSchedule.Weekday.allCases), off: 22 * 60, on: 7 * 60)
        let (application, screen, power, backend) = bed(clocks, schedules: [nightly], dimAfter: 10)
        defer {
            power.stop()
            withExtendedLifetime(backend) {}
        }
        #expect(screen.powerState == .off)
        tap(application, screen, at: clocks.monotonic.now)
        #expect(screen.powerState == .on)
        clocks.monotonic.advance(by: 10.5)
        #expect(screen.powerState == .on && screen.brightness == 0.2)
        clocks.monotonic.advance(by: 50)
        #expect(screen.powerState == .off && power.reasons[ObjectIdentifier(screen)] == "schedule (idle again after waking)")
    }

    /// A scheduled change the display refuses (a paused session) is tried again every 30 s while the
    /// schedule wants it; a refused idle off likewise, until input comes.
    @Test func aRefusedChangeIsTriedAgain() {
        struct Refused: Error {}
        let clocks = Clocks(startingAt: 22 * 3600 - 60)
        let nightly = PowerSchedule(days: Set(PowerSchedule.Weekday.allCases), off: 22 * 60, on: 7 * 60)
        let (application, screen, power, backend) = bed(clocks, schedules: [nightly], idle: 300)
        defer {
            power.stop()
            withExtendedLifetime(backend) {}
        }
        backend.failure = Refused()
        clocks.monotonic.advance(by: 60)
        #expect(screen.powerState == .on)
        clocks.monotonic.advance(by: 30)
        #expect(screen.powerState == .on)  // refused again
        backend.failure = nil
        clocks.monotonic.advance(by: 30)
        #expect(screen.powerState == .off && power.reasons[ObjectIdentifier(screen)] == "schedule")
        // Idle: refused, then input before the retry: the retry is gone, the idle time counts again.
        clocks.monotonic.advance(to: 1000 + 9 * 3600 + 60)  // 07:00: on by the schedule
        #expect(screen.powerState == .on)
        backend.failure = Refused()
        clocks.monotonic.advance(by: 300)  // 07:05: idle, refused
        #expect(screen.powerState == .on)
        tap(application, screen, at: clocks.monotonic.now)
        backend.failure = nil
        clocks.monotonic.advance(by: 299)
        #expect(screen.powerState == .on)
        clocks.monotonic.advance(by: 1)
        #expect(screen.powerState == .off && power.reasons[ObjectIdentifier(screen)] == "idle for 300 s")
    }

    @Test func withoutWakeDuringScheduleATouchIsSwallowedAndTheScreenStaysOff() {
        let clocks = Clocks(startingAt: 22 * 3600 + 60)
        let nightly = PowerSchedule(days: Set(PowerSchedule.Weekday.allCases), off: 22 * 60, on: 6 * 60)
        let (application, screen, power, _) = bed(clocks, schedules: [nightly], wake: false)
        defer { power.stop() }
        // Started inside the off period: off at once.
        #expect(screen.powerState == .off)
        let window = Window(screen: screen)
        window.makeKeyAndVisible()
        var taps = 0
        window.addGestureRecognizer(TapGestureRecognizer { _ in taps += 1 })
        tap(application, screen, at: clocks.monotonic.now)
        #expect(screen.powerState == .off && taps == 0)
    }

    @Test func aSpringForwardHourThatHoldsTheOffTimeTurnsOffWhenTheClockShowsLater() {
        // Sunday 01:00 local, the clocks go from 02:00 to 03:00 at wall 02:00.
        let clocks = Clocks(startingAt: 6 * 86_400 + 3600)
        clocks.springForward = 6 * 86_400 + 2 * 3600
        let schedule = PowerSchedule(days: [.sunday], off: 2 * 60 + 30, on: 9 * 60)
        let (_, screen, power, _) = bed(clocks, schedules: [schedule])
        defer { power.stop() }
        #expect(power.nextChange(after: clocks.wall) == clocks.springForward)
        clocks.monotonic.advance(by: 3600)
        #expect(screen.powerState == .off)
        // It is 03:00 on the local clock now; its 09:00 is 6 hours on.
        #expect(power.nextChange(after: clocks.wall) == clocks.springForward + 6 * 3600)
    }

    /// A TV that drops hotplug detect in standby: its screen disconnects during the scheduled off. The
    /// schedule's `on` still goes out, to `wakeDisconnected` (HDMI-CEC), even with no screen connected; the
    /// screen that comes back is on and stays so.
    @Test func aScreenThatDisconnectsDuringTheScheduledOffIsWokenAtTheSchedulesOn() {
        let clocks = Clocks(startingAt: 23 * 3600)
        let nightly = PowerSchedule(days: Set(PowerSchedule.Weekday.allCases), off: 22 * 60, on: 7 * 60)
        let (_, screen, power, backend) = bed(clocks, schedules: [nightly])
        defer { power.stop() }
        var woken: [String] = []
        power.wakeDisconnected = { name, reason in
            woken.append("\(name) \(reason)")
            return true
        }
        #expect(screen.powerState == .off)
        clocks.monotonic.advance(by: 600)
        backend.disconnect("HDMI-A-1")
        #expect(power.disconnectedInScheduledOff == ["HDMI-A-1"])
        // 07:00, 7h50 on: the only timer left is the schedule's.
        #expect(clocks.monotonic.pendingTimers.map(\.deadline) == [1000 + 8 * 3600])
        clocks.monotonic.advance(to: 1000 + 8 * 3600 - 1)
        #expect(woken.isEmpty)
        clocks.monotonic.advance(by: 1)
        #expect(woken == ["HDMI-A-1 schedule"] && power.disconnectedInScheduledOff.isEmpty)
        // The TV raises hotplug detect: the screen is back, on, and the schedule leaves it so.
        backend.connect("HDMI-A-1", modes: [Screen.Mode(width: 1920, height: 1080, refreshRate: 60)])
        #expect(screen.powerState == .on && backend.powerLog == ["HDMI-A-1 off"])
        #expect(woken.count == 1)
    }

    /// A screen that goes away while off for another reason is not woken by the schedule; one back during
    /// the off period is turned off again.
    @Test func onlyScreensOffByTheScheduleAreWokenWhileDisconnected() {
        let clocks = Clocks(startingAt: 21 * 3600)
        let nightly = PowerSchedule(days: Set(PowerSchedule.Weekday.allCases), off: 22 * 60, on: 7 * 60)
        let (_, screen, power, backend) = bed(clocks, schedules: [nightly])
        defer { power.stop() }
        var woken: [String] = []
        power.wakeDisconnected = { name, _ in
            woken.append(name)
            return true
        }
        power.turn(screen, .off, reason: "control")
        backend.disconnect("HDMI-A-1")
        #expect(power.disconnectedInScheduledOff.isEmpty)
        backend.connect("HDMI-A-1", modes: [Screen.Mode(width: 1920, height: 1080, refreshRate: 60)])
        clocks.monotonic.advance(to: 1000 + 3600)
        #expect(screen.powerState == .off && power.reasons[ObjectIdentifier(screen)] == "schedule")
        backend.disconnect("HDMI-A-1")
        // Back during the off period: off again, and no longer waited for while disconnected.
        backend.connect("HDMI-A-1", modes: [Screen.Mode(width: 1920, height: 1080, refreshRate: 60)])
        #expect(screen.powerState == .off && power.disconnectedInScheduledOff.isEmpty)
        clocks.monotonic.advance(to: 1000 + 10 * 3600)
        #expect(screen.powerState == .on && woken.isEmpty)
    }

    /// `kiosk power on` for a screen away with its TV in standby wakes the TV; back during the scheduled
    /// off, the screen stays on until idle, as one woken by a touch does. Nothing to wake: false.
    @Test func powerOnForADisconnectedScreenWakesItsDisplay() {
        let clocks = Clocks(startingAt: 23 * 3600)
        let nightly = PowerSchedule(days: Set(PowerSchedule.Weekday.allCases), off: 22 * 60, on: 7 * 60)
        let (_, screen, power, backend) = bed(clocks, schedules: [nightly])
        defer { power.stop() }
        #expect(!power.wake(disconnected: "HDMI-A-1", reason: "control"))
        var canWake = false
        power.wakeDisconnected = { _, _ in canWake }
        backend.disconnect("HDMI-A-1")
        #expect(!power.wake(disconnected: "HDMI-A-1", reason: "control"))
        canWake = true
        #expect(power.wake(disconnected: "HDMI-A-1", reason: "control"))
        #expect(power.disconnectedInScheduledOff.isEmpty)
        backend.connect("HDMI-A-1", modes: [Screen.Mode(width: 1920, height: 1080, refreshRate: 60)])
        #expect(screen.powerState == .on)
        clocks.monotonic.advance(by: PowerManager.scheduledWakeTimeout)
        #expect(screen.powerState == .off && power.reasons[ObjectIdentifier(screen)] == "schedule (idle again after waking)")
    }

    /// The autumn's change repeats the hour from 02:00 (the clock goes from 02:59 back to 02:00). An `off`
    /// at 02:30 turns the screen off once and the repeated 02:00-02:30 leaves it off (it lit it for half an
    /// hour); an `on` at 02:30 turns it on once and the repeated half hour leaves it on.
    @Test func anHourTheClockRepeatsChangesNothingAgain() {
        for (off, on, start) in [(150, 7 * 60, Screen.PowerState.on), (22 * 60, 150, .off)] {
            // Monday 02:00 summer time (wall 3600); the clock goes back at 03:00 summer time (wall 7200).
            let clocks = Clocks(startingAt: 3600)
            clocks.springForward = -.infinity
            clocks.fallBack = 7200
            let (_, screen, power, backend) = bed(
                clocks, schedules: [PowerSchedule(days: Set(PowerSchedule.Weekday.allCases), off: off, on: on)])
            defer { power.stop() }
            #expect(screen.powerState == start)
            clocks.monotonic.advance(by: 1800)
            #expect(screen.powerState != start, "02:30")
            let changed = backend.powerLog
            // 02:00 again, and the repeated half hour: no change, and none waited for before 07:00 or 22:00.
            clocks.monotonic.advance(by: 1800)
            #expect(power.scheduleTime(at: clocks.wall) == LocalTime(weekday: .monday, minute: 179))
            power.wallClockWasSet()
            clocks.monotonic.advance(by: 1800)
            #expect(backend.powerLog == changed)
            let next: Double = start == .on ? 7 * 3600 : 22 * 3600
            #expect(power.nextChange(after: clocks.wall) == next)
            clocks.monotonic.advance(by: 1800)
            #expect(power.scheduleTime(at: clocks.wall) == LocalTime(weekday: .monday, minute: 180))
            #expect(backend.powerLog == changed)
        }
    }

    /// The latest local time: a time behind the latest (within half a week, across the week's end) is not taken.
    @Test(arguments: [
        (LocalTime(weekday: .monday, minute: 120), LocalTime(weekday: .monday, minute: 179), LocalTime(weekday: .monday, minute: 179)),
        (LocalTime(weekday: .monday, minute: 180), LocalTime(weekday: .monday, minute: 179), LocalTime(weekday: .monday, minute: 180)),
        (LocalTime(weekday: .monday, minute: 179), LocalTime(weekday: .monday, minute: 179), LocalTime(weekday: .monday, minute: 179)),
        (LocalTime(weekday: .sunday, minute: 0), LocalTime(weekday: .saturday, minute: 1439), LocalTime(weekday: .sunday, minute: 0)),
        (LocalTime(weekday: .saturday, minute: 1400), LocalTime(weekday: .sunday, minute: 10), LocalTime(weekday: .sunday, minute: 10)),
        (LocalTime(weekday: .thursday, minute: 0), LocalTime(weekday: .monday, minute: 0), LocalTime(weekday: .thursday, minute: 0)),
    ])
    func laterLocalTime(time: LocalTime, latest: LocalTime, expected: LocalTime) {
        #expect(PowerManager.later(time, orStill: latest) == expected)
    }
}
