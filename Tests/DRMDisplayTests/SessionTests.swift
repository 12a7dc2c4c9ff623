import DRM
import KioskKit
import Testing

@testable import DRMDisplay

/// The seat session going away and coming back (`DRMDisplay+Session.swift`) on an in-memory card: no
/// commit without DRM master, and every output lit again on the way back.
@MainActor @Suite struct SessionTests {
    @Test func whileTheSessionIsAwayNothingIsCommittedAndResumeLightsAgain() throws {
        let fixture = try SeamFixture.shown(LightingTests.oneDisplay())
        let screen = try #require(fixture.screen("HDMI-A-1"))
        fixture.display.pause()
        let before = fixture.card.commits.count
        fixture.probe()
        #expect(fixture.card.commits.count == before)
        #expect(fixture.display.nextBuffer(for: screen) == nil)
        #expect(fixture.display.planes(for: screen).isEmpty)
        #expect(fixture.logs.contains("displays are read again when the session is back", at: .info))

        fixture.display.resume()
        // Checked, then committed at once: the output replaced showed our buffers.
        let resumed = fixture.commits(since: before)
        #expect(resumed.map(\.isTestOnly) == [true, false])
        #expect(resumed.allSatisfy { $0.passed })
        #expect(fixture.card.shownMode(31) == Modes.fullHD)
        #expect(screen.isConnected && screen.currentMode == DisplayMode(Modes.fullHD))
        #expect(fixture.card.framebuffers.count == 2, "the replaced output's buffers are freed")
    }
}
