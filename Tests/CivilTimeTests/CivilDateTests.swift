import CivilTime
import Glibc
import Testing

private func date(_ year: Int, _ month: Int, _ day: Int) -> CivilDate {
    CivilDate(year: year, month: month, day: day)!
}

@Suite struct CivilDateTests {
    @Test func leapYears() {
        #expect(CivilDate.isLeapYear(2000))
        #expect(!CivilDate.isLeapYear(1900))
        #expect(CivilDate.isLeapYear(2024))
        #expect(!CivilDate.isLeapYear(2100))
        #expect(!CivilDate.isLeapYear(2023))
        #expect(CivilDate.isLeapYear(0))  // 1 BC, divisible by 400
        #expect(CivilDate.isLeapYear(-4))
        #expect(!CivilDate.isLeapYear(-100))
        #expect(CivilDate.daysInYear(2024) == 366)
        #expect(CivilDate.daysInYear(2100) == 365)
    }

    @Test func monthLengths() {
        let lengths2023 = (1...12).map { CivilDate.daysInMonth(year: 2023, month: $0) }
        #expect(lengths2023 == [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
        #expect(CivilDate.daysInMonth(year: 2024, month: 2) == 29)
        #expect(CivilDate.daysInMonth(year: 1900, month: 2) == 28)
        #expect(CivilDate.daysInMonth(year: 2000, month: 2) == 29)
    }

    @Test func invalidDatesAreRefused() {
        #expect(CivilDate(year: 2023, month: 2, day: 29) == nil)
        #expect(CivilDate(year: 2024, month: 2, day: 30) == nil)
        #expect(CivilDate(year: 2024, month: 4, day: 31) == nil)
        #expect(CivilDate(year: 2024, month: 13, day: 1) == nil)
        #expect(CivilDate(year: 2024, month: 0, day: 1) == nil)
        #expect(CivilDate(year: 2024, month: 1, day: 0) == nil)
        #expect(CivilDate(year: 2024, month: 2, day: 29) != nil)
        #expect(CivilDate(year: 2023, month: 2, clampingDay: 31) == date(2023, 2, 28))
        #expect(CivilDate(year: 2024, month: 2, clampingDay: 31) == date(2024, 2, 29))
        #expect(CivilDate(year: 2024, month: 2, clampingDay: 0) == date(2024, 2, 1))
    }

    /// The month wheel of a picker: the day is clamped to the new month's length, as Foundation's
    /// `Calendar.date(byAdding: .month, ...)` does.
    @Test func addingMonthsClampsTheDay() {
        #expect(date(2023, 1, 31).adding(months: 1) == date(2023, 2, 28))
        #expect(date(2024, 1, 31).adding(months: 1) == date(2024, 2, 29))
        #expect(date(2024, 3, 31).adding(months: -1) == date(2024, 2, 29))
        #expect(date(2023, 3, 31).adding(months: -1) == date(2023, 2, 28))
        #expect(date(2024, 5, 31).adding(months: 1) == date(2024, 6, 30))
        #expect(date(2024, 1, 31).adding(months: 2) == date(2024, 3, 31))  // not via February's 29
        #expect(date(2024, 12, 15).adding(months: 1) == date(2025, 1, 15))
        #expect(date(2024, 1, 15).adding(months: -1) == date(2023, 12, 15))
        #expect(date(2024, 1, 15).adding(months: -25) == date(2021, 12, 15))
        #expect(date(1, 1, 31).adding(months: -1) == date(0, 12, 31))
        #expect(date(0, 1, 1).adding(months: -1) == date(-1, 12, 1))
        #expect(date(-1, 12, 1).adding(months: 1) == date(0, 1, 1))
        #expect(date(2024, 2, 29).adding(years: 1) == date(2025, 2, 28))
        #expect(date(2024, 2, 29).adding(years: 4) == date(2028, 2, 29))
        #expect(date(2024, 2, 29).adding(years: -100) == date(1924, 2, 29))
        #expect(date(2000, 2, 29).adding(years: 100) == date(2100, 2, 28))
    }

