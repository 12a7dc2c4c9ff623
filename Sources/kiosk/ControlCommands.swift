import Glibc
import KioskConfig
import KioskRuntime

extension KioskCommand {
    /// `kiosk status`, `power`, `brightness`, `screenshot`, `reload`: clients of the running kiosk's control
    /// socket, each one request and one answer. Exit 0 for an answer that says ok, 1 for one that says what
    /// went wrong (printed), 3 when there is no kiosk to ask, one that refuses this connection (not allowed,
    /// too many clients), or the screenshot's file cannot be written.
    struct Control {
        static let socket = Commands.Option.value(
            "socket", placeholder: "path",
            help:
                "The running kiosk's control socket (default: control-socket of the configuration, else the first that is there of \(ControlSocketPlace.spelled))."
        )
        static let screen = Commands.Option.value("screen", help: "Only this screen (a connector name, as `kiosk status` lists them).")
        static let settingsHelp =
            "--config FILE: the configuration whose control-socket to use (default: KIOSK_CONFIG, else /etc/kiosk/kiosk.toml)."
        static let socketDiscussion =
            "Talks to the running kiosk over its control socket (root, the kiosk's user and the members of control-group may)."

        static let status = Commands.Command(
            name: "status",
            abstract: "Ask the running kiosk what it runs: backend, screens (mode, rotation, power, brightness, frames), inputs, uptime.",
            discussion: socketDiscussion, options: [.flag("json", help: "Print the kiosk's answer as it is (JSON)."), socket],
            settingsHelp: settingsHelp)
        static let power = Commands.Command(
            name: "power", abstract: "Turn the running kiosk's screens off or on: kiosk power on|off [--screen NAME].",
            discussion: socketDiscussion
                + " An off screen keeps its windows and mode and shows nothing; a touch or key on it wakes it (and presses nothing).",
            options: [screen, socket], settingsHelp: "on or off, then " + settingsHelp)
        static let brightness = Commands.Command(
            name: "brightness",
            abstract: "Set the backlight of the running kiosk's screens: kiosk brightness VALUE (0 to 1) [--screen NAME].",
            discussion: socketDiscussion
                + " Without --screen every screen with a backlight is set; a screen without one is an error when named.",
            options: [screen, socket], settingsHelp: "VALUE from 0 to 1, then " + settingsHelp)
        static let screenshot = Commands.Command(
            name: "screenshot",
            abstract: "Save what a screen of the running kiosk shows as a PNG: kiosk screenshot [--screen NAME] FILE.png.",
            discussion: socketDiscussion
                + " The picture is the one scanned out (rotation included), the main screen's unless --screen names another. An existing FILE is left alone unless --overwrite is given, and then replaced only if it is a regular file.",
            options: [.flag("overwrite", help: "Replace FILE if it exists and is a regular file."), screen, socket],
            settingsHelp: "FILE.png, then " + settingsHelp)
        static let reload = Commands.Command(
            name: "reload", abstract: "Make the running kiosk read its configuration again (as SIGHUP) and say what changed.",
            discussion: socketDiscussion
                + " Prints the keys applied and those that need a restart; a file with problems is refused whole (its problems are printed, exit 1) and the running configuration kept.",
            options: [socket], settingsHelp: settingsHelp)

        static let commands = [status, power, brightness, screenshot, reload]

        let invocation: Commands.Invocation
        let command: Commands.Command

        init(_ invocation: Commands.Invocation) {
            self.invocation = invocation
            command = Self.commands.first { $0.name == invocation.command }!
        }

