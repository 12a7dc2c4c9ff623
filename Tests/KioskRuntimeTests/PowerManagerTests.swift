import KioskKit
import Testing

@testable import KioskRuntime

/// Idle blanking on a manual clock: a screen with no input for `idle-timeout` goes off, input on it (or a
/// key) moves the moment, the touch on an off screen wakes it without reaching a window, and nothing ticks
/// in between.
@MainActor
struct PowerManagerTests {
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
        func tap(on screen: Screen, at time: TimeInterval) {
            clock.advance(to: time)
            let touch = Touch(screen: screen, location: Point(x: 10, y: 10), timestamp: time)
            application.sendEvent(Event(touches: [touch], timestamp: time))
            touch.update(phase: .ended, location: Point(x: 10, y: 10), timestamp: time + 0.05)
            application.sendEvent(Event(touches: [touch], timestamp: time + 0.05))
        }
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
}
