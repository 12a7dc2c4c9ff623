/// A program's commands and their options, `kiosk [COMMAND] [OPTIONS] [SETTINGS ...]`, parsed as
/// swift-argument-parser parses commands of this shape, without it.
///
/// Why not ArgumentParser, which the kiosk used first: on a board it cost every start. It finds a
/// command's options by reflection (`Mirror`, protocol-conformance scans), 9.5 million of the 12.9 million
/// instructions `kiosk --version` ran, and it links FoundationEssentials: 4 MB of a 17 MB static binary,
/// and 3 MB of resident memory. The kiosk's commands need little of it: a name, a few flags and options,
/// and every other argument handed to the settings parser (`CommandLineSettings`), which reads the same
/// flags for `kiosk run` and for apps of your own. `CommandsTests` holds this parser to ArgumentParser's
/// behaviour on the kiosk's command shapes (ArgumentParser is a test dependency only).
///
/// The rules, ArgumentParser's:
/// - No arguments, or a first argument that is an option: the default command. A first argument that is
///   not an option names the command (or is an error saying which commands there are).
/// - `--name VALUE` and `--name=VALUE` for an option; a flag takes no value. The last of a repeated option
///   wins. A value never starts with `-` (`--timeout -5` lacks its value; `--timeout=-5` has one). A wrong
///   option is an error even beside `--help`.
/// - Then `-h` or `--help` anywhere before `--`, or `help [COMMAND]` first: help. Then `--version`
///   anywhere before `--`: the version. Then a required option missing is an error.
/// - Everything else, in order, is the command's settings, `--` and what follows it included verbatim.
///
/// One difference, on purpose: a first word that names no command is an error at once (ArgumentParser
/// gave it to the default command, which refused it, unless a `--help` or `--version` came later).
public struct Commands: Sendable {
    /// A flag (`--json`) or an option with a value (`--screen NAME`).
    public struct Option: Sendable, Equatable {
        public let name: String
        /// The value's name in help (`screen` in `--screen <screen>`); nil for a flag.
        public let placeholder: String?
        public let help: String
        public let isRequired: Bool

        public static func flag(_ name: String, help: String) -> Option {
            Option(name: name, placeholder: nil, help: help, isRequired: false)
        }

        public static func value(_ name: String, placeholder: String? = nil, help: String, required: Bool = false) -> Option {
            Option(name: name, placeholder: placeholder ?? name, help: help, isRequired: required)
        }

        /// `--screen <screen>`, or `--write`.
        var spelling: String { placeholder.map { "--\(name) <\($0)>" } ?? "--\(name)" }
    }

    public struct Command: Sendable {
        public let name: String
        public let abstract: String
        /// Made only for help: `kiosk run`'s lists every setting, which `--version` need not spell out.
        private let makeDiscussion: @Sendable () -> String
        public let options: [Option]
        /// What the other arguments are, for help ("--config FILE and any setting of `kiosk run`.").
        public let settingsHelp: String

        public init(
            name: String, abstract: String, discussion: @autoclosure @escaping @Sendable () -> String = "", options: [Option] = [],
            settingsHelp: String
        ) {
            self.name = name
            self.abstract = abstract
            self.makeDiscussion = discussion
            self.options = options
            self.settingsHelp = settingsHelp
        }

        public var discussion: String { makeDiscussion() }
    }

    /// A command to run, with what its command line said.
    public struct Invocation: Sendable, Equatable {
        public let command: String
        /// The flags given (by name, without `--`).
        public var flags: Set<String> = []
        /// The options given, by name: the last value of each.
        public var values: [String: String] = [:]
        /// Everything else, in order.
        public var settings: [String] = []

        public init(command: String, flags: Set<String> = [], values: [String: String] = [:], settings: [String] = []) {
            self.command = command
            self.flags = flags
            self.values = values
            self.settings = settings
        }
    }

    public enum Outcome: Sendable, Equatable {
        case run(Invocation)
        /// Text for standard output; exit 0.
        case help(String)
        case version(String)
        /// A wrong command line: the message for standard error, in the kiosk's one format
        /// (`kiosk calibrate: missing --screen <screen> (kiosk calibrate --help)`); exit 2.
        case usage(String)
    }

    public let program: String
    public let abstract: String
    public let discussion: String
    public let version: String
    public let commands: [Command]
    public let defaultCommand: String

    public init(program: String, abstract: String, discussion: String, version: String, commands: [Command], defaultCommand: String) {
        precondition(commands.contains { $0.name == defaultCommand }, "Commands: the default command \(defaultCommand) is not a command")
        self.program = program
        self.abstract = abstract
        self.discussion = discussion
        self.version = version
        self.commands = commands
        self.defaultCommand = defaultCommand
    }

    public func command(named name: String) -> Command? { commands.first { $0.name == name } }

    // MARK: Parsing

