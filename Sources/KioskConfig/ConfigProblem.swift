/// One thing wrong with a configuration: where (file, line and column, or the environment variable), which
/// key, what is wrong and what would be valid. `description` is one line in the compiler style that editors
/// and terminals turn into links:
///
/// ```
/// /etc/kiosk/kiosk.toml:12:8: screens.HDMI-A-1.mode: "1920x1080@6O" is not a mode; valid: preferred, ...
/// /etc/kiosk/kiosk.toml:3:1: unknown key "rotaton"; did you mean "rotation"?
/// /etc/kiosk/kiosk.toml:9:23: hotplug-debounce-ms must be an integer, not a string
/// environment KIOSK_CURSOR: "sometimes" is not valid; valid: auto, hidden, always
/// command line --mode: HDMI-A-1=big: "big" is not a mode; valid: preferred, current, off, ...
/// ```
public struct ConfigProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the offending text came from.
    public enum Origin: Sendable, Equatable {
        /// A line of a file (nil when the problem is the file as a whole: unreadable, too large).
        case file(path: String, line: Int?, column: Int?)
        /// A `KIOSK_*` environment variable.
        case environment(variable: String)
        /// A command-line option (`--cursor`); nil for an argument that is no option at all.
        case commandLine(option: String?)
    }

    /// What kind of problem, for callers that treat some differently (the runtime falls back to the
    /// preferred mode on `.modeNotOffered` but refuses to start on the others).
    public enum Kind: Sendable, Equatable {
        /// TOML syntax (from `TOML.parse`), text that is not UTF-8, or a file that cannot be read.
        case syntax
        case unknownKey
        case wrongType
        case invalidValue
        case missingKey
        /// Two entries for the same screen.
        case duplicate
        /// Two settings that contradict each other (two primary screens).
        case conflict
        /// A configured size that the connector does not offer.
        case modeNotOffered
    }

    public let kind: Kind
    public let origin: Origin
    /// The key in TOML spelling (`screens.HDMI-A-1.mode`, `touch[0].calibration`); for an unknown key, the
    /// table it is in; empty for the top level and for problems with the file as a whole. For an environment
    /// variable, the key it overrides (not shown in `description`: the variable names it).
    public let keyPath: String
    /// What is wrong.
    public let message: String
    /// What would be valid, when that can be said.
    public let valid: String?

    init(_ kind: Kind, _ origin: Origin, keyPath: String = "", message: String, valid: String? = nil) {
        self.kind = kind
        self.origin = origin
        self.keyPath = keyPath
        self.message = message
        self.valid = valid
    }

    public var file: String? {
        if case let .file(path, _, _) = origin { path } else { nil }
    }

    public var line: Int? {
        if case let .file(_, line, _) = origin { line } else { nil }
    }

    public var column: Int? {
        if case let .file(_, _, column) = origin { column } else { nil }
    }

    public var description: String {
        var body = message
        if case .file = origin, !keyPath.isEmpty {
            // A type mismatch reads as a sentence about the key ("x must be an integer, not a string");
            // everything else is labelled with it.
            body = kind == .wrongType ? "\(keyPath) \(message)" : "\(keyPath): \(message)"
        }
        if let valid { body += "; valid: \(valid)" }
        return "\(location): \(body)"
    }

    /// `path:line:column`, `path:line`, `path`, `environment KIOSK_X` or `command line --option`.
    public var location: String {
        switch origin {
        case let .file(path, line, column):
            var text = path
            if let line {
                text += ":\(line)"
                if let column { text += ":\(column)" }
            }
            return text
        case let .environment(variable):
            return "environment \(variable)"
        case let .commandLine(option):
            return option.map { "command line \($0)" } ?? "command line"
        }
    }
}

// MARK: - The messages, in one place so they stay alike.

extension ConfigProblem {
    /// A syntax error: the parser's, or ours for text that is not UTF-8 (NUL, invalid bytes).
    static func syntax(_ origin: Origin, _ message: String) -> ConfigProblem {
        ConfigProblem(.syntax, origin, message: message)
    }

    /// `unknown key "rotaton"; did you mean "rotation"?`, or the valid keys when none is close.
    static func unknownKey(_ key: String, in table: ConfigKeyPath, valid: [String], _ origin: Origin) -> ConfigProblem {
        let spelled = ConfigKeyPath.quote(key)
        if let suggestion = Suggestion.closest(to: key, among: valid) {
            return ConfigProblem(
                .unknownKey, origin, keyPath: table.description,
                message: "unknown key \(spelled); did you mean \(ConfigKeyPath.quote(suggestion))?")
        }
        return ConfigProblem(
            .unknownKey, origin, keyPath: table.description, message: "unknown key \(spelled)",
            valid: valid.joined(separator: ", "))
    }

    /// `unknown key "x": the app reads no [app-settings]`: a key in a table that takes none.
    static func unknownKey(_ key: String, in table: ConfigKeyPath, takesNone reason: String, _ origin: Origin) -> ConfigProblem {
        ConfigProblem(.unknownKey, origin, keyPath: table.description, message: "unknown key \(ConfigKeyPath.quote(key)): \(reason)")
    }

    /// `hotplug-debounce-ms must be an integer, not a string`.
    static func wrongType(
        _ path: ConfigKeyPath, expected: String, found: String, valid: String? = nil,
        _ origin: Origin
    ) -> ConfigProblem {
        ConfigProblem(.wrongType, origin, keyPath: path.description, message: "must be \(expected), not \(found)", valid: valid)
    }

    static func invalidValue(_ path: ConfigKeyPath, _ message: String, valid: String?, _ origin: Origin) -> ConfigProblem {
        ConfigProblem(.invalidValue, origin, keyPath: path.description, message: message, valid: valid)
    }

    static func missingKey(_ key: String, in table: ConfigKeyPath, valid: String?, _ origin: Origin) -> ConfigProblem {
        ConfigProblem(.missingKey, origin, keyPath: table.description, message: "missing key \(ConfigKeyPath.quote(key))", valid: valid)
    }

    /// `environment KIOSK_CURSOR: "sometimes" is not valid; valid: auto, hidden, always`.
    static func environment(_ variable: String, key: String, value: String, valid: String) -> ConfigProblem {
        ConfigProblem(
            .invalidValue, .environment(variable: variable), keyPath: key,
            message: "\(ConfigKeyPath.quote(value)) is not valid", valid: valid)
    }

    /// `command line --cursor: "sometimes" is not valid; valid: auto, hidden, always`.
    static func commandLine(_ option: String?, key: String = "", _ message: String, valid: String? = nil) -> ConfigProblem {
        ConfigProblem(.invalidValue, .commandLine(option: option), keyPath: key, message: message, valid: valid)
    }
}
