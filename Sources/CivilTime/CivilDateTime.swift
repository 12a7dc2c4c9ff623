/// A wall-clock reading: a `CivilDate` and a time of day to the second, in no particular time zone (a
/// `TimeZone` turns it into an `Instant` and back). There are no leap seconds: the second is 0-59.
public struct CivilDateTime: Sendable, Hashable {
    /// The day of the reading.
    public let date: CivilDate
    /// 0 through 23.
    public let hour: Int
    /// 0 through 59.
    public let minute: Int
    /// 0 through 59.
    public let second: Int

    /// The reading, or nil when the time of day is out of range (hour 24, minute 60).
    public init?(date: CivilDate, hour: Int, minute: Int, second: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        self.init(uncheckedDate: date, hour: hour, minute: minute, second: second)
    }

    /// The reading, or nil when the date or the time of day does not exist.
    public init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int = 0) {
        guard let date = CivilDate(year: year, month: month, day: day) else { return nil }
        self.init(date: date, hour: hour, minute: minute, second: second)
    }

    init(uncheckedDate date: CivilDate, hour: Int, minute: Int, second: Int) {
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The date's year, month, day and weekday, for a picker's wheels.
    public var year: Int { date.year }
    public var month: Int { date.month }
    public var day: Int { date.day }
    public var weekday: Weekday { date.weekday }

    /// Seconds since midnight: 0 through 86 399.
    public var secondOfDay: Int { hour * 3600 + minute * 60 + second }
}

// MARK: - Second counts

extension CivilDateTime {
    /// Seconds from 1970-01-01T00:00:00 to this reading on the same clock: the POSIX time of the reading
    /// taken as UTC. A time zone's local readings are counted this way too, so that a UTC offset is a
    /// plain difference of two counts.
    public var secondsSinceEpoch: Int64 {
        Int64(date.daysSinceEpoch) * secondsPerDay + Int64(secondOfDay)
    }

    /// The reading some seconds after 1970-01-01T00:00:00 (before it when negative); the inverse of
    /// `secondsSinceEpoch`. On a 32-bit target it traps where the day count does not fit an `Int`.
    public init(secondsSinceEpoch seconds: Int64) {
        let (days, secondOfDay) = floorDivide(seconds, by: secondsPerDay)
        let second = Int(secondOfDay)
        self.init(
            uncheckedDate: CivilDate(daysSinceEpoch: Int(days)), hour: second / 3600, minute: second / 60 % 60,
            second: second % 60)
    }

    /// The reading some seconds later on the same clock, carrying into the minutes, hours and days. Across a
    /// daylight-saving change the wall clock does not move this way: add to an `Instant` and convert back.
    public func adding(seconds: Int64) -> CivilDateTime {
        CivilDateTime(secondsSinceEpoch: secondsSinceEpoch + seconds)
    }

    /// The same time of day some days later (earlier when negative).
    public func adding(days: Int) -> CivilDateTime {
        CivilDateTime(uncheckedDate: date.adding(days: days), hour: hour, minute: minute, second: second)
    }

    /// The same time of day some months later, the day clamped to the month's length as
    /// `CivilDate.adding(months:)` does.
    public func adding(months: Int) -> CivilDateTime {
        CivilDateTime(uncheckedDate: date.adding(months: months), hour: hour, minute: minute, second: second)
    }
}

extension CivilDateTime: Comparable {
    public static func < (lhs: CivilDateTime, rhs: CivilDateTime) -> Bool {
        (lhs.date, lhs.hour, lhs.minute, lhs.second) < (rhs.date, rhs.hour, rhs.minute, rhs.second)
    }
}

/// ISO 8601's extended form without a zone, `2024-03-31T02:30:00`.
extension CivilDateTime: CustomStringConvertible {
    public var description: String {
        "\(date)T\(twoDigits(hour)):\(twoDigits(minute)):\(twoDigits(second))"
    }
}
