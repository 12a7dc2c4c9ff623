/// Where each key of a TOML document was written: TOMLKit 0.6.0 gives the parsed tree but no positions for
/// values (toml++ has them; TOMLKit does not expose `node.source()`), so messages about a value find its line
/// and column here, by scanning the text again.
///
/// The scanner follows TOML's structure (table headers, arrays of tables, dotted keys, inline tables,
/// arrays, all four string forms, comments) well enough to place every key of a document TOMLKit accepted.
/// It also runs on the valid prefix of a rejected document (to explain redefinitions), so it must never trap
/// or loop on anything: every loop consumes input or stops, and nesting has a limit.
struct SourceMap {
    struct Location: Equatable, Sendable {
        /// 1-based, as TOMLKit counts them.
        var line: Int
        /// Where the key (or the table header's last key) starts; columns count Unicode scalars from 1.
        var keyColumn: Int
        /// Where the value starts; nil for tables defined by a header or by a dotted key's prefix.
        var valueColumn: Int?
    }

    /// Keys deeper than this are not recorded: our schema is at most 4 deep (`screens.X.edid.make`), and
    /// hashing paths of a fuzzed 100,000-component dotted key for every prefix would be quadratic.
    /// Deeper keys fall back to their nearest recorded table.
    static let maximumDepth = 32

    private(set) var locations: [ConfigKeyPath: Location]
    /// Where a basic string or quoted key spells U+0000 (`\u0000`): valid TOML, but TOMLKit hands strings
    /// and keys over as C strings, which end there, so the rest is silently lost. Reported, not guessed at.
    private(set) var nulEscapes: [(line: Int, column: Int)]
    /// The first place where toml++ would assert instead of reporting an error (see `Scanner.checkHeaderStart`
    /// and `Scanner.checkArrayElement`), with the message it should have given.
    private(set) var unsafeSyntax: (line: Int, column: Int, message: String)?
    /// The first key nested deeper than `maximumLevel` (see there).
    private(set) var tooDeep: (line: Int, column: Int)?

    /// How deep keys may nest (tables in tables, by headers, dotted keys, inline tables and arrays): toml++
    /// caps arrays and inline tables at 256 but not tables made by dotted keys or headers, and after parsing
    /// walks the tree recursively (`update_region_ends`), so `a.a.a...` 30,000 deep overflowed the stack of a
    /// test thread (SIGSEGV, seen in the fuzz test) and 10,000 took 0.8 s. Our schema needs 4 levels.
    static let maximumLevel = 128
    /// The state after the last line scanned, for explaining a syntax error on the next line.
    fileprivate var scanner: Scanner

    init(bytes: [UInt8]) {
        var scanner = Scanner(bytes: bytes)
        scanner.scanDocument()
        self.scanner = scanner
        locations = scanner.locations
        nulEscapes = scanner.nulEscapes
        unsafeSyntax = scanner.unsafeSyntax
        tooDeep = scanner.tooDeep
    }

    /// The first place `path` was written.
    func location(of path: ConfigKeyPath) -> Location? { locations[path] }

    /// Where `path` was written, else where its nearest recorded ancestor was (the table header it sits
    /// under), with `exact` saying which.
    func nearest(_ path: ConfigKeyPath) -> (location: Location, exact: Bool)? {
        var candidate = path
        var exact = true
        while !candidate.isEmpty {
            if let found = locations[candidate] { return (found, exact) }
            candidate = candidate.dropLast()
            exact = false
        }
        return nil
    }

    /// The key path a single line defines (a `[header]` or `key = value`), read in the context of the
    /// document scanned so far; nil when the line is neither. Used to name what a rejected line redefines.
    func pathDefined(byLine line: [UInt8]) -> ConfigKeyPath? {
        var lineScanner = scanner
        return lineScanner.pathDefined(byLine: line)
    }
}

