import Foundation
import SeededRandom
import TOMLKit
import Testing

@testable import KioskConfig

/// Our TOML parser against TOMLKit (toml++ 3.4 inside), document by document: both must say valid or
/// invalid alike, and give the same tree for a valid one. The documents: every example of
/// `TOMLParserTests` (valid and invalid), the kiosk's example config, documents made at random from
/// TOML's grammar (mostly valid, often with a key or table defined twice), mutations of all of these,
/// and random bytes. Seeded, so a disagreement reproduces; the document is printed with it. Our errors
/// are checked on the way: on a line of the document, a column from 1, one line of text.
///
/// Where toml++ deviates from TOML 1.0, we follow the spec; those cases are listed in `Deviation`, each
/// documented, and counted, not failed.
@Suite struct TOMLDifferentialTests {
    /// A longer campaign: `TOML_DIFFERENTIAL_SCALE=50 FUZZ_SEED=7 swift test --filter TOMLDifferentialTests`.
    static let scale = ProcessInfo.processInfo.environment["TOML_DIFFERENTIAL_SCALE"].flatMap(Int.init) ?? 1
    static let seed = ProcessInfo.processInfo.environment["FUZZ_SEED"].flatMap(UInt64.init) ?? 0
    static let generatedDocuments = 1_500 * scale
    static let mutatedDocuments = 2_000 * scale
    static let binaryDocuments = 100 * scale

