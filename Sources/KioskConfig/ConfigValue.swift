/// A value of the free-form `[app-settings]` table, handed to the app as written (dates and times in their
/// RFC 3339 spelling).
public enum ConfigValue: Sendable, Equatable, CustomStringConvertible {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    /// A TOML date, time or date-time in its RFC 3339 spelling (`1979-05-27T07:32:00Z`, `07:32:00`).
    case dateTime(String)
    case array([ConfigValue])
    case table([String: ConfigValue])

    public var string: String? { if case let .string(value) = self { value } else { nil } }
    public var integer: Int? { if case let .integer(value) = self { value } else { nil } }
    /// A float, or an integer as a float (`volume = 1` where a number is meant).
    public var number: Double? {
        switch self {
        case let .float(value): value
        case let .integer(value): Double(value)
        default: nil
        }
    }
    public var boolean: Bool? { if case let .boolean(value) = self { value } else { nil } }
    public var array: [ConfigValue]? { if case let .array(value) = self { value } else { nil } }
    public var table: [String: ConfigValue]? { if case let .table(value) = self { value } else { nil } }

    public subscript(key: String) -> ConfigValue? { table?[key] }

    /// Floats compare by bit pattern when either is NaN (`nan` is valid TOML): a configuration read twice
    /// from the same file must compare equal, or every SIGHUP would look like a change.
    public static func == (lhs: ConfigValue, rhs: ConfigValue) -> Bool {
        switch (lhs, rhs) {
        case let (.string(a), .string(b)): a == b
        case let (.integer(a), .integer(b)): a == b
        case let (.float(a), .float(b)): a == b || (a.isNaN && b.isNaN && a.bitPattern == b.bitPattern)
        case let (.boolean(a), .boolean(b)): a == b
        case let (.dateTime(a), .dateTime(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.table(a), .table(b)): a == b
        default: false
        }
    }

    /// TOML spelling, for logs.
    public var description: String {
        switch self {
        case let .string(value): ConfigKeyPath.quote(value, limit: .max)
        case let .integer(value): String(value)
        case let .float(value): value.isNaN ? "nan" : value.isInfinite ? (value < 0 ? "-inf" : "inf") : String(value)
        case let .boolean(value): String(value)
        case let .dateTime(value): value
        case let .array(values): "[" + values.map(\.description).joined(separator: ", ") + "]"
        case let .table(values):
            "{ "
                + values.keys.sorted().map { "\(ConfigKeyPath.spell(key: $0)) = \(values[$0]!.description)" }
                .joined(separator: ", ") + " }"
        }
    }
}
