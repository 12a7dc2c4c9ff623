import KioskConfig
import KioskKit
import Testing

@testable import KioskBackend

/// The router keeps the screen each device maps to from one mapping decision to the next, instead of asking
/// the display backend at every touch; every decision (a device added, screens changed, a reload) finds it
/// again, and a touch lands where it landed when the lookup ran at each touch.
@MainActor @Suite struct InputRouterScreenTests {
    static func rule(_ glob: String, to screen: String) throws -> TouchConfiguration {
        TouchConfiguration(match: try TouchConfiguration.Match.parse(glob).get(), screen: screen, calibration: nil)
    }

    /// Touches on a mapped device ask the display for nothing: its screen was found when it was added.
    @Test func touchesDoNotLookTheScreenUp() {
        let bed = InputBed()
        let panel = bed.input.plugTouchscreen()
        #expect(bed.lookups.names == ["DSI-1"])
        for step in 0..<5 {
            bed.input.frame(panel, down: [(0, 0.25, 0.5)], time: UInt64(1_000_000 + step * 20_000))
            bed.input.frame(panel, up: [0], time: UInt64(1_010_000 + step * 20_000))
        }
        #expect(bed.view.calls.count == 10 && bed.lookups.names == ["DSI-1"])
    }

    /// Screens connecting and disconnecting remap the device (the runtime calls `remap` on each), and its
    /// next touch lands on the screen of the new decision.
    @Test func hotplugMovesTheKeptScreen() throws {
        var configuration = KioskConfiguration()
        configuration.touch = [try Self.rule("Panel*", to: "HDMI-A-1")]
        let bed = InputBed(configuration: configuration)
        let panel = bed.input.plugTouchscreen("Panel Touch")
        // No HDMI-A-1 yet: nothing kept, and the touch is dropped.
        bed.input.frame(panel, down: [(0, 0.5, 0.5)], time: 1_000_000)
        bed.input.frame(panel, up: [0], time: 1_010_000)
        #expect(bed.view.calls.isEmpty)
        let hdmi = bed.display.connect("HDMI-A-1", modes: [Screen.Mode(width: 1920, height: 1080, refreshRate: 60)])
        bed.router.remap()
        let log = bed.touchLog(on: hdmi)
        bed.input.frame(panel, down: [(0, 0.5, 0.5)], time: 1_020_000)
        bed.input.frame(panel, up: [0], time: 1_030_000)
        #expect(log.calls == ["began 960,540", "ended 960,540"])
        // Unplugged: the rule still names it; touches go to its (disconnected) screen and are dropped there.
        bed.display.disconnect("HDMI-A-1")
        bed.router.remap()
        bed.input.frame(panel, down: [(0, 0.5, 0.5)], time: 1_040_000)
        #expect(log.calls.count == 2 && bed.view.calls.isEmpty)
        // A device without a rule follows the decision: with one screen left, the touchscreen goes to it.
        let other = bed.input.plugTouchscreen("Other Touch")
        #expect(bed.router.decision(for: other)?.screen == "DSI-1")
        bed.input.frame(other, down: [(0, 0.25, 0.5)], time: 1_050_000)
        #expect(bed.view.calls == ["began 320,400"])
    }

    /// A reload's rules are a new decision: the kept screen follows them.
    @Test func aReloadMovesTheKeptScreen() throws {
        let bed = InputBed(screens: ["DSI-1", "HDMI-A-1"])
        let hdmi = bed.display.screen(named: "HDMI-A-1")
        let log = bed.touchLog(on: hdmi)
        let panel = bed.input.plugTouchscreen("Panel Touch", size: nil)
        bed.input.frame(panel, down: [(0, 0.5, 0.5)], time: 1_000_000)
        bed.input.frame(panel, up: [0], time: 1_010_000)
        var configuration = KioskConfiguration()
        configuration.touch = [try Self.rule("Panel*", to: "HDMI-A-1")]
        bed.router.reconfigure(configuration)
        bed.input.frame(panel, down: [(0, 0.5, 0.5)], time: 1_020_000)
        bed.input.frame(panel, up: [0], time: 1_030_000)
        #expect(bed.view.calls == ["began 640,400", "ended 640,400"] && log.calls == ["began 640,400", "ended 640,400"])
    }

    /// A rule's label names no connector: which screen it is depends on the displays' EDIDs, which may change
    /// without a decision, so it is looked up at each touch-down, as before.
    @Test func aLabelIsLookedUpAtEachTouch() throws {
        var configuration = KioskConfiguration()
        configuration.touch = [try Self.rule("Panel*", to: "lobby")]
        let bed = InputBed(configuration: configuration)
        bed.lookups.labels["lobby"] = "DSI-1"
        let panel = bed.input.plugTouchscreen("Panel Touch")
        bed.input.frame(panel, down: [(0, 0.25, 0.5)], time: 1_000_000)
        bed.input.frame(panel, up: [0], time: 1_010_000)
        bed.lookups.labels["lobby"] = nil
        bed.input.frame(panel, down: [(0, 0.25, 0.5)], time: 1_020_000)
        #expect(bed.view.calls == ["began 320,400", "ended 320,400"])
        #expect(bed.lookups.names == ["lobby", "lobby", "lobby"])
    }
}
