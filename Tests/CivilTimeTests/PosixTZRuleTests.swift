import Testing

@testable import CivilTime

/// An instant from a UTC reading, for expected transition times worked out by hand.
func utc(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0, _ second: Int = 0) -> Int64 {
    CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)!.secondsSinceEpoch
}

/// The rule's changes in a year (by UTC), as (time, offset after).
private func changes(_ rule: PosixTZRule, in year: Int) -> [(Int64, Int)] {
    var result: [(Int64, Int)] = []
    var time = utc(year, 1, 1, 0) - 1
    while let next = rule.nextChange(after: time), next < utc(year + 1, 1, 1, 0) {
        result.append((next, rule.offset(at: next).secondsFromUTC))
        time = next
    }
    return result
}

@Suite struct PosixTZRuleTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var string: String
        var year: Int
        var standard: Int
        var daylight: Int?
        var changes: [(Int64, Int)]
        var testDescription: String { "\(string) in \(year)" }
    }

    /// Worked out by hand from the calendar, one for each form and extension of the rule syntax.
    static let cases: [Case] = [
        // Europe/Berlin: last Sundays of March (02:00 CET) and October (03:00 CEST).
        Case(
            string: "CET-1CEST,M3.5.0,M10.5.0/3", year: 2024, standard: 3600, daylight: 7200,
            changes: [(utc(2024, 3, 31, 1), 7200), (utc(2024, 10, 27, 1), 3600)]),
        // America/New_York: second Sunday of March, first of November, both at 02:00 local.
        Case(
            string: "EST5EDT,M3.2.0,M11.1.0", year: 2024, standard: -18000, daylight: -14400,
            changes: [(utc(2024, 3, 10, 7), -14400), (utc(2024, 11, 3, 6), -18000)]),
        // With no rule, tzcode's default is the same United States rule.
        Case(
            string: "EST5EDT", year: 2024, standard: -18000, daylight: -14400,
            changes: [(utc(2024, 3, 10, 7), -14400), (utc(2024, 11, 3, 6), -18000)]),
        // Australia/Lord_Howe: quoted names, half-hour offsets, southern hemisphere (the end comes first).
        Case(
            string: "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", year: 2024, standard: 37800, daylight: 39600,
            changes: [(utc(2024, 4, 6, 15), 37800), (utc(2024, 10, 5, 15, 30), 39600)]),
        // Europe/Dublin: negative DST, winter GMT is the daylight-saving time.
        Case(
            string: "IST-1GMT0,M10.5.0,M3.5.0/1", year: 2024, standard: 3600, daylight: 0,
            changes: [(utc(2024, 3, 31, 1), 3600), (utc(2024, 10, 27, 1), 0)]),
        // America/Nuuk: a negative switch time (-1 is 23:00 the day before), version 3.
        Case(
            string: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0", year: 2024, standard: -7200, daylight: -3600,
            changes: [(utc(2024, 3, 31, 1), -3600), (utc(2024, 10, 27, 1), -7200)]),
        // Asia/Gaza: 50 hours after the fourth Thursday.
        Case(
            string: "EET-2EEST,M3.4.4/50,M10.4.4/50", year: 2024, standard: 7200, daylight: 10800,
            changes: [(utc(2024, 3, 30, 0), 10800), (utc(2024, 10, 25, 23), 7200)]),
        // America/Santiago: 24:00 on the first Saturday, southern hemisphere.
        Case(
            string: "<-04>4<-03>,M9.1.6/24,M4.1.6/24", year: 2024, standard: -14400, daylight: -10800,
            changes: [(utc(2024, 4, 7, 3), -14400), (utc(2024, 9, 8, 4), -10800)]),
        // Jn counts no February 29: J60 is March 1 and J300 October 27 in leap and common years alike.
        Case(
            string: "AAA3BBB,J60,J300", year: 2024, standard: -10800, daylight: -7200,
            changes: [(utc(2024, 3, 1, 5), -7200), (utc(2024, 10, 27, 4), -10800)]),
        Case(
            string: "AAA3BBB,J60,J300", year: 2023, standard: -10800, daylight: -7200,
            changes: [(utc(2023, 3, 1, 5), -7200), (utc(2023, 10, 27, 4), -10800)]),
        // n counts February 29: day 59 is February 29 in 2024 and March 1 in 2023.
        Case(
            string: "AAA3BBB,59/0,299/0", year: 2024, standard: -10800, daylight: -7200,
            changes: [(utc(2024, 2, 29, 3), -7200), (utc(2024, 10, 26, 2), -10800)]),
        Case(
            string: "AAA3BBB,59/0,299/0", year: 2023, standard: -10800, daylight: -7200,
            changes: [(utc(2023, 3, 1, 3), -7200), (utc(2023, 10, 27, 2), -10800)]),
        // Week 5 is the last such weekday: in a month of 28, 29 or 30 days too.
        Case(
            string: "AAA3BBB,M2.5.4,M4.5.3", year: 2023, standard: -10800, daylight: -7200,
            changes: [(utc(2023, 2, 23, 5), -7200), (utc(2023, 4, 26, 4), -10800)]),
        Case(
            string: "AAA3BBB,M2.5.4,M4.5.3", year: 2024, standard: -10800, daylight: -7200,
            changes: [(utc(2024, 2, 29, 5), -7200), (utc(2024, 4, 24, 4), -10800)]),
        // Explicit signs, minutes and seconds, and a switch time beyond 24 hours.
        Case(
            string: "<+033015>-3:30:15<+0430>-4:30,M3.1.0/+26:30,M9.5.6/-0:30", year: 2023, standard: 12615, daylight: 16200,
            changes: [(utc(2023, 3, 5, 22, 59, 45), 16200), (utc(2023, 9, 29, 19, 0), 12615)]),
        // Daylight time all year: tzcode's reading of a rule whose daylight time spans the whole year.
        Case(string: "EST5EDT,0/0,J365/25", year: 2024, standard: -18000, daylight: -14400, changes: []),
        // No daylight-saving time.
        Case(string: "IST-5:30", year: 2024, standard: 19800, daylight: nil, changes: []),
        Case(string: "<-03>3", year: 2024, standard: -10800, daylight: nil, changes: []),
    ]

    @Test(arguments: cases) func parsesAndSwitches(_ example: Case) throws {
        let rule = try PosixTZRule(parsing: example.string)
        #expect(rule.standard.secondsFromUTC == example.standard)
        #expect(rule.daylight?.offset.secondsFromUTC == example.daylight)
        let found = changes(rule, in: example.year)
        #expect(found.map(\.0) == example.changes.map(\.0), "\(found.map { Instant(secondsSinceEpoch: $0.0) })")
        #expect(found.map(\.1) == example.changes.map(\.1))
        // The same switches 400 years on, and 400 years back: the reduction to one cycle is exact.
        for shift in [-400, 400, 4000] {
            let shifted = changes(rule, in: example.year + shift)
            #expect(shifted.map { $0.0 - Int64(shift / 400) * PosixTZRule.cycleSeconds } == example.changes.map(\.0))
        }
    }

    @Test func daylightAllYearAndNamesAndFlags() throws {
        let perpetual = try PosixTZRule(parsing: "EST5EDT,0/0,J365/25")
        for year in [1900, 2023, 2024, 2100] {
            let offset = perpetual.offset(at: utc(year, 7, 1, 0))
            #expect(offset == ZoneOffset(secondsFromUTC: -14400, isDaylightSavingTime: true, abbreviation: "EDT"))
            #expect(perpetual.offset(at: utc(year, 1, 1, 0)).isDaylightSavingTime)
        }
        #expect(perpetual.nextChange(after: 0) == nil)
        let berlin = try PosixTZRule(parsing: "CET-1CEST,M3.5.0,M10.5.0/3")
        #expect(berlin.offset(at: utc(2024, 3, 31, 1) - 1).abbreviation == "CET")
        #expect(
            berlin.offset(at: utc(2024, 3, 31, 1)) == ZoneOffset(secondsFromUTC: 7200, isDaylightSavingTime: true, abbreviation: "CEST"))
        #expect(try PosixTZRule(parsing: "<+1030>-10:30").standard.abbreviation == "+1030")
        // The ends of time do not overflow.
        #expect(berlin.offset(at: Int64.max).abbreviation == "CET")
        #expect(berlin.offset(at: Int64.min).abbreviation == "CET")
        #expect(berlin.nextChange(after: Int64.max - 1000) == nil)
        #expect(berlin.nextChange(after: Int64.min) != nil)
    }

    @Test(arguments: [
        ("", "a zone name"),
        ("CE-1", "a zone name of three or more letters"),
        ("CET", "the hours of the standard offset"),
        ("CET-", "the hours of the standard offset"),
        ("CET-168", "the hours of the standard offset"),
        ("CET-1:60", "the minutes of the standard offset"),
        ("CET-1CEST,M3.5.0", "a comma before the daylight-saving end"),
        ("CET-1CEST,M13.5.0,M10.5.0", "a month 1-12"),
        ("CET-1CEST,M3.6.0,M10.5.0", "a week 1-5"),
        ("CET-1CEST,M3.5.7,M10.5.0", "a weekday 0-6"),
        ("CET-1CEST,M3.5,M10.5.0", "\".\" after the week"),
        ("CET-1CEST,J0,J365", "a day 1-365"),
        ("CET-1CEST,366,1", "a day 0-365"),
        ("CET-1CEST,M3.5.0/168,M10.5.0", "the hours of the switch time"),
        ("CET-1CEST,M3.5.0,M10.5.0/3x", "the end of the string"),
        ("CET-1CEST;M3.5.0,M10.5.0", "the hours of the daylight-saving offset"),
        ("<+03-3", "\">\" closing the quoted name"),
        ("<+3>-3", "three or more letters, digits or signs"),
        ("CET-1CEST,X3,M10.5.0", "a date (Jn, n or Mm.w.d)"),
    ])
    func refusesMalformedStrings(_ text: String, _ expected: String) {
        let error = #expect(throws: PosixTZParseError.self) { try PosixTZRule(parsing: text) }
        #expect(error?.reason.contains(expected) == true, "\(error?.reason ?? "no error")")
    }
}

