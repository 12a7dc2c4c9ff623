import Foundation
import Graphics
import KioskRuntime
import Testing

/// The built kiosk, running headless with its control socket in a temporary folder, and the built
/// `kiosk status`, `power`, `brightness`, `screenshot` and `reload` talking to it as a person would.
final class RunningKiosk {
    let folder: URL
    let socket: String
    let trace: URL
    let config: URL
    let shots: URL
    private let process = Process()
    private let log: URL

    /// Starts `kiosk run` headless with `arguments` added and waits until its socket answers; with `config`
    /// nil, with no --config (the default path's file, which may be missing). With `socket`, the kiosk is
    /// given no --control-socket and is expected to listen there (in `folder`, with `environment` added).
    init(
        _ arguments: [String] = [], config text: String? = "cursor = \"auto\"\n", in folder: URL? = nil,
        environment: [String: String] = [:], socket expected: String? = nil
    ) throws {
        self.folder = try folder ?? CommandLineTests.temporaryFolder()
        let folder = self.folder
        socket = expected ?? folder.appendingPathComponent("control").path
        trace = folder.appendingPathComponent("trace.jsonl")
        config = folder.appendingPathComponent("kiosk.toml")
        shots = folder.appendingPathComponent("shots")
        log = folder.appendingPathComponent("stderr.log")
        try text?.write(to: config, atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        process.executableURL = CommandLineTests.binary
        process.arguments =
            [
                "run", "--backend", "headless", "--snapshot-dir", shots.path, "--trace", trace.path, "--exit-after", "120",
            ] + (expected == nil ? ["--control-socket", socket] : []) + (text == nil ? [] : ["--config", config.path]) + arguments
        process.environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"].merging(environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while (try? SocketClient(path: socket)) == nil {
            guard Date() < deadline, process.isRunning else { throw Failed(message: "no control socket; log:\n\(stderr)") }
            usleep(20_000)
        }
    }

