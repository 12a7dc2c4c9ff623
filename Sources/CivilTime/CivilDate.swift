/// A day of the week, numbered as C's `tm_wday` and Foundation's weekday minus one (0 is Sunday).
public enum Weekday: Int, Sendable, Hashable, CaseIterable {
    case sunday = 0
    case monday
    case tuesday
    case wednesday
    case thursday
    case friday
    case saturday
}

/// A day of the proleptic Gregorian calendar (the Gregorian rules extended before 1582), with no time zone.
///
/// Years are astronomical: year 0 is 1 BC and -1 is 2 BC, as ISO 8601 has them. Day counts are `Int`, so
/// on a 32-bit target the calendar covers about ±5.8 million years; beyond that the arithmetic traps.
public struct CivilDate: Sendable, Hashable {
    /// The astronomical year: 0 is 1 BC.
    public let year: Int
    /// 1 (January) through 12.
    public let month: Int
    /// 1 through `CivilDate.daysInMonth(year:month:)`.
    public let day: Int

    /// The date, or nil when the month or the day does not exist (February 30, month 13).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month) else { return nil }
        self.init(uncheckedYear: year, month: month, day: day)
    }

    /// The date in a month with the day clamped to the month's length, as a picker's day wheel is when the
    /// month wheel moves past it (31 in February is the 28th or 29th).
    public init?(year: Int, month: Int, clampingDay day: Int) {
        guard (1...12).contains(month) else { return nil }
        let clamped = min(max(day, 1), CivilDate.daysInMonth(year: year, month: month))
        self.init(uncheckedYear: year, month: month, day: clamped)
    }

    init(uncheckedYear year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Whether the year has a February 29: every fourth year, except centuries not divisible by 400.
    public static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days in a month (1-12) of a year: 28 through 31.
    public static func daysInMonth(year: Int, month: Int) -> Int {
        precondition((1...12).contains(month), "month \(month) is not 1-12")
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The number of days in a year: 365 or 366.
    public static func daysInYear(_ year: Int) -> Int { isLeapYear(year) ? 366 : 365 }

    /// Whether the date's year has a February 29.
    public var isInLeapYear: Bool { CivilDate.isLeapYear(year) }

    /// 1 (January 1) through 366.
    public var dayOfYear: Int {
        daysSinceEpoch - CivilDate(uncheckedYear: year, month: 1, day: 1).daysSinceEpoch + 1
    }
}

// MARK: - Day counts

extension CivilDate {
    /// Days since 1970-01-01 (negative before it): Howard Hinnant's `days_from_civil`, which counts in
    /// 400-year eras starting on March 1, so that February 29 is the last day of its era's year and the
    /// month lengths from March on follow the (153 m + 2) / 5 pattern. Valid for negative years too: the era
    /// is floored rather than truncated.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400  // 0...399
        let shiftedMonth = month > 2 ? month - 3 : month + 9  // March is 0
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1  // 0...365
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear  // 0...146096
        return era * 146_097 + dayOfEra - 719_468  // 719 468 days from 0000-03-01 to 1970-01-01
    }

    /// The date a number of days after 1970-01-01: Hinnant's `civil_from_days`, the inverse of
    /// `daysSinceEpoch`.
    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097  // 0...146096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365  // 0...399
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)  // 0...365, from March 1
        let shiftedMonth = (5 * dayOfYear + 2) / 153  // March is 0
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        self.init(uncheckedYear: year, month: month, day: day)
    }

    /// The day of the week; 1970-01-01 was a Thursday.
    public var weekday: Weekday {
        let days = daysSinceEpoch
        // Floored modulo, so that days before 1970 count backwards from Thursday.
        let index = days >= -4 ? (days + 4) % 7 : (days + 5) % 7 + 6
        return Weekday(rawValue: index)!
    }
}

// MARK: - Arithmetic

extension CivilDate {
    /// The date some days later (earlier when negative).
    public func adding(days: Int) -> CivilDate {
        CivilDate(daysSinceEpoch: daysSinceEpoch + days)
    }

    /// The same day some months later (earlier when negative), clamped to the new month's length as
    /// Foundation's `Calendar.date(byAdding: .month, ...)` does: January 31 plus one month is February 28
    /// (29 in a leap year), and March 31 minus one month is February's last day too.
    public func adding(months: Int) -> CivilDate {
        let monthIndex = year * 12 + (month - 1) + months
        // Floored division, so that months before year 0 land in the right year.
        let newYear = monthIndex >= 0 ? monthIndex / 12 : (monthIndex - 11) / 12
        let newMonth = monthIndex - newYear * 12 + 1
        return CivilDate(year: newYear, month: newMonth, clampingDay: day)!
    }

    /// The same day some years later, clamped as `adding(months:)` is: February 29, 2024 plus one year is
    /// February 28, 2025.
    public func adding(years: Int) -> CivilDate {
        adding(months: years * 12)
    }
}

extension CivilDate: Comparable {
    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

/// A date range strides by days (`for day in first...last`), as a month's grid in a calendar view needs.
extension CivilDate: Strideable {
    public func distance(to other: CivilDate) -> Int { other.daysSinceEpoch - daysSinceEpoch }
    public func advanced(by days: Int) -> CivilDate { adding(days: days) }
}

/// ISO 8601's extended form, `2024-03-31`; years before 0 and after 9999 carry a sign as ISO's expanded
/// form does (`-0044-03-15`, `+10000-01-01`).
extension CivilDate: CustomStringConvertible {
    public var description: String {
        let magnitude = year.magnitude
        let digits = String(magnitude)
        let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        let sign = year < 0 ? "-" : (magnitude > 9999 ? "+" : "")
        return "\(sign)\(padded)-\(twoDigits(month))-\(twoDigits(day))"
    }
}

/// A number from 0 to 99 with a leading zero, for dates and times.
func twoDigits(_ value: Int) -> String {
    value < 10 ? "0\(value)" : "\(value)"
}