    @Test func agreesWithTOMLKit() throws {
        var comparison = Comparison()
        for text in try Self.corpus() { comparison.compare(Array(text.utf8)) }
        let corpusCount = comparison.total

        var random = SplitMix64(seed: 0x544F_4D4C_0000_0001 &+ Self.seed)
        var generated: [[UInt8]] = []
        for _ in 0..<Self.generatedDocuments {
            var generator = DocumentGenerator(random: random)
            let bytes = Array(generator.document().utf8)
            random = generator.random
            generated.append(bytes)
            comparison.compare(bytes)
        }

        let seeds = try Self.corpus().map { Array($0.utf8) } + generated
        for _ in 0..<Self.mutatedDocuments {
            var bytes = seeds[random.next(upperBound: seeds.count)]
            for _ in 0...random.next(upperBound: 2) {
                if random.next(upperBound: 2) == 0 {
                    ConfigFuzzTests.mutate(&bytes, using: &random)
                } else {
                    Self.mutate(&bytes, using: &random)
                }
            }
            comparison.compare(bytes)
        }
        for _ in 0..<Self.binaryDocuments {
            comparison.compare((0..<random.next(upperBound: 200)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        }

        print(
            """
            differential: \(comparison.total) documents (\(corpusCount) from the corpus, \(Self.generatedDocuments) generated, \
            \(Self.mutatedDocuments) mutated, \(Self.binaryDocuments) random bytes): \(comparison.agreedValid) valid and \
            \(comparison.agreedInvalid) invalid for both, \(comparison.notConsulted) not given to TOMLKit \
            (\(comparison.notConsultedReasons)), deviations of TOMLKit from the spec: \(comparison.deviations)
            """)
        for failure in comparison.failures { Issue.record(Comment(rawValue: failure)) }
        // Both outcomes must be well represented, or the comparison compares less than it claims.
        #expect(comparison.agreedValid > comparison.total / 4)
        #expect(comparison.agreedInvalid > comparison.total / 4)
    }

    /// Every document of the unit tests, the example config, and documents where toml++ parts from the spec.
    static func corpus() throws -> [String] {
        var texts: [String] = []
        for (text, _) in TOMLParserTests.keys + TOMLParserTests.strings + TOMLParserTests.tables + TOMLParserTests.arraysOfTables
            + TOMLParserTests.documents
        {
            texts.append(text)
        }
        for (text, _) in TOMLParserTests.numbers + TOMLParserTests.dates + TOMLParserTests.arrays + TOMLParserTests.inlineTables {
            texts.append("x = \(text)\ny = [\(text), \(text)]\n[t]\nz = { a = \(text) }")
        }
        texts += TOMLParserTests.syntaxErrors.map { $0.toml }
        texts.append(try exampleText())
        // Where toml++ parts from the spec (see `Deviation`).
        let zeros = String(repeating: "0", count: 130)
        texts += [
            "t = 23:59:60\nd = 1990-12-31T23:59:60Z", "t = 07:32:00.\(zeros)1", "x = 0x\(zeros)1", "f = 0.\(zeros)1",
            "f = 1\(zeros)e-130", "k = \"\\u0000\"", "\"\\U00000000\" = 1", "s = \"\"\"a\\\n\u{A0}\u{FEFF}b\"\"\"",
        ]
        return texts
    }

    // MARK: Mutations

    /// Pieces of TOML syntax, so mutations reach the corners of strings, numbers and dates.
    static let tokens: [String] = [
        "\"", "'", "\"\"\"", "'''", "\\", "\\u00E9", "\\U0001F600", "\\uD800", "\\n", "\\e", ".", "=", "[", "]", "[[", "]]", "{", "}",
        ",", "#", "\n", "\r\n", "\r", "\t", " ", "e", "E", "_", ":", "-", "+", "T", "Z", "t", "z", "0", "1", "5", "9", "00", "0x", "0o",
        "0b", "inf", "nan", "true", "1979-05-27", "07:32:00", ".5", "e+5", "\u{0}", "\u{7F}", "\u{1F}", "é", "\u{2028}", "\u{FEFF}",
        "a.b", "= {", "x = 1", "[a]", "[[a]]", "a.b.c = 2", "-07:00", "60", "29", "02-29", "\\\n",
    ]

    static func mutate(_ bytes: inout [UInt8], using random: inout SplitMix64) {
        let token = Array(tokens[random.next(upperBound: tokens.count)].utf8)
        let position = random.next(upperBound: bytes.count + 1)
        switch random.next(upperBound: 4) {
        case 0:  // insert a token
            bytes.insert(contentsOf: token, at: position)
        case 1 where position < bytes.count:  // replace a byte with a token
            bytes.replaceSubrange(position..<(position + 1), with: token)
        case 2 where position < bytes.count && DocumentGenerator.isDigit(bytes[position]):  // change a digit
            bytes[position] = UInt8(ascii: "0") + UInt8(random.next(upperBound: 10))
        default:  // delete a byte or two
            bytes.removeSubrange(position..<min(bytes.count, position + 1 + random.next(upperBound: 2)))
        }
    }
}

// MARK: - Comparing

/// The two parsers' answers, tallied, with the documents where they disagree.
private struct Comparison {
    var total = 0
    var agreedValid = 0
    var agreedInvalid = 0
    var notConsulted = 0
    var notConsultedReasons: [String: Int] = [:]
    var deviations: [String: Int] = [:]
    var failures: [String] = []

    mutating func compare(_ bytes: [UInt8]) {
        total += 1
        // Documents TOMLKit cannot be given; most are invalid TOML, which is what we must say.
        if let (reason, isInvalidTOML) = Self.notForTOMLKit(bytes) {
            notConsulted += 1
            notConsultedReasons[reason, default: 0] += 1
            if case .valid = ourAnswer(bytes), isInvalidTOML { fail(bytes, "we accept a document with \(reason)") }
            return
        }
        let (ours, theirs) = (ourAnswer(bytes), theirAnswer(bytes))
        if let difference = Self.difference(ours, theirs) {
            let (found, neutralized) = Deviation.neutralize(bytes)
            if !found.isEmpty, Self.notForTOMLKit(neutralized) == nil,
                Self.difference(ourAnswer(neutralized), theirAnswer(neutralized)) == nil
            {
                for deviation in found { deviations[deviation.rawValue, default: 0] += 1 }
            } else {
                fail(bytes, difference)
            }
        } else if case .valid = ours {
            agreedValid += 1
        } else {
            agreedInvalid += 1
        }
    }

    enum Answer {
        case valid(TOML.Table)
        case invalid(String)
    }

    /// Our answer, canonical (see `TOMLConversion`), with the error checked.
    mutating func ourAnswer(_ bytes: [UInt8]) -> Answer {
        do {
            return .valid(TOMLConversion.canonical(try TOML.parse(bytes)))
        } catch {
            check(error, bytes)
            return .invalid(error.description)
        }
    }

    /// TOMLKit's answer, for a document that passed `notForTOMLKit`.
    func theirAnswer(_ bytes: [UInt8]) -> Answer {
        do {
            return .valid(TOMLConversion.table(try TOMLKit.TOMLTable(string: String(decoding: bytes, as: UTF8.self))))
        } catch {
            return .invalid("\(error)")
        }
    }

    /// How the answers differ, if they do.
    static func difference(_ ours: Answer, _ theirs: Answer) -> String? {
        switch (ours, theirs) {
        case let (.valid(ours), .valid(theirs)): ours == theirs ? nil : "different values:\nours:   \(ours)\ntheirs: \(theirs)"
        case (.invalid, .invalid): nil
        case let (.invalid(error), .valid): "we reject (\(error)), TOMLKit accepts"
        case let (.valid, .invalid(error)): "we accept, TOMLKit rejects: \(error)"
        }
    }

    /// Why TOMLKit cannot be asked about `bytes`, if it cannot, and whether that alone makes the document
    /// invalid TOML.
    static func notForTOMLKit(_ bytes: [UInt8]) -> (reason: String, isInvalidTOML: Bool)? {
        // TOMLKit passes the text on as a C string: invalid UTF-8 would be replaced, a NUL would end it.
        // Both are invalid anywhere in a TOML document, comments and strings included.
        if KioskConfiguration.textProblem(bytes, path: "differential.toml") != nil { return ("a NUL or invalid UTF-8", true) }
        // Found loosely, in strings and comments too, so not necessarily invalid.
        if hasHeaderOrElementThatAborts(bytes) { return ("a header or array toml++ aborts on", false) }
        if isDeep(bytes) { return ("nesting toml++ overflows the stack on", false) }
        if hasDateThatAborts(bytes) { return ("a date toml++ aborts on", false) }
        return nil
    }

    /// Headers and array elements that make toml++ *assert* (abort the process; undefined behaviour in a
    /// release build): a line whose `[` or `[[` is followed, after spaces, by anything that cannot start a
    /// key (toml++ checks only for the end of the file there), and an array element, after `[` or `,`,
    /// blanks and comments, that starts with `}` or a Unicode line separator (U+0085, U+2028, U+2029).
    static func hasHeaderOrElementThatAborts(_ bytes: [UInt8]) -> Bool {
        func skip(from position: Int, lines: Bool) -> Int {
            var position = position
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: " "), UInt8(ascii: "\t"): position += 1
                case UInt8(ascii: "\n") where lines, UInt8(ascii: "\r") where lines: position += 1
                case UInt8(ascii: "#") where lines:
                    while position < bytes.count, bytes[position] != UInt8(ascii: "\n") { position += 1 }
                default: return position
                }
            }
            return position
        }
        func startsKey(_ position: Int) -> Bool {
            position >= bytes.count || TOML.Parser.isKeyStart(bytes[position])
        }
        func startsLineSeparator(_ position: Int) -> Bool {
            [[0xC2, 0x85], [0xE2, 0x80, 0xA8], [0xE2, 0x80, 0xA9]].contains { bytes[position...].starts(with: $0) }
        }
        for (index, byte) in bytes.enumerated() {
            if index == 0 || bytes[index - 1] == UInt8(ascii: "\n") {
                var position = skip(from: index, lines: false)
                if position < bytes.count, bytes[position] == UInt8(ascii: "[") {
                    position += 1
                    if position < bytes.count, bytes[position] == UInt8(ascii: "[") { position += 1 }
                    if !startsKey(skip(from: position, lines: false)) { return true }
                }
            }
            if byte == UInt8(ascii: "[") || byte == UInt8(ascii: ",") {
                let position = skip(from: index + 1, lines: true)
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") || startsLineSeparator(position) { return true }
            }
        }
        return false
    }

    /// Nesting deeper than our parser allows (`TOML.maximumNesting`), found loosely: brackets and braces
    /// open at once, or dots on one line. toml++ caps arrays and inline tables at 256 levels but not
    /// dotted keys, and overflowed the stack of a test thread on `a.a.a...` 30,000 deep.
    static func isDeep(_ bytes: [UInt8]) -> Bool {
        var open = 0
        var dots = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "["), UInt8(ascii: "{"): open += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"): open = max(0, open - 1)
            case UInt8(ascii: "."): dots += 1
            case UInt8(ascii: "\n"): dots = 0
            default: break
            }
            if open > TOML.maximumNesting || dots > TOML.maximumNesting { return true }
        }
        return false
    }

    /// Dates that make toml++ *assert*, found by this test: a date and `T` not followed by a digit (`parse_time`
    /// asserts one), and a date, a space and one digit before a value terminator (`1979-05-27 7`, where
    /// its look-ahead for a time asserts the next character is no terminator). Found loosely: any
    /// `dddd-dd-dd`-like run (toml++ checks digits and dashes only) followed by either.
    static func hasDateThatAborts(_ bytes: [UInt8]) -> Bool {
        func isDigit(_ position: Int) -> Bool { position < bytes.count && DocumentGenerator.isDigit(bytes[position]) }
        func continuesValue(_ position: Int) -> Bool {
            position < bytes.count && TOML.Parser.isNumberByte(bytes[position])
        }
        var start = 0
        while start + 11 < bytes.count {
            defer { start += 1 }
            let isDate = (0..<10).allSatisfy { isDigit(start + $0) || bytes[start + $0] == UInt8(ascii: "-") }
            guard isDate, bytes[start + 4] == UInt8(ascii: "-"), bytes[start + 7] == UInt8(ascii: "-") else { continue }
            switch bytes[start + 10] {
            case UInt8(ascii: "T"), UInt8(ascii: "t"):
                if !isDigit(start + 11) { return true }
            case UInt8(ascii: " "):
                if isDigit(start + 11), start + 12 < bytes.count, !continuesValue(start + 12) { return true }
            default:
                break
            }
        }
        return false
    }

    /// Rules for every error: a line of the document, a column from 1, one line of text.
    mutating func check(_ error: TOML.SyntaxError, _ bytes: [UInt8]) {
        let lines = bytes.count { $0 == UInt8(ascii: "\n") } + 1
        if !(1...lines).contains(error.line) || error.column < 1 { fail(bytes, "error outside the document: \(error)") }
        if error.message.contains("\n") || error.message.isEmpty { fail(bytes, "message not one line: \(error)") }
    }

    mutating func fail(_ bytes: [UInt8], _ what: String) {
        guard failures.count < 40 else { return }
        let shown = String(decoding: bytes.prefix(1_500), as: UTF8.self).debugDescription
        failures.append("\(what)\ndocument: \(shown)")
    }
}

