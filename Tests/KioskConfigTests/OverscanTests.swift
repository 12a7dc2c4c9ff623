import Testing

@testable import KioskConfig

/// `[screens.NAME] overscan`: CSS's one to four values, and clear messages for the rest.
@Suite struct OverscanTests {
    @Test(arguments: [
        ("24", Overscan(top: 24, right: 24, bottom: 24, left: 24), "24"),
        ("16 32", Overscan(top: 16, right: 32, bottom: 16, left: 32), "16 32"),
        ("16,32,8", Overscan(top: 16, right: 32, bottom: 8, left: 32), "16 32 8"),
        ("16 32 8 4", Overscan(top: 16, right: 32, bottom: 8, left: 4), "16 32 8 4"),
        ("0", Overscan.none, "0"),
    ])
    func spellings(text: String, overscan: Overscan, shortest: String) {
        #expect(Overscan(spelling: text) == overscan)
        #expect(overscan.description == shortest)
        #expect(Overscan(spelling: shortest) == overscan)
    }

    @Test func aFileTakesAnIntegerOrAString() throws {
        let parsed = try configuration("[screens.HDMI-A-1]\noverscan = 20\n[screens.HDMI-A-2]\noverscan = \"10 20\"\n")
        #expect(parsed.screen(connector: "HDMI-A-1").overscan == Overscan(top: 20, right: 20, bottom: 20, left: 20))
        #expect(parsed.screen(connector: "HDMI-A-2").overscan == Overscan(top: 10, right: 20, bottom: 10, left: 20))
        #expect(parsed.screen(connector: "DP-1").overscan == .none)
    }

    @Test func wrongValuesNameTheFileLineAndValidSpellings() {
        let valid = Overscan.validSpellings
        #expect(
            messages("[screens.HDMI-A-1]\noverscan = \"1 2 3 4 5\"\n") == [
                "\(configPath):2:12: screens.HDMI-A-1.overscan: \"1 2 3 4 5\" has 5 values; valid: \(valid)"
            ])
        #expect(
            messages("[screens.HDMI-A-1]\noverscan = 300\n") == [
                "\(configPath):2:12: screens.HDMI-A-1.overscan: 300 is out of range; valid: \(valid)"
            ])
        #expect(
            messages("[screens.HDMI-A-1]\noverscan = \"ten\"\n") == [
                "\(configPath):2:12: screens.HDMI-A-1.overscan: \"ten\" is not a whole number; valid: \(valid)"
            ])
    }

    @Test func theFlagTakesCommas() {
        var configuration = KioskConfiguration()
        let flag = KioskConfiguration.settings.first { $0.flag == "--overscan" }!
        #expect(flag.apply("HDMI-A-1=16,32", to: &configuration, vocabulary: .open) == nil)
        #expect(configuration.screen(connector: "HDMI-A-1").overscan == Overscan(top: 16, right: 32, bottom: 16, left: 32))
        #expect(flag.spelled(configuration) == "HDMI-A-1=16,32")
        #expect(messages("[screens.HDMI-A-1]\noverscan = \"8 300\"\n").first?.contains("\"8 300\" has 300, which is out of range") == true)
    }
}
