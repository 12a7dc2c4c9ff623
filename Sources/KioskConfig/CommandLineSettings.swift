/// The settings given on the command line: `--config FILE` and the flag of any setting in
/// `KioskConfiguration.settings` (`--cursor hidden`, `--mode HDMI-A-1=1920x1080`, `--no-atomic`), as
/// `--flag VALUE` or `--flag=VALUE`. Kept as written so that they are applied again on top of every reload
/// of the file: what the command line said still wins after a SIGHUP.
public struct CommandLineSettings: Sendable, Equatable {
    /// `--config FILE`: the file to read instead of `KIOSK_CONFIG` or the default.
    public var configPath: String?
    /// Each setting's flag and value, in the order given.
    public private(set) var values: [Value] = []

    public struct Value: Sendable, Equatable {
        /// The setting's key (`KioskConfiguration.Setting.key`).
        public var key: String
        public var flag: String
        public var text: String
    }

    public init(configPath: String? = nil) {
        self.configPath = configPath
    }

    /// Parses `arguments` (without the program's name). `accepting` limits the settings to those keys (a
    /// listing command takes only what it uses); nil accepts every setting. Every problem is reported at once.
    public static func parse(_ arguments: [String], accepting keys: Set<String>? = nil) -> Result<CommandLineSettings, ConfigErrors> {
        let settings = KioskConfiguration.settings.filter { $0.flag != nil && (keys?.contains($0.key) ?? true) }
        var result = CommandLineSettings()
        var problems: [ConfigProblem] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                problems.append(
                    .commandLine(
                        nil, "unexpected argument \(ConfigKeyPath.quote(argument))",
                        valid: "options of the form --name VALUE"))
                continue
            }
            let (flag, inline) = split(argument)
            let takesValue = flag == "--config" || settings.first { $0.flag == flag }?.valueName != nil
            guard flag == "--config" || settings.contains(where: { $0.flag == flag }) else {
                let known = ["--config"] + settings.compactMap(\.flag)
                if let suggestion = Suggestion.closest(to: String(flag.dropFirst(2)), among: known.map { String($0.dropFirst(2)) }) {
                    problems.append(.commandLine(flag, "unknown option; did you mean --\(suggestion)?"))
                } else {
                    problems.append(.commandLine(flag, "unknown option", valid: known.joined(separator: ", ")))
                }
                // Its value, if it has one, is part of the same mistake, not a second one.
                if inline == nil, index < arguments.count, !arguments[index].hasPrefix("--") { index += 1 }
                continue
            }
            let text: String
            if let inline {
                text = inline
            } else if !takesValue {
                text = "true"
            } else if index < arguments.count, !arguments[index].hasPrefix("--") {
                text = arguments[index]
                index += 1
            } else {
                let setting = settings.first { $0.flag == flag }
                problems.append(.commandLine(flag, "needs a value", valid: setting?.valid(.open) ?? "a config file path"))
                continue
            }
            if flag == "--config" {
                guard !text.isEmpty else {
                    problems.append(.commandLine(flag, "needs a file path, not an empty one"))
                    continue
                }
                result.configPath = text
                continue
            }
            let setting = settings.first { $0.flag == flag }!
            result.values.append(Value(key: setting.key, flag: flag, text: text))
        }
        return problems.isEmpty ? .success(result) : .failure(ConfigErrors(problems))
    }

    /// `--flag=value` → (`--flag`, `value`); `--flag` → (`--flag`, nil).
    private static func split(_ argument: String) -> (String, String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    /// Applies the values on top of `configuration` (the file and the environment), in order: a list
    /// setting given here replaces the file's list. Returns every problem, each naming its option.
    public func apply(to configuration: inout KioskConfiguration, vocabulary: Vocabulary) -> [ConfigProblem] {
        var problems: [ConfigProblem] = []
        var started: Set<String> = []
        for value in values {
            guard let setting = KioskConfiguration.settings.first(where: { $0.key == value.key }) else { continue }
            if started.insert(setting.key).inserted { setting.reset?(&configuration) }
            if let problem = setting.apply(value.text, to: &configuration, vocabulary: vocabulary)
                ?? configuration.referenceProblem(setting)
            {
                problems.append(
                    .commandLine(
                        "\(value.flag) \(value.text)", key: setting.key, problem.message,
                        valid: problem.validText(for: setting, vocabulary: vocabulary)))
            }
        }
        // Once every flag is in, so `--dim-after 90 --idle-timeout 120` over a file's idle-timeout of 60 is fine.
        if let value = values.last(where: { KioskConfiguration.dimStageKeys.contains($0.key) }),
            let problem = configuration.dimStageProblem(origin: .commandLine(option: "\(value.flag) \(value.text)"))
        {
            problems.append(problem)
        }
        return problems
    }
}

/// Where a configuration comes from: the file (named by `--config`, else `KIOSK_CONFIG`, else the default
/// path), then the `KIOSK_*` environment, then the command line. `load()` reads them in that order, at
/// start and again for every reload.
public struct ConfigurationSource: Sendable, Equatable {
    public var commandLine: CommandLineSettings
    public var environment: [String: String]
    public var vocabulary: Vocabulary
    /// A named file that does not exist means the defaults, as the default path does (for a file that is
    /// only a target to write, as `kiosk calibrate --write`'s).
    public var allowsMissingFile = false

    public init(commandLine: CommandLineSettings = CommandLineSettings(), environment: [String: String], vocabulary: Vocabulary) {
        self.commandLine = commandLine
        self.environment = environment
        self.vocabulary = vocabulary
    }

    /// The file: `--config`, else `KIOSK_CONFIG` when set and not empty, else `/etc/kiosk/kiosk.toml`.
    public var path: String { commandLine.configPath ?? environmentPath ?? KioskConfiguration.defaultPath }

    /// How the file was named, for the log: `--config`, `KIOSK_CONFIG` or `the default`.
    public var pathOrigin: String {
        commandLine.configPath != nil ? "--config" : environmentPath != nil ? "KIOSK_CONFIG" : "the default"
    }

    /// A file named by `--config` or `KIOSK_CONFIG` must exist; only the default path may be absent.
    public var requiresFile: Bool { (commandLine.configPath != nil || environmentPath != nil) && !allowsMissingFile }

    private var environmentPath: String? {
        guard let path = environment["KIOSK_CONFIG"], !path.isEmpty else { return nil }
        return path
    }

    /// Reads the file, applies the environment and then the command line; every problem of all three at once.
    public func load() -> Result<KioskConfiguration, ConfigErrors> {
        KioskConfiguration.outcome(readValidSettings())
    }

    /// What `load()` reads, problems or not: the configuration every valid setting of the three gives
    /// (over the defaults), and every problem. For a client that needs one setting of a file that may be
    /// broken elsewhere (`kiosk reload` after an edit needs the control socket); never to run on.
    public func readValidSettings() -> (configuration: KioskConfiguration, problems: [ConfigProblem]) {
        var (configuration, problems) = KioskConfiguration.readSettings(
            path: path, environment: environment, vocabulary: vocabulary, requireFile: requiresFile)
        if problems.isEmpty {
            problems = commandLine.apply(to: &configuration, vocabulary: vocabulary)
        } else {
            // The command line's own problems are worth hearing too, checked against the defaults (what
            // the file says may be wrong); its valid settings still go over the file's.
            var defaults = KioskConfiguration.default
            problems += commandLine.apply(to: &defaults, vocabulary: vocabulary)
            _ = commandLine.apply(to: &configuration, vocabulary: vocabulary)
        }
        return (configuration, problems)
    }
}
