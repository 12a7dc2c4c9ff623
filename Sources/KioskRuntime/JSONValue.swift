/// A JSON value as the control socket reads it: requests (`{"command":"power","state":"off"}`) on the
/// kiosk's side, answers (`{"ok":true,"screens":[...]}`) on the `kiosk status` side.
///
/// Why our own reader: the kiosk's modules do not link Foundation (its `JSONSerialization` brings ICU,
/// 30 MB, see ARCHITECTURE's decisions), and what the socket reads is small and simple. Requests are
/// objects of strings, numbers, booleans and null (the server refuses anything nested in a request); the
/// reader takes arrays and nested objects too because the client reads the kiosk's answers with it, and
/// nesting stops at `maximumDepth` so that no line can exhaust the stack. It follows RFC 8259 strictly:
/// no comments, no trailing commas, no leading zeros or `+`, no `NaN`, no control characters or invalid
/// UTF-8 inside strings, nothing after the value but whitespace; a key given twice is refused (which of
/// the two would count is up to the reader, and a request should never leave that open).
public enum JSONValue: Equatable, Sendable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    /// Members in the order written.
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case let (.string(a), .string(b)): a == b
        case let (.number(a), .number(b)): a == b
        case let (.bool(a), .bool(b)): a == b
        case (.null, .null): true
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// How deep arrays and objects may nest (the kiosk's answers use three levels).
    public static let maximumDepth = 16

    /// Reads one JSON text (one line of the protocol, without its newline).
    public static func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes) throws(JSONError) -> JSONValue {
        var reader = JSONReader(Array(bytes))
        return try reader.document()
    }

    public static func parse(_ text: String) throws(JSONError) -> JSONValue { try parse(Array(text.utf8)) }

    /// The member `key` of an object; nil for a missing key or a value that is not an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    public var string: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var array: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// What the value is, for messages (`"expected a string, found a number"`).
    public var kind: String {
        switch self {
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Malformed JSON: what was wrong and at which byte (counted from 0) of the line.
public struct JSONError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public let offset: Int

    public var description: String { "malformed JSON at byte \(offset): \(message)" }
}

/// A recursive-descent reader over the bytes of one line.
private struct JSONReader {
    let bytes: [UInt8]
    var index = 0
    var depth = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func document() throws(JSONError) -> JSONValue {
        skipWhitespace()
        let value = try self.value()
        skipWhitespace()
        guard index == bytes.count else { throw fail("unexpected \(describe(at: index)) after the value") }
        return value
    }

    private func fail(_ message: String, at offset: Int? = nil) -> JSONError { JSONError(message: message, offset: offset ?? index) }

    private func describe(at offset: Int) -> String {
        guard offset < bytes.count else { return "end of line" }
        let byte = bytes[offset]
        return (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func value() throws(JSONError) -> JSONValue {
        guard index < bytes.count else { throw fail("expected a value, found end of line") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw fail("expected a value, found \(describe(at: index))")
        }
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws(JSONError) -> JSONValue {
        let expected = Array(word.utf8)
        guard bytes.count - index >= expected.count, Array(bytes[index..<(index + expected.count)]) == expected else {
            throw fail("expected a value, found \(describe(at: index))")
        }
        index += expected.count
        return value
    }

    private mutating func nest() throws(JSONError) {
        depth += 1
        guard depth <= JSONValue.maximumDepth else { throw fail("nested deeper than \(JSONValue.maximumDepth) levels") }
    }

    private mutating func object() throws(JSONError) -> JSONValue {
        try nest()
        defer { depth -= 1 }
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw fail("expected a key in quotes, found \(describe(at: index))")
            }
            let keyOffset = index
            let key = try string()
            guard !members.contains(where: { $0.key == key }) else { throw fail("the key \"\(key)\" is given twice", at: keyOffset) }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw fail("expected ':' after the key, found \(describe(at: index))")
            }
            index += 1
            skipWhitespace()
            members.append((key, try value()))
            skipWhitespace()
            guard index < bytes.count else { throw fail("expected ',' or '}', found end of line") }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            guard bytes[index] == UInt8(ascii: ",") else { throw fail("expected ',' or '}', found \(describe(at: index))") }
            index += 1
        }
    }

    private mutating func array() throws(JSONError) -> JSONValue {
        try nest()
        defer { depth -= 1 }
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try value())
            skipWhitespace()
            guard index < bytes.count else { throw fail("expected ',' or ']', found end of line") }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(items)
            }
            guard bytes[index] == UInt8(ascii: ",") else { throw fail("expected ',' or ']', found \(describe(at: index))") }
            index += 1
        }
    }

    /// A number in JSON's grammar (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`), checked here because
    /// Swift's `Double(_:)` takes more (`+1`, `.5`, `inf`, `0x1p3`).
    private mutating func number() throws(JSONError) -> JSONValue {
        let start = index
        func digits() -> Int {
            let first = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - first
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        guard digits() > 0 else { throw fail("expected a digit, found \(describe(at: index))") }
        if bytes[integerStart] == UInt8(ascii: "0"), index - integerStart > 1 {
            throw fail("a number cannot start with 0", at: integerStart)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw fail("expected a digit after '.', found \(describe(at: index))") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw fail("expected a digit in the exponent, found \(describe(at: index))") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw fail("\(text) is out of range", at: start) }
        return .number(value)
    }

    /// A string from its opening quote: escapes decoded (surrogate pairs joined), the bytes checked as UTF-8.
    private mutating func string() throws(JSONError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run = index
        // Plain bytes are copied a run at a time; escapes break the runs.
        func flush(_ end: Int) throws(JSONError) {
            guard run < end else { return }
            guard let text = String(validating: bytes[run..<end], as: UTF8.self) else {
                throw fail("a string holds bytes that are not UTF-8", at: run)
            }
            scalars.append(contentsOf: text.unicodeScalars)
        }
        while true {
            guard index < bytes.count else { throw fail("a string is not closed before the end of the line") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                try flush(index)
                index += 1
                return String(scalars)
            }
            guard byte >= 0x20 else { throw fail("a control character (0x\(String(byte, radix: 16))) inside a string; write it escaped") }
            guard byte == UInt8(ascii: "\\") else {
                index += 1
                continue
            }
            try flush(index)
            index += 1
            guard index < bytes.count else { throw fail("a string is not closed before the end of the line") }
            let escape = bytes[index]
            index += 1
            switch escape {
            case UInt8(ascii: "\""): scalars.append("\"")
            case UInt8(ascii: "\\"): scalars.append("\\")
            case UInt8(ascii: "/"): scalars.append("/")
            case UInt8(ascii: "b"): scalars.append("\u{8}")
            case UInt8(ascii: "f"): scalars.append("\u{C}")
            case UInt8(ascii: "n"): scalars.append("\n")
            case UInt8(ascii: "r"): scalars.append("\r")
            case UInt8(ascii: "t"): scalars.append("\t")
            case UInt8(ascii: "u"): scalars.append(try unicodeEscape())
            default: throw fail("\\\(describe(at: index - 1)) is not an escape", at: index - 2)
            }
            run = index
        }
    }

    /// The four hex digits after `\u`, and a second `\uXXXX` when the first is a high surrogate.
    private mutating func unicodeEscape() throws(JSONError) -> Unicode.Scalar {
        let start = index - 2
        let high = try hex4()
        if (0xD800...0xDBFF).contains(high) {
            guard bytes.count - index >= 6, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                throw fail("a lone surrogate \\u\(String(high, radix: 16)) (its pair must follow)", at: start)
            }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw fail("a lone surrogate \\u\(String(high, radix: 16))", at: start) }
            return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
        }
        guard let scalar = Unicode.Scalar(high) else { throw fail("a lone surrogate \\u\(String(high, radix: 16))", at: start) }
        return scalar
    }

    private mutating func hex4() throws(JSONError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw fail("\\u needs four hex digits, found end of line") }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("\\u needs four hex digits, found \(describe(at: index))")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}