    @Test func addingDays() {
        #expect(date(2024, 2, 28).adding(days: 1) == date(2024, 2, 29))
        #expect(date(2023, 2, 28).adding(days: 1) == date(2023, 3, 1))
        #expect(date(2024, 12, 31).adding(days: 1) == date(2025, 1, 1))
        #expect(date(1970, 1, 1).adding(days: -1) == date(1969, 12, 31))
        #expect(date(2024, 3, 1).adding(days: -366) == date(2023, 3, 1))
        #expect(date(2024, 1, 1).distance(to: date(2025, 1, 1)) == 366)
        #expect(Array(date(2024, 2, 27)...date(2024, 3, 1)) == [date(2024, 2, 27), date(2024, 2, 28), date(2024, 2, 29), date(2024, 3, 1)])
    }

    @Test func knownDayCounts() {
        #expect(date(1970, 1, 1).daysSinceEpoch == 0)
        #expect(date(1970, 1, 2).daysSinceEpoch == 1)
        #expect(date(1969, 12, 31).daysSinceEpoch == -1)
        #expect(date(2000, 3, 1).daysSinceEpoch == 11_017)
        #expect(date(2024, 3, 31).daysSinceEpoch == 19_813)
        #expect(date(0, 3, 1).daysSinceEpoch == -719_468)
        #expect(date(1, 1, 1).daysSinceEpoch == -719_162)
        #expect(date(1970, 1, 1).dayOfYear == 1)
        #expect(date(2024, 12, 31).dayOfYear == 366)
        #expect(date(2023, 3, 1).dayOfYear == 60)
    }

    /// Every day from 2000 BC to AD 2800 converts to its count and back, the counts are consecutive, and the
    /// dates advance by one day each, month and year lengths as the rules say; 1900-2100 also against glibc.
    @Test func dayCountsRoundTripForEveryDay() {
        var expected = date(-2000, 1, 1)
        let first = expected.daysSinceEpoch
        let last = date(2800, 12, 31).daysSinceEpoch
        for days in first...last {
            let civil = CivilDate(daysSinceEpoch: days)
            guard civil == expected, civil.daysSinceEpoch == days else {
                Issue.record("day \(days): \(civil), expected \(expected), back to \(civil.daysSinceEpoch)")
                return
            }
            // The next day by the calendar's rules, not by the code under test.
            if expected.day < CivilDate.daysInMonth(year: expected.year, month: expected.month) {
                expected = CivilDate(year: expected.year, month: expected.month, day: expected.day + 1)!
            } else if expected.month < 12 {
                expected = CivilDate(year: expected.year, month: expected.month + 1, day: 1)!
            } else {
                expected = CivilDate(year: expected.year + 1, month: 1, day: 1)!
            }
        }
        for days in date(1900, 1, 1).daysSinceEpoch...date(2100, 12, 31).daysSinceEpoch {
            var seconds = time_t(days) * 86_400
            var broken = tm()
            gmtime_r(&seconds, &broken)
            let civil = CivilDate(daysSinceEpoch: days)
            guard civil.year == Int(broken.tm_year) + 1900, civil.month == Int(broken.tm_mon) + 1, civil.day == Int(broken.tm_mday),
                civil.weekday.rawValue == Int(broken.tm_wday), civil.dayOfYear == Int(broken.tm_yday) + 1
            else {
                Issue.record("day \(days): \(civil) but gmtime_r says \(broken)")
                return
            }
        }
    }

    @Test func weekdays() {
        #expect(date(1970, 1, 1).weekday == .thursday)
        #expect(date(2000, 1, 1).weekday == .saturday)
        #expect(date(1969, 12, 31).weekday == .wednesday)
        #expect(date(1969, 12, 28).weekday == .sunday)
        #expect(date(2024, 3, 31).weekday == .sunday)
        #expect(date(1582, 10, 15).weekday == .friday)  // the first Gregorian day
        #expect(date(0, 1, 1).weekday == .saturday)
        #expect(date(-1, 12, 31).weekday == .friday)
        // Consecutive days cycle through the week, before and after the epoch.
        for days in -800...800 {
            let today = CivilDate(daysSinceEpoch: days).weekday.rawValue
            let tomorrow = CivilDate(daysSinceEpoch: days + 1).weekday.rawValue
            #expect(tomorrow == (today + 1) % 7)
        }
    }

