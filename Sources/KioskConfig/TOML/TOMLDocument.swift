/// TOML v1.0.0 (https://toml.io/en/v1.0.0) in pure Swift: the standard library only, no Foundation, so a
/// statically linked kiosk carries no ICU. It replaces TOMLKit (toml++ in C++), which dragged in Foundation,
/// gave no positions for valid keys (a second scanner had to find them) and aborted on some malformed
/// headers and arrays.
///
/// The types are nested in `TOML` (`TOML.Value`, `TOML.Table`) because the differential tests import
/// TOMLKit, whose top-level `TOMLValue` and `TOMLTable` would otherwise clash.
enum TOML {
    /// How deep tables and arrays may nest (the root table is level 0, `a = [[1]]` reaches 2, `[a.b.c]` 3).
    /// A config needs a handful; the limit keeps a hostile file from exhausting the stack, since arrays and
    /// inline tables are parsed recursively and the tree is compared and freed recursively.
    static let maximumNesting = 128

    /// The document's root table, or the first syntax error in it.
    static func parse(_ bytes: [UInt8]) throws(SyntaxError) -> Table {
        try parseDocument(bytes).root
    }

    /// The document's root table and where each of its keys and values was written, or the first syntax
    /// error in it.
    static func parseDocument(_ bytes: [UInt8]) throws(SyntaxError) -> Document {
        var parser = Parser(bytes: bytes)
        let root = try parser.parseDocument()
        return Document(root: root, bytes: bytes, start: parser.start, offsets: parser.offsets)
    }

    /// A TOML value. Dates and times keep their text, in RFC 3339 form (`1979-05-27T07:32:00Z`,
    /// `1979-05-27T07:32:00.5`, `1979-05-27`, `07:32:00`): a `T` (never a space or `t`) between date and time,
    /// `Z` uppercase, fractional seconds and offsets as written. They are validated (month 1 to 12, the days
    /// of that month, hours to 23, minutes to 59, seconds to 60 for a leap second).
    enum Value: Sendable, Equatable, CustomStringConvertible {
        case string(String)
        case integer(Int)
        case float(Double)
        case boolean(Bool)
        case offsetDateTime(String)
        case localDateTime(String)
        case localDate(String)
        case localTime(String)
        case array([Value])
        case table(Table)

        /// Floats compare by bit pattern, so `nan` equals `nan` (a document parsed twice compares equal);
        /// the flip side is that `0.0` and `-0.0` differ, as they do in the file.
        static func == (lhs: Value, rhs: Value) -> Bool {
            switch (lhs, rhs) {
            case let (.string(a), .string(b)): a == b
            case let (.integer(a), .integer(b)): a == b
            case let (.float(a), .float(b)): a.bitPattern == b.bitPattern
            case let (.boolean(a), .boolean(b)): a == b
            case let (.offsetDateTime(a), .offsetDateTime(b)): a == b
            case let (.localDateTime(a), .localDateTime(b)): a == b
            case let (.localDate(a), .localDate(b)): a == b
            case let (.localTime(a), .localTime(b)): a == b
            case let (.array(a), .array(b)): a == b
            case let (.table(a), .table(b)): a == b
            default: false
            }
        }

        /// The kind of value with its article, for messages: "must be a string, not an integer".
        var typeName: String {
            switch self {
            case .string: "a string"
            case .integer: "an integer"
            case .float: "a float"
            case .boolean: "a boolean"
            case .offsetDateTime, .localDateTime: "a date-time"
            case .localDate: "a date"
            case .localTime: "a time"
            case .array: "an array"
            case .table: "a table"
            }
        }

        /// The value in TOML syntax, tables inline: `{ a = 1, b = [2.5, "x"] }`.
        var description: String {
            switch self {
            case let .string(text): TOML.quote(text)
            case let .integer(number): String(number)
            case let .float(number):
                if number.isNaN {
                    number.sign == .minus ? "-nan" : "nan"
                } else if number.isInfinite {
                    number < 0 ? "-inf" : "inf"
                } else {
                    // Swift prints whole numbers as `1.0` and others in shortest round-trip form.
                    number.description
                }
            case let .boolean(flag): String(flag)
            case let .offsetDateTime(text), let .localDateTime(text), let .localDate(text), let .localTime(text): text
            case let .array(elements): "[" + elements.map(\.description).joined(separator: ", ") + "]"
            case let .table(table): table.description
            }
        }
    }

    /// A table: keys in the order they first appear in the file (a table's own keys, then those added by
    /// later headers such as `[a.b]` after `[a]`).
    struct Table: Sendable, Equatable, CustomStringConvertible {
        private(set) var keys: [String] = []
        private var values: [String: Value] = [:]

        init() {}

        /// Built from pairs in order; a repeated key keeps its first position and its last value.
        init(_ pairs: KeyValuePairs<String, Value>) {
            for (key, value) in pairs { self[key] = value }
        }

