import Foundation
import KioskConfig
import Testing

/// Good files: what each key turns into, and what an absent key or file means.
@Suite struct KioskConfigurationTests {
    @Test func exampleLoadsWithoutProblems() throws {
        let loaded = KioskConfiguration.load(path: examplePath, environment: [:], vocabulary: kioskVocabulary)
        let configuration = try loaded.get()
        #expect(configuration.path == examplePath)
        #expect(configuration.backend == "auto")
        #expect(configuration.drmDevice == "/dev/dri/card0")
        #expect(configuration.fbdevDevice == "/dev/fb0")
        #expect(configuration.primary == "HDMI-A-1")
        #expect(configuration.app == "demo")
        #expect(configuration.appSettings == ["title": .string("Welcome")])
        #expect(configuration.screens.map(\.name) == ["HDMI-A-1", "lobby-tv", "DSI-1"])
        #expect(configuration.screen(connector: "DSI-1").backlight == "backlight")
        #expect(configuration.screens[1].edid == .init(make: "SAM", model: "SAMSUNG", serial: "H4ZN900123"))
        #expect(configuration.touch.map(\.screen) == ["HDMI-A-1", "lobby-tv"])
        #expect(configuration.touch[1].match == .vendorProduct(vendor: 0x222a, product: 0x0001))
    }

