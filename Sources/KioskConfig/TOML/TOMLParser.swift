extension TOML {
    /// A single pass over the bytes, left to right, without backtracking: linear in the size of the file.
    /// Only arrays and inline tables recurse, at most `maximumNesting` deep. Every error is thrown where it
    /// is found, so the first problem in the file is the one reported.
    struct Parser {
        let bytes: [UInt8]
        var index: Int
        /// Where line 1 starts: after a UTF-8 byte order mark, which is not part of the text.
        let start: Int
        /// Every table made so far, by header, dotted key or inline table, with what the redefinition rules
        /// need to know about it (see `TOMLParser+Tables.swift`); index 0 is the root, which counts as
        /// defined by a header: dotted keys at the top of the file add to it, nothing defines it again.
        var tables: [TableNode] = [TableNode(origin: .header, depth: 0, parent: -1, name: "", path: [], definedAt: 0)]
        /// The elements of each array of tables, in `tables`.
        var tableArrays: [[Int]] = []
        /// Counts table headers and inline tables: each starts a section of its own (see `Origin.dotted`).
        var sections = 0
        /// Where each key and value was first written, for `TOML.Document`.
        var offsets: [ConfigKeyPath: TOML.Document.Offsets] = [:]

        init(bytes: [UInt8]) {
            self.bytes = bytes
            start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            index = start
        }

        mutating func parseDocument() throws(SyntaxError) -> Table {
            var table = 0
            var section = 0
            while index < bytes.count {
                switch bytes[index] {
                case Byte.space, Byte.tab, Byte.newline:
                    index += 1
                case Byte.carriageReturn:
                    try skipLineBreak()
                case Byte.hash:
                    try skipComment()
                case Byte.openBracket:
                    table = try parseHeader()
                    sections += 1
                    section = sections
                    try expectLineEnd(after: "the table header")
                case let byte where Self.isKeyStart(byte):
                    try parseKeyValue(in: table, section: section)
                    try expectLineEnd(after: "the value")
                default:
                    throw unexpected(expecting: "a key, a [table] header or a comment")
                }
            }
            return build(0)
        }

        // MARK: Lines

        mutating func skipSpaces() {
            while index < bytes.count, bytes[index] == Byte.space || bytes[index] == Byte.tab { index += 1 }
        }

        /// Spaces, line breaks and comments, as allowed between the elements of an array.
        mutating func skipBlank() throws(SyntaxError) {
            while index < bytes.count {
                switch bytes[index] {
                case Byte.space, Byte.tab, Byte.newline: index += 1
                case Byte.carriageReturn: try skipLineBreak()
                case Byte.hash: try skipComment()
                default: return
                }
            }
        }

        /// At a carriage return, which only ends a line before a line feed.
        mutating func skipLineBreak() throws(SyntaxError) {
            guard index + 1 < bytes.count, bytes[index + 1] == Byte.newline else { throw loneCarriageReturn(at: index) }
            index += 2
        }

        /// From `#` to the end of the line, which is left for the caller. TOML 1.0 allows no control
        /// character but tab in a comment (DEL included), and the text must be UTF-8 there too.
        mutating func skipComment() throws(SyntaxError) {
            index += 1
            while index < bytes.count {
                // Tabs and printable ASCII, nearly all of every comment, in one pass over the buffer (a
                // documented config file is mostly comments, and this loop is most of reading it).
                index = bytes.withUnsafeBufferPointer { buffer in
                    var at = index
                    while at < buffer.count, buffer[at] == 0x09 || (buffer[at] >= 0x20 && buffer[at] <= 0x7E) { at += 1 }
                    return at
                }
                guard index < bytes.count else { return }
                let byte = bytes[index]
                switch byte {
                case Byte.newline:
                    return
                case Byte.carriageReturn:
                    guard index + 1 < bytes.count, bytes[index + 1] == Byte.newline else { throw loneCarriageReturn(at: index) }
                    return
                case Byte.tab, 0x20...0x7E:
                    index += 1
                case 0x80...:
                    try skipScalar()
                default:
                    throw error("\(describe(at: index)) is not allowed in a comment", at: index)
                }
            }
        }

        /// After a header or a key-value pair: spaces, maybe a comment, then the end of the line or file.
        mutating func expectLineEnd(after what: String) throws(SyntaxError) {
            skipSpaces()
            guard index < bytes.count else { return }
            switch bytes[index] {
            case Byte.hash:
                try skipComment()
            case Byte.newline, Byte.carriageReturn:
                break
            default:
                throw unexpected(expecting: "the end of the line after \(what)")
            }
            guard index < bytes.count else { return }
            if bytes[index] == Byte.carriageReturn {
                try skipLineBreak()
            } else {
                index += 1
            }
        }

        // MARK: Keys

        struct KeyPart {
            var name: String
            /// Where the key starts, for messages.
            var offset: Int
        }

        static func isKeyStart(_ byte: UInt8) -> Bool {
            TOML.isBareKeyByte(byte) || byte == Byte.quote || byte == Byte.apostrophe
        }

        /// A key, dotted or not, and the spaces after it.
        mutating func parseKey() throws(SyntaxError) -> [KeyPart] {
            var parts: [KeyPart] = []
            while true {
                let begin = index
                guard index < bytes.count else { throw unexpected(expecting: parts.isEmpty ? "a key" : "a key after '.'") }
                let byte = bytes[index]
                let name: String
                if TOML.isBareKeyByte(byte) {
                    while index < bytes.count, TOML.isBareKeyByte(bytes[index]) { index += 1 }
                    name = String(decoding: bytes[begin..<index], as: UTF8.self)
                    if index < bytes.count, bytes[index] >= 0x80, utf8Length(at: index) > 0 {
                        throw error(
                            "\(describe(at: index)) cannot be in a bare key (only A-Z a-z 0-9 _ -): put the key in quotes", at: index)
                    }
                } else if byte == Byte.quote || byte == Byte.apostrophe {
                    if index + 2 < bytes.count, bytes[index + 1] == byte, bytes[index + 2] == byte {
                        throw error("a key cannot be a multi-line string", at: index)
                    }
                    name = byte == Byte.quote ? try parseBasicString() : try parseLiteralString()
                } else {
                    throw unexpected(expecting: parts.isEmpty ? "a key" : "a key after '.'")
                }
                parts.append(KeyPart(name: name, offset: begin))
                skipSpaces()
                guard index < bytes.count, bytes[index] == Byte.dot else { return parts }
                index += 1
                skipSpaces()
            }
        }

        /// `key = value` into `table` (the current section's, or an inline table being read).
        mutating func parseKeyValue(in table: Int, section: Int) throws(SyntaxError) {
            let parts = try parseKey()
            guard index < bytes.count, bytes[index] == Byte.equals else {
                if let invalid = invalidUTF8IfAny(at: index) { throw invalid }
                let found = isLineEnd(at: index) ? "" : ", found \(describe(at: index))"
                throw error("expected '=' after the key \(Self.display(parts[...]))\(found)", at: index)
            }
            index += 1
            skipSpaces()
            // The key is checked before the value is read, so a redefinition is reported at the key even when
            // the value is broken too, as the earlier of the two problems.
            let parent = try resolve(parts, in: table, section: section)
            let last = parts[parts.count - 1]
            let path = tables[parent].path.appending(last.name)
            record(path, key: last.offset, value: index)
            let value = try parseValue(depth: tables[parent].depth + 1, path: path)
            tables[parent].insert(last.name, Entry(kind: .value(value), offset: last.offset))
        }

        /// A `[table]` or `[[array of tables]]` header; returns the table the following keys go into.
        mutating func parseHeader() throws(SyntaxError) -> Int {
            let open = index
            index += 1
            let isArray = index < bytes.count && bytes[index] == Byte.openBracket
            if isArray { index += 1 }
            skipSpaces()
            let parts = try parseKey()
            let close = isArray ? "expected ']]' to close the array of tables header" : "expected ']' to close the table header"
            for _ in 0..<(isArray ? 2 : 1) {
                guard index < bytes.count, bytes[index] == Byte.closeBracket else {
                    if let invalid = invalidUTF8IfAny(at: index) { throw invalid }
                    let found = isLineEnd(at: index) ? "" : ", found \(describe(at: index))"
                    throw error(close + found, at: index)
                }
                index += 1
            }
            return try openTable(parts, isArray: isArray, at: open)
        }

        // MARK: Messages

        /// A key path for messages, in TOML spelling inside double quotes: `"screens.DP-1.mode"`,
        /// `"a.'b c'"`.
        static func display(_ parts: ArraySlice<KeyPart>) -> String {
            "\"" + spell(parts.map(\.name)) + "\""
        }

        /// Keys joined with dots, each bare when it can be, else in single quotes when that needs no escape,
        /// else a basic string (so a message never nests double quotes when it can help it).
        static func spell(_ keys: [String]) -> String {
            keys.map { key in
                if !key.isEmpty, key.utf8.allSatisfy(TOML.isBareKeyByte) { return key }
                let plain = key.unicodeScalars.allSatisfy { $0 != "'" && $0.value >= 0x20 && $0.value != 0x7F }
                return plain ? "'\(key)'" : TOML.quote(key)
            }.joined(separator: ".")
        }

        func isLineEnd(at offset: Int) -> Bool {
            offset >= bytes.count || bytes[offset] == Byte.newline
                || (bytes[offset] == Byte.carriageReturn && offset + 1 < bytes.count && bytes[offset + 1] == Byte.newline)
        }

        /// What is at `offset`, for "found ..." in messages.
        func describe(at offset: Int) -> String {
            guard offset < bytes.count else { return "the end of the file" }
            let byte = bytes[offset]
            switch byte {
            case Byte.newline: return "the end of the line"
            case Byte.carriageReturn: return isLineEnd(at: offset) ? "the end of the line" : "a carriage return (U+000D)"
            case Byte.tab: return "a tab"
            case Byte.space: return "a space"
            case 0: return "a NUL byte (U+0000)"
            case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
            case 0x80...:
                let length = utf8Length(at: offset)
                guard length > 0 else { return "the byte 0x\(TOML.hex(UInt32(byte), digits: 2)), which is not UTF-8" }
                let text = String(decoding: bytes[offset..<offset + length], as: UTF8.self)
                guard let scalar = text.unicodeScalars.first else { return "a character" }
                return Self.isVisible(scalar) ? "'\(text)'" : "the character U+\(TOML.hex(scalar.value, digits: 4))"
            default:
                return "the control character U+\(TOML.hex(UInt32(byte), digits: 4))"
            }
        }

        /// Whether a scalar shows as itself in a message; spaces, separators and formatting characters
        /// (no-break space, U+2028, a BOM) are named by their code point instead.
        static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.properties.generalCategory {
            case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format, .surrogate, .privateUse, .unassigned,
                .nonspacingMark, .enclosingMark:
                false
            default: true
            }
        }

        /// Notes where `path` was written, unless it was already.
        mutating func record(_ path: ConfigKeyPath, key: Int, value: Int? = nil) {
            if offsets[path] == nil { offsets[path] = TOML.Document.Offsets(key: key, value: value) }
        }

        /// An error at `offset`, with its line and column.
        func error(_ message: String, at offset: Int, redefinition: SyntaxError.Redefinition? = nil) -> SyntaxError {
            let offset = min(max(offset, 0), bytes.count)
            var line = 1
            var lineStart = start
            for position in start..<max(start, offset) where bytes[position] == Byte.newline {
                line += 1
                lineStart = position + 1
            }
            // Columns count Unicode scalars; a byte that starts no valid UTF-8 sequence counts as one.
            var column = 1
            var position = lineStart
            while position < offset {
                position += max(1, utf8Length(at: position))
                column += 1
            }
            return SyntaxError(line: line, column: column, message: message, redefinition: redefinition)
        }

        /// The line `offset` is on, for "first at line N".
        func line(of offset: Int) -> Int {
            error("", at: offset).line
        }

        /// "expected X, found Y" at the current position; invalid UTF-8 is said as such.
        func unexpected(expecting what: String) -> SyntaxError {
            invalidUTF8IfAny(at: index) ?? error("expected \(what), found \(describe(at: index))", at: index)
        }

        /// The error for bytes at `offset` that are not UTF-8, if they are not.
        func invalidUTF8IfAny(at offset: Int) -> SyntaxError? {
            offset < bytes.count && bytes[offset] >= 0x80 && utf8Length(at: offset) == 0 ? invalidUTF8(at: offset) : nil
        }

        func loneCarriageReturn(at offset: Int) -> SyntaxError {
            error("a carriage return (U+000D) must be followed by a line feed: lines end with LF or CRLF", at: offset)
        }

        func invalidUTF8(at offset: Int) -> SyntaxError {
            error("invalid UTF-8 (byte 0x\(TOML.hex(UInt32(bytes[offset]), digits: 2))): the file must be UTF-8 text", at: offset)
        }

        func tooDeep(at offset: Int) -> SyntaxError {
            error("nested too deeply: tables and arrays can nest at most \(TOML.maximumNesting) levels", at: offset)
        }
    }
}

