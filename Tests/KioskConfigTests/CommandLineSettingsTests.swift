import Foundation
import Geometry
import KioskConfig
import Testing

/// The command line in the one configuration model: every setting's flag, parsed by the setting's own
/// parser, applied over the file and the environment, and again after every reload.
@Suite struct CommandLineSettingsTests {
    static func parse(_ arguments: [String]) throws -> CommandLineSettings {
        try CommandLineSettings.parse(arguments).get()
    }

    /// The configuration `arguments` make on top of `file` (and `environment`).
    static func configuration(_ arguments: [String], file: String = "", environment: [String: String] = [:]) throws -> KioskConfiguration {
        var configuration = try KioskConfiguration.parse(
            text: file, path: configPath, environment: environment, vocabulary: kioskVocabulary
        ).get()
        let problems = try parse(arguments).apply(to: &configuration, vocabulary: kioskVocabulary)
        #expect(problems.isEmpty, "\(problems)")
        return configuration
    }

    static func problems(_ arguments: [String], file: String = "") -> [String] {
        switch CommandLineSettings.parse(arguments) {
        case .failure(let errors): return errors.problems.map(\.description)
        case .success(let settings):
            var configuration = (try? KioskConfiguration.parse(text: file, path: configPath, vocabulary: kioskVocabulary).get()) ?? .default
            return settings.apply(to: &configuration, vocabulary: kioskVocabulary).map(\.description)
        }
    }

    /// Every setting with a flag takes `--flag VALUE` and `--flag=VALUE`; a flag without a value is a switch.
    @Test func spellings() throws {
        let parsed = try Self.configuration([
            "--backend", "headless", "--cursor=hidden", "--no-atomic", "--hotplug-debounce", "0",
            "--seat", "seat1", "--log-level", "DEBUG", "--drm-device=/dev/dri/card1",
            "--trace", "/tmp/t.jsonl", "--exit-after", "2.5", "--snapshot-dir", "shots",
        ])
        #expect(parsed.backend == "headless" && parsed.cursor == .hidden && parsed.noAtomic && parsed.hotplugDebounceMilliseconds == 0)
        #expect(parsed.seat == "seat1" && parsed.logLevel == .debug && parsed.drmDevice == "/dev/dri/card1")
        #expect(parsed.tracePath == "/tmp/t.jsonl" && parsed.exitAfter == 2.5 && parsed.snapshotDirectory == "shots")
        #expect(try Self.configuration(["--no-atomic=false"], file: "no-atomic = true").noAtomic == false)
    }

    /// Every flag in the table has a parser behind it: a value the file takes, the flag takes too.
    @Test func everyFlagIsASetting() {
        let flags = KioskConfiguration.settings.compactMap(\.flag)
        #expect(Set(flags).count == flags.count)
        #expect(flags.contains("--mode") && flags.contains("--rotate") && flags.contains("--touch") && flags.contains("--headless-screen"))
    }

    /// The command line wins over the environment, which wins over the file.
    @Test func precedence() throws {
        let parsed = try Self.configuration(
            ["--cursor", "always"], file: "cursor = \"hidden\"\nseat = \"seat2\"",
            environment: ["KIOSK_CURSOR": "auto", "KIOSK_SEAT": "seat3"])
        #expect(parsed.cursor == .always && parsed.seat == "seat3")
    }

