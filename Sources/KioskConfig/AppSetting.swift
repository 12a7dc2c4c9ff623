/// A key of `[app-settings]` that the app reads, declared (`KioskRuntime.main(appSettings:)`) so that the
/// configuration checks the app's table as it checks its own keys: a key the app does not declare, or a value
/// of another type, is a problem at its file, line and column (at start, on a reload, in `kiosk check-config`),
/// naming the declared keys (or the nearest) or the type the value must have. Undeclared
/// (`Vocabulary.appSettings` nil), the table is the app's to check.
public struct AppSetting: Sendable, Equatable {
    /// The TOML type the value must have.
    public enum Kind: String, Sendable, CaseIterable {
        case string = "a string"
        case integer = "an integer"
        /// An integer or a float (`volume = 1` where a number is meant), as `ConfigValue.number` reads it.
        case number = "a number"
        case boolean = "a boolean"

        /// Whether `value` is of this kind.
        public func accepts(_ value: ConfigValue) -> Bool {
            switch self {
            case .string: value.string != nil
            case .integer: value.integer != nil
            case .number: value.number != nil
            case .boolean: value.boolean != nil
            }
        }
    }

    public let key: String
    public let kind: Kind
    /// What the value does, for the program's `--help`.
    public let help: String

    public init(_ key: String, _ kind: Kind, help: String = "") {
        self.key = key
        self.kind = kind
        self.help = help
    }
}
