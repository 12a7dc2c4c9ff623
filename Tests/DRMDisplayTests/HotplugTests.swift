import DRM
import KioskKit
import Testing

@testable import DRMDisplay

/// Probes of an in-memory card (`SeamFixture.probe`, what start and a hotplug run): which connectors
/// become screens, with which modes, on which CRTCs, and what a plug or an unplug changes.
@MainActor @Suite struct HotplugTests {
    @Test func twoConnectedConnectorsBecomeTwoScreensWithThePreferredModes() throws {
        let fixture = try SeamFixture(card: .twoDisplays())
        fixture.probe()
        #expect(fixture.display.screens.map(\.name) == ["HDMI-A-1", "DP-1"])
        #expect(fixture.display.screens.allSatisfy { $0.isConnected })
        #expect(fixture.screen("HDMI-A-1")?.currentMode == DisplayMode(Modes.fullHD))
        #expect(fixture.screen("DP-1")?.currentMode == DisplayMode(Modes.xga))
        // Each on a CRTC of its own, checked with the driver: nothing is shown before the app's first frame.
        let crtcs = fixture.display.outputs.values.map(\.crtc.rawValue).sorted()
        #expect(crtcs == [31, 32])
        #expect(fixture.card.commits.allSatisfy { $0.isTestOnly })
        #expect(fixture.card.shownMode(31) == nil && fixture.card.shownMode(32) == nil)
    }

    @Test func theConfiguredModeIsThePoliciesChoice() throws {
        let fixture = try SeamFixture(card: .twoDisplays(), configuration: "[screens.DP-1]\nmode = \"800x600\"\n")
        fixture.probe()
        #expect(fixture.screen("DP-1")?.currentMode == DisplayMode(Modes.svga))
        #expect(fixture.screen("HDMI-A-1")?.currentMode == DisplayMode(Modes.fullHD))
        let dp = try #require(fixture.display.outputs[41])
        #expect(fixture.card.commits.contains { $0.modes[dp.crtc.rawValue] == Modes.svga })
    }

    @Test func unplugDisconnectsThatScreenOnlyAndReplugConnectsItAgain() throws {
        let fixture = try SeamFixture.shown(.twoDisplays())
        let hdmi = try #require(fixture.display.outputs[40])
        let dp = try #require(fixture.display.outputs[41])
        let dpScreen = try #require(fixture.screen("DP-1"))
        #expect(fixture.card.shownMode(dp.crtc.rawValue) == Modes.xga)

        fixture.card.unplug(41)
        let beforeUnplug = fixture.card.commits.count
        fixture.probe()
        #expect(fixture.screen("DP-1")?.isConnected == false)
        #expect(fixture.screen("HDMI-A-1")?.isConnected == true)
        #expect(fixture.display.outputs[40] === hdmi, "HDMI-A-1's output is left as it was")
        #expect(fixture.display.outputs[41] == nil)
        // One commit turned DP-1 off, its CRTC and plane with it; HDMI-A-1's CRTC was not in it.
        let unplugged = fixture.commits(since: beforeUnplug)
        #expect(unplugged.count == 1)
        #expect(unplugged.first?.value(41, "CRTC_ID") == 0 && unplugged.first?.value(dp.crtc.rawValue, "ACTIVE") == 0)
        #expect(unplugged.first?.objects.contains(hdmi.crtc.rawValue) == false)
        #expect(fixture.card.shownMode(dp.crtc.rawValue) == nil)
        #expect(fixture.card.shownMode(hdmi.crtc.rawValue) == Modes.fullHD)

        fixture.card.plug(41, modes: [Modes.xga, Modes.svga])
        fixture.probe()
        #expect(fixture.screen("DP-1") === dpScreen, "the same Screen, for the life of the process")
        #expect(dpScreen.isConnected && dpScreen.currentMode == DisplayMode(Modes.xga))
        #expect(fixture.display.outputs[40] === hdmi)
        #expect(fixture.display.outputs[41]?.crtc == dp.crtc)
    }

    @Test func aProbeWithNothingChangedCommitsNothing() throws {
        let fixture = try SeamFixture(card: .twoDisplays())
        fixture.probe()
        fixture.presentFirstFrame(on: "HDMI-A-1")
        let count = fixture.card.commits.count
        fixture.probe()
        #expect(fixture.card.commits.count == count)
        #expect(fixture.display.screens.allSatisfy { $0.isConnected })
    }

    @Test func anUnpluggedOutputsBuffersAreFreed() throws {
        let fixture = try SeamFixture(card: .twoDisplays())
        fixture.probe()
        // Two dumb buffers per lit output.
        #expect(fixture.card.framebuffers.count == 4)
        fixture.card.unplug(40)
        fixture.card.unplug(41)
        fixture.probe()
        #expect(fixture.card.framebuffers.isEmpty)
        #expect(fixture.card.blobs.isEmpty)
        #expect(!fixture.display.screens.contains { $0.isConnected })
    }
}
