/// Why a TZ string was refused: the text says what was expected where.
struct PosixTZParseError: Error, Sendable, Hashable {
    var reason: String
}

extension PosixTZRule {
    /// tzcode's rule for a daylight name with no rule (`EST5EDT`): the United States' since 2007.
    static let defaultSwitches = ",M3.2.0,M11.1.0"

    /// Parses `std offset [dst [offset] [,start[/time],end[/time]]]` (POSIX.1-2017 section 8.3) with
    /// RFC 8536's extensions. Offsets are POSIX's, positive west of Greenwich: `CET-1` is UTC+1.
    init(parsing text: String) throws(PosixTZParseError) {
        var scanner = Scanner(bytes: Array(text.utf8))
        let standardName = try scanner.name()
        let standardOffset = try -scanner.duration(what: "the standard offset", maximumHours: 167)
        let standard = ZoneOffset(secondsFromUTC: Int(standardOffset), isDaylightSavingTime: false, abbreviation: standardName)
        guard !scanner.isAtEnd else {
            self.init(standard: standard, daylight: nil)
            return
        }

        let daylightName = try scanner.name()
        var daylightOffset = standardOffset + 3600  // POSIX's default: an hour ahead of standard time
        if let next = scanner.peek, next != UInt8(ascii: ",") {
            daylightOffset = try -scanner.duration(what: "the daylight-saving offset", maximumHours: 167)
        }
        if scanner.isAtEnd { scanner = Scanner(bytes: Array(PosixTZRule.defaultSwitches.utf8)) }
        try scanner.expect(",", "a comma before the daylight-saving start")
        let start = try scanner.switchRule()
        try scanner.expect(",", "a comma before the daylight-saving end")
        let end = try scanner.switchRule()
        guard scanner.isAtEnd else { throw scanner.error("the end of the string") }

        let offset = ZoneOffset(secondsFromUTC: Int(daylightOffset), isDaylightSavingTime: true, abbreviation: daylightName)
        self.init(standard: standard, daylight: Daylight(offset: offset, start: start, end: end))
    }
}

/// A cursor over a TZ string's bytes (they are ASCII, so a byte is a character).
private struct Scanner {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    var isAtEnd: Bool { position == bytes.count }
    var peek: UInt8? { isAtEnd ? nil : bytes[position] }

    func error(_ expected: String) -> PosixTZParseError {
        let found = isAtEnd ? "the end" : "\"\(String(decoding: bytes[position...], as: UTF8.self))\""
        return PosixTZParseError(reason: "expected \(expected) at \(found)")
    }

    mutating func expect(_ character: Unicode.Scalar, _ expected: String) throws(PosixTZParseError) {
        guard peek == UInt8(ascii: character) else { throw error(expected) }
        position += 1
    }

    /// A zone abbreviation: three or more letters, or, between `<` and `>`, three or more letters, digits
    /// and signs (`<+0330>`, for zones that have no letters for their offset).
    mutating func name() throws(PosixTZParseError) -> String {
        let start = position
        let quoted = peek == UInt8(ascii: "<")
        if quoted { position += 1 }
        let nameStart = position
        while let byte = peek, isLetter(byte) || (quoted && (isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-"))) {
            position += 1
        }
        let name = String(decoding: bytes[nameStart..<position], as: UTF8.self)
        guard name.utf8.count >= 3 else {
            position = start
            throw error(quoted ? "three or more letters, digits or signs after \"<\"" : "a zone name of three or more letters")
        }
        if quoted { try expect(">", "\">\" closing the quoted name") }
        return name
    }

    /// `[+|-]hh[:mm[:ss]]` in seconds: an offset, or a switch's time of day.
    mutating func duration(what: String, maximumHours: Int64) throws(PosixTZParseError) -> Int64 {
        var sign: Int64 = 1
        if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") {
            if peek == UInt8(ascii: "-") { sign = -1 }
            position += 1
        }
        let hours = try number(what: "the hours of \(what)", digits: 3, range: 0...maximumHours)
        var minutes: Int64 = 0
        var seconds: Int64 = 0
        if peek == UInt8(ascii: ":") {
            position += 1
            minutes = try number(what: "the minutes of \(what)", digits: 2, range: 0...59)
            if peek == UInt8(ascii: ":") {
                position += 1
                seconds = try number(what: "the seconds of \(what)", digits: 2, range: 0...59)
            }
        }
        return sign * (hours * 3600 + minutes * 60 + seconds)
    }

    /// `date[/time]`: when a switch happens; the time is 02:00 when not given.
    mutating func switchRule() throws(PosixTZParseError) -> PosixTZRule.Switch {
        let date: PosixTZRule.RuleDate
        switch peek {
        case UInt8(ascii: "J"):
            position += 1
            date = .julian(Int(try number(what: "a day 1-365 after \"J\"", digits: 3, range: 1...365)))
        case UInt8(ascii: "M"):
            position += 1
            let month = try number(what: "a month 1-12 after \"M\"", digits: 2, range: 1...12)
            try expect(".", "\".\" after the month")
            let week = try number(what: "a week 1-5", digits: 1, range: 1...5)
            try expect(".", "\".\" after the week")
            let weekday = try number(what: "a weekday 0-6", digits: 1, range: 0...6)
            date = .monthWeekDay(month: Int(month), week: Int(week), weekday: Int(weekday))
        case let byte? where isDigit(byte):
            date = .zeroBased(Int(try number(what: "a day 0-365", digits: 3, range: 0...365)))
        default:
            throw error("a date (Jn, n or Mm.w.d)")
        }
        var time: Int64 = 7200
        if peek == UInt8(ascii: "/") {
            position += 1
            time = try duration(what: "the switch time", maximumHours: 167)
        }
        return PosixTZRule.Switch(date: date, time: time)
    }

    /// A decimal number of one to `digits` digits within a range.
    mutating func number(what: String, digits: Int, range: ClosedRange<Int64>) throws(PosixTZParseError) -> Int64 {
        let start = position
        var value: Int64 = 0
        while let byte = peek, isDigit(byte), position - start < digits {
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
            position += 1
        }
        guard position > start, range.contains(value), !(peek.map(isDigit) ?? false) else {
            position = start
            throw error(what)
        }
        return value
    }
}

private func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

private func isLetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
}