/// TOMLKit's tree as our values, and both in one canonical form: dates and times as their fields (toml++
/// keeps fields, not text: nanoseconds, and an offset in minutes), NaN without a sign.
private enum TOMLConversion {
    static func table(_ table: TOMLKit.TOMLTable) -> TOML.Table {
        var result = TOML.Table()
        // Only `keys` and the optional subscript: iterating a TOMLTable force-unwraps (ConfigReader.swift).
        for key in table.keys {
            guard let value = table[key] else { continue }
            result[key] = self.value(value)
        }
        return result
    }

    static func value(_ value: TOMLValueConvertible) -> TOML.Value {
        switch value.type {
        case .string: return .string(value.string ?? "")
        case .int: return .integer(value.int ?? 0)
        case .double: return canonical(.float(value.double ?? 0))
        case .bool: return .boolean(value.bool ?? false)
        case .date:
            guard let date = value.date else { return .localDate("?") }
            return .localDate(self.date(date.year, date.month, date.day))
        case .time:
            guard let time = value.time else { return .localTime("?") }
            return .localTime(self.time(time.hour, time.minute, time.second, time.nanoSecond))
        case .dateTime:
            guard let dateTime = value.dateTime else { return .localDateTime("?") }
            let (date, time) = (dateTime.date, dateTime.time)
            let text = self.date(date.year, date.month, date.day) + "T" + self.time(time.hour, time.minute, time.second, time.nanoSecond)
            guard let offset = dateTime.offset else { return .localDateTime(text) }
            return .offsetDateTime(text + (offset.offset < 0 ? "-" : "+") + String(abs(offset.offset)))
        case .array:
            guard let array = value.array else { return .array([]) }
            return .array((0..<array.count).map { self.value(array[$0]) })
        case .table:
            return .table(value.table.map(table) ?? TOML.Table())
        }
    }

