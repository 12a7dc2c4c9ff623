import DRM
import KioskConfig
import KioskKit
import Testing

@testable import DRMDisplay

/// Lighting an output on an in-memory card (`DRMDisplay+Lighting.swift`, `+FirstFrame.swift`): checked with
/// TEST_ONLY before it is committed, and what happens when the card refuses.
@MainActor @Suite struct LightingTests {
    /// One display, HDMI-A-1 on CRTC 31.
    static func oneDisplay() -> InMemoryCard {
        let card = InMemoryCard(crtcs: [31])
        card.addConnector(40, type: 11, index: 1, modes: [Modes.fullHD, Modes.hd], crtcs: [31])
        return card
    }

    /// One display whose CRTC the firmware left showing `mode`.
    static func firmwareShowing(_ mode: DRMModeInfo) -> InMemoryCard {
        let card = oneDisplay()
        card.showAtStart(connector: 40, crtc: 31, mode: mode)
        return card
    }

    @Test func theFirstLightingCommitIsCheckedWithTestOnlyBeforeTheRealOne() throws {
        let fixture = try SeamFixture.shown(Self.oneDisplay())
        let commits = fixture.card.commits
        #expect(commits.count == 2, "\(commits)")
        let (test, real) = (commits[0], commits[1])
        #expect(test.isTestOnly && test.allowsModeset && test.passed)
        #expect(!real.isTestOnly && real.allowsModeset && real.passed)
        // The commit made is the one checked, but for the buffer: the check's is the first, the frame's the one the app drew.
        let output = try #require(fixture.display.outputs[40])
        #expect(test.value(101, "FB_ID") == UInt64(output.buffers[0].framebuffer.rawValue))
        #expect(real.value(101, "FB_ID") == UInt64(output.buffers[1].framebuffer.rawValue))
        let notTheBuffer = { (change: InMemoryCard.Commit.Change) in change.object != 101 || change.name != "FB_ID" }
        #expect(test.changes.filter(notTheBuffer) == real.changes.filter(notTheBuffer))
        #expect(real.modes[31] == Modes.fullHD && real.value(40, "CRTC_ID") == 31 && real.value(31, "ACTIVE") == 1)
        #expect(real.showsFramebuffer(on: 101))
        #expect(fixture.card.shownMode(31) == Modes.fullHD)
        #expect(fixture.logs.contains("HDMI-A-1: lit 1920x1080", at: .info))
    }

    /// Today a refused modeset on a connector not lit yet is not retried with another mode: the output
    /// stays dark, its screen does not connect, its buffers and blob are freed, and the error is logged.
    @Test func aRefusedPreferredModesetLeavesTheDisplayDarkAndSaysSo() throws {
        let card = Self.oneDisplay()
        card.refuse("no 1920x1080 on this link") { $0.modes.values.contains(Modes.fullHD) }
        let fixture = try SeamFixture(card: card)
        fixture.probe()
        #expect(card.commits.count == 1)
        #expect(card.commits.first?.isTestOnly == true && card.commits.first?.refusal == "no 1920x1080 on this link")
        #expect(fixture.screen("HDMI-A-1")?.isConnected != true)
        #expect(fixture.display.outputs.isEmpty)
        #expect(card.framebuffers.isEmpty && card.blobs.isEmpty, "what lighting made is freed")
        #expect(card.shownMode(31) == nil)
        #expect(fixture.logs.contains("HDMI-A-1: lighting it on CRTC 31 failed", at: .error))
        #expect(fixture.logs.contains("it stays dark", at: .error))
    }

    /// A lit output whose new mode (a reload's) is refused keeps the mode it has, and its screen too.
    @Test func aRefusedNewModeKeepsTheModeItHad() throws {
        let card = Self.oneDisplay()
        let fixture = try SeamFixture.shown(card)
        let lit = try #require(fixture.display.outputs[40])
        card.refuse("no 1280x720") { $0.modes.values.contains(Modes.hd) }
        let before = card.commits.count
        fixture.display.reconfigure(try KioskConfiguration.parse(text: "[screens.HDMI-A-1]\nmode = \"1280x720\"\n").get())
        #expect(fixture.commits(since: before).map(\.refusal) == ["no 1280x720"])
        #expect(fixture.display.outputs[40] === lit)
        #expect(fixture.screen("HDMI-A-1")?.currentMode == DisplayMode(Modes.fullHD))
        #expect(card.shownMode(31) == Modes.fullHD)
        #expect(fixture.logs.contains("a new mode on CRTC 31 failed", at: .error))
        #expect(fixture.logs.contains("it keeps 1920x1080", at: .error))
    }

    /// Where the firmware already shows the mode, the commit goes without ALLOW_MODESET; a card that
    /// refuses it (it would need a modeset after all) gets the modeset, and the log says why.
    @Test func theModeTheFirmwareShowsIsKeptWithoutAModesetOrFallsBackToOne() throws {
        let keeping = Self.firmwareShowing(Modes.fullHD)
        let kept = try SeamFixture.shown(keeping)
        #expect(keeping.commits.map(\.allowsModeset) == [false, false])
        #expect(keeping.commits.allSatisfy { $0.passed })
        #expect(kept.logs.contains("without a modeset", at: .info))

        let refusing = Self.firmwareShowing(Modes.fullHD)
        refusing.refuse("this driver always modesets") { !$0.allowsModeset }
        let fellBack = try SeamFixture.shown(refusing)
        // The TEST_ONLY without a modeset is refused once; from then on the output asks for one.
        #expect(refusing.commits.map(\.allowsModeset) == [false, true, true])
        #expect(refusing.commits.map(\.passed) == [false, true, true])
        #expect(refusing.shownMode(31) == Modes.fullHD)
        #expect(fellBack.logs.contains("HDMI-A-1: CRTC 31 needs a modeset after all", at: .info))
    }

    @Test func theLegacyPathSetsTheCRTCAtTheFirstFrame() throws {
        let card = Self.oneDisplay()
        card.supportsAtomic = false
        let fixture = try SeamFixture(card: card)
        fixture.probe()
        #expect(card.legacyCalls.isEmpty, "nothing is shown before the app's first frame")
        fixture.presentFirstFrame(on: "HDMI-A-1")
        #expect(card.commits.isEmpty)
        #expect(card.legacyCalls == ["SetCrtc 31 1920x1080@60.000 [40]"])
        #expect(fixture.display.planes(for: try #require(fixture.screen("HDMI-A-1"))).isEmpty)
    }

    @Test func stopPutsBackWhatTheFirmwareShowed() throws {
        let card = Self.firmwareShowing(Modes.hd)
        let fixture = try SeamFixture.shown(card)
        #expect(card.shownMode(31) == Modes.fullHD)
        fixture.display.stop()
        #expect(card.legacyCalls == ["SetCrtc 31 1280x720@60.000 [40]"])
        #expect(card.shownMode(31) == Modes.hd)
        #expect(card.framebuffers.count == 1, "only the firmware's framebuffer is left")
    }
}
