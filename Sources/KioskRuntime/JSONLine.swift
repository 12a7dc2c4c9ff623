/// One line of JSON with its keys in the order given (trace files are read by people as well as tools).
public struct JSONLine: Sendable {
    public enum Value: Sendable {
        case string(String)
        case number(Double)
        case integer(Int)
        case bool(Bool)
        case null
        /// Already JSON (a nested object or list, a number with fixed decimals).
        case raw(String)
    }

    private var fields: [(String, Value)] = []

    public init(_ fields: [(String, Value)] = []) {
        self.fields = fields
    }

    public mutating func append(_ key: String, _ value: Value) {
        fields.append((key, value))
    }

    public var text: String {
        "{" + fields.map { "\(Self.quote($0.0)):\(Self.encode($0.1))" }.joined(separator: ",") + "}"
    }

    private static func encode(_ value: Value) -> String {
        switch value {
        case .string(let text): quote(text)
        case .integer(let number): String(number)
        case .number(let number):
            // Whole numbers without ".0"; NaN and infinities are not JSON.
            number.isFinite ? (number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)) : "null"
        case .bool(let flag): flag ? "true" : "false"
        case .null: "null"
        case .raw(let json): json
        }
    }

    public static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                out += "\\u" + String(repeating: "0", count: 4 - String(c.value, radix: 16).count) + String(c.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
