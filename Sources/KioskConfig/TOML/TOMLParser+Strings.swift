/// The four kinds of string. An unterminated string is reported at its opening quote, not where the line
/// or file ran out: that is where the string the person meant to close begins.
extension TOML.Parser {
    /// `"..."`, at its opening quote.
    mutating func parseBasicString() throws(TOML.SyntaxError) -> String {
        let open = index
        index += 1
        var text: [UInt8] = []
        var run = index
        while true {
            guard index < bytes.count else { throw unterminated(at: open) }
            let byte = bytes[index]
            switch byte {
            case Byte.quote:
                text += bytes[run..<index]
                index += 1
                return String(decoding: text, as: UTF8.self)
            case Byte.backslash:
                text += bytes[run..<index]
                try parseEscape(into: &text, multiline: false, open: open)
                run = index
            default:
                try skipSingleLineStringByte(open: open, escapable: true)
            }
        }
    }

    /// `'...'`, at its opening apostrophe: no escapes.
    mutating func parseLiteralString() throws(TOML.SyntaxError) -> String {
        let open = index
        index += 1
        while true {
            guard index < bytes.count else { throw unterminated(at: open) }
            switch bytes[index] {
            case Byte.apostrophe:
                index += 1
                return String(decoding: bytes[(open + 1)..<(index - 1)], as: UTF8.self)
            default:
                try skipSingleLineStringByte(open: open, escapable: false)
            }
        }
    }

    /// One byte of a single-line string that is neither its closing quote nor (basic strings) a
    /// backslash: a line end means the string is unterminated; a tab, printable ASCII or a UTF-8 scalar is
    /// content; anything else is a control character (`escapable`: a basic string could have escaped it).
    @inline(__always)
    private mutating func skipSingleLineStringByte(open: Int, escapable: Bool) throws(TOML.SyntaxError) {
        switch bytes[index] {
        case Byte.newline:
            throw unterminated(at: open)
        case Byte.carriageReturn where isLineEnd(at: index):
            throw unterminated(at: open)
        case Byte.tab, 0x20...0x7E:
            index += 1
        case 0x80...:
            try skipScalar()
        default:
            throw controlCharacter(inStringAt: index, escapable: escapable)
        }
    }

    /// `"""..."""` or `'''...'''`, at the first of its three opening quotes. A line break right after the
    /// opening quotes is not part of the string; CRLF in the string becomes LF. One or two quotes may
    /// come just before the closing three (`""""a""""` is `"a"`), so a run of 3 to 5 quotes closes it.
    mutating func parseMultilineString(literal: Bool) throws(TOML.SyntaxError) -> String {
        let open = index
        let delimiter = bytes[index]
        index += 3
        if index < bytes.count, bytes[index] == Byte.newline {
            index += 1
        } else if isLineEnd(at: index), index < bytes.count {
            index += 2
        }
        var text: [UInt8] = []
        var run = index
        while true {
            guard index < bytes.count else {
                let quotes = literal ? "'''" : "\"\"\""
                throw error("unterminated multi-line string: the closing \(quotes) is missing", at: open)
            }
            let byte = bytes[index]
            switch byte {
            case delimiter:
                var end = index
                while end < bytes.count, bytes[end] == delimiter { end += 1 }
                let count = end - index
                if count >= 3 {
                    guard count <= 5 else {
                        throw error(
                            "too many quotes: at most two can come just before the closing three; escape the others (\\\")",
                            at: index + 5)
                    }
                    text += bytes[run..<(end - 3)]
                    index = end
                    return String(decoding: text, as: UTF8.self)
                }
                index = end
            case Byte.backslash where !literal:
                text += bytes[run..<index]
                if let next = lineEndingBackslashEnd() {
                    index = next
                } else {
                    try parseEscape(into: &text, multiline: true, open: open)
                }
                run = index
            case Byte.newline:
                index += 1
            case Byte.carriageReturn:
                guard isLineEnd(at: index) else { throw loneCarriageReturn(at: index) }
                text += bytes[run..<index]
                index += 1
                run = index
            case Byte.tab, 0x20...0x7E:
                index += 1
            case 0x80...:
                try skipScalar()
            default:
                throw controlCharacter(inStringAt: index, escapable: !literal)
            }
        }
    }

