import Geometry
import Testing

@testable import KioskConfig

/// Bad files and the exact messages a person sees: file, line, column, key, what is wrong, what is valid.
@Suite struct ConfigProblemTests {
    static let modeSpellings =
        "preferred, current, off, WxH (e.g. 1920x1080) or WxH@Hz (e.g. 1920x1080@60 or 1920x1080@59.94), each side 1 to 16384, Hz at least 1 and under 1000"
    static let rotations = "normal, 90, 180, 270, flipped, flipped-90, flipped-180, flipped-270"
    static let topLevelKeys =
        "backend, drm-device, no-atomic, shadow-buffer, fbdev-device, seat, log-level, cursor, keyboard, keyboard-layout, text-size, keyboard-repeat-delay-ms, keyboard-repeat-rate, hotplug-debounce-ms, idle-timeout, dim-after, dim-brightness, cec-on-idle, session-timeout, primary, app, launch-screen, snapshot-dir, headless-screens, trace, control-socket, control-group, app-settings, screens, touch, power"
    static let connectorSpelling = "a connector name (TYPE-n, e.g. HDMI-A-1, DP-1, eDP-1, DSI-1)"

    // MARK: Syntax

    @Test func syntaxErrorHasLineAndColumn() {
        #expect(
            messages(
                """
                seat = "seat0"
                [screens.HDMI-A-1
                mode = "off"
                """) == ["/etc/kiosk/kiosk.toml:2:18: expected ']' to close the table header"])
    }

    /// Headers that made toml++ (the parser before ours) assert: plain syntax errors.
    @Test(arguments: [
        ("seat = \"a\"\n[\nmode = 1", "2:2", "the end of the line"),
        ("[=]", "1:2", "'='"),
        ("[[ [a]]]", "1:4", "'['"),
        ("[ é]", "1:3", "'é'"),
        ("[screens.DP-1]\n[#]", "2:2", "'#'"),
    ])
    func malformedHeaders(text: String, position: String, saw: String) {
        #expect(
            messages(text) == [
                "/etc/kiosk/kiosk.toml:\(position): expected a key, found \(saw)"
            ])
    }

    /// Array elements that made toml++ assert: plain syntax errors.
    @Test(arguments: [
        ("a = [}", "1:6", "'}'"),
        ("a = [\n  1,\n  }]", "3:3", "'}'"),
        ("a = [1, \u{2028}]", "1:9", "the character U+2028"),
        ("a = [\u{85}]", "1:6", "the character U+0085"),
    ])
    func malformedArrayElements(text: String, position: String, saw: String) {
        #expect(
            messages(text) == [
                "/etc/kiosk/kiosk.toml:\(position): expected a value (a string in quotes, a number, true or false, a date, an array or an inline table), found \(saw)"
            ])
    }

    /// Dates that made toml++ assert (found by the differential test): errors naming the key they were for.
    @Test(arguments: [
        ("d = 1979-05-27 7", "invalid date-time 1979-05-27 7: times are written HH:MM:SS, with seconds (07:32:00)"),
        ("d = 0000-12-05tf06:39:20z", "invalid date-time 0000-12-05tf06:39:20z: times are written HH:MM:SS, with seconds (07:32:00)"),
    ])
    func malformedDates(text: String, message: String) {
        #expect(messages("[app-settings]\n" + text) == ["/etc/kiosk/kiosk.toml:2:5: app-settings.d: " + message])
    }

    @Test func syntaxErrorInAValue() {
        #expect(
            messages("seat = \"seat0\"\nbackend = drm\n") == [
                "/etc/kiosk/kiosk.toml:2:11: drm is not a value: a string needs quotes, as in \"drm\""
            ])
    }

    /// A number too large to read names its setting and what the setting takes (it named neither).
    @Test func integerTooLargeNamesItsSetting() {
        #expect(
            messages("hotplug-debounce-ms = 99999999999999999999") == [
                "/etc/kiosk/kiosk.toml:1:23: hotplug-debounce-ms: 99999999999999999999 does not fit in 64 bits; valid: 0 to 60000 (milliseconds)"
            ])
        #expect(
            messages("[app-settings]\nx = 1e400") == ["/etc/kiosk/kiosk.toml:2:5: app-settings.x: 1e400 is too large for a 64-bit float"])
    }

    @Test func notUTF8() {
        let bytes = Array("seat = \"seat0\"\ntitle = \"".utf8) + [0xC3, 0x28] + Array("\"\n".utf8)
        guard case let .failure(errors) = KioskConfiguration.parse(bytes: bytes, path: configPath) else {
            Issue.record("accepted invalid UTF-8")
            return
        }
        #expect(errors.description == "/etc/kiosk/kiosk.toml:2:10: not UTF-8 text (byte 0xC3); save the file as UTF-8")
    }

    @Test func nulByte() {
        let bytes = Array("seat = \"seat0\"\n".utf8) + [0] + Array("garbage".utf8)
        guard case let .failure(errors) = KioskConfiguration.parse(bytes: bytes, path: configPath) else {
            Issue.record("accepted a NUL byte")
            return
        }
        #expect(errors.description == "/etc/kiosk/kiosk.toml:2:1: a NUL byte: this is not a text file")
    }

    /// Valid TOML, refused: every string ends up in a C API (seat names, paths) that would cut it at the NUL.
    @Test func nulEscape() {
        #expect(
            messages("seat = \"seat0\\u0000x\"") == [
                "/etc/kiosk/kiosk.toml:1:8: seat: \\u0000 (NUL) is not allowed: the text would be cut there; valid: a seat name, e.g. seat0"
            ])
    }

    // MARK: Unknown keys

    @Test func unknownTopLevelKeyWithSuggestion() {
        #expect(
            messages("log_level = \"debug\"\nhotplug-debounce = 100") == [
                "/etc/kiosk/kiosk.toml:1:1: unknown key \"log_level\"; did you mean \"log-level\"?",
                "/etc/kiosk/kiosk.toml:2:1: unknown key \"hotplug-debounce\"; did you mean \"hotplug-debounce-ms\"?",
            ])
    }

    @Test func unknownTopLevelKeyWithoutSuggestion() {
        #expect(
            messages("colour = \"red\"") == [
                "/etc/kiosk/kiosk.toml:1:1: unknown key \"colour\"; valid: \(Self.topLevelKeys)"
            ])
    }

    @Test func unknownTopLevelTable() {
        #expect(
            messages("[screen.HDMI-A-1]\nmode = \"off\"") == [
                "/etc/kiosk/kiosk.toml:1:2: unknown key \"screen\"; did you mean \"screens\"?"
            ])
    }

    @Test func unknownKeyInAScreen() {
        #expect(
            messages(
                """
                [screens.HDMI-A-1]
                rotaton = "90"
                """) == ["/etc/kiosk/kiosk.toml:2:1: screens.HDMI-A-1: unknown key \"rotaton\"; did you mean \"rotation\"?"])
    }

    @Test func unknownKeyInATouchEntry() {
        #expect(
            messages(
                """
                [[touch]]
                match = "ILITEK*"
                screne = "HDMI-A-1"
                """) == [
                    "/etc/kiosk/kiosk.toml:1:3: touch[0]: missing key \"screen\"; valid: screen = \"HDMI-A-1\" (a connector name or a screen label)",
                    "/etc/kiosk/kiosk.toml:3:1: touch[0]: unknown key \"screne\"; did you mean \"screen\"?",
                ])
    }

    @Test func unknownKeyInInlineTables() {
        #expect(
            messages(
                """
                [screens.HDMI-A-1]
                position = { x = 0, z = 0 }
                edid = { maker = "SAM" }
                """) == [
                    "/etc/kiosk/kiosk.toml:2:12: screens.HDMI-A-1.position: missing key \"y\"; valid: position = { x = 0, y = 0 }",
                    "/etc/kiosk/kiosk.toml:2:21: screens.HDMI-A-1.position: unknown key \"z\"; valid: x, y",
                    "/etc/kiosk/kiosk.toml:3:10: screens.HDMI-A-1.edid: unknown key \"maker\"; did you mean \"make\"?",
                ])
    }

    // MARK: Values

    @Test func badMode() {
        #expect(
            messages(
                """
                [screens.HDMI-A-1]
                mode = "1920x1080@6O"
                """) == ["/etc/kiosk/kiosk.toml:2:8: screens.HDMI-A-1.mode: \"1920x1080@6O\" is not a mode; valid: \(Self.modeSpellings)"])
    }

    /// Sizes and rates no display has are refused where they are written (a headless screen of 40000x1
    /// trapped when its frame was made, and a rate near 0 Hz overflowed its frame clock).
    @Test func modesOutOfRange() {
        for mode in ["40000x1", "1x16385", "1280x800@0.00000000001", "1280x800@0.5", "1280x800@1000"] {
            #expect(
                messages("[screens.HEADLESS-1]\nmode = \"\(mode)\"") == [
                    "/etc/kiosk/kiosk.toml:2:8: screens.HEADLESS-1.mode: \"\(mode)\" is not a mode; valid: \(Self.modeSpellings)"
                ])
        }
        #expect(messages("[screens.HEADLESS-1]\nmode = \"16384x16384@999.9\"").isEmpty)
    }

    @Test func badModeWithDottedKeys() {
        #expect(
            messages("screens.DP-1.mode = \"fast\"") == [
                "/etc/kiosk/kiosk.toml:1:21: screens.DP-1.mode: \"fast\" is not a mode; valid: \(Self.modeSpellings)"
            ])
    }

    @Test func badRotation() {
        #expect(
            messages(
                """
                [screens.HDMI-A-1]
                rotation = "45"
                """) == ["/etc/kiosk/kiosk.toml:2:12: screens.HDMI-A-1.rotation: \"45\" is not a rotation; valid: \(Self.rotations)"])
    }

    /// `rotation = 90` is what most people write: a number that is a spelling is that rotation; another
    /// number is said as the number it is, and a float is the wrong type.
    @Test func rotationWrittenAsANumber() throws {
        for (degrees, rotation) in [(90, Rotation.rotated90), (180, .rotated180), (270, .rotated270)] {
            let configuration = try KioskConfiguration.parse(text: "[screens.HDMI-A-1]\nrotation = \(degrees)").get()
            #expect(configuration.screen(connector: "HDMI-A-1").rotation == rotation)
        }
        #expect(
            messages("[screens.HDMI-A-1]\nrotation = 45\n[screens.DP-1]\nrotation = 90.0") == [
                "/etc/kiosk/kiosk.toml:2:12: screens.HDMI-A-1.rotation: 45 is not a rotation; valid: \(Self.rotations)",
                "/etc/kiosk/kiosk.toml:4:12: screens.DP-1.rotation must be a string, not a float; valid: \(Self.rotations)",
            ])
    }

    @Test func badEnumeratedValues() {
        #expect(
            messages(
                """
                backend = "kms"
                log-level = "verbose"
                cursor = "sometimes"
                app = "dmeo"
                """) == [
                    "/etc/kiosk/kiosk.toml:1:11: backend: \"kms\" is not valid; valid: auto, drm, fbdev, headless",
                    "/etc/kiosk/kiosk.toml:2:13: log-level: \"verbose\" is not valid; valid: trace, debug, info, notice, warning, error, critical",
                    "/etc/kiosk/kiosk.toml:3:10: cursor: \"sometimes\" is not valid; valid: auto, hidden, always",
                    "/etc/kiosk/kiosk.toml:4:7: app: \"dmeo\" is not valid; valid: demo",
                ])
    }

    @Test func badPathsAndNames() {
        #expect(
            messages("drm-device = \"card0\"\nfbdev-device = \"\"\nseat = \"\"") == [
                "/etc/kiosk/kiosk.toml:1:14: drm-device: \"card0\" is not valid; valid: an absolute device path, e.g. /dev/dri/card0",
                "/etc/kiosk/kiosk.toml:2:16: fbdev-device: \"\" is not valid; valid: an absolute device path, e.g. /dev/fb0",
                "/etc/kiosk/kiosk.toml:3:8: seat: \"\" is not valid; valid: a seat name, e.g. seat0",
            ])
    }

    @Test func debounceOutOfRange() {
        #expect(
            messages("hotplug-debounce-ms = 70000\n") == [
                "/etc/kiosk/kiosk.toml:1:23: hotplug-debounce-ms: 70000 is out of range; valid: 0 to 60000 (milliseconds)"
            ])
        #expect(
            messages("hotplug-debounce-ms = -1\n") == [
                "/etc/kiosk/kiosk.toml:1:23: hotplug-debounce-ms: -1 is out of range; valid: 0 to 60000 (milliseconds)"
            ])
    }

    @Test func positionOutOfRange() {
        #expect(
            messages("[screens.DP-1]\nposition = { x = 0, y = 5000000 }") == [
                "/etc/kiosk/kiosk.toml:2:25: screens.DP-1.position.y: 5000000 is out of range; valid: -1000000 to 1000000 (points)"
            ])
    }

    // MARK: Types

    @Test func wrongTypes() {
        #expect(
            messages(
                """
                hotplug-debounce-ms = "300"
                seat = 0
                app-settings = [1, 2]
                [screens.HDMI-A-1]
                position = [0, 0]
                primary = "yes"
                """) == [
                    "/etc/kiosk/kiosk.toml:1:23: hotplug-debounce-ms must be an integer, not a string; valid: 0 to 60000 (milliseconds)",
                    "/etc/kiosk/kiosk.toml:2:8: seat must be a string, not an integer; valid: a seat name, e.g. seat0",
                    "/etc/kiosk/kiosk.toml:3:16: app-settings must be a table, not an array; valid: an [app-settings] table",
                    "/etc/kiosk/kiosk.toml:5:12: screens.HDMI-A-1.position must be a table, not an array; valid: position = { x = 0, y = 0 }",
                    "/etc/kiosk/kiosk.toml:6:11: screens.HDMI-A-1.primary must be a boolean, not a string; valid: true or false",
                ])
    }

    @Test func screensAsAnArrayOfTables() {
        #expect(
            messages("[[screens]]\nmode = \"off\"") == [
                "/etc/kiosk/kiosk.toml:1:3: screens must be a table, not an array; valid: [screens.NAME] tables, e.g. [screens.HDMI-A-1]"
            ])
    }

    @Test func touchAsATable() {
        #expect(
            messages("[touch]\nmatch = \"ILITEK*\"\nscreen = \"DSI-1\"") == [
                "/etc/kiosk/kiosk.toml:1:2: touch must be an array of tables, not a table; valid: [[touch]] entries"
            ])
    }

    @Test func aScreenThatIsNotATable() {
        #expect(
            messages("screens.HDMI-A-1 = \"1920x1080\"") == [
                "/etc/kiosk/kiosk.toml:1:20: screens.HDMI-A-1 must be a table, not a string; valid: a table of mode, rotation, primary, position, edid, cec, backlight, idle-timeout, overscan"
            ])
    }

    @Test func floatsAreNotIntegers() {
        #expect(
            messages("[screens.DP-1]\nposition = { x = 0.5, y = 0 }") == [
                "/etc/kiosk/kiosk.toml:2:18: screens.DP-1.position.x must be an integer, not a float"
            ])
    }

    // MARK: Screens

    @Test func sameConnectorTwice() {
        #expect(
            messages(
                """
                [screens.HDMI-A-1]
                mode = "off"

                [screens."HDMI-A-1"]
                mode = "preferred"
                """) == ["/etc/kiosk/kiosk.toml:4:10: screens.HDMI-A-1: defined twice; first at line 1"])
    }

    @Test func sameKeyTwice() {
        #expect(
            messages("seat = \"a\"\n[screens.DP-1]\nmode = \"off\"\nmode = \"current\"") == [
                "/etc/kiosk/kiosk.toml:4:1: screens.DP-1.mode: defined twice; first at line 3"
            ])
    }

    @Test func twoLabelsWithTheSameEDID() {
        #expect(
            messages(
                """
                [screens.lobby]
                edid = { make = "SAM", serial = "1" }
                [screens.hall]
                edid = { serial = "1", make = "SAM" }
                """) == [
                    "/etc/kiosk/kiosk.toml:3:10: screens.hall: same edid as screens.lobby (line 1); a display can be configured only once"
                ])
    }

    @Test func aLabelNeedsEDID() {
        #expect(
            messages("[screens.lobby-tv]\nmode = \"preferred\"") == [
                "/etc/kiosk/kiosk.toml:1:10: screens.lobby-tv: not a connector name, and no edid to find the display by; valid: \(Self.connectorSpelling), or a label with edid = { make = \"SAM\", model = \"SAMSUNG\", serial = \"H4ZN900123\" }"
            ])
    }

    @Test func aMisspeltConnectorName() {
        #expect(
            messages("[screens.hdmi-a-1]\nmode = \"off\"") == [
                "/etc/kiosk/kiosk.toml:1:10: screens.hdmi-a-1: \"hdmi-a-1\" is not a connector name; did you mean \"HDMI-A-1\"?"
            ])
    }

    @Test func emptyEDID() {
        #expect(
            messages("[screens.tv]\nedid = {}\n[screens.DP-1]\nedid = { make = \"\" }") == [
                "/etc/kiosk/kiosk.toml:2:8: screens.tv.edid: empty; valid: one or more of make, model, serial, e.g. edid = { make = \"SAM\", model = \"SAMSUNG\", serial = \"H4ZN900123\" }",
                "/etc/kiosk/kiosk.toml:4:17: screens.DP-1.edid.make: empty; valid: the text `kiosk screens` shows for the display, or no make key",
            ])
    }

    @Test func twoScreensMarkedPrimary() {
        #expect(
            messages(
                """
                [screens.HDMI-A-1]
                primary = true
                [screens.HDMI-A-2]
                primary = true
                """) == [
                    "/etc/kiosk/kiosk.toml:4:11: screens.HDMI-A-2.primary: conflicts with screens.HDMI-A-1.primary = true (line 2); only one screen can be primary"
                ])
    }

    @Test func primaryKeyAndAnotherScreenMarkedPrimary() {
        #expect(
            messages(
                """
                primary = "HDMI-A-1"
                [screens.HDMI-A-2]
                primary = true
                """) == [
                    "/etc/kiosk/kiosk.toml:3:11: screens.HDMI-A-2.primary: conflicts with primary = \"HDMI-A-1\" (line 1); only one screen can be primary"
                ])
    }

    @Test func primaryAgreeingIsFine() throws {
        let parsed = try configuration("primary = \"lobby\"\n[screens.lobby]\nedid.serial = \"7\"\nprimary = true")
        #expect(parsed.primary == "lobby")
    }

    @Test func primaryNamingNothing() {
        #expect(
            messages("primary = \"tv\"") == [
                "/etc/kiosk/kiosk.toml:1:11: primary: \"tv\" names no screen; valid: \(Self.connectorSpelling)"
            ])
    }

    // MARK: Touch

    @Test func calibrationWithFiveNumbers() {
        #expect(
            messages(
                """
                [[touch]]
                match = "ILITEK*"
                screen = "HDMI-A-1"
                calibration = [1.0, 0.0, 0.0, 0.0, 1.0]
                """) == [
                    "/etc/kiosk/kiosk.toml:4:15: touch[0].calibration: has 5 numbers; valid: exactly 6 numbers a, b, c, d, e, f: the first two rows of a 3x3 matrix, as in LIBINPUT_CALIBRATION_MATRIX (e.g. [1.0, 0.0, 0.0, 0.0, 1.0, 0.0])"
                ])
    }

    @Test func calibrationWithBadNumbers() {
        #expect(
            messages(
                """
                [[touch]]
                match = "ILITEK*"
                screen = "HDMI-A-1"
                calibration = [1, 0, "0", 0, 1, inf]
                """) == [
                    "/etc/kiosk/kiosk.toml:4:22: touch[0].calibration[2] must be a number, not a string",
                    "/etc/kiosk/kiosk.toml:4:33: touch[0].calibration[5]: inf is not a finite number",
                ])
    }

    /// A matrix that would put every touch on one line is refused (it was accepted without a word).
    @Test func singularCalibration() {
        #expect(
            messages(
                """
                [[touch]]
                match = "ILITEK*"
                screen = "HDMI-A-1"
                calibration = [1, 2, 0, 2, 4, 0]
                """) == [
                    "/etc/kiosk/kiosk.toml:4:15: touch[0].calibration: is singular: every touch would land on one line (a*e - b*d is 0); valid: exactly 6 numbers a, b, c, d, e, f: the first two rows of a 3x3 matrix, as in LIBINPUT_CALIBRATION_MATRIX (e.g. [1.0, 0.0, 0.0, 0.0, 1.0, 0.0])"
                ])
    }

    @Test func touchScreenNamingNothing() {
        #expect(
            messages(
                """
                [screens.lobby-tv]
                edid = { make = "SAM" }
                [[touch]]
                match = "ILITEK*"
                screen = "hall"
                [[touch]]
                match = "222a:0001"
                screen = "loby-tv"
                """) == [
                    "/etc/kiosk/kiosk.toml:5:10: touch[0].screen: \"hall\" names no screen; valid: \(Self.connectorSpelling) or a screen label of the file (lobby-tv)",
                    "/etc/kiosk/kiosk.toml:8:10: touch[1].screen: \"loby-tv\" names no screen; did you mean \"lobby-tv\"?",
                ])
    }

    @Test func touchScreenMayNameAnyConnector() throws {
        let parsed = try configuration("[[touch]]\nmatch = \"ILITEK*\"\nscreen = \"DSI-1\"")
        #expect(parsed.touch.first?.screen == "DSI-1")
    }

    @Test func badMatches() {
        let valid =
            "a device name glob (e.g. \"ILITEK*\"), \"vendor:product\" in hex (e.g. \"222a:0001\"), or a device path (\"/dev/input/...\", \"/sys/...\", or a udev ID_PATH starting with pci-, platform-, usb-, acpi- or virtio-)"
        #expect(
            messages(
                """
                touch = [
                  { match = "", screen = "DSI-1" },
                  { match = "/dev/fb0", screen = "DSI-1" },
                  { match = "ILITEK [", screen = "DSI-1" },
                ]
                """) == [
                    "/etc/kiosk/kiosk.toml:2:13: touch[0].match: empty; valid: \(valid)",
                    "/etc/kiosk/kiosk.toml:3:13: touch[1].match: \"/dev/fb0\" is not under /dev/input/ or /sys/; valid: \(valid)",
                    "/etc/kiosk/kiosk.toml:4:13: touch[2].match: \"ILITEK [\" is not a glob: a \"[\" is not closed by \"]\"; valid: \(valid)",
                ])
    }

    @Test func touchEntryThatIsNotATable() {
        #expect(
            messages("touch = [\"ILITEK*\"]") == [
                "/etc/kiosk/kiosk.toml:1:10: touch[0] must be a table, not a string; valid: a [[touch]] table"
            ])
    }

    // MARK: All at once

    /// Every problem of a file in one go, in file order, the environment's last.
    @Test func everyProblemAtOnce() {
        let found = messages(
            """
            backend = "kms"
            cursr = "hidden"
            [screens.HDMI-A-1]
            mode = "big"
            rotation = "sideways"
            [[touch]]
            match = "ILITEK*"
            screen = "DP-9"
            calibration = [1, 2]
            """, environment: ["KIOSK_LOG_LEVEL": "loud"])
        #expect(
            found == [
                "/etc/kiosk/kiosk.toml:1:11: backend: \"kms\" is not valid; valid: auto, drm, fbdev, headless",
                "/etc/kiosk/kiosk.toml:2:1: unknown key \"cursr\"; did you mean \"cursor\"?",
                "/etc/kiosk/kiosk.toml:4:8: screens.HDMI-A-1.mode: \"big\" is not a mode; valid: \(Self.modeSpellings)",
                "/etc/kiosk/kiosk.toml:5:12: screens.HDMI-A-1.rotation: \"sideways\" is not a rotation; valid: \(Self.rotations)",
                "/etc/kiosk/kiosk.toml:9:15: touch[0].calibration: has 2 numbers; valid: exactly 6 numbers a, b, c, d, e, f: the first two rows of a 3x3 matrix, as in LIBINPUT_CALIBRATION_MATRIX (e.g. [1.0, 0.0, 0.0, 0.0, 1.0, 0.0])",
                "environment KIOSK_LOG_LEVEL: \"loud\" is not valid; valid: trace, debug, info, notice, warning, error, critical",
            ])
    }

    @Test func problemFields() throws {
        guard case let .failure(errors) = KioskConfiguration.parse(text: "[screens.DP-1]\nmode = \"x\"", path: "k.toml") else {
            Issue.record("accepted a bad mode")
            return
        }
        let problem = try #require(errors.problems.first)
        #expect(problem.kind == .invalidValue)
        #expect(problem.file == "k.toml")
        #expect(problem.line == 2)
        #expect(problem.column == 8)
        #expect(problem.keyPath == "screens.DP-1.mode")
        #expect(problem.message == "\"x\" is not a mode")
        #expect(problem.valid == Self.modeSpellings)
        #expect(problem.location == "k.toml:2:8")
    }

    @Test func quotedKeysAreQuotedInMessages() {
        #expect(
            messages("[screens.\"lobby tv\"]\nedid = { make = \"SAM\" }\nmode = \"x\"") == [
                "/etc/kiosk/kiosk.toml:3:8: screens.\"lobby tv\".mode: \"x\" is not a mode; valid: \(Self.modeSpellings)"
            ])
    }

    @Test func longValuesAreCut() {
        let long = String(repeating: "x", count: 500)
        let found = messages("seat = 1\nbackend = \"\(long)\"")
        #expect(
            found.last
                == "/etc/kiosk/kiosk.toml:2:11: backend: \"\(String(repeating: "x", count: 80))…\" is not valid; valid: auto, drm, fbdev, headless"
        )
    }

    /// Deep app settings are the app's business, up to the parser's limit on nesting.
    @Test func deepAppSettings() {
        let key = { (depth: Int) in Array(repeating: "a", count: depth).joined(separator: ".") }
        #expect(messages("[app-settings]\n\(key(TOML.maximumNesting)) = 1").isEmpty)
        #expect(
            messages("[app-settings]\n\(key(TOML.maximumNesting + 1)) = 1") == [
                "/etc/kiosk/kiosk.toml:2:255: nested too deeply: tables and arrays can nest at most \(TOML.maximumNesting) levels"
            ])
    }
}
