import ArgumentParser
import SeededRandom
import Testing

@testable import KioskRuntime

/// `Commands`, the kiosk's command-line parser, against swift-argument-parser, which it replaces: the same
/// command shapes declared both ways, and thousands of command lines made of the tokens that matter,
/// must give the same command, flags, option values and settings, or both help, both the version, or
/// both an error. Seeded, so a disagreement reproduces.
@Suite struct CommandsTests {
    static let commands = Commands(
        program: "kiosk", abstract: "A kiosk.", discussion: "", version: "0.1.0",
        commands: [
            Commands.Command(name: "run", abstract: "Run.", settingsHelp: "Settings."),
            Commands.Command(
                name: "screens", abstract: "Screens.", options: [.flag("json", help: "JSON.")], settingsHelp: "Settings."),
            Commands.Command(
                name: "calibrate", abstract: "Calibrate.",
                options: [
                    .value("screen", help: "Screen.", required: true), .flag("write", help: "Write."),
                    .value("timeout", help: "Timeout."),
                ],
                settingsHelp: "Settings."),
        ],
        defaultCommand: "run")

    /// ArgumentParser's answer in our terms.
    static func theirs(_ arguments: [String]) -> Commands.Outcome {
        do {
            let command = try APKiosk.parseAsRoot(arguments)
            switch command {
            case let run as APRun: return .run(.init(command: "run", settings: run.settings))
            case let screens as APScreens:
                return .run(.init(command: "screens", flags: screens.json ? ["json"] : [], settings: screens.settings))
            case let calibrate as APCalibrate:
                var values = ["screen": calibrate.screen]
                values["timeout"] = calibrate.timeout
                return .run(
                    .init(command: "calibrate", flags: calibrate.write ? ["write"] : [], values: values, settings: calibrate.settings))
            default:
                // ArgumentParser answers `help` and `-h` with a command of its own that prints help.
                if String(describing: type(of: command)) == "HelpCommand" { return .help("") }
                return .usage("a command of no kind: \(command)")
            }
        } catch {
            if APKiosk.exitCode(for: error) == .success {
                let text = APKiosk.fullMessage(for: error)
                return text == "0.1.0" ? .version(text) : .help(text)
            }
            return .usage(APKiosk.message(for: error))
        }
    }

    enum Kind: Equatable {
        case run(Commands.Invocation)
        case help, version, usage
    }

    static func kind(_ outcome: Commands.Outcome) -> Kind {
        switch outcome {
        case let .run(invocation): .run(invocation)
        case .help: .help
        case .version: .version
        case .usage: .usage
        }
    }

    /// Where the kiosk means to differ: a first word that names no command is refused before anything else
    /// (ArgumentParser hands it to the default command, whose `run` refused it, unless a `--help` or
    /// `--version` came later).
    static func expected(_ theirs: Commands.Outcome, for arguments: [String]) -> Kind {
        if let first = arguments.first, !first.hasPrefix("-"), first != "help", commands.command(named: first) == nil {
            return .usage
        }
        return kind(theirs)
    }

    static let tokens = [
        "run", "screens", "calibrate", "help", "bogus", "--screen", "--screen=DSI-1", "DSI-1", "--write", "--write=1",
        "--timeout", "--timeout=5", "5", "-5", "--json", "--json=x", "--backend", "drm", "--", "-h", "--help",
        "--version", "--config", "a.toml", "-x", "--screen=", "",
    ]

    @Test func agreesWithArgumentParser() {
        var random = SplitMix64(seed: 0x434F_4D4D_414E_4453)
        var differences: [String] = []
        var kinds: [String: Int] = [:]
        for _ in 0..<5_000 {
            let count = random.next(upperBound: 6)
            let arguments = (0..<count).map { _ in Self.tokens[random.next(upperBound: Self.tokens.count)] }
            let ours = Self.commands.parse(arguments)
            let theirs = Self.theirs(arguments)
            let kind = Self.kind(ours)
            kinds["\(kind)".prefix { $0 != "(" }.description, default: 0] += 1
            if kind != Self.expected(theirs, for: arguments), differences.count < 20 {
                differences.append("\(arguments): ours \(ours), ArgumentParser's \(theirs)")
            }
        }
        for difference in differences { Issue.record(Comment(rawValue: difference)) }
        #expect(kinds.count == 4, "every kind of outcome is compared: \(kinds)")
    }

    @Test func messages() {
        #expect(
            Self.commands.parse(["calibrate"]) == .usage("kiosk calibrate: missing --screen <screen> (kiosk calibrate --help)"))
        #expect(
            Self.commands.parse(["screens", "--json=1"]) == .usage("kiosk screens: --json takes no value (kiosk screens --help)"))
        #expect(
            Self.commands.parse(["calibrate", "--screen"])
                == .usage("kiosk calibrate: missing the value of --screen <screen> (kiosk calibrate --help)"))
        #expect(
            Self.commands.parse(["bogus"])
                == .usage("kiosk: \"bogus\" is not a command; the commands are run, screens, calibrate (kiosk --help)"))
    }

    @Test func helpLaysOutColumns() {
        guard case let .help(text) = Self.commands.parse(["help", "calibrate"]) else {
            Issue.record("no help")
            return
        }
        #expect(text.contains("USAGE: kiosk calibrate --screen <screen> [--write] [--timeout <timeout>] [<setting> ...]"))
        #expect(text.contains("\n  --screen <screen>       Screen.\n"))
    }

    /// A long line goes on under its text: a list entry's under the text after its number and two spaces.
    @Test func longLinesWrapUnderTheirText() {
        #expect(
            Commands.wrapLines("  3  what was asked for cannot run at all", width: 30)
                == "  3  what was asked for\n     cannot run at all")
        #expect(Commands.wrapLines("plain text that is long enough to wrap", width: 20) == "plain text that is\nlong enough to wrap")
        #expect(Commands.wrapLines("  indented text, long enough", width: 20) == "  indented text,\n  long enough")
        #expect(Commands.wrapLines("short\n\nlines", width: 20) == "short\n\nlines")
    }
}

// MARK: - The same commands, declared for ArgumentParser

struct APKiosk: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk", version: "0.1.0", subcommands: [APRun.self, APScreens.self, APCalibrate.self],
        defaultSubcommand: APRun.self)
}

struct APRun: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run")
    @Argument(parsing: .allUnrecognized) var settings: [String] = []
}

struct APScreens: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "screens")
    @Flag var json = false
    @Argument(parsing: .allUnrecognized) var settings: [String] = []
}

struct APCalibrate: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "calibrate")
    @Option var screen: String
    @Flag var write = false
    @Option var timeout: String?
    @Argument(parsing: .allUnrecognized) var settings: [String] = []
}