extension TOML.Parser {
    /// The bytes TOML's grammar is made of.
    enum Byte {
        static let tab = UInt8(ascii: "\t")
        static let newline = UInt8(ascii: "\n")
        static let carriageReturn = UInt8(ascii: "\r")
        static let space = UInt8(ascii: " ")
        static let quote = UInt8(ascii: "\"")
        static let hash = UInt8(ascii: "#")
        static let apostrophe = UInt8(ascii: "'")
        static let plus = UInt8(ascii: "+")
        static let comma = UInt8(ascii: ",")
        static let minus = UInt8(ascii: "-")
        static let dot = UInt8(ascii: ".")
        static let colon = UInt8(ascii: ":")
        static let equals = UInt8(ascii: "=")
        static let openBracket = UInt8(ascii: "[")
        static let backslash = UInt8(ascii: "\\")
        static let closeBracket = UInt8(ascii: "]")
        static let underscore = UInt8(ascii: "_")
        static let openBrace = UInt8(ascii: "{")
        static let closeBrace = UInt8(ascii: "}")
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    func utf8Length(at offset: Int) -> Int { TOML.utf8Length(bytes, at: offset) }

    /// Past one non-ASCII character, which must be valid UTF-8.
    mutating func skipScalar() throws(TOML.SyntaxError) {
        let length = utf8Length(at: index)
        guard length > 0 else { throw invalidUTF8(at: index) }
        index += length
    }
}

extension TOML {
    /// The length of the valid UTF-8 sequence at `offset` (1 to 4), or 0 when the bytes there are not one:
    /// overlong forms, surrogates and values above U+10FFFF are invalid (RFC 3629).
    static func utf8Length(_ bytes: [UInt8], at offset: Int) -> Int {
        let count = bytes.count
        let first = bytes[offset]
        func continuation(_ position: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            position < count && range.contains(bytes[position])
        }
        switch first {
        case 0x00...0x7F:
            return 1
        case 0xC2...0xDF:
            return continuation(offset + 1) ? 2 : 0
        case 0xE0...0xEF:
            let second: ClosedRange<UInt8> =
                switch first {
                case 0xE0: 0xA0...0xBF
                case 0xED: 0x80...0x9F
                default: 0x80...0xBF
                }
            return continuation(offset + 1, second) && continuation(offset + 2) ? 3 : 0
        case 0xF0...0xF4:
            let second: ClosedRange<UInt8> =
                switch first {
                case 0xF0: 0x90...0xBF
                case 0xF4: 0x80...0x8F
                default: 0x80...0xBF
                }
            return continuation(offset + 1, second) && continuation(offset + 2) && continuation(offset + 3) ? 4 : 0
        default:
            return 0
        }
    }
}