    /// At a backslash in a multi-line basic string: if only spaces follow it on its line, where the
    /// whitespace after it ends (the backslash, the line break and all spaces and line breaks after it are
    /// left out of the string); nil for an escape.
    func lineEndingBackslashEnd() -> Int? {
        var position = index + 1
        while position < bytes.count, bytes[position] == Byte.space || bytes[position] == Byte.tab { position += 1 }
        guard position < bytes.count, isLineEnd(at: position) else { return nil }
        while position < bytes.count {
            switch bytes[position] {
            case Byte.space, Byte.tab, Byte.newline: position += 1
            case Byte.carriageReturn where isLineEnd(at: position): position += 2
            default: return position
            }
        }
        return position
    }

    /// An escape at the backslash, appended to `text` as UTF-8.
    mutating func parseEscape(into text: inout [UInt8], multiline: Bool, open: Int) throws(TOML.SyntaxError) {
        let backslash = index
        index += 1
        guard index < bytes.count else { throw unterminated(at: open, multiline: multiline) }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "r"): text.append(0x0D)
        case Byte.quote: text.append(Byte.quote)
        case Byte.backslash: text.append(Byte.backslash)
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let digits = letter == UInt8(ascii: "u") ? 4 : 8
            var value: UInt32 = 0
            var found = 0
            while found < digits, index < bytes.count, let digit = Self.hexValue(bytes[index]) {
                value = value << 4 | UInt32(digit)
                found += 1
                index += 1
            }
            let escape = String(decoding: bytes[backslash..<index], as: UTF8.self)
            guard found == digits else {
                throw error(
                    "invalid escape \(escape) in a string: \\\(Character(Unicode.Scalar(letter))) needs \(digits) hexadecimal digits",
                    at: backslash)
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw error(
                    "invalid escape \(escape) in a string: U+\(TOML.hex(value, digits: 4)) is not a Unicode scalar value", at: backslash)
            }
            UTF8.encode(scalar) { text.append($0) }
        case 0x21...0x7E:
            throw error("invalid escape \\\(Character(Unicode.Scalar(letter))) in a string", at: backslash)
        case Byte.newline where !multiline, Byte.carriageReturn where !multiline && isLineEnd(at: index - 1):
            throw error("invalid escape in a string: a backslash can end a line only in a multi-line string (\"\"\")", at: backslash)
        case Byte.space, Byte.tab:
            let what =
                multiline ? "only spaces may follow a backslash that ends a line" : "a backslash followed by \(describe(at: index - 1))"
            throw error("invalid escape in a string: \(what)", at: backslash)
        default:
            index -= 1
            if letter >= 0x80, utf8Length(at: index) == 0 { throw invalidUTF8(at: index) }
            throw error("invalid escape in a string: a backslash followed by \(describe(at: index))", at: backslash)
        }
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    func unterminated(at open: Int, multiline: Bool = false) -> TOML.SyntaxError {
        if multiline {
            let quotes = bytes[open] == Byte.apostrophe ? "'''" : "\"\"\""
            return error("unterminated multi-line string: the closing \(quotes) is missing", at: open)
        }
        return error("unterminated string: the closing quote is missing", at: open)
    }

    /// A control character (other than tab) written as itself in a string.
    func controlCharacter(inStringAt offset: Int, escapable: Bool) -> TOML.SyntaxError {
        if bytes[offset] == Byte.carriageReturn { return loneCarriageReturn(at: offset) }
        let code = "\\u" + TOML.hex(UInt32(bytes[offset]), digits: 4)
        let advice = escapable ? "; write it as \(code)" : "; use a basic string (\"...\") and write it as \(code)"
        return error("\(describe(at: offset)) is not allowed in a string\(advice)", at: offset)
    }
}
