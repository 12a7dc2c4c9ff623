import Foundation
import Graphics
import Testing

/// The built `kiosk` binary, run as a person would run it.
@Suite struct CommandLineTests {
    /// `.build/<config>/kiosk`, beside the test bundle.
    static let binary: URL = {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 where !FileManager.default.fileExists(atPath: folder.appendingPathComponent("kiosk").path) {
            folder.deleteLastPathComponent()
        }
        return folder.appendingPathComponent("kiosk")
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static func kiosk(_ arguments: [String], in directory: URL? = nil) throws -> Result {
        try run(binary, arguments, in: directory)
    }

    /// Runs `program` to its end; `environment` replaces the test's own when given.
    static func run(_ program: URL, _ arguments: [String], environment: [String: String]? = nil, in directory: URL? = nil) throws -> Result
    {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read before waiting: a full pipe would block the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func versionAndHelp() throws {
        let version = try Self.kiosk(["--version"])
        #expect(version.status == 0 && version.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
        let help = try Self.kiosk(["--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE: kiosk") && help.stdout.contains("run"))
        let runHelp = try Self.kiosk(["run", "--help"])
        #expect(runHelp.stdout.contains("--snapshot-dir") && runHelp.stdout.contains("--backend"))
    }

    /// The headless backend leaves a PNG per screen a person can open, showing the demo's three levels.
    @Test func headlessRunWritesSnapshots() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("trace.jsonl")
        // Stopped once both screens' frames are on and the alert is in (later on a loaded machine than any
        // fixed --exit-after), with SIGTERM, which writes the last frames.
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = [
            "run", "--backend", "headless", "--snapshot-dir", folder.path, "--headless-screen", "1280x800",
            "--headless-screen", "640x480@50", "--trace", trace.path,
        ]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        let shown = Settling.waitUntil {
            let lines = ConfigurationModelTests.trace(trace)
            let framed = Set(lines.filter { $0["event"] as? String == "frame" }.compactMap { $0["screen"] as? String })
            return framed.isSuperset(of: ["HEADLESS-1", "HEADLESS-2"])
                && lines.contains {
                    $0["event"] as? String == "animation.end" && ($0["views"] as? [String])?.contains("alert.card") == true
                }
        }
        #expect(shown, "no frame on both screens with the alert in: \(ConfigurationModelTests.trace(trace).suffix(5))")
        process.terminate()
        process.waitUntilExit()
        let result = Result(
            status: process.terminationStatus, stdout: "",
            stderr: String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let main = try Bitmap(contentsOfPNGFile: folder.appendingPathComponent("HEADLESS-1.png").path)
        #expect(main.width == 1280 && main.height == 800)
        // The status bar (dark) is at the top, the main screen's light background below, dimmed by the alert's
        // backdrop (40 % black over 0xF2F2F7), the alert's white card in the middle.
        #expect(main.pixel(x: 5, y: 5) & 0xFF < 0x40)  // the dark status bar on top
        #expect(main.pixel(x: 5, y: 300) & 0xFFFFFF == 0x919194)  // the main screen's background, dimmed
        #expect(main.pixel(x: 640, y: 345) & 0xFFFFFF == 0xFFFFFF)  // the white card in front
        let second = try Bitmap(contentsOfPNGFile: folder.appendingPathComponent("HEADLESS-2.png").path)
        #expect(second.width == 640 && second.height == 480 && second.pixel(x: 5, y: 5) & 0xFFFFFF == 0xFFFFFF)
        let lines = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix(#"{"event":"screen.connect","screen":"HEADLESS-1","mode":"1280x800@60.000""#) })
        #expect(lines.contains { $0.contains(#""event":"window.key","window":"AlertController.window","level":2000"#) })
        #expect(lines.contains { $0.contains(#""event":"frame","screen":"HEADLESS-2""#) })
        #expect(result.stderr.contains("headless"))
    }

    /// A link planted at the name a snapshot is written under first is removed, never written through:
    /// the file it points to keeps its bytes (cairo's fopen truncated it).
    @Test func aSnapshotNeverWritesThroughALink() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = folder.appendingPathComponent("victim.txt")
        try "keep me\n".write(to: victim, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("HEADLESS-1.png.tmp"), withDestinationURL: victim)
        let result = try Self.kiosk(["run", "--backend", "headless", "--snapshot-dir", folder.path, "--exit-after", "0.3"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me\n")
        #expect(try Bitmap(contentsOfPNGFile: folder.appendingPathComponent("HEADLESS-1.png").path).width > 0)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("HEADLESS-1.png.tmp").path))
    }

    @Test func badHeadlessScreenIsAClearError() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Self.kiosk(["run", "--backend", "headless", "--snapshot-dir", folder.path, "--headless-screen", "big"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("command line --headless-screen big: \"big\" is not a size; valid: WxH, WxH@Hz or NAME=WxH@Hz"))
        let backend = try Self.kiosk(["run", "--backend", "vga"])
        #expect(backend.status != 0 && backend.stderr.contains("auto") && backend.stderr.contains("headless"))
    }
}

/// sd_notify: the built kiosk, run with a test NOTIFY_SOCKET, says READY after its first frame,
/// pings the watchdog, and says STOPPING on the way out.
@Suite struct ServiceNotificationTests {
    @Test func readyWatchdogAndStoppingReachTheNotifySocket() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("notify").path
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8) + [0])
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))

