import KioskConfig
import Testing

/// `KIOSK_*` overrides: applied after the file, a bad value named by its variable.
@Suite struct EnvironmentTests {
    @Test func everyOverride() throws {
        let parsed = try configuration(
            """
            backend = "drm"
            seat = "seat0"
            [screens.lobby]
            edid = { make = "SAM" }
            """,
            environment: [
                "KIOSK_BACKEND": "headless",
                "KIOSK_DRM_DEVICE": "/dev/dri/card1",
                "KIOSK_FBDEV_DEVICE": "/dev/fb1",
                "KIOSK_SEAT": "seat1",
                "KIOSK_LOG_LEVEL": "TRACE",
                "KIOSK_CURSOR": "always",
                "KIOSK_HOTPLUG_DEBOUNCE_MS": "1000",
                "KIOSK_PRIMARY": "lobby",
                "KIOSK_APP": "demo",
            ])
        #expect(parsed.backend == "headless")
        #expect(parsed.drmDevice == "/dev/dri/card1")
        #expect(parsed.fbdevDevice == "/dev/fb1")
        #expect(parsed.seat == "seat1")
        #expect(parsed.logLevel == .trace)
        #expect(parsed.cursor == .always)
        #expect(parsed.hotplugDebounceMilliseconds == 1000)
        #expect(parsed.primary == "lobby")
        #expect(parsed.app == "demo")
    }