        func run() throws(CommandExit) {
            let (words, configPath) = try arguments()
            let screen = invocation.values["screen"]
            var request = JSONLine([("command", .string(command.name))])
            var file: String?
            // Power, brightness and screenshot take one word: a second is named as the mistake, not blamed on
            // the first (`kiosk brightness 0.5 0.6` said the value was wrong).
            if words.count > 1, command.name != Self.status.name, command.name != Self.reload.name {
                throw KioskCommand.usage("unexpected argument \(words[1]) after \(words[0])", command: command)
            }
            switch command.name {
            case Self.power.name:
                guard words.count == 1, ["on", "off"].contains(words[0]) else {
                    throw KioskCommand.usage("say on or off, e.g. kiosk power off --screen HDMI-A-1", command: command)
                }
                request.append("state", .string(words[0]))
            case Self.brightness.name:
                guard words.count == 1, let value = Double(words[0]), value.isFinite, (0...1).contains(value) else {
                    throw KioskCommand.usage("give a brightness from 0 to 1, e.g. kiosk brightness 0.5", command: command)
                }
                request.append("value", .number(value))
            case Self.screenshot.name:
                guard words.count == 1 else {
                    throw KioskCommand.usage("give the PNG file to write, e.g. kiosk screenshot shot.png", command: command)
                }
                file = words[0]
                // Refused before the kiosk is asked: a FIFO or a device named by mistake is never written.
                try ScreenshotFile.check(words[0], overwrite: invocation.flags.contains("overwrite"), command: command.name)
            default:
                guard words.isEmpty else { throw KioskCommand.usage("unexpected argument \(words[0])", command: command) }
            }
            if let screen { request.append("screen", .string(screen)) }
            let path = try socketPath(configPath: configPath)
            let answer: (text: String, value: JSONValue)
            do {
                answer = try ControlClient(path: path).ask(request)
            } catch {
                fail(error.message)
                throw CommandExit(status: ExitStatus.cannotRun)
            }
            if invocation.flags.contains("json") {
                print(answer.text)
            }
            // Refused before any request was read (not allowed, too many clients): nothing was asked, as when
            // the socket's permissions keep this user out, and the same status says so.
            if answer.value["refused"]?.bool == true {
                fail(answer.value["error"]?.string ?? "the kiosk refused the connection: \(answer.text)")
                throw CommandExit(status: ExitStatus.cannotRun)
            }
            guard answer.value["ok"]?.bool == true else {
                fail(answer.value["error"]?.string ?? "the kiosk answered: \(answer.text)")
                for problem in answer.value["problems"]?.array ?? [] { StandardError.write(problem.string ?? "") }
                throw CommandExit(status: ExitStatus.problemsFound)
            }
            if invocation.flags.contains("json") { return }
            switch command.name {
            case Self.status.name: print(StatusText.render(answer.value), terminator: "")
            case Self.screenshot.name: try save(answer.value, to: file!)
            case Self.reload.name: print(Self.reloadText(answer.value))
            default:
                for entry in answer.value["screens"]?.array ?? [] {
                    let name = entry["name"]?.string ?? "?"
                    switch entry["power"]?.string {
                    case KioskRuntime.wakingDisconnected?:
                        print(
                            "\(name) waking: disconnected; its TV was sent Image View On over HDMI-CEC, and the screen comes back when the TV is on"
                        )
                    case let state?: print("\(name) \(state)")
                    case nil: break
                    }
                    if let level = entry["brightness"]?.number { print("\(name) brightness \(StatusText.number(level))") }
                }
                for name in answer.value["without-backlight"]?.array ?? [] {
                    print("\(name.string ?? "?"): no backlight (brightness stays 1)")
                }
            }
        }

        private func fail(_ message: String) {
            StandardError.write("kiosk \(command.name): \(message)")
        }

        /// The words of the command line (on, off, a value, a file) and `--config FILE`, if given.
        private func arguments() throws(CommandExit) -> (words: [String], config: String?) {
            var words: [String] = []
            var config: String?
            var rest = invocation.settings[...]
            while let argument = rest.popFirst() {
                if argument == "--" {
                    words += rest
                    break
                }
                if argument == "--config" {
                    guard let value = rest.popFirst(), !value.isEmpty else {
                        throw KioskCommand.usage("missing the value of --config <file>", command: command)
                    }
                    config = value
                } else if argument.hasPrefix("--config=") {
                    config = String(argument.dropFirst("--config=".count))
                } else if argument.hasPrefix("-") && argument.count > 1 && Double(argument) == nil {
                    throw KioskCommand.usage("unknown option \(argument)", command: command)
                } else {
                    words.append(argument)
                }
            }
            return (words, config)
        }

