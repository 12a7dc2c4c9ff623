/// The `[power]` table: when screens are off by the clock, and whether a touch wakes them then.
public struct PowerConfiguration: Sendable, Equatable {
    /// `[[power.schedule]]` entries, in the file's order.
    public var schedules: [PowerSchedule] = []
    /// `wake-during-schedule`: a touch or key on a screen the schedule turned off turns it on (until it is
    /// idle again); false keeps it off until the schedule's `on`. Default: true.
    public var wakeDuringSchedule = true

    public init(schedules: [PowerSchedule] = [], wakeDuringSchedule: Bool = true) {
        self.schedules = schedules
        self.wakeDuringSchedule = wakeDuringSchedule
    }

    /// The schedules without where they were written (see `ScreenConfiguration.ignoringWhereWritten`).
    public var ignoringWhereWritten: PowerConfiguration {
        var copy = self
        for index in copy.schedules.indices { copy.schedules[index].location = nil }
        return copy
    }

    /// Whether the schedules say `screen` is off at local `time`.
    public func isScheduledOff(_ screen: String, at time: LocalTime) -> Bool {
        schedules.contains { $0.applies(to: screen) && $0.isOff(at: time) }
    }
}

/// A moment on the local wall clock: the day of the week and the minute of that day.
public struct LocalTime: Sendable, Equatable {
    public var weekday: PowerSchedule.Weekday
    public var minute: Int

    public init(weekday: PowerSchedule.Weekday, minute: Int) {
        self.weekday = weekday
        self.minute = minute
    }
}

/// One `[[power.schedule]]` entry: off from `off` to `on` (local time) on `days`. An `off` later than `on`
/// runs over midnight and belongs to the day it starts on: off 22:00 to 07:00 Monday to Friday is off from
/// Monday 22:00 to Tuesday 07:00, …, Friday 22:00 to Saturday 07:00.
public struct PowerSchedule: Sendable, Equatable {
    /// As `struct tm`'s `tm_wday`: Sunday is 0.
    public enum Weekday: Int, CaseIterable, Sendable, Comparable {
        case sunday = 0
        case monday, tuesday, wednesday, thursday, friday, saturday

        public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }

        /// `mon`, `tue`, … as the config writes them.
        public var shortName: String { ["sun", "mon", "tue", "wed", "thu", "fri", "sat"][rawValue] }

        var previous: Weekday { Weekday(rawValue: (rawValue + 6) % 7)! }
        var next: Weekday { Weekday(rawValue: (rawValue + 1) % 7)! }
    }

    public var days: Set<Weekday>
    /// Minutes after midnight.
    public var off: Int
    public var on: Int
    /// The screens (connector names or labels) it applies to; nil: every screen.
    public var screens: [String]?
    /// Where the entry is in the file.
    public var location: FilePosition?

    public init(days: Set<Weekday>, off: Int, on: Int, screens: [String]? = nil, location: FilePosition? = nil) {
        self.days = days
        self.off = off
        self.on = on
        self.screens = screens
        self.location = location
    }

    public func applies(to screen: String) -> Bool { screens?.contains(screen) ?? true }

    /// Whether this entry says off at `time`.
    public func isOff(at time: LocalTime) -> Bool {
        if off < on { return days.contains(time.weekday) && time.minute >= off && time.minute < on }
        // Over midnight: the evening of a listed day, or the morning after one.
        return (days.contains(time.weekday) && time.minute >= off) || (days.contains(time.weekday.previous) && time.minute < on)
    }

    // MARK: Spellings

    /// What `days` accepts, for messages.
    public static let validDays =
        #"day names ("mon", "tue", … "sun", or in full), ranges ("mon-fri"), "daily", "weekdays" or "weekends", as a string or a list"#
    public static let validTime = #""HH:MM", 24-hour local time (e.g. "22:00")"#

    /// `"mon-fri"`, `"weekdays"`, `"sat"`, `"Sunday"`: the days one spelling names, nil if none.
    public static func days(_ text: String) -> Set<Weekday>? {
        let word = text.lowercased()
        switch word {
        case "daily", "every day", "all": return Set(Weekday.allCases)
        case "weekdays": return [.monday, .tuesday, .wednesday, .thursday, .friday]
        case "weekends", "weekend": return [.saturday, .sunday]
        default: break
        }
        let parts = word.split(separator: "-", maxSplits: 1).map(String.init)
        if parts.count == 2 {
            guard let first = weekday(parts[0]), let last = weekday(parts[1]) else { return nil }
            var days: Set<Weekday> = [first]
            var day = first
            while day != last {
                day = day.next
                days.insert(day)
            }
            return days
        }
        return weekday(word).map { [$0] }
    }

    private static func weekday(_ word: String) -> Weekday? {
        let names = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        for (index, name) in names.enumerated() where word == name || word == String(name.prefix(3)) {
            return Weekday(rawValue: index)
        }
        return nil
    }

    /// `"07:30"` as minutes after midnight, nil when it is not a 24-hour time.
    public static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 2 || parts[0].count == 1, parts[1].count == 2,
            let hours = Int(parts[0]), let minutes = Int(parts[1]), (0..<24).contains(hours), (0..<60).contains(minutes)
        else { return nil }
        return hours * 60 + minutes
    }
}
