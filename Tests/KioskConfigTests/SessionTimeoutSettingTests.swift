import Testing

@testable import KioskConfig

/// `session-timeout`: seconds without input before the app's session is idle, declared once in the settings
/// table (file, `KIOSK_SESSION_TIMEOUT`, `--session-timeout`), with its problems at their line and column and
/// the valid values, applied by a reload.
@Suite struct SessionTimeoutSettingTests {
    static let valid = "0 to 604800 (seconds; 0: never)"

    @Test func theFileTheEnvironmentAndTheCommandLineSetIt() throws {
        #expect(KioskConfiguration.default.sessionTimeoutSeconds == 0)
        #expect(try configuration("session-timeout = 120\n").sessionTimeoutSeconds == 120)
        // Apart from display power: setting one leaves the other.
        let both = try configuration("idle-timeout = 300\nsession-timeout = 90\n")
        #expect(both.idleTimeoutSeconds == 300 && both.sessionTimeoutSeconds == 90 && both.dimAfterSeconds == 0)
        #expect(
            try configuration("session-timeout = 120\n", environment: ["KIOSK_SESSION_TIMEOUT": "45"]).sessionTimeoutSeconds == 45)
        let flagged = try CommandLineSettingsTests.configuration(
            ["--session-timeout", "30"], file: "session-timeout = 120\n", environment: ["KIOSK_SESSION_TIMEOUT": "45"])
        #expect(flagged.sessionTimeoutSeconds == 30)
    }

    @Test func problemsNameTheFileTheLineAndTheValidValues() {
        #expect(
            messages("session-timeout = -1\n") == ["/etc/kiosk/kiosk.toml:1:19: session-timeout: -1 is out of range; valid: \(Self.valid)"])
        #expect(
            messages("seat = \"seat0\"\nsession-timeout = 604801\n") == [
                "/etc/kiosk/kiosk.toml:2:19: session-timeout: 604801 is out of range; valid: \(Self.valid)"
            ])
        #expect(
            messages("session-timeout = \"2m\"\n") == [
                "/etc/kiosk/kiosk.toml:1:19: session-timeout must be an integer, not a string; valid: \(Self.valid)"
            ])
        #expect(
            messages("session-timout = 60\n") == [
                "/etc/kiosk/kiosk.toml:1:1: unknown key \"session-timout\"; did you mean \"session-timeout\"?"
            ])
        #expect(
            messages("", environment: ["KIOSK_SESSION_TIMEOUT": "soon"]) == [
                "environment KIOSK_SESSION_TIMEOUT: \"soon\" is not valid; valid: \(Self.valid)"
            ])
        #expect(
            CommandLineSettingsTests.problems(["--session-timeout", "-3"]) == [
                "command line --session-timeout -3: -3 is out of range; valid: \(Self.valid)"
            ])
    }

    @Test func aReloadAppliesItLive() throws {
        let setting = try #require(KioskConfiguration.setting(key: "session-timeout"))
        #expect(setting.reload == .live && setting.flag == "--session-timeout" && setting.environmentVariable == "KIOSK_SESSION_TIMEOUT")
        #expect(setting.value(in: try configuration("session-timeout = 75\n")) == "75")
        // `--help` says what it is, and that no screen turns off for it.
        #expect(setting.help.contains("no screen turns off"))
    }
}
