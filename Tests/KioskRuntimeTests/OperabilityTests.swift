import Foundation
import Graphics
import KioskConfig
import KioskKit
import KioskTesting
import Testing

@testable import kiosk

/// A datagram socket standing in for systemd's NOTIFY_SOCKET: what the kiosk tells systemd.
final class NotifySocket {
    let path: String
    private let fd: Int32

    init(in folder: URL) {
        path = folder.appendingPathComponent("notify").path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Every message received so far (waits 0.2 s for each next one).
    func messages() -> [String] {
        var messages: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { return messages }
            messages.append(String(decoding: buffer[0..<count], as: UTF8.self))
        }
    }
}

/// Nothing silently ignored, nothing destroyed, every failure says what to do (issue "Operability"),
/// each on the built binary as a person or systemd runs it.
@Suite struct OperabilityTests {
    static func kiosk(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandLineTests.Result {
        try CommandLineTests.run(
            CommandLineTests.binary, arguments, environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"].merging(environment) { $1 })
    }

    static func headless(_ folder: URL, _ more: [String] = []) -> [String] {
        ["run", "--backend", "headless", "--snapshot-dir", folder.appendingPathComponent("shots").path, "--exit-after", "0.3"] + more
    }

    // MARK: The trace is opened as a log is

    /// Through a symlink the target is appended to (the trace it held stays) and the link stays a link; through a
    /// FIFO the reader gets the lines and the FIFO stays a FIFO; nothing is renamed over either.
    @Test func traceThroughASymlinkAndAFIFO() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("target.jsonl")
        let earlier = "{\"event\":\"startup\",\"phase\":\"exec\",\"ms\":0}\n"
        try earlier.write(to: target, atomically: true, encoding: .utf8)
        let link = folder.appendingPathComponent("link.jsonl")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        let viaLink = try Self.kiosk(Self.headless(folder, ["--trace", link.path]))
        #expect(viaLink.status == 0, "\(viaLink.stderr)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
        let written = try String(contentsOf: target, encoding: .utf8)
        #expect(written.hasPrefix(earlier + "{\"event\":"), "an earlier run's trace stays, the new one follows")

        let fifo = folder.appendingPathComponent("trace.fifo")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        // The reader: a process of its own, as `cat` on the other end would be.
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: "/bin/cat")
        reader.arguments = [fifo.path]
        let output = Pipe()
        reader.standardOutput = output
        try reader.run()
        Thread.sleep(forTimeInterval: 0.2)
        let viaFIFO = try Self.kiosk(Self.headless(folder, ["--trace", fifo.path]))
        #expect(viaFIFO.status == 0, "\(viaFIFO.stderr)")
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reader.waitUntilExit()
        // What a run writes before its first frame (which a loaded machine may not make in 0.3 s).
        #expect(lines.contains("\"event\":\"startup\"") && lines.contains("\"event\":\"screen.connect\""), "\(lines)")
        var status = stat()
        #expect(lstat(fifo.path, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "the FIFO is still a FIFO")
    }

