import KioskConfig
import Testing

/// HDMI-CEC's settings: a screen's adapter (`[screens.NAME] cec`, `--cec`) and whether idle blanking puts
/// the TV in standby (`cec-on-idle`).
@Suite struct CECSettingTests {
    @Test(arguments: [
        ("auto", CECSetting.auto), ("AUTO", .auto), ("off", .off), ("/dev/cec0", .device("/dev/cec0")),
        ("/dev/cec/by-path/platform-hdmi", .device("/dev/cec/by-path/platform-hdmi")),
    ])
    func spellings(text: String, setting: CECSetting) {
        #expect(CECSetting(spelling: text) == setting)
    }

    @Test(arguments: ["", "on", "cec0", "/", "dev/cec0"])
    func notSpellings(text: String) {
        #expect(CECSetting(spelling: text) == nil)
    }

    @Test func defaults() throws {
        #expect(KioskConfiguration.default.cecOnIdle == false)
        #expect(KioskConfiguration.default.screen(connector: "HDMI-A-1").cec == .auto)
        #expect(try configuration("cec-on-idle = true").cecOnIdle)
        #expect(try configuration("", environment: ["KIOSK_CEC_ON_IDLE": "yes"]).cecOnIdle)
    }

    /// Each display's adapter from the first matching section that names one: a connector's own section, or
    /// a label matched by EDID; the command line's entries first.
    @Test func resolution() throws {
        let file = """
            [screens.lobby]
            edid = { make = "SAM" }
            cec = "/dev/cec3"
            [screens.HDMI-A-1]
            cec = "off"
            [screens.HDMI-A-2]
            mode = "preferred"
            """
        let parsed = try configuration(file)
        let samsung = ScreenConfiguration.EDIDMatch(make: "SAM")
        #expect(parsed.screen(connector: "HDMI-A-1").cec == .off)
        #expect(parsed.screen(connector: "HDMI-A-1", edid: samsung).cec == .device("/dev/cec3"))
        #expect(parsed.screen(connector: "HDMI-A-2").cec == .auto)
        #expect(parsed.screen(connector: "DP-1", edid: samsung).cec == .device("/dev/cec3"))
        let overridden = try CommandLineSettingsTests.configuration(["--cec", "HDMI-A-1=/dev/cec1", "--cec-on-idle"], file: file)
        #expect(overridden.screen(connector: "HDMI-A-1").cec == .device("/dev/cec1"))
        #expect(overridden.cecOnIdle)
    }

    @Test func problems() {
        #expect(
            messages("[screens.HDMI-A-1]\ncec = \"cec0\"\n[screens.DP-1]\ncec = true") == [
                "/etc/kiosk/kiosk.toml:2:7: screens.HDMI-A-1.cec: \"cec0\" is not valid; valid: auto, off, or an adapter's device path (/dev/cec0)",
                "/etc/kiosk/kiosk.toml:4:7: screens.DP-1.cec must be a string, not a boolean; valid: auto, off, or an adapter's device path (/dev/cec0)",
            ])
        #expect(
            CommandLineSettingsTests.problems(["--cec", "HDMI-A-1=on", "--cec-on-idle=maybe"]) == [
                "command line --cec HDMI-A-1=on: \"on\" is not valid; valid: SCREEN=ADAPTER with ADAPTER auto, off, or an adapter's device path (/dev/cec0)",
                "command line --cec-on-idle maybe: \"maybe\" is not valid; valid: true or false (1 or 0, yes or no, on or off)",
            ])
    }
}
