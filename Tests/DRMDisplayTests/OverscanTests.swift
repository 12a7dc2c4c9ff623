import KioskConfig
import KioskKit
import Testing

@testable import DRMDisplay

/// A connector's `overscan` reaches its screen when the display is read, and again on a reload, with no
/// modeset for it (it changes only the windows' safe area).
@MainActor @Suite struct OverscanTests {
    @Test func aConnectorsOverscanIsItsScreensAndFollowsAReload() throws {
        let card = LightingTests.oneDisplay()
        let fixture = try SeamFixture.shown(card, configuration: "[screens.HDMI-A-1]\noverscan = 40\n")
        let screen = try #require(fixture.screen("HDMI-A-1"))
        #expect(screen.overscanInsets == EdgeInsets(top: 40, left: 40, bottom: 40, right: 40))
        let before = card.commits.count
        fixture.display.reconfigure(try KioskConfiguration.parse(text: "[screens.HDMI-A-1]\noverscan = \"20 48\"\n").get())
        #expect(screen.overscanInsets == EdgeInsets(top: 20, left: 48, bottom: 20, right: 48))
        #expect(fixture.commits(since: before).allSatisfy { !$0.allowsModeset }, "no modeset for an overscan")
    }
}
