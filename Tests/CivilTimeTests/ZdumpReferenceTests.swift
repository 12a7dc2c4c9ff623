import CivilTime
import Testing

/// The system's zone files read by this module, against `zdump -v` reading them with glibc's tzcode.
@Suite(.enabled(if: Zdump.isAvailable, Comment(rawValue: Zdump.skipMessage)))
struct ZdumpReferenceTests {
    struct Range: CustomTestStringConvertible, Sendable {
        var zone: String
        var firstYear: Int
        var lastYear: Int
        var testDescription: String { "\(zone) \(firstYear)-\(lastYear)" }
    }

    /// The zones of the brief: Berlin and New York; Lord Howe's half-hour DST; Kolkata without DST since
    /// 1945; São Paulo, whose DST ended in 2019; Apia, which skipped December 30, 2011; Dublin, whose
    /// winter time is its daylight-saving time in the data. From 1900, to cover each zone's history too.
    static let history: [Range] = [
        "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "America/Sao_Paulo", "Pacific/Apia",
        "Europe/Dublin",
    ].map { Range(zone: $0, firstYear: 1900, lastYear: 2040) }

    /// After 2037 the files' tables end and their footers decide: the brief's zones, and the footers with
    /// version 3's times (negative in Nuuk, 24 in Santiago, 26 in Jerusalem; Gaza's 50 after its table).
    static let footers: [Range] = [
        "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Europe/Dublin", "America/Nuuk", "America/Santiago",
        "Asia/Jerusalem", "Asia/Gaza",
    ].map { Range(zone: $0, firstYear: 2036, lastYear: 2100) }

    @Test(arguments: history + footers)
    func matchesZdump(_ range: Range) throws {
        let zone = try TimeZone(named: range.zone)
        let lines = try Zdump.lines(zone: range.zone, firstYear: range.firstYear, lastYear: range.lastYear).get()
        #expect(!lines.isEmpty, "zdump listed no transitions")
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        for line in lines {
            let offset = zone.offset(at: line.instant)
            let expected = ZoneOffset(
                secondsFromUTC: line.secondsFromUTC, isDaylightSavingTime: line.isDaylightSavingTime, abbreviation: line.abbreviation)
            #expect(offset == expected, "\(line)")
            let local = zone.localDateTime(at: line.instant)
            #expect(local == line.local, "\(line)")
            #expect(weekdays[local.weekday.rawValue] == line.localWeekday, "\(line)")
            // Back from the reading: the instant is among those the reading names.
            switch zone.occurrences(of: local) {
            case .unique(let instant): #expect(instant == line.instant, "\(line)")
            case .repeated(let earlier, let later): #expect(earlier == line.instant || later == line.instant, "\(line)")
            case .skipped: Issue.record("a reading zdump shows is reported skipped: \(line)")
            }
        }

        // zdump prints the second before and the second of each transition; between them nothing changes, so
        // the same transitions (away from the ends of the range, where zdump's cut-off is approximate) mean
        // the same offsets at every instant of the range.
        let low = Instant(secondsSinceEpoch: utc(range.firstYear, 1, 2, 0))
        let high = Instant(secondsSinceEpoch: utc(range.lastYear - 1, 12, 30, 0))
        let reference = stride(from: 1, to: lines.count, by: 1).compactMap { index in
            lines[index].instant.secondsSinceEpoch == lines[index - 1].instant.secondsSinceEpoch + 1 ? lines[index].instant : nil
        }.filter { $0 > low && $0 < high }
        var ours: [Instant] = []
        var cursor = low
        while let next = zone.nextTransition(after: cursor), next < high {
            ours.append(next)
            cursor = next
        }
        #expect(ours == reference)
    }

    @Test func kolkataHasNoDaylightSavingTime() throws {
        let zone = try TimeZone(named: "Asia/Kolkata")
        for year in [1990, 2024, 2040, 2100] {
            for month in [1, 7] {
                let offset = zone.offset(at: Instant(secondsSinceEpoch: utc(year, month, 1, 0)))
                #expect(offset == ZoneOffset(secondsFromUTC: 19800, isDaylightSavingTime: false, abbreviation: "IST"))
            }
        }
        #expect(zone.nextTransition(after: Instant(secondsSinceEpoch: utc(1990, 1, 1, 0))) == nil)
    }

    @Test func saoPauloEndedDaylightSavingTimeIn2019() throws {
        let zone = try TimeZone(named: "America/Sao_Paulo")
        let last = zone.nextTransition(after: Instant(secondsSinceEpoch: utc(2019, 1, 1, 0)))
        // 2019-02-17 00:00 -02 became 2019-02-16 23:00 -03, and there has been no change since.
        #expect(last == Instant(secondsSinceEpoch: utc(2019, 2, 17, 2)))
        #expect(last.flatMap { zone.nextTransition(after: $0) } == nil)
        #expect(zone.offset(at: Instant(secondsSinceEpoch: utc(2030, 1, 1, 0))).abbreviation == "-03")
    }
}