        /// `--socket`, else the configuration's `control-socket` (the file, then KIOSK_CONTROL_SOCKET), else
        /// (`auto`) the first of `ControlSocketPlace`'s places that is there. A broken file must not keep
        /// anyone from asking the kiosk what it runs, nor from reloading it to hear what is wrong: its problems
        /// are said, and its `control-socket` is used if nothing is wrong with that setting (else the variable
        /// or the default).
        private func socketPath(configPath: String?) throws(CommandExit) -> String {
            if let path = invocation.values["socket"] { return path }
            let environment = ProcessEnvironment.current()
            let source = ConfigurationSource(
                commandLine: CommandLineSettings(configPath: configPath), environment: environment,
                vocabulary: DemoApp.vocabulary)
            var (configuration, problems) = source.readValidSettings()
            if !problems.isEmpty {
                if let doubt = ControlSocketSetting.doubt(problems) {
                    fail(
                        "note: \(source.path) has problems (kiosk check-config lists them), \(doubt); using KIOSK_CONTROL_SOCKET or the default"
                    )
                    configuration = .default
                    if let text = environment["KIOSK_CONTROL_SOCKET"], !text.isEmpty,
                        let setting = KioskConfiguration.setting(key: "control-socket")
                    {
                        _ = setting.apply(text, to: &configuration, vocabulary: .open)
                    }
                } else {
                    fail("note: \(source.path) has problems (kiosk check-config lists them); its control-socket is fine and used")
                }
            }
            switch configuration.controlSocket {
            case .off:
                fail("the control socket is off (control-socket = \"off\"); nothing to ask")
                throw CommandExit(status: ExitStatus.cannotRun)
            case .path(let path):
                return path
            case .auto:
                // The places the kiosk chooses from, in its order: the first one there is where it listens.
                let places = ControlSocketPlace.candidates(environment: environment, uid: geteuid())
                if let found = places.first(where: ControlClient.mayBeThere) { return found }
                fail(
                    "no kiosk is running here: none of \(places.joined(separator: ", ")) exists (a kiosk makes its socket at the first of them that applies to it; --socket or control-socket names another)"
                )
                throw CommandExit(status: ExitStatus.cannotRun)
            }
        }

        private func save(_ answer: JSONValue, to file: String) throws(CommandExit) {
            guard let encoded = answer["png"]?.string, let png = Base64.decode(encoded) else {
                fail("the kiosk's answer has no PNG")
                throw CommandExit(status: ExitStatus.problemsFound)
            }
            do { try ScreenshotFile.write(png, to: file, overwrite: invocation.flags.contains("overwrite")) } catch {
                fail(error.message)
                throw CommandExit(status: ExitStatus.cannotRun)
            }
            let size = "\(StatusText.number(answer["width"]?.number ?? 0))x\(StatusText.number(answer["height"]?.number ?? 0))"
            print("\(file): \(answer["screen"]?.string ?? "?") \(size), rotation \(answer["rotation"]?.string ?? "?")")
        }

        static func reloadText(_ answer: JSONValue) -> String {
            let read: KioskRuntime.ReloadSource =
                if let missing = answer["missing"]?.string {
                    .noFile(missing, onDefaults: answer["defaults"]?.bool ?? false)
                } else {
                    .file(answer["config"]?.string ?? "the configuration")
                }
            let applied = (answer["applied"]?.array ?? []).compactMap(\.string)
            let restart = (answer["restart"]?.array ?? []).compactMap(\.string)
            var text = read.summary(applied: applied)
            if !restart.isEmpty { text += "\nchanged and need a restart: \(restart.joined(separator: ", "))" }
            return text
        }
    }
}

/// The screenshot's file: a new one, or with `--overwrite` a regular file that is there; nothing else is
/// ever written, truncated or replaced.
enum ScreenshotFile {
    struct Problem: Error {
        let message: String

        /// What the last failed call says (`errno`), for `path`.
        static func cannotWrite(_ path: String) -> Problem {
            Problem(message: "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }

    static func existsMessage(_ path: String) -> String { "\(path) exists; not replacing it (give --overwrite to replace it)" }

    /// Refuses, before the kiosk is asked, a path that exists (unless `overwrite`) or is not a regular file
    /// (a FIFO would block, a device would be written to, a symbolic link could point anywhere).
    static func check(_ path: String, overwrite: Bool, command: String) throws(CommandExit) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return }
        guard status.st_mode & S_IFMT == S_IFREG else {
            StandardError.write("kiosk \(command): \(path) exists and is \(fileKind(status.st_mode)), not a regular file; not writing it")
            throw CommandExit(status: ExitStatus.cannotRun)
        }
        guard overwrite else {
            StandardError.write("kiosk \(command): \(existsMessage(path))")
            throw CommandExit(status: ExitStatus.cannotRun)
        }
    }