        subscript(key: String) -> Value? {
            get { values[key] }
            set {
                if let newValue {
                    if values.updateValue(newValue, forKey: key) == nil { keys.append(key) }
                } else if values.removeValue(forKey: key) != nil {
                    keys.removeAll { $0 == key }
                }
            }
        }

        var isEmpty: Bool { keys.isEmpty }
        var count: Int { keys.count }

        /// Tables are equal when they have the same keys with equal values, in any order: TOML tables are
        /// unordered, and `[a]` then `[b]` means the same as `[b]` then `[a]`.
        static func == (lhs: Table, rhs: Table) -> Bool { lhs.values == rhs.values }

        var description: String {
            guard !keys.isEmpty else { return "{}" }
            let pairs = keys.map { "\(TOML.spell(key: $0)) = \(values[$0]?.description ?? "")" }
            return "{ " + pairs.joined(separator: ", ") + " }"
        }
    }

    /// Where a document stops being TOML, and why, in one line of plain English.
    struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        /// 1-based.
        var line: Int
        /// 1-based, in Unicode scalars from the start of the line (a UTF-8 byte order mark is not counted).
        var column: Int
        var message: String
        /// For a key or table defined twice: its whole path (`screens.DP-1.mode`, where the line itself may
        /// say only `mode`) and the line of the first definition.
        var redefinition: Redefinition?
        /// For a number or date that cannot be read (too large, malformed): the key it was for.
        var valuePath: ConfigKeyPath?

        struct Redefinition: Sendable, Equatable {
            var path: ConfigKeyPath
            var firstLine: Int
        }

        init(line: Int, column: Int, message: String, redefinition: Redefinition? = nil) {
            self.line = line
            self.column = column
            self.message = message
            self.redefinition = redefinition
        }

        var description: String { "line \(line), column \(column): \(message)" }
    }
}

extension TOML {
    /// TOML's bare key alphabet: `A-Za-z0-9_-`.
    static func isBareKeyByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    /// A key as TOML spells it: bare when it can be, else a basic string.
    static func spell(key: String) -> String {
        !key.isEmpty && key.utf8.allSatisfy(isBareKeyByte) ? key : quote(key)
    }

    /// `text` as a TOML basic string on one line: quotes, backslashes and control characters escaped. Past
    /// `limit` characters it is cut with `…`, so a message about pasted garbage stays one readable line.
    static func quote(_ text: String, limit: Int = .max) -> String {
        var out = "\""
        for (count, scalar) in text.unicodeScalars.enumerated() {
            if count == limit {
                out += "…"
                break
            }
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u" + hex(scalar.value, digits: 4)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `value` in uppercase hexadecimal, zero-padded to `digits`.
    static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

extension TOML {
    /// A parsed document: its tree, and where each key and value was written (the first time, for tables
    /// that headers and dotted keys mention again), so a message about a setting can point at it.
    struct Document {
        struct Location: Equatable, Sendable {
            /// 1-based.
            var line: Int
            /// Where the key (or the table header's last key) starts; columns count Unicode scalars from 1.
            var keyColumn: Int
            /// Where the value starts; nil for tables defined by a header or by a dotted key's prefix.
            var valueColumn: Int?
        }

        /// Byte offsets of a key and of its value, as the parser saw them.
        struct Offsets {
            var key: Int
            var value: Int?
        }

        let root: Table
        private let bytes: [UInt8]
        private let offsets: [ConfigKeyPath: Offsets]
        /// Where each line starts, for turning offsets into lines by binary search.
        private let lineStarts: [Int]

        init(root: Table, bytes: [UInt8], start: Int, offsets: [ConfigKeyPath: Offsets]) {
            self.root = root
            self.bytes = bytes
            self.offsets = offsets
            var starts = [start]
            for index in start..<bytes.count where bytes[index] == Parser.Byte.newline { starts.append(index + 1) }
            lineStarts = starts
        }

        /// Where `path` was first written; array elements and the elements of arrays of tables have an
        /// index component (`touch[1].match`).
        func location(of path: ConfigKeyPath) -> Location? {
            guard let found = offsets[path] else { return nil }
            let (line, keyColumn) = position(of: found.key)
            return Location(line: line, keyColumn: keyColumn, valueColumn: found.value.map { position(of: $0).column })
        }

        /// Where `path` was written, else where its nearest written ancestor was (the table header it sits
        /// under), with `exact` saying which.
        func nearest(_ path: ConfigKeyPath) -> (location: Location, exact: Bool)? {
            var candidate = path
            while !candidate.isEmpty {
                if let found = location(of: candidate) { return (found, candidate == path) }
                candidate = candidate.dropLast()
            }
            return nil
        }

        /// The line and column of a byte offset; columns count Unicode scalars (the text is valid UTF-8,
        /// or it would not have parsed), that is bytes other than continuation bytes.
        private func position(of offset: Int) -> (line: Int, column: Int) {
            var low = 0
            var high = lineStarts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
            }
            let column = bytes[lineStarts[low]..<offset].reduce(1) { $1 & 0xC0 == 0x80 ? $0 : $0 + 1 }
            return (low + 1, column)
        }
    }
}