    static func canonical(_ table: TOML.Table) -> TOML.Table {
        var result = TOML.Table()
        for key in table.keys {
            if let value = table[key] { result[key] = canonical(value) }
        }
        return result
    }

    static func canonical(_ value: TOML.Value) -> TOML.Value {
        switch value {
        case let .float(number) where number.isNaN: .float(.nan)
        case let .offsetDateTime(text): .offsetDateTime(canonicalDateTime(text, hasOffset: true))
        case let .localDateTime(text): .localDateTime(canonicalDateTime(text, hasOffset: false))
        case let .localTime(text): .localTime(canonicalTime(Substring(text)).text)
        case let .array(elements): .array(elements.map(canonical))
        case let .table(table): .table(canonical(table))
        default: value
        }
    }

    /// `1979-05-27T07:32:00.5-07:00` → `1979-05-27T07:32:00.500000000-420`.
    static func canonicalDateTime(_ text: String, hasOffset: Bool) -> String {
        let (time, rest) = canonicalTime(text.dropFirst(11))
        var result = text.prefix(10) + "T" + time
        if hasOffset {
            if rest == "Z" {
                result += "+0"
            } else {
                let minutes = (Int(rest.dropFirst().prefix(2)) ?? 0) * 60 + (Int(rest.suffix(2)) ?? 0)
                result += rest.first == "-" && minutes != 0 ? "-\(minutes)" : "+\(minutes)"
            }
        }
        return String(result)
    }