    /// Writes `bytes` to `path`: created exclusively (`O_EXCL`: the path may have appeared since `check`),
    /// and removed again if writing fails; or, with `overwrite`, opened without following a link and without
    /// waiting for a FIFO's reader, checked again on the descriptor, truncated only then.
    static func write(_ bytes: [UInt8], to path: String, overwrite: Bool) throws(Problem) {
        let fd = open(path, O_WRONLY | O_CREAT | (overwrite ? 0 : O_EXCL) | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            if errno == EEXIST { throw Problem(message: existsMessage(path)) }
            throw Problem.cannotWrite(path)
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw Problem(message: "\(path) is \(fileKind(status.st_mode)), not a regular file; not writing it")
        }
        do throws(Problem) {
            if overwrite, ftruncate(fd, 0) != 0 { throw Problem.cannotWrite(path) }
            var written = 0
            while written < bytes.count {
                let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { throw Problem.cannotWrite(path) }
                written += count
            }
        } catch {
            // Only a file this command made is taken away again (a half-written PNG is no screenshot).
            if !overwrite { unlink(path) }
            throw error
        }
    }
}

/// `kiosk status` for a person: the answer's fields in lines.
enum StatusText {
    static func render(_ answer: JSONValue) -> String {
        var lines: [String] = []
        let uptime = answer["uptime"]?.number.map(duration) ?? "?"
        lines.append(
            "backend \(answer["backend"]?.string ?? "none"), config \(answer["config"]?.string ?? "none (defaults)"), up \(uptime)")
        let screens = answer["screens"]?.array ?? []
        lines.append(screens.isEmpty ? "screens: none" : "screens:")
        var rows: [[String]] = []
        for screen in screens {
            let name = screen["name"]?.string ?? "?"
            guard screen["connected"]?.bool == true else {
                rows.append([name, "disconnected"])
                continue
            }
            let brightness = screen["brightness"]?.number.map(number) ?? "?"
            var row = [
                name, screen["power"]?.string ?? "?", screen["mode"]?.string ?? "no mode", "rotation \(screen["rotation"]?.string ?? "?")",
                screen["backlight"]?.bool == true ? "brightness \(brightness)" : "no backlight",
                "\(number(screen["frames"]?.number ?? 0)) frames",
            ]
            if screen["main"]?.bool == true { row.append("main") }
            rows.append(row)
        }
        lines += table(rows)
        if let inputs = answer["inputs"]?.array {
            lines.append(inputs.isEmpty ? "inputs: none" : "inputs:")
            lines += table(
                inputs.map { device in
                    let capabilities = (device["capabilities"]?.array ?? []).compactMap(\.string).joined(separator: ",")
                    let mapped = device["screen"]?.string.map { "-> \($0) (\(device["reason"]?.string ?? ""))" } ?? ""
                    return [device["sysname"]?.string ?? "?", "\"\(device["name"]?.string ?? "?")\"", capabilities, mapped]
                })
        } else {
            lines.append("inputs: none opened (no input backend beside this display backend)")
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// Rows in columns, two spaces apart, indented by two.
    private static func table(_ rows: [[String]]) -> [String] {
        var widths: [Int] = []
        for row in rows {
            for (index, cell) in row.enumerated() {
                if index == widths.count { widths.append(0) }
                widths[index] = max(widths[index], cell.count)
            }
        }
        return rows.map { row in
            let cells = row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }
            return "  " + cells.joined(separator: "  ")
        }
    }

    /// `1`, `0.5`: whole numbers without a fraction.
    static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// `42 s`, `5 min 3 s`, `3 h 12 min`, `2 d 3 h`.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds)
        switch total {
        case ..<60: return "\(total) s"
        case ..<3600: return "\(total / 60) min \(total % 60) s"
        case ..<86400: return "\(total / 3600) h \(total % 3600 / 60) min"
        default: return "\(total / 86400) d \(total % 86400 / 3600) h"
        }
    }
}
