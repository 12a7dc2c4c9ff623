import Foundation
import Testing

/// An app of your own on `KioskRuntime.main` (`hello-kiosk`, built as a person builds it) has what `kiosk`
/// has: `check-config` with its own `[app-settings]`, `--version`, a `--help` that lists its own settings
/// and never the demo's, and an `app` setting that names only what it runs.
@Suite struct AppProgramTests {
    static let hello = CommandLineTests.binary.deletingLastPathComponent().appendingPathComponent("hello-kiosk")

    static func hello(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandLineTests.Result {
        try CommandLineTests.run(hello, arguments, environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"].merging(environment) { $1 })
    }

    @Test func checkConfigChecksTheAppsOwnSettings() throws {
        let good = try ConfigCommandTests.write("[app-settings]\ngreeting = \"Welcome\"\n")
        defer { try? FileManager.default.removeItem(at: good.deletingLastPathComponent()) }
        let ok = try Self.hello(["check-config", "--config", good.path])
        #expect(ok.status == 0 && ok.stdout == "\(good.path): OK\n", "\(ok)")
        // The kiosk's own check-config checks the demo's settings, and says whose.
        let kiosk = try CommandLineTests.kiosk(["check-config", "--config", good.path])
        #expect(kiosk.status == 1 && kiosk.stdout.contains("app-settings: unknown key \"greeting\""), "\(kiosk)")
        #expect(kiosk.stdout.contains("note: [app-settings] is checked against kiosk's app settings"), "\(kiosk)")

        let bad = try ConfigCommandTests.write("[app-settings]\ngreeting = 3\ntitle = \"x\"\n")
        defer { try? FileManager.default.removeItem(at: bad.deletingLastPathComponent()) }
        let problems = try Self.hello(["check-config", "--config", bad.path])
        #expect(problems.status == 1, "\(problems)")
        #expect(problems.stdout.contains("\(bad.path):2:12: app-settings.greeting must be a string, not an integer"), "\(problems.stdout)")
        #expect(problems.stdout.contains("\(bad.path):3:1: app-settings: unknown key \"title\"; valid: greeting"), "\(problems.stdout)")
        #expect(
            problems.stdout.hasSuffix(
                "\(bad.path): 2 problems\nnote: [app-settings] is checked against hello-kiosk's app settings (hello-kiosk --help lists them); an app of your own checks its file with `APP check-config`\n"
            ))
        let help = try Self.hello(["check-config", "--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: hello-kiosk check-config [--config FILE]"), "\(help)")
        // Run with that file, the app sends it to its own check-config (the kiosk's knows the demo's settings).
        let run = try Self.hello(["--config", bad.path, "--exit-after", "0.1"])
        #expect(
            run.status == 2 && run.stderr.contains("fix it, then check it with `hello-kiosk check-config --config \(bad.path)`"), "\(run)")
    }

    @Test func versionAndHelpAreTheApps() throws {
        let version = try Self.hello(["--version"])
        #expect(version.status == 0 && version.stdout == "hello-kiosk 1.0 (kiosk runtime 0.1.0)\n", "\(version)")
        let help = try Self.hello(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("hello-kiosk check-config [--config FILE]"), "\(help.stdout)")
        #expect(
            help.stdout.contains("APP SETTINGS") && help.stdout.contains("greeting  a string: The text on the screen"), "\(help.stdout)")
        #expect(help.stdout.contains("The program's app: hello-kiosk,"), "\(help.stdout)")
        #expect(!help.stdout.lowercased().contains("demo"), "the help of an app of your own speaks of the demo: \(help.stdout)")
        let kiosk = try CommandLineTests.kiosk(["run", "--help"])
        #expect(kiosk.stdout.contains("launch-animation") && kiosk.stdout.contains("The program's app: demo,"))
    }

    @Test func theAppSettingNamesOnlyWhatTheProgramRuns() throws {
        let other = try Self.hello(["--app", "demo", "--exit-after", "0.1"])
        #expect(other.status == 2 && other.stderr == "command line --app demo: \"demo\" is not valid; valid: hello-kiosk\n", "\(other)")
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let own = try Self.hello(["--app", "hello-kiosk", "--exit-after", "0.1", "--snapshot-dir", folder.path])
        #expect(own.status == 0, "\(own)")
    }

    /// A `KIOSK_*` variable no setting has (a typo in a systemd drop-in): a warning naming the nearest one, at
    /// the start of a run and in check-config, which still passes.
    @Test func anUnknownVariableIsWarnedAbout() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let warning = "environment KIOSK_CUROSR: no setting has this variable, so it is ignored; did you mean KIOSK_CURSOR?"
        let run = try Self.hello(["--exit-after", "0.1", "--snapshot-dir", folder.path], environment: ["KIOSK_CUROSR": "hidden"])
        #expect(run.status == 0 && run.stderr.contains("warning kiosk.config: [KioskRuntime] \(warning)"), "\(run.stderr)")
        let empty = try ConfigCommandTests.write("")
        defer { try? FileManager.default.removeItem(at: empty.deletingLastPathComponent()) }
        let check = try CommandLineTests.run(
            CommandLineTests.binary, ["check-config", "--config", empty.path], environment: ["KIOSK_CUROSR": "hidden"])
        #expect(check.status == 0 && check.stderr == "warning: \(warning)\n", "\(check)")
    }

    /// Without a file the start says what the kiosk runs on: its defaults, or those and what the variables and
    /// flags set (it said "the defaults" whatever they set).
    @Test func theStartSaysWhatItRunsOnWithoutAFile() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let withFlags = try Self.hello(["--exit-after", "0.1", "--snapshot-dir", folder.path])
        #expect(
            withFlags.stderr.contains(
                "no configuration file at /etc/kiosk/kiosk.toml: the kiosk runs on its defaults and what its KIOSK_* variables and command line set"
            ), "\(withFlags.stderr)")
        let process = Process()
        process.executableURL = Self.hello
        process.currentDirectoryURL = folder
        process.environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        #expect(
            Settling.waitUntil { FileManager.default.fileExists(atPath: folder.appendingPathComponent("snapshots/HEADLESS-1.png").path) })
        process.terminate()
        process.waitUntilExit()
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(log.contains("no configuration file at /etc/kiosk/kiosk.toml: the kiosk runs on its defaults\n"), "\(log)")
    }
}
