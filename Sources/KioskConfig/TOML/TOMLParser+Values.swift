/// Values after `=` and in arrays: strings, numbers, booleans, dates and times, arrays and inline tables.
extension TOML.Parser {
    static let expectedValue = "expected a value (a string in quotes, a number, true or false, a date, an array or an inline table)"

    /// The value at the current position. `depth` is the depth it would have as an array or a table, `path`
    /// where it is in the document (for the locations of what it contains).
    mutating func parseValue(depth: Int, path: ConfigKeyPath) throws(TOML.SyntaxError) -> TOML.Value {
        guard index < bytes.count else { throw error(Self.expectedValue, at: index) }
        let byte = bytes[index]
        switch byte {
        case Byte.quote, Byte.apostrophe:
            if index + 2 < bytes.count, bytes[index + 1] == byte, bytes[index + 2] == byte {
                return .string(try parseMultilineString(literal: byte == Byte.apostrophe))
            }
            return .string(byte == Byte.quote ? try parseBasicString() : try parseLiteralString())
        case Byte.openBracket:
            return try parseArray(depth: depth, path: path)
        case Byte.openBrace:
            return try parseInlineTable(depth: depth, path: path)
        case UInt8(ascii: "0")...UInt8(ascii: "9"), Byte.plus, Byte.minus, UInt8(ascii: "i"), UInt8(ascii: "n"):
            do {
                return try parseNumberOrDate()
            } catch {
                // The message can then name the setting and what it takes (`1e400` alone says neither).
                var tagged = error
                tagged.valuePath = tagged.valuePath ?? path
                throw tagged
            }
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), Byte.underscore:
            let begin = index
            while index < bytes.count, TOML.isBareKeyByte(bytes[index]) { index += 1 }
            let word = String(decoding: bytes[begin..<index], as: UTF8.self)
            switch word {
            case "true": return .boolean(true)
            case "false": return .boolean(false)
            default: throw notAValue(word, at: begin)
            }
        case Byte.dot where index + 1 < bytes.count && Self.isDigit(bytes[index + 1]):
            throw error("invalid number \(numberToken(from: index)): a decimal point needs digits on both sides (0.5)", at: index)
        default:
            if isLineEnd(at: index) || byte == Byte.hash { throw error(Self.expectedValue, at: index) }
            if byte >= 0x80, utf8Length(at: index) == 0 { throw invalidUTF8(at: index) }
            throw error("\(Self.expectedValue), found \(describe(at: index))", at: index)
        }
    }

    /// A word where a value should be: `mode = preferred` means a string, `on = True` a boolean.
    func notAValue(_ word: String, at offset: Int) -> TOML.SyntaxError {
        let shown = word.count > 40 ? String(word.prefix(40)) + "…" : word
        if word.lowercased() == "true" || word.lowercased() == "false" {
            return error("\(shown) is not a value: booleans are lowercase, true or false", at: offset)
        }
        return error("\(shown) is not a value: a string needs quotes, as in \"\(shown)\"", at: offset)
    }

    // MARK: Arrays and inline tables

    /// `[ ... ]`, at its bracket: values of any types, separated by commas, with line breaks, comments and
    /// a trailing comma allowed.
    mutating func parseArray(depth: Int, path: ConfigKeyPath) throws(TOML.SyntaxError) -> TOML.Value {
        let open = index
        guard depth <= TOML.maximumNesting else { throw tooDeep(at: open) }
        index += 1
        var elements: [TOML.Value] = []
        while true {
            try skipBlank()
            guard index < bytes.count else { throw error("unterminated array: the closing ']' is missing", at: open) }
            if bytes[index] == Byte.closeBracket {
                index += 1
                return .array(elements)
            }
            let element = path.appending(index: elements.count)
            record(element, key: index, value: index)
            elements.append(try parseValue(depth: depth + 1, path: element))
            try skipBlank()
            guard index < bytes.count else { throw error("unterminated array: the closing ']' is missing", at: open) }
            switch bytes[index] {
            case Byte.comma:
                index += 1
            case Byte.closeBracket:
                index += 1
                return .array(elements)
            default:
                throw unexpected(expecting: "',' or ']' after an element of the array")
            }
        }
    }

    /// `{ key = value, ... }`, at its brace: on one line, no trailing comma, and closed once written (its
    /// keys and sub-tables are defined here and nowhere else).
    mutating func parseInlineTable(depth: Int, path: ConfigKeyPath) throws(TOML.SyntaxError) -> TOML.Value {
        let open = index
        guard depth <= TOML.maximumNesting else { throw tooDeep(at: open) }
        index += 1
        sections += 1
        let section = sections
        let table = newTable(origin: .inline, depth: depth, parent: -1, name: "", path: path, definedAt: open, keyOffset: open)
        var isFirst = true
        while true {
            skipSpaces()
            guard index < bytes.count else { throw error("unterminated inline table: the closing '}' is missing", at: open) }
            let byte = bytes[index]
            if byte == Byte.closeBrace {
                guard isFirst else { throw error("a trailing comma is not allowed in an inline table", at: index) }
                index += 1
                return .table(build(table))
            }
            guard Self.isKeyStart(byte) else {
                let expected = isFirst ? "a key or '}' in the inline table" : "a key in the inline table"
                let line = isLineEnd(at: index) ? " (an inline table must be on one line)" : ""
                throw error("\(unexpected(expecting: expected).message)\(line)", at: index)
            }
            isFirst = false
            try parseKeyValue(in: table, section: section)
            skipSpaces()
            guard index < bytes.count else { throw error("unterminated inline table: the closing '}' is missing", at: open) }
            switch bytes[index] {
            case Byte.comma:
                index += 1
            case Byte.closeBrace:
                index += 1
                // Its arena entries are done with; the value is what stays.
                let value = TOML.Value.table(build(table))
                tables[table].entries = [:]
                return value
            default:
                let line = isLineEnd(at: index) || bytes[index] == Byte.hash ? " (an inline table must be on one line)" : ""
                throw error("\(unexpected(expecting: "',' or '}' after a value in the inline table").message)\(line)", at: index)
            }
        }
    }

    // MARK: Numbers

    /// Bytes that can be part of a number, date or time, or of a mistyped one: what a message quotes.
    static func isNumberByte(_ byte: UInt8) -> Bool {
        TOML.isBareKeyByte(byte) || byte == Byte.plus || byte == Byte.dot || byte == Byte.colon
    }

    /// The text of the number-like token at `offset`, for messages (long ones cut).
    func numberToken(from offset: Int) -> String {
        var end = offset
        while end < bytes.count, Self.isNumberByte(bytes[end]) { end += 1 }
        // A date-time with a space instead of the T is one token.
        if end - offset == 10, end + 1 < bytes.count, bytes[end] == Byte.space, Self.isDigit(bytes[end + 1]) {
            end += 1
            while end < bytes.count, Self.isNumberByte(bytes[end]) { end += 1 }
        }
        let text = String(decoding: bytes[offset..<min(end, offset + 40)], as: UTF8.self)
        return end - offset > 40 ? text + "…" : text
    }

    /// An integer, a float, a date-time, a date or a time, told apart by their first bytes: `dddd-` starts
    /// a date and `dd:` a time; anything else is a number.
    mutating func parseNumberOrDate() throws(TOML.SyntaxError) -> TOML.Value {
        let begin = index
        func digits(_ count: Int) -> Bool {
            begin + count < bytes.count && bytes[begin..<(begin + count)].allSatisfy(Self.isDigit)
        }
        if digits(4), bytes[begin + 4] == Byte.minus { return try parseDateTime() }
        if digits(2), bytes[begin + 2] == Byte.colon {
            let time = try parseTime(in: "time")
            try checkDateEnd(from: begin, kind: "time")
            return .localTime(time)
        }
        while index < bytes.count, Self.isNumberByte(bytes[index]) { index += 1 }
        return try number(bytes[begin..<index], at: begin)
    }

    /// The number `token` (its whole text, up to the next space or separator).
    func number(_ token: ArraySlice<UInt8>, at begin: Int) throws(TOML.SyntaxError) -> TOML.Value {
        // Messages quote the token; it is spelled only when there is one to give.
        func text() -> String { numberToken(from: begin) }
        func invalid(_ reason: String) -> TOML.SyntaxError {
            error("invalid number \(text()): \(reason)", at: begin)
        }
        var digits = token[...]
        let sign = digits.first.flatMap { $0 == Byte.plus || $0 == Byte.minus ? $0 : nil }
        if sign != nil { digits = digits.dropFirst() }
        let isNegative = sign == Byte.minus
        if digits.elementsEqual("inf".utf8) { return .float(isNegative ? -Double.infinity : Double.infinity) }
        if digits.elementsEqual("nan".utf8) { return .float(isNegative ? -Double.nan : Double.nan) }
        guard let first = digits.first else {
            throw sign == nil ? error(Self.expectedValue, at: begin) : invalid("a sign must be followed by digits")
        }
        guard Self.isDigit(first) else {
            if sign == nil { throw notAValue(text(), at: begin) }
            throw invalid("a sign must be followed by digits, inf or nan")
        }

        // 0x, 0o and 0b: no sign, leading zeros allowed, at most Int.max.
        if first == UInt8(ascii: "0"), digits.count > 1, let radix = Self.radix(digits[digits.startIndex + 1]) {
            let name = [16: "hexadecimal", 8: "octal", 2: "binary"][radix] ?? ""
            guard sign == nil else { throw invalid("\(name) numbers cannot have a sign") }
            let body = digits.dropFirst(2)
            guard let end = try scanDigits(body, radix: radix, at: begin), end == body.endIndex else {
                throw invalid("expected \(name) digits after the prefix")
            }
            var value: UInt64 = 0
            for byte in body where byte != Byte.underscore {
                let (shifted, overflow) = value.multipliedReportingOverflow(by: UInt64(radix))
                guard !overflow, shifted <= UInt64(Int.max) - UInt64(Self.hexValue(byte) ?? 0) else {
                    throw error("\(text()) is larger than the largest integer, 0x7FFFFFFFFFFFFFFF", at: begin)
                }
                value = shifted + UInt64(Self.hexValue(byte) ?? 0)
            }
            return .integer(Int(value))
        }
        if first == UInt8(ascii: "0"), digits.count > 1,
            [UInt8(ascii: "X"), UInt8(ascii: "O"), UInt8(ascii: "B")].contains(digits[digits.startIndex + 1])
        {
            throw invalid("the prefixes are lowercase: 0x, 0o, 0b")
        }

        // Decimal: an integer part, then a fraction, an exponent or both for a float.
        guard let integerEnd = try scanDigits(digits, radix: 10, at: begin) else { throw invalid("expected digits") }
        if first == UInt8(ascii: "0"), integerEnd - digits.startIndex > 1 { throw invalid("leading zeros are not allowed") }
        var position = integerEnd
        var isFloat = false
        if position < digits.endIndex, digits[position] == Byte.dot {
            isFloat = true
            guard let end = try scanDigits(digits[(position + 1)...], radix: 10, at: begin) else {
                throw invalid("a decimal point needs digits on both sides (1.0)")
            }
            position = end
        }
        if position < digits.endIndex, digits[position] == UInt8(ascii: "e") || digits[position] == UInt8(ascii: "E") {
            isFloat = true
            position += 1
            if position < digits.endIndex, digits[position] == Byte.plus || digits[position] == Byte.minus { position += 1 }
            guard let end = try scanDigits(digits[position...], radix: 10, at: begin) else {
                throw invalid("the exponent needs digits (1e6, 1.5e-3)")
            }
            position = end
        }
        guard position == digits.endIndex else {
            if digits[position] == Byte.colon { throw invalid("a time is written HH:MM:SS (07:32:00)") }
            throw invalid("unexpected '\(Character(Unicode.Scalar(digits[position])))'")
        }
        let clean = String(decoding: token.filter { $0 != Byte.underscore }, as: UTF8.self)
        if isFloat {
            guard let value = Double(clean) else { throw invalid("not a float") }
            guard value.isFinite else { throw error("\(text()) is too large for a 64-bit float", at: begin) }
            return .float(value)
        }
        guard let value = Int(clean) else { throw error("\(text()) does not fit in 64 bits", at: begin) }
        return .integer(value)
    }

    static func radix(_ letter: UInt8) -> Int? {
        switch letter {
        case UInt8(ascii: "x"): 16
        case UInt8(ascii: "o"): 8
        case UInt8(ascii: "b"): 2
        default: nil
        }
    }

    /// Digits of `radix` with single underscores between them, from the start of `bytes`: where they end,
    /// or nil when there is no digit there. An underscore anywhere but between two digits is an error.
    func scanDigits(_ bytes: ArraySlice<UInt8>, radix: Int, at begin: Int) throws(TOML.SyntaxError) -> Int? {
        func isDigit(_ byte: UInt8) -> Bool {
            guard let value = Self.hexValue(byte) else { return false }
            return Int(value) < radix && (radix == 16 || Self.isDigit(byte))
        }
        var position = bytes.startIndex
        guard position < bytes.endIndex, isDigit(bytes[position]) else {
            if position < bytes.endIndex, bytes[position] == Byte.underscore {
                throw error("invalid number \(numberToken(from: begin)): an underscore must be between two digits", at: begin)
            }
            return nil
        }
        while position < bytes.endIndex {
            if isDigit(bytes[position]) {
                position += 1
            } else if bytes[position] == Byte.underscore {
                guard position + 1 < bytes.endIndex, isDigit(bytes[position + 1]) else {
                    throw error("invalid number \(numberToken(from: begin)): an underscore must be between two digits", at: begin)
                }
                position += 1
            } else {
                break
            }
        }
        return position
    }

    // MARK: Dates and times

    /// `YYYY-MM-DD`, then maybe `T` (or `t`, or a space) and a time, then maybe `Z` or `±HH:MM`.
    mutating func parseDateTime() throws(TOML.SyntaxError) -> TOML.Value {
        let begin = index
        func token() -> String { numberToken(from: begin) }
        func invalid(_ reason: String) -> TOML.SyntaxError {
            error("invalid date \(token()): \(reason)", at: begin)
        }
        guard let year = twoDigits(at: begin).flatMap({ high in twoDigits(at: begin + 2).map { high * 100 + $0 } }),
            bytes[begin + 4] == Byte.minus, let month = twoDigits(at: begin + 5),
            begin + 7 < bytes.count, bytes[begin + 7] == Byte.minus, let day = twoDigits(at: begin + 8)
        else {
            throw invalid("dates are written YYYY-MM-DD (1979-05-27)")
        }
        guard (1...12).contains(month) else { throw invalid("the month must be 01 to 12") }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        guard (1...days).contains(day) else {
            throw invalid("the day must be 01 to \(days) in that month")
        }
        index = begin + 10
        var text = String(decoding: bytes[begin..<index], as: UTF8.self)
        let separator = index < bytes.count ? bytes[index] : 0
        let hasTime =
            separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t")
            || (separator == Byte.space && index + 1 < bytes.count && Self.isDigit(bytes[index + 1]))
        guard hasTime else {
            try checkDateEnd(from: begin, kind: "date")
            return .localDate(text)
        }
        index += 1
        text += "T" + (try parseTime(in: "date-time", at: begin))
        guard index < bytes.count else { return .localDateTime(text) }
        switch bytes[index] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
            text += "Z"
        case Byte.plus, Byte.minus:
            let offset = index
            guard let hours = twoDigits(at: offset + 1), offset + 3 < bytes.count, bytes[offset + 3] == Byte.colon,
                let minutes = twoDigits(at: offset + 4)
            else {
                throw error("invalid date-time \(token()): the offset is written Z, +HH:MM or -HH:MM", at: begin)
            }
            guard hours <= 23, minutes <= 59 else {
                throw error("invalid date-time \(token()): the offset must be within ±23:59", at: begin)
            }
            index = offset + 6
            text += String(decoding: bytes[offset..<index], as: UTF8.self)
        default:
            try checkDateEnd(from: begin, kind: "date-time")
            return .localDateTime(text)
        }
        try checkDateEnd(from: begin, kind: "date-time")
        return .offsetDateTime(text)
    }

    /// `HH:MM:SS` with optional fractional seconds, as written (`07:32:00.999`).
    mutating func parseTime(in kind: String, at begin: Int? = nil) throws(TOML.SyntaxError) -> String {
        let start = index
        let begin = begin ?? start
        func invalid(_ reason: String) -> TOML.SyntaxError {
            error("invalid \(kind) \(numberToken(from: begin)): \(reason)", at: begin)
        }
        guard let hour = twoDigits(at: start), start + 2 < bytes.count, bytes[start + 2] == Byte.colon,
            let minute = twoDigits(at: start + 3), start + 5 < bytes.count, bytes[start + 5] == Byte.colon,
            let second = twoDigits(at: start + 6)
        else {
            throw invalid("times are written HH:MM:SS, with seconds (07:32:00)")
        }
        guard hour <= 23 else { throw invalid("the hour must be 00 to 23") }
        guard minute <= 59 else { throw invalid("the minute must be 00 to 59") }
        // RFC 3339, which TOML follows, allows 60 for a leap second.
        guard second <= 60 else { throw invalid("the second must be 00 to 59 (60 for a leap second)") }
        index = start + 8
        if index < bytes.count, bytes[index] == Byte.dot {
            index += 1
            let digits = index
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
            guard index > digits else { throw invalid("a decimal point in the seconds needs digits after it (07:32:00.5)") }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// The two-digit number at `offset`, if there is one.
    func twoDigits(at offset: Int) -> Int? {
        guard offset + 1 < bytes.count, Self.isDigit(bytes[offset]), Self.isDigit(bytes[offset + 1]) else { return nil }
        return Int(bytes[offset] - UInt8(ascii: "0")) * 10 + Int(bytes[offset + 1] - UInt8(ascii: "0"))
    }

    /// A date or time must not run on into more digits or letters (`07:32:00:00`, `1979-05-27x`).
    func checkDateEnd(from begin: Int, kind: String) throws(TOML.SyntaxError) {
        guard index < bytes.count, Self.isNumberByte(bytes[index]) else { return }
        throw error("invalid \(kind) \(numberToken(from: begin)): unexpected \(describe(at: index))", at: begin)
    }
}