    /// `--mode` and `--rotate` win over the file's section for that connector, and over a label that
    /// matches the same display by EDID; what the command line does not set still comes from the file.
    @Test func perScreenFlagsWinOverTheFile() throws {
        let file = """
            [screens.lobby]
            edid = { make = "SAM" }
            mode = "1280x720"
            rotation = "180"
            [screens.HDMI-A-1]
            rotation = "90"
            """
        let parsed = try Self.configuration(["--mode", "HDMI-A-1=1920x1080@60", "--rotate=DSI-1=270"], file: file)
        let samsung = ScreenConfiguration.EDIDMatch(make: "SAM")
        var samsungOnHDMI = ResolvedScreen(mode: .size(width: 1920, height: 1080, refresh: 60), rotation: .rotated180)
        samsungOnHDMI.labels = ["lobby"]
        #expect(parsed.screen(connector: "HDMI-A-1", edid: samsung) == samsungOnHDMI)
        #expect(
            parsed.screen(connector: "HDMI-A-1")
                == ResolvedScreen(mode: .size(width: 1920, height: 1080, refresh: 60), rotation: .rotated90))
        #expect(parsed.screen(connector: "DSI-1") == ResolvedScreen(rotation: .rotated270))
        // A label set on the command line changes that label's display.
        let byLabel = try Self.configuration(["--mode", "lobby=off"], file: file)
        #expect(byLabel.screen(connector: "DP-1", edid: samsung).mode == .off)
        // And that display alone: others keep their own (it turned every display off).
        #expect(byLabel.screen(connector: "DSI-1").mode == nil)
        #expect(byLabel.screen(connector: "DP-1", edid: .init(make: "DEL")).mode == nil)
    }

    /// A touch rule's screen may be a label: it stands for the connected display the label matches by EDID
    /// (the example config's rule named a label, and every touch of its device was dropped).
    @Test func aScreenReferenceByLabelFindsItsDisplayByEDID() throws {
        let parsed = try Self.configuration(
            [], file: "[screens.lobby-tv]\nedid = { make = \"SAM\" }\n[[touch]]\nmatch = \"222a:0001\"\nscreen = \"lobby-tv\"")
        let displays: [(connector: String, edid: ScreenConfiguration.EDIDMatch?)] = [
            ("DSI-1", nil), ("HDMI-A-1", .init(make: "DEL")), ("HDMI-A-2", .init(make: "SAM", model: "SAMSUNG")),
        ]
        #expect(parsed.screen(connector: "HDMI-A-2", edid: displays[2].edid).labels == ["lobby-tv"])
        // As a backend resolved them, once for each display.
        let resolved = displays.map { (connector: $0.connector, settings: parsed.screen(connector: $0.connector, edid: $0.edid)) }
        #expect(KioskConfiguration.connector(for: "lobby-tv", among: resolved) == "HDMI-A-2")
        #expect(KioskConfiguration.connector(for: "lobby-tv", among: Array(resolved.prefix(2))) == nil)
        #expect(KioskConfiguration.connector(for: "DSI-1", among: []) == "DSI-1")
        #expect(parsed.touch.first?.screen == "lobby-tv")
    }

    /// `--touch` rules come before the file's, in the order given.
    @Test func touchRulesComeFirst() throws {
        let parsed = try Self.configuration(
            ["--touch", "ILITEK*=DSI-1", "--touch", "222a:0001=HDMI-A-1"],
            file: "[[touch]]\nmatch = \"eGalax*\"\nscreen = \"DP-1\"")
        #expect(parsed.touch.map(\.match.description) == ["ILITEK*", "222a:0001", "eGalax*"])
        #expect(parsed.touch.map(\.isFromCommandLine) == [true, true, false])
    }

    /// A list flag replaces the file's list; repeated, it adds to it.
    @Test func headlessScreensReplaceTheFilesList() throws {
        let parsed = try Self.configuration(
            ["--headless-screen", "640x480", "--headless-screen", "HDMI-A-2=1920x1080@50"],
            file: "headless-screens = [\"800x600\", \"1024x768\", \"1280x720\"]")
        #expect(
            parsed.headlessScreens == [
                HeadlessScreen(name: "HEADLESS-1", mode: DisplayMode(width: 640, height: 480, refreshRate: 60)),
                HeadlessScreen(name: "HDMI-A-2", mode: DisplayMode(width: 1920, height: 1080, refreshRate: 50)),
            ])
    }

    /// `--config` names the file, and is not a setting.
    @Test func theConfigOption() throws {
        #expect(try Self.parse(["--config", "/srv/kiosk.toml", "--cursor", "auto"]).configPath == "/srv/kiosk.toml")
        #expect(try Self.parse(["--config=/a.toml"]).configPath == "/a.toml")
    }

    /// Problems name the option and say what is valid; every problem of the command line at once.
    @Test func problemsNameTheOption() {
        #expect(
            Self.problems(["--cursr", "hidden", "--cursor", "sometimes", "bogus", "--mode", "HDMI-A-1=big", "--config", ""]) == [
                "command line --cursr: unknown option; did you mean --cursor?",
                "command line: unexpected argument \"bogus\"; valid: options of the form --name VALUE",
                "command line --config: needs a file path, not an empty one",
            ])
        #expect(
            Self.problems(["--cursor", "sometimes", "--mode", "HDMI-A-1=big", "--hotplug-debounce", "-1"]) == [
                "command line --cursor sometimes: \"sometimes\" is not valid; valid: auto, hidden, always",
                "command line --mode HDMI-A-1=big: \"big\" is not a mode; valid: SCREEN=MODE with MODE preferred, current, off, WxH (e.g. 1920x1080) or WxH@Hz (e.g. 1920x1080@60 or 1920x1080@59.94), each side 1 to 16384, Hz at least 1 and under 1000",
                "command line --hotplug-debounce -1: -1 is out of range; valid: 0 to 60000 (milliseconds)",
            ])
        #expect(Self.problems(["--trace"]) == ["command line --trace: needs a value; valid: a file path, or off"])
    }

    /// Screens named on the command line must exist in the file's terms, with a did-you-mean.
    @Test func screenNamesAreChecked() {
        #expect(
            Self.problems(
                ["--rotate", "hdmi-a-1=90", "--touch", "ILITEK*=lobbby", "--primary", "tv"],
                file: "[screens.lobby]\nedid = { make = \"SAM\" }") == [
                    "command line --rotate hdmi-a-1=90: \"hdmi-a-1\" names no screen; did you mean \"HDMI-A-1\"?",
                    "command line --touch ILITEK*=lobbby: \"lobbby\" names no screen; did you mean \"lobby\"?",
                    "command line --primary tv: \"tv\" names no screen; valid: a connector name (TYPE-n, e.g. HDMI-A-1, DP-1, eDP-1, DSI-1) or a screen label of the file (lobby)",
                ])
    }

    /// Headless screen names become file names: only safe ones, each once.
    @Test func headlessScreenNamesAreFileNames() {
        #expect(
            Self.problems([
                "--headless-screen", "../escape=640x480", "--headless-screen", "a b/c=640x480",
                "--headless-screen", "X=640x480", "--headless-screen", "X=800x600",
            ]) == [
                "command line --headless-screen ../escape=640x480: \"../escape\" cannot name a screen (its snapshot file); valid: \(HeadlessScreen.validSpelling)",
                "command line --headless-screen a b/c=640x480: \"a b/c\" cannot name a screen (its snapshot file); valid: \(HeadlessScreen.validSpelling)",
                "command line --headless-screen X=800x600: two headless screens named X (one snapshot file each); valid: \(HeadlessScreen.validSpelling)",
            ])
    }

    /// What a reload reads: the file again, under the same environment and command line, so the command
    /// line's settings survive a SIGHUP that changes the file.
    @Test func aReloadKeepsTheCommandLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("kiosk.toml")
        try "cursor = \"hidden\"\nprimary = \"DP-1\"\n[screens.HDMI-A-1]\nmode = \"1280x720\"\n".write(
            to: file, atomically: true, encoding: .utf8)
        let commandLine = try Self.parse([
            "--config", file.path, "--cursor", "always", "--primary", "HDMI-A-1", "--mode", "HDMI-A-1=1920x1080",
            "--touch", "ILITEK*=HDMI-A-1",
        ])
        let source = ConfigurationSource(commandLine: commandLine, environment: [:], vocabulary: kioskVocabulary)
        let first = try source.load().get()
        try "cursor = \"auto\"\nprimary = \"DP-2\"\nseat = \"seat1\"\n[screens.HDMI-A-1]\nmode = \"800x600\"\n".write(
            to: file, atomically: true, encoding: .utf8)
        let reloaded = try source.load().get()
        for configuration in [first, reloaded] {
            #expect(configuration.cursor == .always && configuration.primary == "HDMI-A-1")
            #expect(configuration.screen(connector: "HDMI-A-1").mode == .size(width: 1920, height: 1080, refresh: nil))
            #expect(configuration.touch.first?.match.description == "ILITEK*")
        }
        #expect(reloaded.seat == "seat1", "what the command line does not set comes from the new file")
    }

    /// A file with problems still gives its valid settings to a client that asks for them (with the
    /// problems, as `load()` reports them), the environment's and the command line's over them.
    @Test func theValidSettingsOfABrokenFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-valid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("kiosk.toml")
        try "control-socket = \"/tmp/k\"\ncursor = \"sometimes\"\nseat = \"seat1\"\n".write(to: file, atomically: true, encoding: .utf8)
        let source = ConfigurationSource(
            commandLine: try Self.parse(["--config", file.path, "--primary", "HDMI-A-1"]), environment: ["KIOSK_SEAT": "seat2"],
            vocabulary: kioskVocabulary)
        let settings = source.readValidSettings()
        #expect(
            settings.configuration.controlSocket == .path("/tmp/k") && settings.configuration.cursor == KioskConfiguration.default.cursor)
        #expect(settings.configuration.seat == "seat2" && settings.configuration.primary == "HDMI-A-1")
        guard case .failure(let errors) = source.load() else {
            Issue.record("a file with a problem loaded")
            return
        }
        #expect(settings.problems == errors.problems && errors.problems.map(\.keyPath) == ["cursor"])
    }

    /// A file named by `KIOSK_CONFIG` must exist, as one named by `--config` must.
    @Test func aNamedFileMustExist() {
        let source = ConfigurationSource(environment: ["KIOSK_CONFIG": "/nonexistent/kiosk.toml"], vocabulary: kioskVocabulary)
        guard case .failure(let errors) = source.load() else {
            Issue.record("a missing KIOSK_CONFIG file was taken as the defaults")
            return
        }
        #expect(errors.description == "/nonexistent/kiosk.toml: cannot read: No such file or directory")
    }
}