/// Each footer against its own file's table, over the years since the rule took effect, up to 2037 where
/// the (fat) tables end: the same transitions to the same offsets.
@Suite struct FooterAgainstTableTests {
    @Test(arguments: [
        ("Europe/Berlin", 1997), ("America/New_York", 2008), ("Australia/Lord_Howe", 2009), ("Australia/Sydney", 2009),
        ("Europe/Dublin", 1997), ("America/Nuuk", 2024), ("America/Santiago", 2024), ("Asia/Jerusalem", 2014),
        ("Pacific/Auckland", 2008),
    ])
    func footerMatchesTable(_ name: String, _ firstYear: Int) throws {
        let path = "\(TimeZone.systemZoneDirectory)/\(name)"
        let rule = try #require(try TZif(bytes: ZoneFile.read(path: path), file: path).rule)
        let zone = try TimeZone(named: name)
        let end = utc(2037, 12, 30, 0)
        var table: [(Int64, ZoneOffset)] = []
        var cursor = Instant(secondsSinceEpoch: utc(firstYear, 1, 2, 0))
        while let next = zone.nextTransition(after: cursor), next.secondsSinceEpoch < end {
            table.append((next.secondsSinceEpoch, zone.offset(at: next)))
            cursor = next
        }
        var footer: [(Int64, ZoneOffset)] = []
        var time = utc(firstYear, 1, 2, 0)
        while let next = rule.nextChange(after: time), next < end {
            footer.append((next, rule.offset(at: next)))
            time = next
        }
        #expect(table.count > 2 * (2036 - firstYear))
        #expect(footer.map(\.0) == table.map(\.0))
        #expect(footer.map(\.1) == table.map(\.1))
    }
}