    public func parse(_ arguments: [String]) -> Outcome {
        let isHelp = { (argument: String) in argument == "-h" || argument == "--help" }
        if arguments.first == "help" {
            let rest = arguments.dropFirst().prefix { $0 != "--" }
            if rest.contains("--version") { return .version(version) }
            if let option = rest.first(where: { $0.hasPrefix("-") && !isHelp($0) }) {
                return .usage(usageError("unknown option \(option)", command: nil))
            }
            // The command named, else the program's (`kiosk help drm` is the program's help).
            let name = rest.first { !$0.hasPrefix("-") }
            return .help(help(for: name.flatMap(command(named:))))
        }
        var arguments = arguments[...]
        var named: Command?
        if let first = arguments.first, !first.hasPrefix("-") {
            guard let command = command(named: first) else { return .usage(notACommand(first)) }
            named = command
            arguments = arguments.dropFirst()
        }
        let command = named ?? self.command(named: defaultCommand)!
        // The options first: a wrong one is an error even beside --help or --version, as in ArgumentParser.
        var invocation = Invocation(command: command.name)
        var asksHelp = false
        var asksVersion = false
        while let argument = arguments.popFirst() {
            if argument == "--" {
                invocation.settings.append(argument)
                invocation.settings += arguments
                break
            }
            if isHelp(argument) {
                asksHelp = true
                continue
            }
            guard argument.hasPrefix("--") else {
                invocation.settings.append(argument)
                continue
            }
            let body = argument.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            let inline = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
            guard let option = command.options.first(where: { $0.name == name }) else {
                if argument == "--version" {
                    asksVersion = true
                } else {
                    invocation.settings.append(argument)
                }
                continue
            }
            guard option.placeholder != nil else {
                if inline != nil { return .usage(usageError("\(option.spelling) takes no value", command: command.name)) }
                invocation.flags.insert(name)
                continue
            }
            // A value never starts with `-`: `--timeout -5` lacks its value (write `--timeout=-5`). An empty
            // `--screen=` takes the next argument, as ArgumentParser's does.
            if let inline, !inline.isEmpty {
                invocation.values[name] = inline
            } else if let value = arguments.first, !value.hasPrefix("-") {
                invocation.values[name] = value
                arguments = arguments.dropFirst()
            } else {
                return .usage(usageError("missing the value of \(option.spelling)", command: command.name))
            }
        }
        if asksHelp { return .help(help(for: named)) }
        if asksVersion { return .version(version) }
        for option in command.options where option.isRequired && invocation.values[option.name] == nil {
            return .usage(usageError("missing \(option.spelling)", command: command.name))
        }
        return .run(invocation)
    }

    /// A wrong command line said the kiosk's way: `kiosk calibrate: MESSAGE (kiosk calibrate --help)`.
    public func usageError(_ message: String, command: String?) -> String {
        let name = [program, command].compactMap { $0 }.joined(separator: " ")
        return "\(name): \(message) (\(name) --help)"
    }

    private func notACommand(_ name: String) -> String {
        usageError("\"\(name)\" is not a command; the commands are \(commands.map(\.name).joined(separator: ", "))", command: nil)
    }

    // MARK: Help

    /// The program's help (nil) or a command's.
    public func help(for command: Command?) -> String {
        var sections: [String] = []
        guard let command else {
            sections.append("OVERVIEW: \(abstract)")
            sections.append("USAGE: \(program) <command> [<setting> ...]")
            sections.append(
                "OPTIONS:\n" + Self.entries([("--version", "Show the version."), ("-h, --help", "Show help information.")]))
            let list = commands.map { ($0.name == defaultCommand ? "\($0.name) (default)" : $0.name, $0.abstract) }
            sections.append(
                "COMMANDS:\n" + Self.entries(list) + "\n\n  See '\(program) help <command>' for detailed help.")
            if !discussion.isEmpty { sections.append(Self.wrapLines(discussion)) }
            return sections.joined(separator: "\n\n")
        }
        sections.append("OVERVIEW: \(command.abstract)")
        let discussion = command.discussion
        if !discussion.isEmpty { sections.append(Self.wrapLines(discussion)) }
        let usage = command.options.map { $0.isRequired ? $0.spelling : "[\($0.spelling)]" } + ["[<setting> ...]"]
        sections.append("USAGE: \(program) \(command.name) \(usage.joined(separator: " "))")
        sections.append("ARGUMENTS:\n" + Self.entries([("<setting>", command.settingsHelp)]))
        let options = command.options.map { ($0.spelling, $0.help) } + [("-h, --help", "Show help information.")]
        sections.append("OPTIONS:\n" + Self.entries(options))
        return sections.joined(separator: "\n\n")
    }

    /// Two columns, the second from column 27 and wrapped at 80, as ArgumentParser lays them out.
    static func entries(_ rows: [(String, String)]) -> String {
        rows.map { name, text in
            let lines = wrap(text, width: 80 - 26)
            let first = "  " + name
            let head =
                first.count < 25
                ? first + String(repeating: " ", count: 26 - first.count) + (lines.first ?? "")
                : first + "\n" + String(repeating: " ", count: 26) + (lines.first ?? "")
            return ([head] + lines.dropFirst().map { String(repeating: " ", count: 26) + $0 }).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// Each line of `text` wrapped at 80 columns. A continuation line starts where the line's text does:
    /// under its first character, or for a list entry (`  3  what was asked ...`) under the text after
    /// the entry's two spaces.
    static func wrapLines(_ text: String, width: Int = 80) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var line = Substring(line)
            guard line.count > width else { return String(line) }
            let indent = line.prefix { $0 == " " }.count
            let hanging: Int = {
                let body = line.dropFirst(indent)
                // Not `firstRange(of:)`: _StringProcessing's, whose one object file links the regex engine
                // in, about 1 MB of the release binary's code (the footprint scenario checks it is not there).
                guard let gap = body.indices.first(where: { body[$0...].hasPrefix("  ") }) else { return indent }
                let text = body[gap...].prefix { $0 == " " }.endIndex
                return indent + body.distance(from: body.startIndex, to: text)
            }()
            var lines: [String] = []
            while line.count > width {
                let limit = line.index(line.startIndex, offsetBy: width)
                guard let space = line[..<limit].lastIndex(of: " "), line.distance(from: line.startIndex, to: space) > hanging
                else { break }
                lines.append(String(line[..<space]))
                line = Substring(String(repeating: " ", count: hanging)) + line[line.index(after: space)...]
            }
            return (lines + [String(line)]).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// `text` in lines of at most `width` characters, broken at spaces (a longer word gets a line of its own).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " " + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