    /// `07:32:00.5Z` → (`07:32:00.500000000`, `Z`): fractions truncated to nanoseconds, as toml++ keeps them.
    static func canonicalTime(_ text: Substring) -> (text: String, rest: Substring) {
        var fraction = ""
        var rest = text.dropFirst(8)
        if rest.first == "." {
            let digits = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
            fraction = String(digits.prefix(9))
            rest = rest.dropFirst(1 + digits.count)
        }
        return (text.prefix(8) + "." + fraction + String(repeating: "0", count: 9 - fraction.count), rest)
    }

    static func date(_ year: Int, _ month: Int, _ day: Int) -> String {
        pad(year, 4) + "-" + pad(month, 2) + "-" + pad(day, 2)
    }

    static func time(_ hour: Int, _ minute: Int, _ second: Int, _ nanosecond: Int) -> String {
        pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2) + "." + pad(nanosecond, 9)
    }

    static func pad(_ number: Int, _ width: Int) -> String {
        let text = String(number)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

// MARK: - Where toml++ deviates from TOML 1.0

/// Where TOMLKit (toml++ 3.4 inside TOMLKit 0.6.0) and TOML 1.0 part ways; we follow the spec. A
/// disagreement is put down to these only if the document, with every such construct made harmless
/// (`neutralized`), gets the same answer from both parsers, so a deviation cannot hide another difference.
private enum Deviation: String, CaseIterable {
    /// toml++ rejects a second of 60 ("expected second between 0 and 59"); TOML times are RFC 3339's,
    /// whose grammar (and TOML's ABNF) allows 60 for a leap second: `23:59:60`. Made harmless as `59`.
    case leapSecond = "leap second :60 rejected"
    /// toml++ rejects more than 64 digits of fractional seconds; the spec says extra precision "must be
    /// truncated, not rounded", so they are valid. Made harmless by cutting them to 9.
    case longFraction = "over 64 digits of fractional seconds rejected"
    /// toml++ reads a number into a 128-byte buffer and rejects longer ones ("exceeds length limit"):
    /// `0x` with 130 leading zeros, or a float with 130 digits, is valid TOML. Made harmless as `0`.
    case longNumber = "numbers of 128 characters or more rejected"
    /// After a line-ending backslash in a `"""` string, toml++ drops Unicode spaces (U+00A0, U+FEFF,
    /// U+2000 to U+200B, U+3000...) with the spaces and line breaks; TOML's whitespace is space and tab
    /// only, so they are text and stay. Made harmless by removing them there.
    case unicodeSpaceAfterBackslash = "Unicode spaces dropped after a line-ending backslash"
    /// Not toml++ but TOMLKit: strings and keys reach Swift as C strings, which end at U+0000, so
    /// `"a\u0000b"` comes back as `"a"` (and a key `"\u0000"` as ""). Made harmless as `\u0001`.
    case nulInString = "TOMLKit cuts strings and keys at \\u0000"

    /// What toml++ takes for horizontal whitespace beyond space and tab (`is_non_ascii_horizontal_whitespace`).
    static let unicodeSpaces: [[UInt8]] =
        ["\u{A0}", "\u{1680}", "\u{180E}", "\u{202F}", "\u{205F}", "\u{2060}", "\u{3000}", "\u{FEFF}"]
        .map { Array($0.utf8) } + (0x2000...0x200B).compactMap { Unicode.Scalar($0).map { Array(String($0).utf8) } }

    /// The deviations in `bytes`, and the document with all of them made harmless.
    static func neutralize(_ bytes: [UInt8]) -> (deviations: [Deviation], bytes: [UInt8]) {
        var bytes = bytes
        var found: [Deviation] = []
        for deviation in allCases where deviation.neutralize(&bytes) { found.append(deviation) }
        return (found, bytes)
    }

    /// Makes this deviation harmless in `bytes`; true when there was something to change.
    func neutralize(_ bytes: inout [UInt8]) -> Bool {
        func isDigit(_ position: Int) -> Bool { position < bytes.count && DocumentGenerator.isDigit(bytes[position]) }
        func matches(_ text: String, at position: Int) -> Bool {
            bytes[position...].starts(with: text.utf8)
        }
        var changed = false
        var position = 0
        while position < bytes.count {
            switch self {
            case .leapSecond:
                // HH:MM:60
                if position >= 6, matches("60", at: position), bytes[position - 1] == UInt8(ascii: ":"),
                    bytes[position - 4] == UInt8(ascii: ":"), isDigit(position - 2), isDigit(position - 3), isDigit(position - 5),
                    isDigit(position - 6)
                {
                    bytes[position + 1] = UInt8(ascii: "9")
                    bytes[position] = UInt8(ascii: "5")
                    changed = true
                }
            case .longFraction:
                // :SS. and more than 64 digits
                if position >= 3, bytes[position] == UInt8(ascii: "."), bytes[position - 3] == UInt8(ascii: ":"), isDigit(position - 1),
                    isDigit(position - 2)
                {
                    var end = position + 1
                    while isDigit(end) { end += 1 }
                    if end - position - 1 > 64 {
                        bytes.removeSubrange((position + 10)..<end)
                        changed = true
                    }
                }
            case .longNumber:
                let isNumberByte = { (byte: UInt8) in
                    TOML.Parser.isNumberByte(byte)
                }
                if isNumberByte(bytes[position]), position == 0 || !isNumberByte(bytes[position - 1]) {
                    var end = position
                    while end < bytes.count, isNumberByte(bytes[end]) { end += 1 }
                    if end - position >= 128,
                        bytes[position..<end].allSatisfy({
                            DocumentGenerator.isDigit($0) || Array("xob._+-eEabcdefABCDEF".utf8).contains($0)
                        })
                    {
                        bytes.replaceSubrange(position..<end, with: [UInt8(ascii: "0")])
                        changed = true
                    }
                }
            case .unicodeSpaceAfterBackslash:
                guard bytes[position] == UInt8(ascii: "\\") else { break }
                var end = position + 1
                while end < bytes.count, bytes[end] == UInt8(ascii: " ") || bytes[end] == UInt8(ascii: "\t") { end += 1 }
                guard end < bytes.count, bytes[end] == UInt8(ascii: "\n") || bytes[end] == UInt8(ascii: "\r") else { break }
                while end < bytes.count {
                    if [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(bytes[end]) {
                        end += 1
                    } else if let space = Self.unicodeSpaces.first(where: { bytes[end...].starts(with: $0) }) {
                        bytes.removeSubrange(end..<(end + space.count))
                        changed = true
                    } else {
                        break
                    }
                }
            case .nulInString:
                for escape in ["\\u0000", "\\U00000000"] where matches(escape, at: position) {
                    bytes[position + escape.utf8.count - 1] = UInt8(ascii: "1")
                    changed = true
                }
            }
            position += 1
        }
        return changed
    }
}

// MARK: - Generating documents

/// Random TOML from the grammar: keys bare, quoted and dotted from a small alphabet (so keys and tables
/// are often defined twice), every kind of value with its corner cases (extreme integers, exponents,
/// escapes, dates that do not exist), headers and arrays of tables.
struct DocumentGenerator {
    var random: SplitMix64

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    mutating func pick<T>(_ choices: [T]) -> T { choices[random.next(upperBound: choices.count)] }
    mutating func chance(_ percent: Int) -> Bool { random.next(upperBound: 100) < percent }

    mutating func document() -> String {
        var lines: [String] = []
        for _ in 0..<random.next(upperBound: 4) { lines.append(keyValue(depth: 0)) }
        for _ in 0..<random.next(upperBound: 5) {
            let path = (0...random.next(upperBound: 2)).map { _ in key() }.joined(separator: pick([".", " . ", "."]))
            lines.append(chance(30) ? "[[\(path)]]" : "[\(path)]" + (chance(20) ? " # comment" : ""))
            for _ in 0..<random.next(upperBound: 4) { lines.append(keyValue(depth: 0)) }
        }
        return lines.joined(separator: chance(10) ? "\r\n" : "\n") + (chance(50) ? "\n" : "")
    }

    mutating func key() -> String {
        pick(["a", "b", "c", "key", "1", "x-y", "_", "\"a\"", "'b'", "\"a b\"", "\"\\u00e9\"", "\"\"", "'é'", "\"c\""])
    }

    mutating func keyValue(depth: Int) -> String {
        let dotted = (0...(chance(30) ? random.next(upperBound: 3) : 0)).map { _ in key() }.joined(separator: ".")
        return dotted + pick([" = ", "=", " =  "]) + value(depth: depth) + (chance(15) ? " # note" : "")
    }

    mutating func value(depth: Int) -> String {
        switch random.next(upperBound: depth > 3 ? 10 : 13) {
        case 0: return basicString()
        case 1: return "'" + literalText() + "'"
        case 2: return "\"\"\"" + pick(["", "\n", "\r\n"]) + basicText(multiline: true) + pick(["", "\"", "\"\""]) + "\"\"\""
        case 3: return "'''" + pick(["", "\n"]) + literalText() + pick(["\n", "'", "''", ""]) + "'''"
        case 4: return integer()
        case 5: return radixInteger()
        case 6: return float()
        case 7: return pick(["inf", "+inf", "-inf", "nan", "+nan", "-nan", "true", "false"])
        case 8, 9: return dateTime()
        case 10, 11: return array(depth: depth + 1)
        default: return inlineTable(depth: depth + 1)
        }
    }

    mutating func basicString() -> String { "\"" + basicText(multiline: false) + "\"" }

    mutating func basicText(multiline: Bool) -> String {
        var text = ""
        for _ in 0..<random.next(upperBound: 6) {
            var pieces = [
                "a", "Z", " ", "é", "✋", "😀", "\t", "\\t", "\\n", "\\\"", "\\\\", "\\u00E9", "\\U0001F600", "\\u0041", "#", "'", "\\b",
                "\\f", "\\r",
            ]
            if multiline { pieces += ["\n", "\"", "\"\"", "\\\n   ", "\\  \n\n", "\r\n"] }
            text += pick(pieces)
        }
        return text
    }

    mutating func literalText() -> String {
        (0..<random.next(upperBound: 6)).map { _ in pick(["a", " ", "\\", "\"", "é", "\t", "#", "\\n"]) }.joined()
    }

    mutating func digits(_ count: Int, underscores: Bool = true) -> String {
        var text = String(1 + random.next(upperBound: 9))
        for _ in 1..<max(1, count) {
            if underscores && chance(10) { text += "_" }
            text += String(random.next(upperBound: 10))
        }
        return text
    }

    mutating func integer() -> String {
        let sign = pick(["", "", "+", "-"])
        switch random.next(upperBound: 5) {
        case 0: return sign + "0"
        case 1: return sign + pick(["9223372036854775807", "9223372036854775808", "9223372036854775806", "99999999999999999999"])
        default: return sign + digits(1 + random.next(upperBound: 19))
        }
    }

    mutating func radixInteger() -> String {
        switch random.next(upperBound: 3) {
        case 0:
            let hex = (0..<(1 + random.next(upperBound: 17))).map { _ in pick(Array("0123456789abcdefABCDEF").map(String.init)) }.joined()
            return "0x" + (chance(10) ? "7FFF_FFFF_FFFF_FFFF" : hex)
        case 1: return "0o" + (0..<(1 + random.next(upperBound: 22))).map { _ in String(random.next(upperBound: 8)) }.joined()
        default: return "0b" + (0..<(1 + random.next(upperBound: 64))).map { _ in String(random.next(upperBound: 2)) }.joined()
        }
    }

    mutating func float() -> String {
        let sign = pick(["", "", "+", "-"])
        let whole = chance(20) ? "0" : digits(1 + random.next(upperBound: 4))
        let fraction = chance(70) ? "." + String(random.next(upperBound: 10)) + (chance(50) ? digits(random.next(upperBound: 20)) : "") : ""
        var exponent = ""
        if fraction.isEmpty || chance(40) {
            exponent =
                pick(["e", "E"]) + pick(["", "+", "-"])
                + pick(["0", "06", "22", "308", "309", "-324", "330", String(random.next(upperBound: 400))])
        }
        return sign + whole + fraction + exponent
    }

    mutating func dateTime() -> String {
        func pad(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        let year = pick(["1979", "2000", "1900", "2024", "0000", "9999", "2023"])
        let date =
            "\(year)-\(pad(1 + random.next(upperBound: 12)))-\(pad(chance(80) ? 1 + random.next(upperBound: 28) : 28 + random.next(upperBound: 4)))"
        let second = chance(95) ? random.next(upperBound: 60) : 60
        let fraction =
            chance(30) ? "." + (0..<(1 + random.next(upperBound: 12))).map { _ in String(random.next(upperBound: 10)) }.joined() : ""
        let time = "\(pad(random.next(upperBound: 24))):\(pad(random.next(upperBound: 60))):\(pad(second))\(fraction)"
        let offset = pick(["Z", "z", "+00:00", "-07:00", "+05:30", "-00:00", "+23:59"])
        switch random.next(upperBound: 4) {
        case 0: return date
        case 1: return time
        case 2: return date + pick(["T", "t", " "]) + time
        default: return date + pick(["T", "t", " "]) + time + offset
        }
    }

    mutating func array(depth: Int) -> String {
        let separator = pick([", ", ",", ",\n  ", " , ", ", # comment\n"])
        let elements = (0..<random.next(upperBound: 4)).map { _ in value(depth: depth) }
        let trailing = !elements.isEmpty && chance(20) ? "," : ""
        return "[" + pick(["", " ", "\n"]) + elements.joined(separator: separator) + trailing + pick(["", " ", "\n"]) + "]"
    }

    mutating func inlineTable(depth: Int) -> String {
        let pairs = (0..<random.next(upperBound: 4)).map { _ in
            (0...(chance(30) ? 1 : 0)).map { _ in key() }.joined(separator: ".") + " = " + value(depth: depth)
        }
        return pairs.isEmpty ? "{}" : "{ " + pairs.joined(separator: ", ") + " }"
    }
}
