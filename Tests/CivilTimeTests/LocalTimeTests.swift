import CivilTime
import Testing

private func reading(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int) -> CivilDateTime {
    CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute)!
}

private func instant(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Instant {
    Instant(secondsSinceEpoch: utc(year, month, day, hour, minute))
}

/// Local readings to instants across the spring-forward gap and the fall-back overlap.
@Suite struct LocalTimeTests {
    @Test func berlinSpringForward() throws {
        let berlin = try TimeZone(named: "Europe/Berlin")
        let skipped = reading(2024, 3, 31, 2, 30)
        #expect(berlin.occurrences(of: skipped) == .skipped(transition: instant(2024, 3, 31, 1), offsetBefore: 3600, offsetAfter: 7200))
        // Foundation's default: forward by the gap, 03:30 CEST, which is 01:30 UTC.
        #expect(berlin.instant(for: skipped) == instant(2024, 3, 31, 1, 30))
        #expect(berlin.localDateTime(at: berlin.instant(for: skipped)) == reading(2024, 3, 31, 3, 30))
        #expect(berlin.instant(for: skipped, skippedTime: .transition) == instant(2024, 3, 31, 1))
        #expect(berlin.instant(for: skipped, skippedTime: .shiftBackward) == instant(2024, 3, 31, 0, 30))
        // Either side of the gap, readings are unique.
        #expect(berlin.occurrences(of: reading(2024, 3, 31, 1, 59)) == .unique(instant(2024, 3, 31, 0, 59)))
        #expect(berlin.occurrences(of: reading(2024, 3, 31, 3, 0)) == .unique(instant(2024, 3, 31, 1)))
        #expect(berlin.occurrences(of: reading(2024, 3, 31, 2, 0)) != .unique(instant(2024, 3, 31, 1)))
    }

    @Test func berlinFallBack() throws {
        let berlin = try TimeZone(named: "Europe/Berlin")
        let repeated = reading(2024, 10, 27, 2, 30)
        #expect(berlin.occurrences(of: repeated) == .repeated(earlier: instant(2024, 10, 27, 0, 30), later: instant(2024, 10, 27, 1, 30)))
        #expect(berlin.instant(for: repeated) == instant(2024, 10, 27, 0, 30))
        #expect(berlin.instant(for: repeated, repeatedTime: .later) == instant(2024, 10, 27, 1, 30))
        #expect(berlin.offset(at: instant(2024, 10, 27, 0, 30)).abbreviation == "CEST")
        #expect(berlin.offset(at: instant(2024, 10, 27, 1, 30)).abbreviation == "CET")
        #expect(berlin.occurrences(of: reading(2024, 10, 27, 3, 0)) == .unique(instant(2024, 10, 27, 2)))
        #expect(berlin.occurrences(of: reading(2024, 10, 27, 1, 59)) == .unique(instant(2024, 10, 26, 23, 59)))
        // And past the table, by the footer: 2040's last Sunday of October is the 28th.
        #expect(
            berlin.occurrences(of: reading(2040, 10, 28, 2, 30))
                == .repeated(earlier: instant(2040, 10, 28, 0, 30), later: instant(2040, 10, 28, 1, 30)))
        #expect(berlin.instant(for: reading(2040, 3, 25, 2, 30)) == instant(2040, 3, 25, 1, 30))
    }

    @Test func newYork() throws {
        let newYork = try TimeZone(named: "America/New_York")
        // 2024-03-10 02:30 does not exist: 03:30 EDT is 07:30 UTC.
        #expect(newYork.instant(for: reading(2024, 3, 10, 2, 30)) == instant(2024, 3, 10, 7, 30))
        #expect(newYork.instant(for: reading(2024, 3, 10, 2, 30), skippedTime: .transition) == instant(2024, 3, 10, 7))
        #expect(newYork.localDateTime(at: instant(2024, 3, 10, 7, 30)) == reading(2024, 3, 10, 3, 30))
        // 2024-11-03 01:30 happens twice: EDT (05:30 UTC), then EST (06:30 UTC).
        #expect(newYork.instant(for: reading(2024, 11, 3, 1, 30)) == instant(2024, 11, 3, 5, 30))
        #expect(newYork.instant(for: reading(2024, 11, 3, 1, 30), repeatedTime: .later) == instant(2024, 11, 3, 6, 30))
        #expect(newYork.instant(for: reading(2024, 7, 4, 12, 0)) == instant(2024, 7, 4, 16))
        #expect(newYork.instant(for: reading(1969, 7, 20, 16, 17)) == instant(1969, 7, 20, 20, 17))
    }

    @Test func lordHoweHalfHour() throws {
        let lordHowe = try TimeZone(named: "Australia/Lord_Howe")
        // 2024-10-06 02:00-02:30 is skipped (+1030 to +11); 2024-04-07 01:30-02:00 happens twice.
        #expect(lordHowe.instant(for: reading(2024, 10, 6, 2, 15)) == instant(2024, 10, 5, 15, 45))
        #expect(lordHowe.localDateTime(at: instant(2024, 10, 5, 15, 45)) == reading(2024, 10, 6, 2, 45))
        #expect(
            lordHowe.occurrences(of: reading(2024, 4, 7, 1, 45))
                == .repeated(earlier: instant(2024, 4, 6, 14, 45), later: instant(2024, 4, 6, 15, 15)))
    }

    @Test func apiaSkippedADay() throws {
        let apia = try TimeZone(named: "Pacific/Apia")
        // After 2011-12-29 23:59:59 -10 came 2011-12-31 00:00:00 +14: the 30th does not exist in Apia.
        let noon30 = reading(2011, 12, 30, 12, 0)
        #expect(apia.occurrences(of: noon30) == .skipped(transition: instant(2011, 12, 30, 10), offsetBefore: -36000, offsetAfter: 50400))
        #expect(apia.instant(for: noon30) == instant(2011, 12, 30, 22))  // forward by the day: the 31st, 12:00
        #expect(apia.localDateTime(at: apia.instant(for: noon30)) == reading(2011, 12, 31, 12, 0))
        #expect(apia.instant(for: noon30, skippedTime: .transition) == instant(2011, 12, 30, 10))
        #expect(apia.instant(for: reading(2011, 12, 29, 23, 59)) == instant(2011, 12, 30, 9, 59))
    }

    @Test func everyReadingRoundTrips() throws {
        // Each instant's reading names it again (unique, or one of two); every hour of 2024 in three zones.
        for name in ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Europe/Dublin"] {
            let zone = try TimeZone(named: name)
            var moment = instant(2024, 1, 1, 0)
            while moment < instant(2025, 1, 1, 0) {
                let local = zone.localDateTime(at: moment)
                let back = zone.instant(for: local)
                let later = zone.instant(for: local, repeatedTime: .later)
                #expect(back == moment || later == moment, "\(name) \(moment)")
                moment = moment.adding(seconds: 900)
            }
        }
    }

    @Test func utcIsTheIdentity() {
        let local = reading(2024, 3, 31, 2, 30)
        #expect(TimeZone.utc.instant(for: local).secondsSinceEpoch == local.secondsSinceEpoch)
        #expect(TimeZone.utc.occurrences(of: local) == .unique(Instant(secondsSinceEpoch: local.secondsSinceEpoch)))
    }
}