/// The scanner behind `SourceMap`. Bytes, not `String`: TOML's syntax is ASCII, and byte offsets make
/// columns exact for any text.
fileprivate struct Scanner {
    private var bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var column = 1
    /// The table that key/value lines currently go into (the last header, resolved with array indices).
    private var table = ConfigKeyPath()
    /// How many `[[name]]` headers each array of tables has had so far: later headers and keys refer to
    /// its last element.
    private var arrayTableCounts: [ConfigKeyPath: Int] = [:]
    /// Set when nesting exceeds `maximumNesting` (toml++ itself stops at 256): scanning gives up.
    private var gaveUp = false
    var locations: [ConfigKeyPath: Location] = [:]
    var nulEscapes: [(line: Int, column: Int)] = []
    var unsafeSyntax: (line: Int, column: Int, message: String)?
    var tooDeep: (line: Int, column: Int)?
    /// How many nodes deep the current table is, uncapped (unlike `table`).
    private var tableLevel = 0

    typealias Location = SourceMap.Location

    /// Above toml++'s own limit of 256 nested values, so a document TOMLKit accepted is never cut short.
    private static let maximumNesting = 300

    init(bytes: [UInt8]) {
        self.bytes = bytes
        // A UTF-8 byte order mark (Windows editors write one) is not part of the first line: toml++ skips
        // it, and so do we, without counting a column.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    // MARK: Document

    mutating func scanDocument() {
        while let byte = current, !gaveUp {
            switch byte {
            case .space, .tab, .carriageReturn, .newline:
                advance()
            case .hash:
                skipComment()
            case .openBracket:
                scanHeader()
                skipRestOfLine()
            default:
                scanKeyValue(into: table, level: tableLevel, depth: 0)
                skipRestOfLine()
            }
        }
    }

    /// `[a.b]` or `[[a.b]]`: makes it the current table.
    private mutating func scanHeader() {
        let headerLine = line
        advance()
        let isArray = current == .openBracket
        if isArray { advance() }
        checkHeaderStart()
        guard let parts = scanKey() else { return }
        // Paths deeper than the recording limit are never recorded; stop resolving there.
        let kept = parts.prefix(SourceMap.maximumDepth + 1)
        var resolved = ConfigKeyPath()
        for (offset, part) in kept.enumerated() {
            resolved = resolved.appending(part.name)
            let isLast = offset == kept.count - 1 && kept.count == parts.count
            if isLast && isArray {
                let count = arrayTableCounts[resolved, default: 0]
                arrayTableCounts[resolved] = count + 1
                record(resolved, Location(line: headerLine, keyColumn: part.column, valueColumn: nil))
                resolved = resolved.appending(index: count)
            } else if let count = arrayTableCounts[resolved] {
                // A sub-table of an array of tables belongs to its last element.
                resolved = resolved.appending(index: count - 1)
            }
            record(resolved, Location(line: headerLine, keyColumn: part.column, valueColumn: nil))
        }
        table = resolved
        // Array indices are levels too (array, then table); beyond the kept parts they are not resolved,
        // which only matters far past the limit.
        tableLevel = parts.count + resolved.components.count - kept.count
        noteLevel(tableLevel, column: parts[0].column)
    }

    /// `a.b = value` inside `base` (the current table, or an inline table).
    private mutating func scanKeyValue(into base: ConfigKeyPath, level: Int, depth: Int) {
        let keyLine = line
        guard let parts = scanKey() else { return }
        let valueLevel = level + parts.count
        noteLevel(valueLevel, column: parts[0].column)
        skipWhitespace()
        guard current == .equals else { return }
        advance()
        skipWhitespace()
        var path = base
        for (offset, part) in parts.enumerated() {
            // Past the recording limit nothing is recorded, so the rest of the key need not be built;
            // the value is still scanned so the following lines stay in step.
            guard path.count <= SourceMap.maximumDepth else { break }
            path = path.appending(part.name)
            let isLast = offset == parts.count - 1
            record(path, Location(line: keyLine, keyColumn: part.column, valueColumn: isLast ? column : nil))
        }
        scanValue(at: path, level: valueLevel, depth: depth)
    }

    private mutating func noteLevel(_ level: Int, column: Int) {
        if level > SourceMap.maximumLevel && tooDeep == nil { tooDeep = (line, column) }
    }

    /// toml++ 3.x (inside TOMLKit 0.6.0) checks what follows a header's `[` or `[[` only for end of file
    /// and `]`, then *asserts* that a key starts there: `[` alone on a line, `[=]`, `[[[a]]]` or `[é]` abort
    /// the process in a debug build (seen in the fuzz test), and are undefined behaviour where the assert is
    /// compiled as an optimizer assumption. So such headers are found here and never reach toml++.
    private mutating func checkHeaderStart() {
        guard unsafeSyntax == nil else { return }
        var probe = index
        var probeColumn = column
        while probe < bytes.count, bytes[probe] == .space || bytes[probe] == .tab {
            probe += 1
            probeColumn += 1
        }
        guard probe < bytes.count else { return }
        let byte = bytes[probe]
        if byte == .closeBracket || byte == .quote || byte == .apostrophe || ConfigKeyPath.isBareKeyByte(byte) { return }
        unsafeSyntax = (
            line, probeColumn,
            "syntax error in table header: expected bare key starting character or string delimiter, saw '\(character(at: probe))'"
        )
    }

    /// toml++ 3.x hands anything in an array that is not `,` or `]` to its value parser, which *asserts*
    /// that it is not a value terminator: `[}` and the Unicode line separators (U+0085, U+2028, U+2029),
    /// which its whitespace skipping does not take, abort a debug build (seen in the fuzz test). Called
    /// where an element starts.
    private mutating func checkArrayElement() {
        guard unsafeSyntax == nil, let byte = current else { return }
        let isLineSeparator = starts(with: [0xC2, 0x85]) || starts(with: [0xE2, 0x80, 0xA8]) || starts(with: [0xE2, 0x80, 0xA9])
        guard byte == .closeBrace || isLineSeparator else { return }
        unsafeSyntax = (line, column, "syntax error in array: expected value or closing ']', saw '\(character(at: index))'")
    }

    /// The character at `position` for a message: control and separator characters escaped.
    private func character(at position: Int) -> String {
        let length = bytes[position] < 0x80 ? 1 : max(1, UTF8Validation.sequenceLength(bytes, at: position))
        let text = String(decoding: bytes[position..<min(bytes.count, position + length)], as: UTF8.self)
        if let scalar = text.unicodeScalars.first,
            scalar.properties.generalCategory == .lineSeparator
                || scalar.properties.generalCategory == .paragraphSeparator || scalar.value == 0x85
        {
            return "\\u" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 4)
        }
        return ConfigKeyPath.escapeControlCharacters(text)
    }

    // MARK: Values

    private mutating func scanValue(at path: ConfigKeyPath, level: Int, depth: Int) {
        guard depth < Self.maximumNesting else {
            gaveUp = true
            return
        }
        switch current {
        case .quote: _ = scanBasicString()
        case .apostrophe: _ = scanLiteralString()
        case .openBracket: scanArray(at: path, level: level, depth: depth + 1)
        case .openBrace: scanInlineTable(at: path, level: level, depth: depth + 1)
        default:
            // Numbers, booleans, dates (which may contain a space: `1979-05-27 07:32:00`).
            while let byte = current, !Self.endsScalar(byte) { advance() }
        }
    }

    private mutating func scanArray(at path: ConfigKeyPath, level: Int, depth: Int) {
        advance()
        var element = 0
        while !gaveUp {
            skipWhitespaceNewlinesAndComments()
            guard let byte = current else { return }
            if byte == .closeBracket {
                advance()
                return
            }
            checkArrayElement()
            let elementPath = path.appending(index: element)
            record(elementPath, Location(line: line, keyColumn: column, valueColumn: column))
            noteLevel(level + 1, column: column)
            scanValue(at: elementPath, level: level + 1, depth: depth)
            element += 1
            skipWhitespaceNewlinesAndComments()
            // Anything but a separator is not an array we understand: the caller skips the rest of the line.
            guard current == .comma else {
                if current == .closeBracket { advance() }
                return
            }
            advance()
        }
    }

    private mutating func scanInlineTable(at path: ConfigKeyPath, level: Int, depth: Int) {
        advance()
        while !gaveUp {
            // TOML 1.0 keeps inline tables on one line; accepting newlines costs nothing and follows 1.1.
            skipWhitespaceNewlinesAndComments()
            guard let byte = current else { return }
            if byte == .closeBrace {
                advance()
                return
            }
            scanKeyValue(into: path, level: level, depth: depth)
            skipWhitespaceNewlinesAndComments()
            guard current == .comma else {
                if current == .closeBrace { advance() }
                return
            }
            advance()
        }
    }

    // MARK: Keys and strings

    /// A dotted key (`a."b c".d`), each part with the column it starts at; nil when there is none here.
    private mutating func scanKey() -> [(name: String, column: Int)]? {
        var parts: [(name: String, column: Int)] = []
        while true {
            skipWhitespace()
            let start = column
            let name: String?
            switch current {
            case .quote: name = scanBasicString()
            case .apostrophe: name = scanLiteralString()
            default: name = scanBareKey()
            }
            guard let name else { break }
            parts.append((name, start))
            skipWhitespace()
            guard current == .dot else { break }
            advance()
        }
        return parts.isEmpty ? nil : parts
    }

    private mutating func scanBareKey() -> String? {
        let start = index
        // Bytes above 0x7F too: TOML 1.1 allows Unicode bare keys, and a key we cannot name is better
        // than a scanner that stops in step-loss.
        while let byte = current, ConfigKeyPath.isBareKeyByte(byte) || byte >= 0x80 { advance() }
        guard index > start else { return nil }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// `"..."` or `"""..."""`; returns the decoded text (keys are compared with TOMLKit's decoded keys).
    private mutating func scanBasicString() -> String? {
        if startsWithThree(.quote) {
            advance(3)
            while let byte = current {
                if byte == .backslash {
                    noteNulEscape()
                    advance(2)
                    continue
                }
                if byte == .quote && startsWithThree(.quote) {
                    advance(3)
                    // Up to two more quotes belong to the content: `""""a""""` is fine in TOML.
                    var extra = 0
                    while current == .quote && extra < 2 {
                        advance()
                        extra += 1
                    }
                    return ""
                }
                advance()
            }
            return ""
        }
        advance()
        var raw: [UInt8] = []
        while let byte = current, byte != .newline {
            if byte == .quote {
                advance()
                return Self.unescape(raw)
            }
            if byte == .backslash, index + 1 < bytes.count {
                noteNulEscape()
                raw.append(byte)
                advance()
                raw.append(bytes[index])
                advance()
                continue
            }
            raw.append(byte)
            advance()
        }
        return Self.unescape(raw)
    }

    /// `'...'` or `'''...'''`: no escapes.
    private mutating func scanLiteralString() -> String? {
        if startsWithThree(.apostrophe) {
            advance(3)
            while let byte = current {
                if byte == .apostrophe && startsWithThree(.apostrophe) {
                    advance(3)
                    var extra = 0
                    while current == .apostrophe && extra < 2 {
                        advance()
                        extra += 1
                    }
                    return ""
                }
                advance()
            }
            return ""
        }
        advance()
        let start = index
        while let byte = current, byte != .apostrophe, byte != .newline { advance() }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if current == .apostrophe { advance() }
        return text
    }

    /// TOML basic-string escapes, so a quoted key (`"HDMI\u002DA-1"`) compares equal to TOMLKit's key.
    /// Anything malformed is kept as written: this only ever has to match what TOMLKit accepted.
    private static func unescape(_ raw: [UInt8]) -> String {
        guard raw.contains(.backslash) else { return String(decoding: raw, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        let text = Array(String(decoding: raw, as: UTF8.self).unicodeScalars)
        var position = 0
        while position < text.count {
            let scalar = text[position]
            position += 1
            guard scalar == "\\", position < text.count else {
                scalars.append(scalar)
                continue
            }
            let escape = text[position]
            position += 1
            switch escape {
            case "b": scalars.append("\u{08}")
            case "t": scalars.append("\t")
            case "n": scalars.append("\n")
            case "f": scalars.append("\u{0C}")
            case "r": scalars.append("\r")
            case "e": scalars.append("\u{1B}")
            case "\"": scalars.append("\"")
            case "\\": scalars.append("\\")
            case "u", "U", "x":
                let digits = escape == "u" ? 4 : escape == "U" ? 8 : 2
                let end = min(position + digits, text.count)
                var hex = String.UnicodeScalarView()
                hex.append(contentsOf: text[position..<end])
                if end - position == digits, let value = UInt32(String(hex), radix: 16), let decoded = Unicode.Scalar(value) {
                    scalars.append(decoded)
                    position = end
                } else {
                    scalars.append("\\")
                    scalars.append(escape)
                }
            default:
                scalars.append("\\")
                scalars.append(escape)
            }
        }
        return String(scalars)
    }

    /// At a backslash: records it when it starts `\u0000` or `\U00000000`.
    private mutating func noteNulEscape() {
        if starts(with: Self.shortNulEscape) || starts(with: Self.longNulEscape) { nulEscapes.append((line, column)) }
    }

    // MARK: Redefinitions

    /// See `SourceMap.pathDefined(byLine:)`.
    mutating func pathDefined(byLine text: [UInt8]) -> ConfigKeyPath? {
        bytes = text
        index = 0
        skipWhitespace()
        if current == .openBracket {
            advance()
            let isArray = current == .openBracket
            if isArray { return nil }  // Appending to an array of tables never redefines.
            guard let parts = scanKey() else { return nil }
            var resolved = ConfigKeyPath()
            for part in parts {
                resolved = resolved.appending(part.name)
                if let count = arrayTableCounts[resolved] { resolved = resolved.appending(index: count - 1) }
            }
            return resolved
        }
        guard let parts = scanKey() else { return nil }
        return parts.reduce(table) { $0.appending($1.name) }
    }

    // MARK: Recording

    private mutating func record(_ path: ConfigKeyPath, _ location: Location) {
        guard path.count <= SourceMap.maximumDepth, locations[path] == nil else { return }
        locations[path] = location
    }

    // MARK: Cursor

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private static let shortNulEscape = Array(#"\u0000"#.utf8)
    private static let longNulEscape = Array(#"\U00000000"#.utf8)

    /// What ends a number, boolean or date.
    private static func endsScalar(_ byte: UInt8) -> Bool {
        switch byte {
        case .comma, .closeBracket, .closeBrace, .hash, .newline, .carriageReturn: true
        default: false
        }
    }

    private func startsWithThree(_ byte: UInt8) -> Bool {
        index + 2 < bytes.count && bytes[index] == byte && bytes[index + 1] == byte && bytes[index + 2] == byte
    }

    private func starts(with prefix: [UInt8]) -> Bool {
        bytes.count - index >= prefix.count && bytes[index..<index + prefix.count].elementsEqual(prefix)
    }

    /// Moves over `count` bytes, keeping line and column: a newline starts a line, and UTF-8 continuation
    /// bytes (10xxxxxx) do not count as columns, so columns count Unicode scalars as toml++ does.
    private mutating func advance(_ count: Int = 1) {
        for _ in 0..<count {
            guard index < bytes.count else { return }
            let byte = bytes[index]
            index += 1
            if byte == .newline {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
    }

    private mutating func skipWhitespace() {
        while current == .space || current == .tab { advance() }
    }

    /// To the end of the line, without the per-byte bookkeeping of `advance` (the example file is mostly
    /// comments, and the fuzz test scans it thousands of times in a debug build).
    private mutating func skipComment() {
        while index < bytes.count {
            let byte = bytes[index]
            if byte == .newline { return }
            if byte & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
    }

    private mutating func skipWhitespaceNewlinesAndComments() {
        while let byte = current {
            switch byte {
            case .space, .tab, .carriageReturn, .newline: advance()
            case .hash: skipComment()
            default: return
            }
        }
    }

    /// Past the end of the current line (its comment, or whatever could not be scanned).
    private mutating func skipRestOfLine() {
        while let byte = current {
            advance()
            if byte == .newline { return }
        }
    }
}

fileprivate extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

fileprivate extension UInt8 {
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let hash = UInt8(ascii: "#")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let openBrace = UInt8(ascii: "{")
    static let closeBrace = UInt8(ascii: "}")
    static let quote = UInt8(ascii: "\"")
    static let apostrophe = UInt8(ascii: "'")
    static let backslash = UInt8(ascii: "\\")
    static let equals = UInt8(ascii: "=")
    static let comma = UInt8(ascii: ",")
    static let dot = UInt8(ascii: ".")
}