    @Test func variableNames() {
        #expect(
            KioskConfiguration.environmentVariables == [
                "KIOSK_BACKEND", "KIOSK_DRM_DEVICE", "KIOSK_NO_ATOMIC", "KIOSK_SHADOW_BUFFER", "KIOSK_FBDEV_DEVICE", "KIOSK_SEAT",
                "KIOSK_LOG_LEVEL",
                "KIOSK_CURSOR", "KIOSK_KEYBOARD", "KIOSK_KEYBOARD_LAYOUT", "KIOSK_TEXT_SIZE", "KIOSK_KEYBOARD_REPEAT_DELAY_MS",
                "KIOSK_KEYBOARD_REPEAT_RATE",
                "KIOSK_HOTPLUG_DEBOUNCE_MS", "KIOSK_IDLE_TIMEOUT",
                "KIOSK_DIM_AFTER", "KIOSK_DIM_BRIGHTNESS", "KIOSK_CEC_ON_IDLE", "KIOSK_SESSION_TIMEOUT", "KIOSK_PRIMARY", "KIOSK_APP",
                "KIOSK_LAUNCH_SCREEN",
                "KIOSK_SNAPSHOT_DIR", "KIOSK_HEADLESS_SCREENS", "KIOSK_TRACE", "KIOSK_CONTROL_SOCKET", "KIOSK_CONTROL_GROUP",
            ])
    }

    /// The environment wins over both ways of choosing the main screen, without a conflict.
    @Test func primaryOverridesTheFile() throws {
        let parsed = try configuration("[screens.HDMI-A-1]\nprimary = true", environment: ["KIOSK_PRIMARY": "DP-1"])
        #expect(parsed.primary == "DP-1")
        #expect(parsed.screens.first?.primary == true)
    }

    @Test func emptyVariablesAreUnset() throws {
        let parsed = try configuration("cursor = \"hidden\"", environment: ["KIOSK_CURSOR": "", "KIOSK_SEAT": ""])
        #expect(parsed.cursor == .hidden)
        #expect(parsed.seat == "seat0")
    }

    @Test func badValues() {
        #expect(
            messages(
                "",
                environment: [
                    "KIOSK_CURSOR": "sometimes",
                    "KIOSK_HOTPLUG_DEBOUNCE_MS": "0.5s",
                    "KIOSK_DRM_DEVICE": "card0",
                    "KIOSK_PRIMARY": "tv",
                    "KIOSK_APP": "signage",
                ]) == [
                    "environment KIOSK_DRM_DEVICE: \"card0\" is not valid; valid: an absolute device path, e.g. /dev/dri/card0",
                    "environment KIOSK_CURSOR: \"sometimes\" is not valid; valid: auto, hidden, always",
                    "environment KIOSK_HOTPLUG_DEBOUNCE_MS: \"0.5s\" is not valid; valid: 0 to 60000 (milliseconds)",
                    "environment KIOSK_PRIMARY: \"tv\" names no screen; valid: a connector name (TYPE-n, e.g. HDMI-A-1, DP-1, eDP-1, DSI-1)",
                    "environment KIOSK_APP: \"signage\" is not valid; valid: demo",
                ])
    }

    @Test func badValueFields() throws {
        guard
            case let .failure(errors) = KioskConfiguration.parse(text: "", environment: ["KIOSK_BACKEND": "x"], vocabulary: kioskVocabulary)
        else {
            Issue.record("accepted KIOSK_BACKEND=x")
            return
        }
        let problem = try #require(errors.problems.first)
        #expect(problem.origin == .environment(variable: "KIOSK_BACKEND"))
        #expect(problem.file == nil)
        #expect(problem.line == nil)
        #expect(problem.keyPath == "backend")
    }

    /// Overrides apply to an absent file too: a kiosk configured only through its unit file.
    @Test func absentFile() throws {
        let loaded = KioskConfiguration.load(
            path: "/nonexistent/kiosk.toml", environment: ["KIOSK_BACKEND": "fbdev"], vocabulary: kioskVocabulary)
        #expect(try loaded.get().backend == "fbdev")
        let bad = KioskConfiguration.load(
            path: "/nonexistent/kiosk.toml", environment: ["KIOSK_BACKEND": "gl"], vocabulary: kioskVocabulary)
        guard case let .failure(errors) = bad else {
            Issue.record("accepted KIOSK_BACKEND=gl")
            return
        }
        #expect(errors.description == "environment KIOSK_BACKEND: \"gl\" is not valid; valid: auto, drm, fbdev, headless")
    }

    /// A broken file still has its environment checked, so one run shows everything.
    @Test func withASyntaxError() {
        #expect(
            messages("[screens", environment: ["KIOSK_SEAT": "seat1", "KIOSK_CURSOR": "never"]) == [
                "/etc/kiosk/kiosk.toml:1:9: expected ']' to close the table header",
                "environment KIOSK_CURSOR: \"never\" is not valid; valid: auto, hidden, always",
            ])
    }

    /// `headless-screens` has its variable, a comma-separated list that replaces the file's.
    @Test func headlessScreensFromTheEnvironment() throws {
        let parsed = try configuration(
            "headless-screens = [\"1920x1080\"]", environment: ["KIOSK_HEADLESS_SCREENS": "lobby=1280x720, 640x480@50"])
        #expect(parsed.headlessScreens.map(\.description) == ["lobby=1280x720@60.000", "HEADLESS-2=640x480@50.000"])
        #expect(
            messages("", environment: ["KIOSK_HEADLESS_SCREENS": "1280x720,big"]) == [
                "environment KIOSK_HEADLESS_SCREENS: \"big\" is not a size; valid: \(HeadlessScreen.validSpelling)"
            ])
    }

    /// No screen at all is refused, in the file as in the variable (it had run a kiosk that shows nothing).
    @Test func anEmptyListOfHeadlessScreensIsRefused() {
        let problem = "empty: the headless backend needs at least one screen (leave the key out for HEADLESS-1, 1280x800)"
        #expect(
            messages("headless-screens = []") == [
                "/etc/kiosk/kiosk.toml:1:20: headless-screens: \(problem); valid: \(HeadlessScreen.validSpelling)"
            ])
        #expect(
            messages("", environment: ["KIOSK_HEADLESS_SCREENS": " , "]) == [
                "environment KIOSK_HEADLESS_SCREENS: \(problem); valid: \(HeadlessScreen.validSpelling)"
            ])
    }

    /// A `KIOSK_*` variable no setting has is warned about, with the nearest one where it is a typo; the
    /// project's own scripts' and tests' variables are not.
    @Test func unknownVariablesAreWarnedAbout() {
        let warnings = KioskConfiguration.unknownVariableWarnings(in: [
            "KIOSK_BAKEND": "drm", "KIOSK_LOGLEVEL": "debug", "KIOSK_WHATEVER": "1", "KIOSK_CONFIG": "/etc/k.toml",
            "KIOSK_CURSOR": "hidden", "KIOSK_VM_KEEP": "1", "KIOSK_REQUIRE_VM": "1", "KIOSKX": "1", "PATH": "/bin",
        ])
        #expect(
            warnings == [
                "environment KIOSK_BAKEND: no setting has this variable, so it is ignored; did you mean KIOSK_BACKEND?",
                "environment KIOSK_LOGLEVEL: no setting has this variable, so it is ignored; did you mean KIOSK_LOG_LEVEL?",
                "environment KIOSK_WHATEVER: no setting has this variable, so it is ignored (`kiosk run --help` lists each setting's variable)",
            ])
    }
}