    /// A FIFO nobody reads would hang the start: refused, with what to do. A path that cannot be written
    /// says the real errno.
    @Test func traceProblemsSayWhy() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("unread.fifo")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let unread = try Self.kiosk(Self.headless(folder, ["--trace", fifo.path]))
        #expect(
            unread.status == 3
                && unread.stderr.contains("cannot write the trace file \(fifo.path): a FIFO with no reader; start the reader first"))
        let directory = try Self.kiosk(Self.headless(folder, ["--trace", folder.path]))
        #expect(directory.status == 3 && directory.stderr.contains("cannot write the trace file \(folder.path): Is a directory (errno 21)"))
        let missing = try Self.kiosk(Self.headless(folder, ["--trace", "/nonexistent/folder/trace.jsonl"]))
        #expect(missing.status == 3 && missing.stderr.contains("No such file or directory (errno 2)"))
    }

    // MARK: Headless screen names

    @Test func headlessScreenNamesStayInTheSnapshotFolder() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let escape = try Self.kiosk(Self.headless(folder, ["--headless-screen", "../escape=640x480"]))
        #expect(escape.status == 2 && escape.stderr.contains("\"../escape\" cannot name a screen (its snapshot file)"))
        let twice = try Self.kiosk(Self.headless(folder, ["--headless-screen", "A=640x480", "--headless-screen", "A=800x600"]))
        #expect(twice.status == 2 && twice.stderr.contains("two headless screens named A"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("escape.png").path))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("shots").path), "nothing was shown")
    }

    /// A snapshot folder that is a file is said plainly, not as a Foundation error dump.
    @Test func aSnapshotFolderThatIsAFile() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("file")
        try "x".write(to: file, atomically: true, encoding: .utf8)
        let result = try Self.kiosk(["run", "--backend", "headless", "--snapshot-dir", file.path, "--exit-after", "0.3"])
        #expect(result.status == 3)
        #expect(
            result.stderr.contains("the headless backend cannot run: cannot write into the snapshot folder \(file.path): Not a directory"))
        #expect(!result.stderr.contains("NSCocoaErrorDomain"))
    }

    // MARK: What is named explicitly works or stops the kiosk

    /// `--drm-device` (or `--fbdev-device`) that cannot be used exits 3 with the reason, even under `auto`,
    /// and never tells systemd it is ready.
    @Test func aNamedDeviceThatCannotBeUsedStopsTheKiosk() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notify = NotifySocket(in: folder)
        // LIBSEAT_BACKEND=noop: as root, libseat's automatic choice would be builtin, which takes the VT.
        let drm = try Self.kiosk(
            ["run", "--drm-device", "/nonexistent", "--exit-after", "1"],
            environment: ["NOTIFY_SOCKET": notify.path, "LIBSEAT_BACKEND": "noop"])
        #expect(drm.status == 3 && drm.stderr.contains("kiosk: error: the drm backend cannot run: /nonexistent:"), "\(drm.stderr)")
        #expect(!notify.messages().contains("READY=1"))
        let fbdev = try Self.kiosk(["run", "--fbdev-device", "/nonexistent", "--backend", "fbdev"])
        #expect(fbdev.status == 3 && fbdev.stderr.contains("the fbdev backend cannot run: open(/nonexistent): No such file or directory"))
        let notACard = try Self.kiosk(["run", "--drm-device", "/etc/passwd"], environment: ["LIBSEAT_BACKEND": "noop"])
        #expect(notACard.status == 3 && notACard.stderr.contains("/etc/passwd: not a DRM device"), "\(notACard.stderr)")
    }

    /// `auto` with no display hardware runs headless, and says so as a warning in the log and in systemd's
    /// STATUS=, so `systemctl status` does not show a healthy kiosk that shows nothing.
    @Test func theFallbackToHeadlessIsAWarning() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notify = NotifySocket(in: folder)
        let result = try Self.kiosk(
            ["run", "--snapshot-dir", folder.path, "--exit-after", "0.5"],
            environment: ["NOTIFY_SOCKET": notify.path, "KIOSK_FBDEV_DEVICE": ""])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("warning kiosk.runtime: [KioskRuntime] no display hardware ("))
        let messages = notify.messages()
        #expect(
            messages.contains { $0.hasPrefix("STATUS=warning: no display hardware, running headless; running on HEADLESS-1") },
            "\(messages)")
    }

    /// A seat backend named in LIBSEAT_BACKEND must be one, and must work.
    @Test func aNamedSeatBackendMustBeOne() throws {
        let result = try Self.kiosk(["run", "--drm-device", "/dev/null"], environment: ["LIBSEAT_BACKEND": "bogus"])
        #expect(result.status == 3)
        #expect(
            result.stderr.contains(
                "the seat backend cannot run: LIBSEAT_BACKEND=bogus is not a libseat backend; valid: seatd, logind, builtin, noop"))
    }

    // MARK: Calibrate

    /// Without input (headless) there is nothing to tap: it stops at once, exit 3, rather than waiting for the
    /// timeout (300 s by default). (The timeout itself is the bed's: test_input, where a touchscreen exists.)
    @Test func calibrateWithoutATouchDeviceStopsAtOnce() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Self.kiosk(["calibrate", "--screen", "HEADLESS-1", "--timeout", "600", "--snapshot-dir", folder.path])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "kiosk calibrate: no touch device: the headless backend opens no input devices (input runs beside real displays only)"),
            "\(result.stderr)")
        #expect(!result.stderr.contains("timed out"))
        for bad in ["nan", "-5", "0", "inf"] {
            let refused = try Self.kiosk(["calibrate", "--screen", "HEADLESS-1", "--timeout=\(bad)"])
            #expect(refused.status == 2 && refused.stderr.contains("must be a number of seconds above 0"), "\(bad): \(refused.stderr)")
        }
        let missing = try Self.kiosk(["calibrate"])
        #expect(
            missing.status == 2
                && missing.stderr == "kiosk calibrate: missing --screen <screen> (kiosk calibrate --help)\n")
    }

    // MARK: The config file

    /// A file named by KIOSK_CONFIG must exist, as one named by --config must; the log names the file read.
    @Test func theConfigFileIsNamedAndMustExist() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = try Self.kiosk(Self.headless(folder), environment: ["KIOSK_CONFIG": "/missing.toml"])
        #expect(missing.status == 2 && missing.stderr.hasPrefix("/missing.toml: cannot read: No such file or directory\n"))
        let config = folder.appendingPathComponent("kiosk.toml")
        try "cursor = \"hidden\"\n".write(to: config, atomically: true, encoding: .utf8)
        let named = try Self.kiosk(Self.headless(folder, ["--config", config.path]))
        #expect(named.status == 0 && named.stderr.contains("configuration \(config.path) (named by --config)"))
        let fromVariable = try Self.kiosk(Self.headless(folder), environment: ["KIOSK_CONFIG": config.path])
        #expect(fromVariable.stderr.contains("configuration \(config.path) (named by KIOSK_CONFIG)"))
    }

    /// A bad variable is blamed on the variable, not on a config file that does not exist; a bad file's
    /// hint names the file the way it was given.
    @Test func problemsAreBlamedOnTheirSource() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let variable = try Self.kiosk(Self.headless(folder), environment: ["KIOSK_CURSOR": "sometimes"])
        #expect(variable.status == 2)
        #expect(variable.stderr == "environment KIOSK_CURSOR: \"sometimes\" is not valid; valid: auto, hidden, always\n")
        let config = folder.appendingPathComponent("bad.toml")
        try "cursor = 5\n".write(to: config, atomically: true, encoding: .utf8)
        let file = try Self.kiosk(Self.headless(folder, ["--config", config.path]))
        #expect(file.status == 2 && file.stderr.contains("fix it, then check it with `kiosk check-config --config \(config.path)`"))
        let empty = try Self.kiosk(["run", "--config", ""])
        #expect(empty.status == 2 && empty.stderr == "command line --config: needs a file path, not an empty one\n")
    }

    /// Syntax errors say what a person would (an unterminated string), and do not hide the file's other
    /// problems; X11's connector names get the kernel's.
    @Test func checkConfigAfterASyntaxError() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("kiosk.toml")
        try "cursor = \"auto\ncolour = 1\n[screens.HDMI1]\nmode = \"1920x1080\"\n[[touch]]\nmatch = 5\nscreen = \"HDMI-A-1\"\n"
            .write(to: config, atomically: true, encoding: .utf8)
        let result = try Self.kiosk(["check-config", "--config", config.path])
        #expect(result.status == 1)
        #expect(
            result.stdout == """
                \(config.path):1:10: unterminated string: the closing quote is missing
                \(config.path):2:1: unknown key "colour"; valid: \(KioskConfiguration.settings.filter(\.isTopLevelKey).map(\.key).joined(separator: ", ")), app-settings, screens, touch, power
                \(config.path):3:10: screens.HDMI1: "HDMI1" is not a connector name; did you mean "HDMI-A-1"?
                \(config.path):6:9: touch[0].match must be a string, not an integer; valid: \(TouchConfiguration.Match.validSpellings)
                \(config.path): 4 problems

                """)
    }

    // MARK: Messages and exit statuses

    @Test func oneFormatAndDocumentedStatuses() throws {
        let bogus = try Self.kiosk(["bogus"])
        #expect(bogus.status == 2)
        #expect(
            bogus.stderr
                == "kiosk: \"bogus\" is not a command; the commands are run, screens, inputs, check-config, calibrate, status, power, brightness, screenshot, reload (kiosk --help)\n"
        )
        let touch = try Self.kiosk(["inputs", "--touch", "bogus"])
        #expect(touch.status == 2 && touch.stderr.hasPrefix("command line --touch bogus: \"bogus\" is not MATCH=SCREEN"))
        let debounce = try Self.kiosk(["run", "--hotplug-debounce", "-1"])
        #expect(debounce.status == 2 && debounce.stderr.hasPrefix("command line --hotplug-debounce -1: -1 is out of range"))
        let help = try Self.kiosk(["--help"])
        #expect(help.stdout.contains("EXIT STATUS:") && help.stdout.contains("3  what was asked for cannot run"))
        // Each status is one paragraph, filled to under 80 columns (as the parser wraps): a line of it ends
        // early only where the next word would not fit (hard breaks in the text made ragged lines).
        let statuses = help.stdout.components(separatedBy: "EXIT STATUS:\n").last!.split(separator: "\n")
        #expect(statuses.count >= 5 && statuses.allSatisfy { $0.count < 80 })
        for (line, next) in zip(statuses, statuses.dropFirst()) where next.hasPrefix("     ") {
            let word = next.split(separator: " ").first!
            #expect(line.count + 1 + word.count >= 80, "\"\(line)\" could take \"\(word)\"")
        }
        #expect(try Self.kiosk(["run", "--help"]).stdout.contains("--no-atomic"))
    }

    /// `kiosk screens` says when it cannot read what it was asked to, and exits 1.
    @Test func screensFailuresAreFailures() throws {
        let missing = try Self.kiosk(["screens", "--drm-device", "/nonexistent", "--json"])
        #expect(missing.status == 1 && missing.stdout == "[]\n")
        #expect(missing.stderr.contains("kiosk screens: /nonexistent: open(/nonexistent): No such file or directory"))
        let passwd = try Self.kiosk(["screens", "--drm-device", "/etc/passwd"])
        #expect(passwd.status == 1 && passwd.stderr.contains("/etc/passwd: not a DRM device") && !passwd.stderr.contains("render-only"))
    }

    // MARK: The app's settings

    /// `[app-settings] title` reaches the demo, which shows it.
    @MainActor @Test func appSettingsReachTheDemo() throws {
        let center = NotificationHub()
        let application = Application.reset(notificationCenter: center)
        let display = InMemoryDisplayBackend()
        display.connect("HDMI-A-1", modes: [Screen.Mode(width: 1280, height: 800, refreshRate: 60)])
        var configuration = KioskConfiguration()
        configuration.appSettings = ["title": .string("Welcome to the lobby")]
        let demo = DemoApp(configuration: configuration)
        demo.applicationDidFinishLaunching(application)
        let labels = application.windows.flatMap { Self.labels(in: $0) }
        #expect(labels.contains { $0.identifier == "title" && $0.text == "Welcome to the lobby" })
        #expect(DemoApp(configuration: .default).title == DemoApp.defaultTitle)
    }

    /// The demo declares its `[app-settings]`: a key it does not read, or a value of another type, is a
    /// problem of the file at its line, as the kiosk's own keys are. `check-config` names each; `run`
    /// refuses to start, and the file stays as it was.
    @Test func demoSettingsAreCheckedAtTheirLines() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("kiosk.toml")
        let text = "[app-settings]\ntitle = \"Lobby\"\nlaunch-animation = \"no\"\nlist-offset = 40\nopen-forms = true\n"
        try text.write(to: config, atomically: true, encoding: .utf8)
        let check = try Self.kiosk(["check-config", "--config", config.path])
        #expect(check.status == 1)
        #expect(
            check.stdout == """
                \(config.path):3:20: app-settings.launch-animation must be a boolean, not a string
                \(config.path):5:1: app-settings: unknown key "open-forms"; did you mean "open-form"?
                \(config.path): 2 problems
                note: [app-settings] is checked against kiosk's app settings (kiosk --help lists them); an app of your own checks its file with `APP check-config`

                """)
        let run = try Self.kiosk(Self.headless(folder, ["--config", config.path]))
        #expect(run.status == 2 && run.stderr.contains("\(config.path):3:20: app-settings.launch-animation must be a boolean"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("shots").path))
        #expect(try String(contentsOf: config, encoding: .utf8) == text)
        // Declared keys of the declared types are fine, an integer where a number is meant too.
        try "[app-settings]\ntitle = \"Lobby\"\nlist-offset = 40\nopen-form = false\nlaunch-animation = true\n"
            .write(to: config, atomically: true, encoding: .utf8)
        #expect(try Self.kiosk(["check-config", "--config", config.path]).status == 0)
    }

    /// `[app-settings] launch-animation = false`: the launch alert is on at once, nothing animates, so the
    /// first frame is the final picture; by default it comes in animated.
    @MainActor @Test func launchAnimationCanBeTurnedOff() throws {
        for (settings, animates) in [([String: ConfigValue](), true), (["launch-animation": .boolean(false)], false)] {
            let application = Application.reset(notificationCenter: NotificationHub())
            let display = InMemoryDisplayBackend()
            display.connect("HDMI-A-1", modes: [Screen.Mode(width: 1280, height: 800, refreshRate: 60)])
            var configuration = KioskConfiguration()
            configuration.appSettings = settings
            let demo = DemoApp(configuration: configuration)
            demo.applicationDidFinishLaunching(application)
            let alert = try #require(application.windows.first { $0.windowLevel == .alert })
            #expect(!alert.isHidden && alert.isKeyWindow && alert.rootViewController is AlertController)
            #expect(application.isAnimating == animates)
            // As UIKit's: the model values are the final ones at once; the animation is in what is shown.
            let card = try #require(alert.rootViewController?.view.subviews.first { $0.identifier == "alert.card" })
            #expect(card.alpha == 1 && card.transform == .identity)
            #expect((card.presentationAlpha == 1) == !animates)
            withExtendedLifetime(demo) {}
        }
    }

    @MainActor static func labels(in view: View) -> [Label] {
        ((view as? Label).map { [$0] } ?? []) + view.subviews.flatMap { labels(in: $0) }
    }

    // MARK: Deployment

    @Test func setupPartsAreNamed() throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/setup")
        let result = try CommandLineTests.run(URL(fileURLWithPath: "/bin/bash"), [script.path, "bogus"])
        #expect(result.status == 2 && result.stderr == "setup: unknown part \"bogus\"; the parts are run, build and test\n")
    }
}
