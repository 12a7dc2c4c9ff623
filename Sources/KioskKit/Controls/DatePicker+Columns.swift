import CivilTime

/// One wheel of a date picker, and how its rows map to a wall-clock reading: pure functions, which the
/// date picker's table tests check without a picker. A wheel that loops (months, days, hours, minutes, as
/// UIKit's) has its values many times over and is put back on the middle copy after each turn.
enum DateColumn: Equatable {
    case month
    /// Always 31 rows: days past the month's length are shown, greyed, and spring back (UIKit's).
    case day
    case year(ClosedRange<Int>)
    /// Dates from the first for `count` days, as "Fri Dec 4" ("Today" for today's).
    case weekdayDate(first: CivilDate, count: Int)
    case hour(twelveHour: Bool)
    case minute(interval: Int)
    case period
    case countdownHours
    case countdownMinutes(interval: Int)

    /// How many copies of its values a looping wheel has: enough that no fling reaches an end.
    static let loopCopies = 200

    /// The number of distinct values.
    var valueCount: Int {
        switch self {
        case .month: 12
        case .day: 31
        case .year(let years): years.count
        case .weekdayDate(_, let count): count
        case .hour(let twelveHour): twelveHour ? 12 : 24
        case .minute(let interval), .countdownMinutes(let interval): 60 / interval
        case .period: 2
        case .countdownHours: 24
        }
    }

    var loops: Bool {
        switch self {
        case .month, .day, .hour, .minute, .countdownHours, .countdownMinutes: true
        case .year, .weekdayDate, .period: false
        }
    }

    var rowCount: Int { loops ? valueCount * Self.loopCopies : valueCount }

    /// The value a row shows: 0 ..< valueCount.
    func value(atRow row: Int) -> Int { loops ? ((row % valueCount) + valueCount) % valueCount : min(max(row, 0), valueCount - 1) }

    /// The row of `value` in the middle copy (where a looping wheel is put back to).
    func row(forValue value: Int) -> Int { loops ? valueCount * (Self.loopCopies / 2) + value : value }

    /// The row of `value` nearest `row` (a looping wheel turns the short way to it).
    func row(forValue value: Int, near row: Int) -> Int {
        guard loops else { return self.row(forValue: value) }
        let base = row - self.value(atRow: row) + value
        let nearest = [base - valueCount, base, base + valueCount].min { abs($0 - row) < abs($1 - row) }!
        return min(max(nearest, 0), rowCount - 1)
    }

    /// The value a reading shows on this wheel.
    func value(of reading: CivilDateTime) -> Int {
        switch self {
        case .month: reading.month - 1
        case .day: reading.day - 1
        case .year(let years): min(max(reading.year, years.lowerBound), years.upperBound) - years.lowerBound
        case .weekdayDate(let first, let count): min(max(first.distance(to: reading.date), 0), count - 1)
        case .hour(let twelveHour): twelveHour ? reading.hour % 12 : reading.hour
        case .minute(let interval): reading.minute / interval
        case .period: reading.hour < 12 ? 0 : 1
        case .countdownHours, .countdownMinutes: 0
        }
    }

    /// The wheel's text for a value (English until the languages issue gives the names per language).
    func title(forValue value: Int, today: CivilDate? = nil) -> String {
        switch self {
        case .month: return Self.monthNames[value]
        case .day: return String(value + 1)
        case .year(let years): return String(years.lowerBound + value)
        case .weekdayDate(let first, _):
            let date = first.adding(days: value)
            if date == today { return "Today" }
            return "\(Self.weekdayNames[date.weekday.rawValue]) \(Self.monthNames[date.month - 1].prefix(3)) \(date.day)"
        case .hour(let twelveHour): return twelveHour ? String(value == 0 ? 12 : value) : Self.twoDigits(value)
        case .minute(let interval): return Self.twoDigits(value * interval)
        case .period: return value == 0 ? "AM" : "PM"
        case .countdownHours: return value == 1 ? "1 hour" : "\(value) hours"
        case .countdownMinutes(let interval): return "\(value * interval) min"
        }
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]
    static let weekdayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    /// The wheels of a mode, left to right (UIKit's for English: month, day, year; the time with an AM/PM
    /// wheel on a 12-hour clock).
    static func columns(
        for mode: DatePicker.Mode, twelveHour: Bool, minuteInterval: Int, years: ClosedRange<Int>, days: (first: CivilDate, count: Int)
    ) -> [DateColumn] {
        let time: [DateColumn] = [.hour(twelveHour: twelveHour), .minute(interval: minuteInterval)] + (twelveHour ? [.period] : [])
        switch mode {
        case .time: return time
        case .date: return [.month, .day, .year(years)]
        case .dateAndTime: return [.weekdayDate(first: days.first, count: days.count)] + time
        case .countDownTimer: return [.countdownHours, .countdownMinutes(interval: minuteInterval)]
        }
    }

    /// The reading the wheels show together, starting from `reading` for what they do not show (a time
    /// wheel keeps the date, a date wheel the time): the day clamped to its month's length.
    static func reading(_ columns: [DateColumn], values: [Int], from reading: CivilDateTime) -> CivilDateTime {
        var year = reading.year, month = reading.month, day = reading.day
        var hour = reading.hour, minute = reading.minute, pm: Bool?
        for (column, value) in zip(columns, values) {
            switch column {
            case .month: month = value + 1
            case .day: day = value + 1
            case .year(let years): year = years.lowerBound + value
            case .weekdayDate(let first, _):
                let date = first.adding(days: value)
                (year, month, day) = (date.year, date.month, date.day)
            case .hour: hour = value
            case .minute(let interval): minute = value * interval
            case .period: pm = value == 1
            case .countdownHours, .countdownMinutes: break
            }
        }
        // On a 12-hour clock the hour wheel's value is the hour past 12 (12 shows as 0) and AM/PM says which half.
        if let pm { hour = hour % 12 + (pm ? 12 : 0) }
        let date = CivilDate(year: year, month: month, clampingDay: day)!
        return CivilDateTime(date: date, hour: hour, minute: minute, second: 0)!
    }
}
