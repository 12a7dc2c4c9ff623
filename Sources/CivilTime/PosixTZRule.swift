/// A POSIX TZ string, as a TZif footer carries it for the times after the file's last transition
/// (`CET-1CEST,M3.5.0,M10.5.0/3`): a standard offset and, optionally, a daylight-saving offset with the
/// yearly rule for switching between them. RFC 8536's extensions are accepted: `<+03>` quoted names,
/// and transition times with a sign and up to 167 hours (TZif version 3).
struct PosixTZRule: Sendable, Hashable {
    /// A day of the year in one of POSIX's three forms.
    enum RuleDate: Sendable, Hashable {
        /// `Jn`: 1-365, February 29 never counted (J60 is always March 1).
        case julian(Int)
        /// `n`: 0-365 from January 1, February 29 counted.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday d (0 Sunday) of week w (1-4, or 5 for the last) of month m.
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    /// When in a year a switch happens: a day, and the local time on it (in seconds; may be negative or
    /// beyond a day in version 3), on the clock in effect just before the switch.
    struct Switch: Sendable, Hashable {
        var date: RuleDate
        var time: Int64
    }

    struct Daylight: Sendable, Hashable {
        var offset: ZoneOffset
        var start: Switch
        var end: Switch
    }

    var standard: ZoneOffset
    /// Nil when the zone has no daylight-saving time (`IST-5:30`).
    var daylight: Daylight?

    /// The gregorian calendar repeats every 400 years, weekdays included: 146 097 days is exactly 20 871
    /// weeks. So does any rule; times are reduced into one cycle so that no year computed overflows.
    static let cycleSeconds: Int64 = 146_097 * secondsPerDay

    /// The offset in effect at a time (seconds since the epoch), by the rule alone.
    func offset(at time: Int64) -> ZoneOffset {
        guard let daylight else { return standard }
        let reduced = floorDivide(time, by: PosixTZRule.cycleSeconds).remainder
        let year = standardYear(of: reduced)
        // The latest switch at or before the time decides. Switches may stray a week into the neighbouring
        // years, so those are looked at first; a rule without a switch in some years looks further back.
        var latest: Event?
        for candidateYear in stride(from: year + 1, through: year - 401, by: -1) {
            for event in events(in: candidateYear) where event.time <= reduced {
                if latest.map({ (event.time, event.order) > ($0.time, $0.order) }) ?? true { latest = event }
            }
            if latest != nil && candidateYear < year { break }
        }
        // No switch in a whole cycle: daylight-saving time all year (tzcode's reading of, e.g.,
        // `EST5EDT,0/0,J365/25`).
        guard let latest else { return daylight.offset }
        return latest.toDaylight ? daylight.offset : standard
    }

    /// The first time after the given one at which `offset(at:)` changes, or nil if it never does (or the
    /// change would not fit an `Int64`).
    func nextChange(after time: Int64) -> Int64? {
        guard daylight != nil else { return nil }
        let reduced = floorDivide(time, by: PosixTZRule.cycleSeconds).remainder
        let year = standardYear(of: reduced)
        // Candidates in windows of four years overlapping by two, so that switches straying into a
        // neighbouring year are still taken in time order; a switch that changes nothing (DST all year, or
        // one overtaken by the next) is skipped by comparing the offsets either side of it.
        for window in stride(from: year - 1, through: year + 401, by: 2) {
            let times = (window - 1...window + 2).flatMap { events(in: $0).map(\.time) }.filter { $0 > reduced }.sorted()
            for candidate in times where offset(at: candidate) != offset(at: candidate - 1) {
                // Back out of the reduced cycle by the distance from the time, not by whole cycles, which
                // could overflow near the ends of `Int64` where the result itself does not.
                let (result, overflow) = time.addingReportingOverflow(candidate - reduced)
                return overflow ? nil : result
            }
        }
        return nil
    }

    /// The largest distance from UTC the rule uses, to bound a search for local times.
    var maximumOffsetMagnitude: Int64 {
        max(Int64(standard.secondsFromUTC.magnitude), Int64(daylight?.offset.secondsFromUTC.magnitude ?? 0))
    }

    // MARK: Switches in a year

    /// A switch as a time: `order` puts a year's switches after the previous year's, and a year's two in
    /// time order, which decides between switches at the same second as tzcode's table would.
    private struct Event {
        var time: Int64
        var order: Int
        var toDaylight: Bool
    }

    /// The year (by standard time) that a time falls in.
    private func standardYear(of time: Int64) -> Int {
        let local = time + Int64(standard.secondsFromUTC)
        return CivilDate(daysSinceEpoch: Int(floorDivide(local, by: secondsPerDay).quotient)).year
    }

    /// The year's two switches, or none when the rule's start and end meet (or daylight time lasts the
    /// whole year): tzcode's test, so that `EST5EDT,0/0,J365/25` is daylight time throughout.
    private func events(in year: Int) -> [Event] {
        guard let daylight else { return [] }
        // The start is given on the standard clock, the end on the daylight clock.
        let start = seconds(of: daylight.start, in: year) - Int64(standard.secondsFromUTC)
        let end = seconds(of: daylight.end, in: year) - Int64(daylight.offset.secondsFromUTC)
        let yearSeconds = Int64(CivilDate.daysInYear(year)) * secondsPerDay
        let reversed = end < start
        guard reversed || (start < end && end - start < yearSeconds) else { return [] }
        let first = Event(time: min(start, end), order: year * 2, toDaylight: !reversed)
        let second = Event(time: max(start, end), order: year * 2 + 1, toDaylight: reversed)
        return [first, second]
    }

    /// A switch's local time in a year, in seconds since the epoch on that clock.
    private func seconds(of rule: Switch, in year: Int) -> Int64 {
        Int64(day(of: rule.date, in: year).daysSinceEpoch) * secondsPerDay + rule.time
    }

    private func day(of date: RuleDate, in year: Int) -> CivilDate {
        let january1 = CivilDate(uncheckedYear: year, month: 1, day: 1)
        switch date {
        case .julian(let n):
            // February 29 is not counted, so from March on a leap year's day is one later.
            return january1.adding(days: n - 1 + (CivilDate.isLeapYear(year) && n >= 60 ? 1 : 0))
        case .zeroBased(let n):
            return january1.adding(days: n)
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilDate(uncheckedYear: year, month: month, day: 1)
            var day = 1 + (weekday - first.weekday.rawValue + 7) % 7 + (week - 1) * 7
            // Week 5 is the month's last such weekday, which may be in the fourth week.
            while day > CivilDate.daysInMonth(year: year, month: month) { day -= 7 }
            return CivilDate(uncheckedYear: year, month: month, day: day)
        }
    }
}
