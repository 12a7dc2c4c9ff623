import Testing

@testable import KioskConfig

/// The dim stage's settings (`dim-after` before `idle-timeout`, `dim-brightness` 0 to 1) from the file, the
/// environment and the command line, and a screen's `backlight`.
@Suite struct DimStageAndBacklightTests {
    static let brightnessSpelling = "a number from 0 to 1 (0: the dimmest the backlight shows)"

    @Test func theFileSetsTheDimStage() throws {
        let loaded = try configuration("idle-timeout = 60\ndim-after = 20\ndim-brightness = 0.05\n")
        #expect(loaded.idleTimeoutSeconds == 60 && loaded.dimAfterSeconds == 20 && loaded.dimBrightness == 0.05)
        // An integer is a number too; dimming without blanking is fine.
        let whole = try configuration("dim-after = 20\ndim-brightness = 1\n")
        #expect(whole.dimAfterSeconds == 20 && whole.idleTimeoutSeconds == 0 && whole.dimBrightness == 1)
        #expect(KioskConfiguration.default.dimAfterSeconds == 0 && KioskConfiguration.default.dimBrightness == 0.2)
    }

    @Test func theDimStageComesBeforeTheScreenTurnsOff() {
        #expect(
            messages("idle-timeout = 60\ndim-after = 60\n") == [
                "/etc/kiosk/kiosk.toml:2:13: dim-after: 60 is not less than idle-timeout = 60 (line 1): a screen dims before it turns off"
            ])
        // Set from the environment over the file: the variable is named.
        #expect(
            messages("idle-timeout = 60\n", environment: ["KIOSK_DIM_AFTER": "90"]) == [
                "environment KIOSK_DIM_AFTER: dim-after 90 is not less than idle-timeout = 60: a screen dims before it turns off"
            ])
        #expect(messages("dim-after = 90\n", environment: ["KIOSK_IDLE_TIMEOUT": "120"]).isEmpty)
    }

    @Test func theCommandLineIsCheckedOnceAllOfItIsIn() throws {
        let loaded = try CommandLineSettingsTests.configuration(
            ["--dim-after", "90", "--idle-timeout", "120"], file: "idle-timeout = 60\n")
        #expect(loaded.dimAfterSeconds == 90 && loaded.idleTimeoutSeconds == 120)
        #expect(
            CommandLineSettingsTests.problems(["--idle-timeout", "30"], file: "dim-after = 40\n") == [
                "command line --idle-timeout 30: dim-after 40 is not less than idle-timeout = 30: a screen dims before it turns off"
            ])
        #expect(try CommandLineSettingsTests.configuration(["--dim-brightness=0.3"]).dimBrightness == 0.3)
    }

    @Test func dimBrightnessIsANumberFromZeroToOne() {
        #expect(
            messages("dim-brightness = 1.5\n") == [
                "/etc/kiosk/kiosk.toml:1:18: dim-brightness: 1.5 is out of range; valid: \(Self.brightnessSpelling)"
            ])
        #expect(
            messages("dim-brightness = \"dim\"\n") == [
                "/etc/kiosk/kiosk.toml:1:18: dim-brightness must be a number, not a string; valid: \(Self.brightnessSpelling)"
            ])
        #expect(
            messages("", environment: ["KIOSK_DIM_BRIGHTNESS": "-0.1"]) == [
                "environment KIOSK_DIM_BRIGHTNESS: -0.1 is out of range; valid: \(Self.brightnessSpelling)"
            ])
        #expect(
            messages("", environment: ["KIOSK_DIM_BRIGHTNESS": "nan"]) == [
                "environment KIOSK_DIM_BRIGHTNESS: \"nan\" is not valid; valid: \(Self.brightnessSpelling)"
            ])
    }

    @Test func aScreenNamesItsBacklight() throws {
        let loaded = try configuration(
            """
            [screens.eDP-1]
            backlight = "intel_backlight"
            [screens.panel]
            edid = { make = "BOE" }
            backlight = "backlight"
            """)
        #expect(loaded.screen(named: "eDP-1")?.backlight == "intel_backlight")
        #expect(loaded.screen(connector: "eDP-1").backlight == "intel_backlight")
        #expect(loaded.screen(connector: "DSI-1", edid: .init(make: "BOE", model: "X", serial: nil)).backlight == "backlight")
        #expect(loaded.screen(connector: "DSI-1").backlight == nil)
        // The command line wins.
        let overridden = try CommandLineSettingsTests.configuration(
            ["--backlight", "eDP-1=acpi_video0"], file: "[screens.eDP-1]\nbacklight = \"intel_backlight\"\n")
        #expect(overridden.screen(connector: "eDP-1").backlight == "acpi_video0")
    }

    @Test func aBacklightIsOneFileName() {
        let valid = ScreenConfiguration.backlightSpelling
        #expect(
            messages("[screens.eDP-1]\nbacklight = \"../x\"\n") == [
                "/etc/kiosk/kiosk.toml:2:13: screens.eDP-1.backlight: \"../x\" is not a device name (one name, no /); valid: \(valid)"
            ])
        #expect(
            messages("[screens.eDP-1]\nbacklight = 1\n") == [
                "/etc/kiosk/kiosk.toml:2:13: screens.eDP-1.backlight must be a string, not an integer; valid: \(valid)"
            ])
        #expect(
            CommandLineSettingsTests.problems(["--backlight", "eDP-1="]) == [
                "command line --backlight eDP-1=: empty; valid: SCREEN=DEVICE with DEVICE \(valid)"
            ])
    }
}