        let process = Process()
        process.executableURL = CommandLineTests.binary
        process.arguments = ["run", "--backend", "headless", "--snapshot-dir", folder.path, "--exit-after", "1.5"]
        // A watchdog of 0.4 s: pings every 0.2 s.
        process.environment = ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": "400000", "PATH": "/usr/bin:/bin"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        var messages: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while messages.last != "STOPPING=1" {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            messages.append(String(decoding: buffer[0..<count], as: UTF8.self))
        }
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(messages.first == "READY=1")
        #expect(messages.contains { $0.hasPrefix("STATUS=running on HEADLESS-1 1280x800@60.000") })
        #expect(messages.filter { $0 == "WATCHDOG=1" }.count >= 3)
        #expect(messages.last == "STOPPING=1")
    }
}

/// The documented example app builds (it is a product of the package) and runs: headless here, it writes
/// a snapshot showing its window.
@Suite struct ExampleAppTests {
    @Test func helloKioskRuns() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = CommandLineTests.binary.deletingLastPathComponent().appendingPathComponent("hello-kiosk")
        process.arguments = ["--exit-after", "0.5"]
        process.currentDirectoryURL = folder
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let snapshot = try Bitmap(contentsOfPNGFile: folder.appendingPathComponent("snapshots/HEADLESS-1.png").path)
        #expect(snapshot.width == 1280 && snapshot.height == 800)
        #expect(snapshot.pixel(x: 5, y: 5) & 0xFFFFFF == 0x1E3A5F)
    }
}

/// `kiosk check-config` and `kiosk run` with a config file: every problem at once, exit 1 and 2, the
/// display never touched by a bad file.
@Suite struct ConfigCommandTests {
    static func write(_ text: String) throws -> URL {
        let folder = try CommandLineTests.temporaryFolder()
        let file = folder.appendingPathComponent("kiosk.toml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    static let bad = """
        backend = "drm"
        cursor = "sometimes"

        [screens.HDMI-A-1]
        mode = "1920x1080@6O"
        rotaton = "90"

        """

    @Test func checkConfigReportsEveryProblemAndExitsOne() throws {
        let file = try Self.write(Self.bad)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let result = try CommandLineTests.kiosk(["check-config", "--config", file.path])
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                \(file.path):2:10: cursor: "sometimes" is not valid; valid: auto, hidden, always
                \(file.path):5:8: screens.HDMI-A-1.mode: "1920x1080@6O" is not a mode; valid: preferred, current, off, WxH (e.g. 1920x1080) or WxH@Hz (e.g. 1920x1080@60 or 1920x1080@59.94), each side 1 to 16384, Hz at least 1 and under 1000
                \(file.path):6:1: screens.HDMI-A-1: unknown key "rotaton"; did you mean "rotation"?
                \(file.path): 3 problems

                """)
    }

    @Test func theExampleConfigIsValid() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Kiosk/kiosk.toml")
        let result = try CommandLineTests.kiosk(["check-config", "--config", example.path])
        #expect(result.status == 0 && result.stdout == "\(example.path): OK\n", "\(result.stdout)\(result.stderr)")
    }

    /// Kiosk/headless.toml runs as it is on a machine without a display, a card or a seat (Kiosk/kiosk.toml is
    /// a board's: here it stops with exit 3, at its trace file in /run/kiosk, then at its DRM card): every
    /// key valid, its snapshots written where it runs, its control socket where its user reaches it.
    @Test func theHeadlessExampleRunsHere() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Kiosk/headless.toml")
        let check = try CommandLineTests.kiosk(["check-config", "--config", example.path])
        #expect(check.status == 0 && check.stdout == "\(example.path): OK\n", "\(check.stdout)\(check.stderr)")
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CommandLineTests.run(
            CommandLineTests.binary, ["run", "--config", example.path, "--exit-after", "1"],
            environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "XDG_RUNTIME_DIR": folder.path], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        for name in ["HEADLESS-1", "HDMI-A-2"] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("snapshots/\(name).png").path), "\(name)")
        }
        #expect(run.stderr.contains("control socket \(folder.path)/kiosk-control (in XDG_RUNTIME_DIR;"), "\(run.stderr)")
        #expect(!run.stderr.contains(" warning ") && !run.stderr.contains(" error "), "\(run.stderr)")
    }

    @Test func runWithAnInvalidFileExitsTwoWithTheSameMessages() throws {
        let file = try Self.write(Self.bad)
        let folder = file.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandLineTests.kiosk([
            "run", "--config", file.path, "--backend", "headless", "--snapshot-dir",
            folder.appendingPathComponent("shots").path, "--exit-after", "0.2",
        ])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(file.path):5:8: screens.HDMI-A-1.mode: \"1920x1080@6O\" is not a mode"))
        #expect(result.stderr.contains("\(file.path):6:1: screens.HDMI-A-1: unknown key \"rotaton\"; did you mean \"rotation\"?"))
        // Nothing was shown: no snapshot folder was even made.
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("shots").path))
    }

    @Test func aValidFileDrivesTheRun() throws {
        let file = try Self.write("backend = \"headless\"\nlog-level = \"warning\"\n")
        let folder = file.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandLineTests.kiosk([
            "run", "--config", file.path, "--snapshot-dir", folder.appendingPathComponent("shots").path,
            "--exit-after", "0.3",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        // The file chose the headless backend (a snapshot exists) and quieted the log below warnings.
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("shots/HEADLESS-1.png").path))
        #expect(!result.stderr.contains("headless backend (requested)"), "\(result.stderr)")
    }
}