    @Test func comparisonAndDescription() {
        #expect(date(2024, 2, 29) < date(2024, 3, 1))
        #expect(date(2023, 12, 31) < date(2024, 1, 1))
        #expect(date(-1, 12, 31) < date(0, 1, 1))
        #expect(!(date(2024, 3, 1) < date(2024, 3, 1)))
        #expect(date(2024, 3, 31).description == "2024-03-31")
        #expect(date(-44, 3, 15).description == "-0044-03-15")
        #expect(date(10000, 1, 1).description == "+10000-01-01")
        #expect(date(7, 7, 7).description == "0007-07-07")
    }
}

@Suite struct CivilDateTimeTests {
    @Test func secondsRoundTrip() {
        let reading = CivilDateTime(year: 2024, month: 3, day: 31, hour: 1, minute: 0, second: 0)!
        #expect(reading.secondsSinceEpoch == 1_711_846_800)
        #expect(CivilDateTime(secondsSinceEpoch: 1_711_846_800) == reading)
        #expect(CivilDateTime(secondsSinceEpoch: -1) == CivilDateTime(year: 1969, month: 12, day: 31, hour: 23, minute: 59, second: 59))
        #expect(CivilDateTime(secondsSinceEpoch: Int64(Int32.max)).description == "2038-01-19T03:14:07")
        #expect(CivilDateTime(secondsSinceEpoch: Int64(Int32.min)).description == "1901-12-13T20:45:52")
        var random = SplitMix64(state: 1)
        for _ in 0..<10_000 {
            let seconds = Int64(random.integer(in: -200_000_000_000...200_000_000_000))
            #expect(CivilDateTime(secondsSinceEpoch: seconds).secondsSinceEpoch == seconds)
        }
    }

    @Test func invalidTimesAreRefused() {
        #expect(CivilDateTime(year: 2024, month: 1, day: 1, hour: 24, minute: 0) == nil)
        #expect(CivilDateTime(year: 2024, month: 1, day: 1, hour: 23, minute: 60) == nil)
        #expect(CivilDateTime(year: 2024, month: 1, day: 1, hour: 23, minute: 59, second: 60) == nil)
        #expect(CivilDateTime(year: 2024, month: 1, day: 1, hour: -1, minute: 0) == nil)
        #expect(CivilDateTime(year: 2023, month: 2, day: 29, hour: 0, minute: 0) == nil)
    }

    @Test func arithmeticAndOrder() {
        let reading = CivilDateTime(year: 2024, month: 1, day: 31, hour: 23, minute: 59, second: 30)!
        #expect(reading.adding(seconds: 30).description == "2024-02-01T00:00:00")
        #expect(reading.adding(seconds: -86_400).description == "2024-01-30T23:59:30")
        #expect(reading.adding(months: 1).description == "2024-02-29T23:59:30")
        #expect(reading.adding(days: 366).description == "2025-01-31T23:59:30")
        #expect(reading.weekday == .wednesday)
        #expect(reading < reading.adding(seconds: 1))
        #expect(reading.adding(seconds: -1) < reading)
        #expect(
            CivilDateTime(year: 2024, month: 1, day: 1, hour: 0, minute: 0)! > CivilDateTime(
                year: 2023, month: 12, day: 31, hour: 23, minute: 59)!)
        #expect(Instant(secondsSinceEpoch: 1_711_846_800).description == "2024-03-31T01:00:00Z")
        #expect(Instant(secondsSinceEpoch: 5) < Instant(secondsSinceEpoch: 6))
    }

    @Test func nowIsTheSystemClock() {
        let before = Int64(time(nil))
        let now = Instant.now().secondsSinceEpoch
        let after = Int64(time(nil))
        #expect(before <= now && now <= after)
    }
}
