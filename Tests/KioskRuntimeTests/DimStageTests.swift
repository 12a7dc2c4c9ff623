import KioskKit
import KioskTesting
import Testing

@testable import KioskRuntime

/// The dim stage before idle blanking, on a manual clock: a screen with a backlight dims at `dim-after`,
/// input restores its level and is delivered as usual (a dimmed screen is on), `idle-timeout` then turns
/// it off, and waking it restores the level; screens without a backlight only turn off.
@MainActor
struct DimStageTests {
    @MainActor
    struct Bed {
        let application: Application
        let clock = ManualClock(now: 100)
        let backend = InMemoryDisplayBackend()
        let panel: Screen
        let monitor: Screen

        init() {
            application = Application.reset()
            application.clock = clock
            backend.backlights = ["DSI-1"]
            panel = backend.connect("DSI-1", modes: [Screen.Mode(width: 800, height: 480, refreshRate: 60)])
            monitor = backend.connect("HDMI-A-1", modes: [Screen.Mode(width: 1280, height: 720, refreshRate: 60)])
        }

        func tap(on screen: Screen, at time: TimeInterval) {
            PowerManagerTests.tap(application, on: screen, at: time, clock: clock)
        }

        /// The power log since `count` entries.
        func log(after count: Int) -> [String] { Array(backend.powerLog.dropFirst(count)) }
    }

    @Test func dimsThenTurnsOffAndInputOrWakingRestoresTheLevel() throws {
        let bed = Bed()
        bed.panel.brightness = 0.8
        let power = PowerManager(application: bed.application, idleTimeout: 30, dimAfter: 10, dimBrightness: 0.2)
        defer { power.stop() }
        let window = Window(screen: bed.panel)
        window.makeKeyAndVisible()
        var touches = 0
        window.addGestureRecognizer(TapGestureRecognizer { _ in touches += 1 })
        var levels: [String] = []
        let observation = bed.application.notificationCenter.addObserver(forName: Screen.brightnessDidChangeNotification) { note in
            guard let screen = note.object as? Screen else { return }
            levels.append("\(screen.name) \(screen.brightness)")
        }
        defer { _ = observation }
        // Still one timer per screen: the panel's runs to its dim moment, the monitor's to its off.
        #expect(bed.clock.pendingTimers.count == 2)
        var seen = bed.backend.powerLog.count
        bed.clock.advance(to: 110.1)
        #expect(bed.panel.powerState == .on && bed.panel.brightness == 0.2 && power.dimmed[ObjectIdentifier(bed.panel)] == 0.8)
        #expect(bed.log(after: seen) == ["DSI-1 brightness 0.2"])
        #expect(levels == ["DSI-1 0.2"])
        // A dimmed screen is on: the tap that undims it is delivered.
        seen = bed.backend.powerLog.count
        bed.tap(on: bed.panel, at: 115)
        #expect(touches == 1)
        #expect(bed.panel.brightness == 0.8 && power.dimmed.isEmpty)
        #expect(bed.log(after: seen) == ["DSI-1 brightness 0.8"])
        // Dimmed again 10 s after the tap.
        bed.clock.advance(to: 125.1)
        #expect(bed.panel.brightness == 0.2)
        // The monitor, without a backlight, never dimmed: it goes off at its idle time.
        bed.clock.advance(to: 130.1)
        #expect(bed.monitor.powerState == .off && bed.monitor.brightness == 1)
        // The panel goes off 30 s after the tap.
        seen = bed.backend.powerLog.count
        bed.clock.advance(to: 145.1)
        #expect(bed.panel.powerState == .off && bed.log(after: seen) == ["DSI-1 off"])
        #expect(power.reasons[ObjectIdentifier(bed.panel)] == "idle for 30 s")
        // Nothing ticks while both are off.
        #expect(bed.clock.pendingTimers.isEmpty)
        // The waking tap is swallowed; the level comes back first, then the display.
        seen = bed.backend.powerLog.count
        bed.tap(on: bed.panel, at: 200)
        #expect(touches == 1 && bed.panel.powerState == .on && bed.panel.brightness == 0.8)
        #expect(bed.log(after: seen) == ["DSI-1 brightness 0.8", "DSI-1 on"])
        bed.tap(on: bed.panel, at: 201)
        #expect(touches == 2)
        #expect(levels == ["DSI-1 0.2", "DSI-1 0.8", "DSI-1 0.2", "DSI-1 0.8"])
    }

    @Test func aLevelSetWhileDimmedStaysAndADimScreenStaysAsItIs() throws {
        let bed = Bed()
        let power = PowerManager(application: bed.application, idleTimeout: 0, dimAfter: 10, dimBrightness: 0.2)
        defer { power.stop() }
        bed.clock.advance(to: 110.1)
        #expect(bed.panel.brightness == 0.2)
        // Dim only (no idle-timeout): nothing more is scheduled, and the monitor has no timer at all.
        #expect(bed.clock.pendingTimers.isEmpty)
        // The app (or the control socket) sets a level while dimmed: that is the level from then on.
        bed.panel.brightness = 0.5
        #expect(power.dimmed.isEmpty)
        bed.tap(on: bed.panel, at: 111)
        #expect(bed.panel.brightness == 0.5)
        // A screen already dimmer than the dim level is left as it is, and input does not brighten it.
        bed.panel.brightness = 0.1
        let seen = bed.backend.powerLog.count
        bed.clock.advance(to: 121.1)
        bed.tap(on: bed.panel, at: 122)
        #expect(bed.panel.brightness == 0.1 && bed.log(after: seen).isEmpty)
    }

    @Test func aKeyUndimsEveryScreen() throws {
        let bed = Bed()
        bed.backend.backlights = ["DSI-1", "HDMI-A-1"]
        let power = PowerManager(application: bed.application, idleTimeout: 60, dimAfter: 5, dimBrightness: 0)
        defer { power.stop() }
        bed.clock.advance(to: 105.1)
        #expect(bed.panel.brightness == 0 && bed.monitor.brightness == 0)
        bed.application.sendEvent(Event(presses: [Press(phase: .began, keysym: 0x61, text: "a", timestamp: 106)], timestamp: 106))
        #expect(bed.panel.brightness == 1 && bed.monitor.brightness == 1)
        // A dim stage at or past the idle timeout never comes (the configuration refuses it; here it is skipped).
        power.dimAfter = 60
        bed.clock.advance(to: 166.1)
        #expect(bed.panel.powerState == .off && bed.panel.brightness == 1)
    }
}
