import Foundation
import Graphics
import KioskConfig
import Testing

@testable import KioskRuntime

/// The one configuration model as the built programs use it: headless screens follow the per-screen
/// settings, an app of your own reads the same file and flags as `kiosk run`, a reload keeps the command line.
@Suite struct ConfigurationModelTests {
    static func trace(_ url: URL) -> [[String: Any]] {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// `kiosk` started with `arguments`, its standard error into `errors` (nil: thrown away).
    static func startKiosk(_ arguments: [String], errors: Pipe? = nil) throws -> Process {
        let process = Process()
        process.executableURL = CommandLineTests.binary
        process.arguments = arguments
        if let errors { process.standardError = errors } else { process.standardError = FileHandle.nullDevice }
        try process.run()
        return process
    }

    /// Waits up to 15 s for `predicate` (a running kiosk's trace to say something), and records an issue
    /// naming `what` when it never holds.
    static func wait(for what: String, sourceLocation: SourceLocation = #_sourceLocation, _ predicate: () -> Bool) {
        let deadline = Date().addingTimeInterval(15)
        while !predicate() && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(predicate(), "timed out waiting for \(what)", sourceLocation: sourceLocation)
    }

    /// `--rotate`, `mode = "off"`, a configured mode and `primary` change what the headless PNGs show, as
    /// they would change a board's displays.
    @Test func headlessHonoursPerScreenSettings() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("kiosk.toml")
        try """
        primary = "HDMI-A-2"
        [screens.HEADLESS-1]
        mode = "800x600"
        rotation = "180"
        [screens.DP-1]
        mode = "off"
        """.write(to: config, atomically: true, encoding: .utf8)
        let trace = folder.appendingPathComponent("trace.jsonl")
        let result = try CommandLineTests.kiosk([
            "run", "--config", config.path, "--backend", "headless", "--snapshot-dir", folder.path,
            "--headless-screen", "640x480", "--headless-screen", "HDMI-A-2=1024x768",
            "--headless-screen", "DP-1=640x480", "--rotate", "HEADLESS-1=90",
            "--exit-after", "0.5", "--trace", trace.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let connects = Self.trace(trace).filter { $0["event"] as? String == "screen.connect" }
        #expect(
            connects.map { "\($0["screen"]!) \($0["width"]!)x\($0["height"]!) \($0["rotation"]!)" }
                == ["HEADLESS-1 600x800 90", "HDMI-A-2 1024x768 normal"], "the command line's rotation wins over the file's")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("DP-1.png").path), "DP-1 is off")
        let first = try Bitmap(contentsOfPNGFile: folder.appendingPathComponent("HEADLESS-1.png").path)
        #expect(first.width == 800 && first.height == 600)
        // The primary shows the demo (its dark status bar on top); the other screen the white placeholder.
        let main = try Bitmap(contentsOfPNGFile: folder.appendingPathComponent("HDMI-A-2.png").path)
        #expect(main.pixel(x: 5, y: 5) & 0xFF < 0x40)
        #expect(first.pixel(x: 5, y: 5) & 0xFFFFFF == 0xFFFFFF)
    }

    /// `hello-kiosk` reads the config file, the variables and the flags `kiosk run` reads, and says so.
    @Test func anAppOfYourOwnReadsTheConfiguration() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("kiosk.toml")
        try "headless-screens = [\"800x600\"]\nsnapshot-dir = \"\(folder.appendingPathComponent("shots").path)\"\n"
            .write(to: config, atomically: true, encoding: .utf8)
        let hello = CommandLineTests.binary.deletingLastPathComponent().appendingPathComponent("hello-kiosk")
        let result = try CommandLineTests.run(
            hello, ["--backend", "headless", "--exit-after", "0.5"],
            environment: ["KIOSK_CONFIG": config.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("configuration \(config.path) (named by KIOSK_CONFIG)"))
        let snapshot = try Bitmap(contentsOfPNGFile: folder.appendingPathComponent("shots/HEADLESS-1.png").path)
        #expect(snapshot.width == 800 && snapshot.height == 600 && snapshot.pixel(x: 5, y: 5) & 0xFFFFFF == 0x1E3A5F)
        let help = try CommandLineTests.run(hello, ["--help"])
        #expect(help.status == 0 && help.stdout.contains("--mode SCREEN=MODE") && help.stdout.contains("[key cursor, KIOSK_CURSOR]"))
        let bad = try CommandLineTests.run(hello, ["--cursor", "sometimes"])
        #expect(
            bad.status == 2 && bad.stderr == "command line --cursor sometimes: \"sometimes\" is not valid; valid: auto, hidden, always\n")
    }

    /// SIGHUP reads the file again, and what the command line said still wins; the log and the trace say
    /// what was applied.
    @Test func aReloadKeepsTheCommandLine() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("kiosk.toml")
        try "[screens.HEADLESS-1]\nmode = \"640x480\"\n".write(to: config, atomically: true, encoding: .utf8)
        let trace = folder.appendingPathComponent("trace.jsonl")
        let errors = Pipe()
        let process = try Self.startKiosk(
            [
                "run", "--config", config.path, "--backend", "headless", "--snapshot-dir", folder.path,
                "--rotate", "HEADLESS-1=90", "--cursor", "hidden", "--trace", trace.path, "--exit-after", "20",
            ], errors: errors)
        defer { if process.isRunning { process.terminate() } }
        Self.wait(for: "the first frame") { Self.trace(trace).contains { $0["event"] as? String == "frame" } }
        try "cursor = \"always\"\n[screens.HEADLESS-1]\nmode = \"800x600\"\nrotation = \"180\"\n".write(
            to: config, atomically: true, encoding: .utf8)
        kill(process.processIdentifier, SIGHUP)
        Self.wait(for: "the reload") { Self.trace(trace).contains { $0["event"] as? String == "config.reload" } }
        let events = Self.trace(trace)
        let mode = events.last { $0["event"] as? String == "screen.mode" }
        #expect(mode?["width"] as? Int == 600 && mode?["height"] as? Int == 800 && mode?["rotation"] as? String == "90")
        let reload = events.last { $0["event"] as? String == "config.reload" }
        #expect(reload?["applied"] as? [String] == ["mode", "rotation"], "the cursor stays hidden: the command line set it")
        process.terminate()
        process.waitUntilExit()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("SIGHUP: applied mode, rotation from \(config.path)"), "\(log)")
    }

    /// The reload's report: which settings changed, and whether each applies live.
    @Test func changesBetweenConfigurations() throws {
        var old = KioskConfiguration()
        var new = old
        new.cursor = .hidden
        new.seat = "seat1"
        new.appSettings = ["title": .string("Hello")]
        #expect(
            KioskRuntime.changes(from: old, to: new).map { "\($0.key) \($0.reload)" } == [
                "seat restart", "cursor live", "app-settings restart",
            ])
        old.touch = [TouchConfiguration(match: .name("A*"), screen: "DSI-1")]
        new = old
        new.touch[0].calibration = [1, 0, 0, 0, 1, 0]
        #expect(KioskRuntime.changes(from: old, to: new).map(\.key) == ["touch"])
        // A per-screen setting with a flag is reported by its key; the rest of a screen's table as screens.
        old.screens = [ScreenConfiguration(name: "HDMI-A-1")]
        new = old
        new.screens[0].cec = .off
        #expect(KioskRuntime.changes(from: old, to: new).map(\.key) == ["cec"])
        new = old
        new.screens[0].position = ScreenConfiguration.Position(x: 0, y: 0)
        #expect(KioskRuntime.changes(from: old, to: new).map(\.key) == ["screens"])
    }

    /// A file edited only in its comments and layout changes nothing (every section had moved a line
    /// down, and the reload reported screens, touch and power applied).
    @Test func movedLinesAndCommentsAreNoChange() throws {
        let text = """
            [screens.HDMI-A-1]
            mode = "1920x1080"
            [[touch]]
            match = "ILITEK*"
            screen = "HDMI-A-1"
            [[power.schedule]]
            days = "daily"
            off = "22:00"
            on = "07:00"
            """
        let old = try KioskConfiguration.parse(text: text).get()
        let new = try KioskConfiguration.parse(text: "# the lobby's kiosk\n\n" + text).get()
        #expect(old.screens != new.screens)  // the same settings, written two lines lower
        #expect(KioskRuntime.changes(from: old, to: new).isEmpty)
        let moved = try KioskConfiguration.parse(text: text.replacingOccurrences(of: "22:00", with: "23:00")).get()
        #expect(KioskRuntime.changes(from: old, to: moved).map(\.key) == ["power"])
    }

    /// Every key of the file (a `[screens.NAME]` table's too) is documented in the example file, and every
    /// flag and per-screen setting in `kiosk run --help`.
    @Test func everySettingIsDocumented() throws {
        let example = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("Kiosk/kiosk.toml"), encoding: .utf8)
        for setting in KioskConfiguration.settings where setting.isTopLevelKey {
            #expect(
                example.contains("\n\(setting.key) = ") || example.contains("\n# \(setting.key) = "),
                "\(setting.key) is not in Kiosk/kiosk.toml")
        }
        for setting in KioskConfiguration.screenSettings {
            #expect(example.contains("\n\(setting.key) = "), "[screens.NAME] \(setting.key) is not in Kiosk/kiosk.toml")
        }
        let help = try CommandLineTests.kiosk(["run", "--help"]).stdout
        for flag in KioskConfiguration.settings.compactMap(\.flag) {
            #expect(help.contains(flag), "\(flag) is not in kiosk run --help")
        }
        // The per-screen settings, each with its help (whose words the help's columns may wrap).
        let words = help.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for setting in KioskConfiguration.screenSettings {
            #expect(words.contains("\(setting.key) \(setting.help)"), "[screens.NAME] \(setting.key) is not in kiosk run --help")
        }
    }
}