    /// "Every key commented": each key of the schema is set in the example, right under a comment.
    @Test func exampleSetsEveryKeyUnderAComment() throws {
        let lines = try exampleText().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let keys = [
            "backend", "drm-device", "fbdev-device", "seat", "log-level", "cursor", "hotplug-debounce-ms",
            "cec-on-idle", "session-timeout", "primary", "app", "[app-settings]", "[screens.", "mode", "rotation", "position",
            "cec", "edid", "backlight",
            "[[touch]]", "match", "screen", "calibration",
        ]
        for key in keys {
            let index = lines.firstIndex { $0.hasPrefix(key.hasPrefix("[") ? key : key + " =") }
            #expect(index != nil, "\(key) is not in the example")
            if let index { #expect(index > 0 && lines[index - 1].hasPrefix("#"), "\(key) has no comment above it") }
        }
    }

    @Test func emptyFileIsTheDefaults() throws {
        var expected = KioskConfiguration.default
        expected.path = configPath
        #expect(try configuration("") == expected)
        #expect(try configuration("# only a comment\n\n") == expected)
    }

    @Test func defaults() {
        let defaults = KioskConfiguration.default
        #expect(defaults.backend == "auto")
        #expect(defaults.drmDevice == nil)
        #expect(defaults.fbdevDevice == nil)
        #expect(defaults.seat == "seat0")
        #expect(defaults.logLevel == .info)
        #expect(defaults.cursor == .auto)
        #expect(defaults.hotplugDebounceMilliseconds == 300)
        #expect(defaults.hotplugDebounce == .milliseconds(300))
        #expect(defaults.primary == nil)
        #expect(defaults.app == "demo")
        #expect(defaults.appSettings.isEmpty)
        #expect(defaults.screens.isEmpty)
        #expect(defaults.touch.isEmpty)
    }

    @Test func absentFileIsTheDefaults() throws {
        let path = "/nonexistent-\(UUID().uuidString)/kiosk.toml"
        #expect(try KioskConfiguration.load(path: path, environment: [:]).get() == .default)
    }

    @Test func absentFileWhenRequiredIsAProblem() {
        let path = "/nonexistent-dir/kiosk.toml"
        let result = KioskConfiguration.load(path: path, environment: [:], requireFile: true)
        guard case let .failure(errors) = result else {
            Issue.record("loaded a missing file")
            return
        }
        #expect(errors.description == "/nonexistent-dir/kiosk.toml: cannot read: No such file or directory")
    }

    @Test func directoryIsAProblem() {
        guard case let .failure(errors) = KioskConfiguration.load(path: "/tmp", environment: [:]) else {
            Issue.record("loaded a directory")
            return
        }
        #expect(errors.description == "/tmp: cannot read: Is a directory")
    }

    /// A FIFO or a device is refused at once (reading a FIFO waited for a writer, on the main thread of a
    /// running kiosk for a reload); /dev/null is an empty file.
    @Test func onlyARegularFileIsRead() throws {
        let folder = "/tmp/kiosk-config-kinds-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        #expect(mkdir(folder, 0o700) == 0)
        defer {
            unlink(folder + "/fifo")
            rmdir(folder)
        }
        #expect(mkfifo(folder + "/fifo", 0o600) == 0)
        for (path, expected) in [
            (folder + "/fifo", "\(folder)/fifo: cannot read: a FIFO, not a file"),
            ("/dev/zero", "/dev/zero: cannot read: a device, not a file"),
        ] {
            guard case let .failure(errors) = KioskConfiguration.load(path: path, environment: [:], requireFile: true) else {
                Issue.record("loaded \(path)")
                continue
            }
            #expect(errors.description == expected)
        }
        guard case .success = KioskConfiguration.load(path: "/dev/null", environment: [:], requireFile: true) else {
            Issue.record("/dev/null refused")
            return
        }
    }

    @Test func configPathFromEnvironment() {
        func source(_ environment: [String: String], config: String? = nil) -> ConfigurationSource {
            ConfigurationSource(commandLine: CommandLineSettings(configPath: config), environment: environment, vocabulary: kioskVocabulary)
        }
        #expect(source([:]).path == "/etc/kiosk/kiosk.toml" && !source([:]).requiresFile)
        #expect(source(["KIOSK_CONFIG": ""]).path == "/etc/kiosk/kiosk.toml")
        #expect(source(["KIOSK_CONFIG": "/srv/k.toml"]).path == "/srv/k.toml" && source(["KIOSK_CONFIG": "/srv/k.toml"]).requiresFile)
        #expect(source(["KIOSK_CONFIG": "/srv/k.toml"], config: "/a.toml").path == "/a.toml")
    }

    @Test func topLevelKeys() throws {
        let parsed = try configuration(
            """
            backend = "drm"
            drm-device = "/dev/dri/card1"
            fbdev-device = "/dev/fb1"
            seat = "seat1"
            log-level = "debug"
            cursor = "hidden"
            hotplug-debounce-ms = 0
            primary = "DP-2"
            app = "demo"
            """)
        #expect(parsed.backend == "drm")
        #expect(parsed.drmDevice == "/dev/dri/card1")
        #expect(parsed.fbdevDevice == "/dev/fb1")
        #expect(parsed.seat == "seat1")
        #expect(parsed.logLevel == .debug)
        #expect(parsed.cursor == .hidden)
        #expect(parsed.hotplugDebounceMilliseconds == 0)
        #expect(parsed.primary == "DP-2")
        #expect(parsed.app == "demo")
    }

    @Test(arguments: ["auto", "drm", "fbdev", "headless"])
    func everyBackend(backend: String) throws {
        #expect(try configuration("backend = \"\(backend)\"").backend == backend)
    }

    @Test(arguments: KioskConfiguration.LogLevel.allCases)
    func everyLogLevel(level: KioskConfiguration.LogLevel) throws {
        #expect(try configuration("log-level = \"\(level.rawValue)\"").logLevel == level)
    }

    @Test(arguments: KioskConfiguration.Cursor.allCases)
    func everyCursor(cursor: KioskConfiguration.Cursor) throws {
        #expect(try configuration("cursor = \"\(cursor.rawValue)\"").cursor == cursor)
    }

    /// People type names in capitals (`DEBUG`); paths and names of things stay as written.
    @Test func enumeratedValuesIgnoreCase() throws {
        let parsed = try configuration("backend = \"DRM\"\nlog-level = \"Warning\"\ncursor = \"ALWAYS\"")
        #expect(parsed.backend == "drm")
        #expect(parsed.logLevel == .warning)
        #expect(parsed.cursor == .always)
    }

    @Test func debounceLimits() throws {
        #expect(try configuration("hotplug-debounce-ms = 60000").hotplugDebounceMilliseconds == 60_000)
        #expect(try configuration("hotplug-debounce-ms = 0").hotplugDebounceMilliseconds == 0)
    }

    @Test func aScreenWithEveryKey() throws {
        let parsed = try configuration(
            """
            [screens.HDMI-A-1]
            mode = "1920x1080@59.94"
            rotation = "flipped-270"
            primary = true
            position = { x = -1920, y = 40 }
            edid = { make = "DEL" }
            """)
        let screen = try #require(parsed.screens.first)
        #expect(screen.name == "HDMI-A-1")
        #expect(screen.connector == "HDMI-A-1")
        #expect(screen.mode == .size(width: 1920, height: 1080, refresh: 59.94))
        #expect(screen.rotation == .flipped270)
        #expect(screen.primary)
        #expect(screen.position == .init(x: -1920, y: 40))
        #expect(screen.edid == .init(make: "DEL"))
        #expect(screen.location == FilePosition(line: 1, column: 10))
        #expect(screen.modeLocation == FilePosition(line: 2, column: 8))
        // primary = true makes it the main screen when the top level says nothing.
        #expect(parsed.primary == "HDMI-A-1")
    }

    @Test(arguments: ["preferred", "current", "off", "1280x720", "1280x720@60"])
    func modes(text: String) throws {
        let parsed = try configuration("[screens.DSI-1]\nmode = \"\(text)\"")
        #expect(parsed.screens.first?.mode == ModeRequest(text))
    }

    @Test(arguments: ["normal", "90", "180", "270", "flipped", "flipped-90", "flipped-180", "flipped-270"])
    func rotations(name: String) throws {
        let parsed = try configuration("[screens.DSI-1]\nrotation = \"\(name)\"")
        #expect(parsed.screens.first?.rotation?.name == name)
    }

    @Test func labelledScreenMatchesByEDID() throws {
        let parsed = try configuration(
            """
            [screens.lobby-tv]
            edid = { model = "SAMSUNG", serial = "H4ZN900123" }
            [screens."DP-1"]
            edid.make = "DEL"
            """)
        let lobby = try #require(parsed.screen(named: "lobby-tv"))
        #expect(lobby.connector == nil)
        #expect(lobby.matches(connector: "HDMI-A-2", make: "SAM", model: "SAMSUNG", serial: "H4ZN900123"))
        #expect(!lobby.matches(connector: "HDMI-A-2", make: "SAM", model: "SAMSUNG", serial: "other"))
        // A connector name with edid: that display on that connector only.
        let dp = try #require(parsed.screen(named: "DP-1"))
        #expect(dp.matches(connector: "DP-1", make: "DEL", model: "U2720Q", serial: nil))
        #expect(!dp.matches(connector: "DP-2", make: "DEL", model: "U2720Q", serial: nil))
        #expect(!dp.matches(connector: "DP-1", make: "SAM", model: nil, serial: nil))
    }

    /// Tables are unordered in TOML; screens come back in the order they were written.
    @Test func screensInFileOrder() throws {
        let parsed = try configuration(
            """
            [screens.eDP-1]
            [screens.DP-3]
            [screens.HDMI-A-1]
            [screens.zebra]
            edid = { serial = "1" }
            [screens.DP-1]
            """)
        #expect(parsed.screens.map(\.name) == ["eDP-1", "DP-3", "HDMI-A-1", "zebra", "DP-1"])
        #expect(parsed.screens.map(\.line) == [1, 2, 3, 4, 6])
    }

    /// The same file written with dotted keys and inline tables means the same thing.
    @Test func layoutsAgree() throws {
        let sections = try configuration(
            """
            [screens.HDMI-A-1]
            mode = "1280x720"
            position = { x = 1, y = 2 }
            [[touch]]
            match = "Goodix*"
            screen = "HDMI-A-1"
            """)
        let dotted = try configuration(
            """
            screens.HDMI-A-1.mode = "1280x720"
            screens.HDMI-A-1.position.x = 1
            screens.HDMI-A-1.position.y = 2
            touch = [{ match = "Goodix*", screen = "HDMI-A-1" }]
            """)
        let inline = try configuration(
            """
            screens = { HDMI-A-1 = { mode = "1280x720", position = { x = 1, y = 2 } } }
            touch = [
                { match = "Goodix*", screen = "HDMI-A-1" },  # the panel's digitizer
            ]
            """)
        func stripped(_ configuration: KioskConfiguration) -> KioskConfiguration {
            var copy = configuration
            copy.screens = copy.screens.map {
                var s = $0
                s.location = nil
                s.modeLocation = nil
                return s
            }
            copy.touch = copy.touch.map {
                var t = $0
                t.location = nil
                return t
            }
            return copy
        }
        #expect(stripped(sections) == stripped(dotted))
        #expect(stripped(sections) == stripped(inline))
        #expect(dotted.screens.first?.modeLocation == FilePosition(line: 1, column: 25))
        #expect(inline.touch.first?.line == 3)
    }

    @Test func touchEntries() throws {
        let parsed = try configuration(
            """
            [[touch]]
            match = "ILITEK*"
            screen = "HDMI-A-1"
            calibration = [0, -1, 1, 1, 0, 0]

            [[touch]]
            match = "/dev/input/by-path/platform-3f204000.spi-cs-1-event"
            screen = "DSI-1"

            [[touch]]
            match = "platform-3f204000.spi-cs-1"
            screen = "DSI-1"
            """)
        #expect(parsed.touch.count == 3)
        #expect(parsed.touch[0].match == .name("ILITEK*"))
        #expect(parsed.touch[0].calibration == [0, -1, 1, 1, 0, 0])
        #expect(parsed.touch[0].location == FilePosition(line: 1, column: 3))
        #expect(parsed.touch[1].match == .path("/dev/input/by-path/platform-3f204000.spi-cs-1-event"))
        #expect(parsed.touch[1].calibration == nil)
        #expect(parsed.touch[2].match == .path("platform-3f204000.spi-cs-1"))
        #expect(parsed.touch.map(\.line) == [1, 6, 10])
    }

    @Test func appSettingsKeepEveryTOMLType() throws {
        let parsed = try configuration(
            """
            [app-settings]
            title = "Welcome"
            count = 3
            scale = 1.5
            dark = true
            opens = 1979-05-27T07:32:00Z
            day = 1979-05-27
            at = 07:32:00
            colours = ["red", 2]
            nested = { deep = { deeper = [[1], []] } }
            not-a-number = nan
            """)
        let settings = parsed.appSettings
        #expect(settings["title"] == .string("Welcome"))
        #expect(settings["count"] == .integer(3))
        #expect(settings["scale"] == .float(1.5))
        #expect(settings["dark"] == .boolean(true))
        #expect(settings["opens"] == .dateTime("1979-05-27T07:32:00Z"))
        #expect(settings["day"] == .dateTime("1979-05-27"))
        #expect(settings["at"] == .dateTime("07:32:00"))
        #expect(settings["colours"] == .array([.string("red"), .integer(2)]))
        #expect(settings["nested"]?["deep"]?["deeper"] == .array([.array([.integer(1)]), .array([])]))
        // NaN equals itself here, so reading the same file twice gives equal configurations (SIGHUP diffing).
        #expect(settings["not-a-number"] == .float(.nan))
        #expect(try configuration("[app-settings]\na = nan") == configuration("[app-settings]\na = nan"))
    }

    @Test func aUTF8ByteOrderMarkIsFine() throws {
        let parsed = try configuration("\u{FEFF}seat = \"seat1\"\n[screens.lobby]\nedid = { make = \"SAM\" }")
        #expect(parsed.seat == "seat1")
        #expect(parsed.screens.first?.location == FilePosition(line: 2, column: 10))
    }

    @Test func otherAppsCanBeKnown() throws {
        let result = KioskConfiguration.parse(text: "app = \"signage\"", vocabulary: Vocabulary(apps: ["demo", "signage"]))
        #expect(try result.get().app == "signage")
    }
}