    struct Failed: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: folder)
    }

    var stderr: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// `kiosk COMMAND ... --socket SOCKET`.
    func client(_ arguments: [String]) throws -> CommandLineTests.Result {
        try CommandLineTests.run(
            CommandLineTests.binary, arguments + ["--socket", socket], environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"])
    }

    /// The answer to `request` (one line) as a dictionary.
    func ask(_ request: String) throws -> [String: Any] {
        let client = try SocketClient(path: socket)
        let line = try #require(client.ask(request))
        return try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    func traceEvents(_ kind: String) throws -> [[String: Any]] {
        try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["event"] as? String == kind }
    }

    /// SIGTERM, and the exit status.
    func stop() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

@Suite struct ControlSocketTests {
    @Test func statusPowerBrightnessAndMistakes() throws {
        let kiosk = try RunningKiosk()
        let json = try kiosk.client(["status", "--json"])
        #expect(json.status == 0, "\(json.stderr)")
        let status = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(status["ok"] as? Bool == true && status["backend"] as? String == "headless")
        #expect(status["config"] as? String == kiosk.config.path && status["inputs"] is NSNull && status["uptime"] is Double)
        let screens = try #require(status["screens"] as? [[String: Any]])
        #expect(screens.count == 1)
        #expect(screens[0]["name"] as? String == "HEADLESS-1" && screens[0]["mode"] as? String == "1280x800@60.000")
        #expect(screens[0]["power"] as? String == "on" && screens[0]["backlight"] as? Bool == false)
        #expect(screens[0]["brightness"] as? Double == 1 && screens[0]["rotation"] as? String == "normal")
        #expect((screens[0]["frames"] as? Int ?? 0) >= 1 && screens[0]["main"] as? Bool == true)

        // The text, with the socket found through the config file instead of --socket.
        try "control-socket = \"\(kiosk.socket)\"\n".write(to: kiosk.config, atomically: true, encoding: .utf8)
        let text = try CommandLineTests.run(
            CommandLineTests.binary, ["status", "--config", kiosk.config.path], environment: ["PATH": "/usr/bin:/bin"])
        #expect(text.status == 0 && text.stdout.hasPrefix("backend headless, config \(kiosk.config.path), up "), "\(text.stderr)")
        #expect(text.stdout.contains("\n  HEADLESS-1  on  1280x800@60.000  rotation normal  no backlight  "), "\(text.stdout)")
        #expect(text.stdout.hasSuffix("inputs: none opened (no input backend beside this display backend)\n"))

        let off = try kiosk.client(["power", "off", "--screen", "HEADLESS-1"])
        #expect(off.status == 0 && off.stdout == "HEADLESS-1 off\n", "\(off.stderr)")
        #expect(try (kiosk.ask(#"{"command":"status"}"#)["screens"] as? [[String: Any]])?.first?["power"] as? String == "off")
        let power = try kiosk.traceEvents("screen.power")
        #expect(power.last?["power"] as? String == "off" && power.last?["reason"] as? String == "control")
        let on = try kiosk.client(["power", "on"])
        #expect(on.status == 0 && on.stdout == "HEADLESS-1 on\n")
        #expect(try kiosk.traceEvents("screen.power").last?["power"] as? String == "on")

        let nowhere = try kiosk.client(["power", "off", "--screen", "HDMI-A-9"])
        #expect(nowhere.status == 1 && nowhere.stderr == "kiosk power: no screen named \"HDMI-A-9\"; the screens are HEADLESS-1\n")
        let named = try kiosk.client(["brightness", "0.5", "--screen", "HEADLESS-1"])
        #expect(
            named.status == 1
                && named.stderr == "kiosk brightness: HEADLESS-1 has no backlight the kiosk can set (its brightness stays 1)\n")
        let all = try kiosk.client(["brightness", "0.5"])
        #expect(
            all.status == 1
                && all.stderr == "kiosk brightness: no screen has a backlight the kiosk can set: HEADLESS-1 (their brightness stays 1)\n")
        let tooBright = try kiosk.client(["brightness", "2"])
        #expect(tooBright.status == 2 && tooBright.stderr.hasPrefix("kiosk brightness: give a brightness from 0 to 1"))
        let sideways = try kiosk.client(["power", "sideways"])
        #expect(sideways.status == 2 && sideways.stderr.hasPrefix("kiosk power: say on or off"))

        // Raw requests: refused with a reason, and the connection goes on.
        let client = try SocketClient(path: kiosk.socket)
        #expect(
            client.ask(#"{"command":"dance"}"#)
                == #"{"ok":false,"error":"unknown command \"dance\"; the commands are status, power, brightness, screenshot, reload"}"#)
        #expect(
            client.ask(#"{"command":"power","state":"off","scren":"HEADLESS-1"}"#)
                == #"{"ok":false,"error":"power: unknown key \"scren\"; it takes state, screen"}"#)
        #expect(client.ask(#"{"command":"power","state":"dim"}"#) == #"{"ok":false,"error":"power: \"state\" must be \"on\" or \"off\""}"#)
        #expect(client.ask("{\"command\":\"status\"").map { $0.hasPrefix(#"{"ok":false,"error":"malformed JSON"#) } == true)
        #expect(client.ask(#"{"command":"status"}"#).map { $0.hasPrefix(#"{"ok":true,"backend":"headless""#) } == true)
        // The trace names the commands, never a client's text.
        let control = try kiosk.traceEvents("control").map { "\($0["command"] as? String ?? "?") \($0["ok"] as? Bool ?? false)" }
        #expect(control.contains("unknown false") && control.contains("power true") && !control.contains { $0.hasPrefix("dance") })

        #expect(kiosk.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: kiosk.socket), "the socket was left behind")
    }

    /// The screenshot is the headless backend's own snapshot of the same frame, pixel for pixel: unrotated
    /// (painted in place, no shadow) and at 90° (the shadow turned into the physical orientation).
    @Test(arguments: ["normal", "90"])
    func screenshotsAreWhatTheScreenShows(rotation: String) throws {
        let kiosk = try RunningKiosk(["--headless-screen", "640x480", "--rotate", "HEADLESS-1=\(rotation)"])
        let shot = kiosk.folder.appendingPathComponent("shot.png")
        let snapshot = kiosk.shots.appendingPathComponent("HEADLESS-1.png")
        // The demo's alert fades in after launch and its clock turns each minute: try until a frame holds still.
        var same = false
        for _ in 0..<20 where !same {
            usleep(300_000)
            let result = try kiosk.client(["screenshot", "--overwrite", shot.path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stdout == "\(shot.path): HEADLESS-1 640x480, rotation \(rotation)\n")
            let taken = try Bitmap(contentsOfPNGFile: shot.path)
            let shown = try Bitmap(contentsOfPNGFile: snapshot.path)
            #expect(taken.width == 640 && taken.height == 480)
            same = Self.samePixels(taken, shown)
        }
        #expect(same, "the screenshot never matched the snapshot")

        let fifo = kiosk.folder.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let refused = try kiosk.client(["screenshot", "--screen", "HEADLESS-1", fifo])
        #expect(
            refused.status == 3 && refused.stderr == "kiosk screenshot: \(fifo) exists and is a FIFO, not a regular file; not writing it\n")
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)
        // An existing file is left as it was without --overwrite.
        let kept = try kiosk.client(["screenshot", shot.path])
        #expect(
            kept.status == 3
                && kept.stderr == "kiosk screenshot: \(shot.path) exists; not replacing it (give --overwrite to replace it)\n")
        #expect(try Self.samePixels(Bitmap(contentsOfPNGFile: shot.path), Bitmap(contentsOfPNGFile: snapshot.path)))

        _ = try kiosk.client(["power", "off"])
        let dark = try kiosk.client(["screenshot", "--overwrite", shot.path])
        #expect(
            dark.status == 1
                && dark.stderr == "kiosk screenshot: HEADLESS-1 is off: it shows nothing (kiosk power on --screen HEADLESS-1)\n")
        #expect(kiosk.stop() == 0)
    }

    static func samePixels(_ a: Bitmap, _ b: Bitmap) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        for y in 0..<a.height {
            for x in 0..<a.width where a.pixel(x: x, y: y) & 0xFFFFFF != b.pixel(x: x, y: y) & 0xFFFFFF { return false }
        }
        return true
    }

    @Test func reloadSaysWhatChanged() throws {
        let kiosk = try RunningKiosk()
        try "cursor = \"hidden\"\nseat = \"seat1\"\n".write(to: kiosk.config, atomically: true, encoding: .utf8)
        let applied = try kiosk.client(["reload"])
        #expect(applied.status == 0, "\(applied.stderr)")
        #expect(applied.stdout == "applied cursor from \(kiosk.config.path)\nchanged and need a restart: seat\n")
        #expect(try kiosk.ask(#"{"command":"reload"}"#)["applied"] as? [String] == [])

        try "cursor = \"sometimes\"\n".write(to: kiosk.config, atomically: true, encoding: .utf8)
        let rejected = try kiosk.client(["reload"])
        #expect(rejected.status == 1 && rejected.stdout.isEmpty)
        #expect(
            rejected.stderr == """
                kiosk reload: \(kiosk.config.path) has 1 problem(s); the running configuration is kept
                \(kiosk.config.path):1:10: cursor: "sometimes" is not valid; valid: auto, hidden, always

                """)
        let reloads = try kiosk.traceEvents("config.reload").map { $0["problems"] as? Int }
        #expect(reloads == [0, 0, 1])
        #expect(kiosk.stop() == 0)
        #expect(kiosk.stderr.contains("kiosk reload: applied cursor from \(kiosk.config.path); seat changed and need a restart"))
    }

    /// A kiosk without a file (none at /etc/kiosk/kiosk.toml, and none named) says so on a reload, and what it
    /// runs on: it said the default path was read.
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/etc/kiosk/kiosk.toml")))
    func reloadWithoutAFileSaysThereIsNone() throws {
        let kiosk = try RunningKiosk(config: nil)
        let reload = try kiosk.client(["reload"])
        let said =
            "no configuration file at /etc/kiosk/kiosk.toml: the kiosk runs on its defaults and what its KIOSK_* variables and command line set"
        #expect(reload.status == 0 && reload.stdout == said + "; nothing changed that applies live\n", "\(reload.stderr)")
        let answer = try kiosk.ask(#"{"command":"reload"}"#)
        #expect(answer["config"] is NSNull && answer["missing"] as? String == "/etc/kiosk/kiosk.toml")
        #expect(answer["defaults"] as? Bool == false && answer["applied"] as? [String] == [])
        #expect(kiosk.stop() == 0)
        #expect(kiosk.stderr.contains("kiosk reload: " + said + "; nothing changed that applies live"), "\(kiosk.stderr)")
        // Without variables or flags that change anything, it runs on its defaults alone.
        #expect(
            KioskRuntime.ReloadSource.noFile("/etc/kiosk/kiosk.toml", onDefaults: true).summary(applied: ["cursor"])
                == "no configuration file at /etc/kiosk/kiosk.toml: the kiosk runs on its defaults; applied cursor")
    }

    /// An edit breaks the file, and `kiosk reload --config FILE` still reaches the kiosk through the file's
    /// `control-socket` to hear what is wrong. Only a problem with that setting, or text the parser could
    /// not read, sends the client to KIOSK_CONTROL_SOCKET or the default instead, and it says so.
    @Test func aFileBrokenElsewhereStillNamesTheSocket() throws {
        let kiosk = try RunningKiosk()
        let path = kiosk.config.path
        func reload(_ text: String, variable: String? = nil) throws -> CommandLineTests.Result {
            try text.write(to: kiosk.config, atomically: true, encoding: .utf8)
            var environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"]
            environment["KIOSK_CONTROL_SOCKET"] = variable
            return try CommandLineTests.run(CommandLineTests.binary, ["reload", "--config", path], environment: environment)
        }
        let elsewhere = try reload("control-socket = \"\(kiosk.socket)\"\ncursor = \"sometimes\"\n")
        #expect(elsewhere.status == 1)
        #expect(
            elsewhere.stderr == """
                kiosk reload: note: \(path) has problems (kiosk check-config lists them); its control-socket is fine and used
                kiosk reload: \(path) has 1 problem(s); the running configuration is kept
                \(path):2:10: cursor: "sometimes" is not valid; valid: auto, hidden, always

                """)
        // The setting itself is wrong: the variable names the socket.
        let itself = try reload("control-socket = 5\n", variable: kiosk.socket)
        #expect(itself.status == 1)
        #expect(
            itself.stderr.hasPrefix(
                "kiosk reload: note: \(path) has problems (kiosk check-config lists them), control-socket among them; using KIOSK_CONTROL_SOCKET or the default\nkiosk reload: \(path) has 1 problem(s); the running configuration is kept\n"
            ), "\(itself.stderr)")
        // A syntax error: the line skipped might have been the setting's.
        let unreadable = try reload("control-socket = \"\(kiosk.socket)\"\ncursor = \n", variable: kiosk.socket)
        #expect(unreadable.status == 1)
        #expect(
            unreadable.stderr.hasPrefix(
                "kiosk reload: note: \(path) has problems (kiosk check-config lists them), some of it unreadable; using KIOSK_CONTROL_SOCKET or the default\n"
            ), "\(unreadable.stderr)")
        #expect(try kiosk.traceEvents("config.reload").map { $0["problems"] as? Int } == [1, 1, 1])
        #expect(kiosk.stop() == 0)
    }

    /// No kiosk, a kiosk that left its socket, a path that is someone else's file, the socket turned off.
    @Test func withoutAKioskToAsk() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("control").path
        let none = try CommandLineTests.kiosk(["status", "--socket", missing])
        #expect(
            none.status == 3
                && none.stderr
                    == "kiosk status: no kiosk is running here: \(missing) does not exist (a running kiosk makes it; see control-socket in kiosk.toml)\n"
        )
        let off = try CommandLineTests.run(
            CommandLineTests.binary, ["reload", "--config", "/nonexistent/kiosk.toml"],
            environment: ["PATH": "/usr/bin:/bin", "KIOSK_CONTROL_SOCKET": "off"])
        #expect(
            off.status == 3
                && off.stderr == """
                    kiosk reload: note: /nonexistent/kiosk.toml has problems (kiosk check-config lists them), the file could not be read; using KIOSK_CONTROL_SOCKET or the default
                    kiosk reload: the control socket is off (control-socket = "off"); nothing to ask

                    """
        )

        // Someone else's file where the socket would go: the kiosk runs without a socket and says why.
        let file = folder.appendingPathComponent("file").path
        try "keep me".write(toFile: file, atomically: false, encoding: .utf8)
        let run = try CommandLineTests.kiosk([
            "run", "--backend", "headless", "--snapshot-dir", folder.appendingPathComponent("shots").path, "--exit-after", "0.3",
            "--control-socket", file,
        ])
        #expect(run.status == 0)
        #expect(
            run.stderr.contains(
                "control socket off: \(file) exists and is a regular file, not a socket; it is left as it is (remove it, or set control-socket to another path)"
            ), "\(run.stderr)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "keep me")
        // What is there is said: a stopped kiosk was blamed for a regular file (connect says ECONNREFUSED).
        for (path, kind) in [(file, "a regular file"), (folder.path, "a directory"), ("/dev/null", "a character device")] {
            let notSocket = try CommandLineTests.kiosk(["status", "--socket", path])
            #expect(notSocket.status == 3, "\(notSocket.stderr)")
            #expect(
                notSocket.stderr
                    == "kiosk status: \(path) is \(kind), not a socket: no kiosk listens there (--socket and control-socket name a kiosk's control socket)\n"
            )
        }
    }

    /// Power, brightness and screenshot take one word; a second is named as the mistake (exit 2, before any
    /// kiosk is asked), not blamed on the first.
    @Test func anExtraArgumentIsNamed() throws {
        for (arguments, message) in [
            (["brightness", "0.5", "0.6"], "kiosk brightness: unexpected argument 0.6 after 0.5 (kiosk brightness --help)"),
            (["power", "off", "on"], "kiosk power: unexpected argument on after off (kiosk power --help)"),
            (["screenshot", "a.png", "b.png"], "kiosk screenshot: unexpected argument b.png after a.png (kiosk screenshot --help)"),
            (["reload", "now"], "kiosk reload: unexpected argument now (kiosk reload --help)"),
        ] {
            let result = try CommandLineTests.kiosk(arguments + ["--socket", "/nonexistent/control"])
            #expect(result.status == 2 && result.stderr == message + "\n", "\(arguments): \(result.stderr)")
        }
    }
}
