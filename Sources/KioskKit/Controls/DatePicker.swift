import CivilTime

/// Wheels for a date, a time, both, or a countdown's length (as `UIDatePicker` in its wheels style): the
/// user turns them and, when they come to rest, the picker sends `.valueChanged` with `date` (or
/// `countDownDuration`) made from what they show, in `timeZone`. Months, days, hours and minutes loop, as
/// UIKit's; a day the month does not have (the 31st in April) is greyed and springs back to the month's
/// last, and so does a date before `minimumDate` or after `maximumDate` to the nearest one allowed. Setting
/// `date` from code moves the wheels and sends nothing.
///
/// The calendar is CivilTime's (the proleptic Gregorian one, time zones from the system's tz database),
/// without Foundation: `date` is an `Instant`, `timeZone` a `CivilTime.TimeZone` (write `CivilTime.TimeZone`
/// in a file that imports Foundation too). A local time the clocks skip (the spring-forward hour) becomes
/// the time as far after the gap, and one they show twice the earlier, as Foundation's calendar has them.
/// Names are English until the languages issue; `uses24HourClock` chooses the clock, an explicit option
/// where UIKit follows the locale.
@MainActor
open class DatePicker: Control {
    /// The date as an ISO 8601 UTC reading, or the countdown's seconds.
    override open var tracedValue: String? {
        datePickerMode == .countDownTimer ? String(Int(countDownDuration)) : date.description
    }

    /// What the wheels choose (as `UIDatePicker.Mode`).
    public enum Mode: Sendable, Equatable {
        /// Hour and minute (and AM/PM on a 12-hour clock); the date is kept.
        case time
        /// Month, day and year; the time of day is kept.
        case date
        /// The day (as "Fri Dec 4", "Today"), hour and minute.
        case dateAndTime
        /// Hours and minutes of a duration, `countDownDuration`.
        case countDownTimer
    }

    open var datePickerMode: Mode = .dateAndTime { didSet { if datePickerMode != oldValue { rebuild() } } }

    /// The date shown, within `minimumDate...maximumDate` (a date set outside them is moved to the nearer).
    open var date: Instant {
        get { shownDate }
        set { setDate(newValue, animated: false) }
    }

    /// The zone the wheels show the date in (the system's: `TZ`, else `/etc/localtime`).
    open var timeZone: CivilTime.TimeZone = .system() { didSet { rebuild() } }
    open var minimumDate: Instant? { didSet { limitsDidChange() } }
    open var maximumDate: Instant? { didSet { limitsDidChange() } }
    /// The minute wheel's step (as UIKit's): 1 to 30 and a divisor of 60, else 1.
    open var minuteInterval = 1 { didSet { if minuteInterval != oldValue { rebuild() } } }
    /// A 24-hour clock (true) or 12 hours with AM/PM.
    open var uses24HourClock = true { didSet { if uses24HourClock != oldValue { rebuild() } } }
    /// The countdown's length in seconds, in `.countDownTimer` (at least a minute, less than 24 hours, in
    /// whole `minuteInterval`s of minutes as the wheels show it).
    open var countDownDuration: Double = 60 {
        didSet {
            let clamped = min(max(countDownDuration, 60), 86_340)
            if clamped != countDownDuration {
                countDownDuration = clamped
            } else if countDownDuration != oldValue {
                showDuration(animated: false)
            }
        }
    }

    private var shownDate = Instant.now()
    /// Today, for the "Today" row (the system clock; tests set their own).
    var today: () -> Instant = { Instant.now() }

    let picker = PickerView()
    private lazy var wheels = DatePickerWheels(datePicker: self)
    private(set) var columns: [DateColumn] = []

    override public init(frame: Rect = .zero) {
        super.init(frame: frame)
        addSubview(picker)
        picker.dataSource = wheels
        picker.delegate = wheels
        rebuild()
    }

    override open var intrinsicContentSize: Size { picker.intrinsicContentSize }

    override open func layoutSubviews() {
        super.layoutSubviews()
        picker.frame = bounds
    }

    /// Disabled, the wheels take no touches and are drawn faded (UIKit's).
    override open func stateDidChange() {
        super.stateDidChange()
        picker.isUserInteractionEnabled = isEnabled
        picker.alpha = isEnabled ? 1 : 0.4
    }

    // MARK: Setting the date

    /// Moves the wheels to `date` (kept within the limits), turning them when `animated`; sends nothing.
    open func setDate(_ date: Instant, animated: Bool) {
        shownDate = clamped(date)
        showDate(animated: animated)
    }

    private func clamped(_ date: Instant) -> Instant {
        var date = date
        if let minimumDate, date < minimumDate { date = minimumDate }
        if let maximumDate, date > maximumDate { date = maximumDate }
        return date
    }

    /// The minute step in effect.
    var effectiveMinuteInterval: Int { (1...30).contains(minuteInterval) && 60 % minuteInterval == 0 ? minuteInterval : 1 }

    /// The wheels for the mode and the limits, then the date (or duration) on them.
    private func rebuild() {
        let earliest = minimumDate.map { timeZone.localDateTime(at: $0).date }
        let latest = maximumDate.map { timeZone.localDateTime(at: $0).date }
        let firstYear = earliest?.year ?? 1
        let years = firstYear...max(latest?.year ?? 9999, firstYear)
        let first = earliest ?? CivilDate(year: 1900, month: 1, day: 1)!
        let last = latest ?? CivilDate(year: 2199, month: 12, day: 31)!
        columns = DateColumn.columns(
            for: datePickerMode, twelveHour: !uses24HourClock, minuteInterval: effectiveMinuteInterval, years: years,
            days: (first, max(first.distance(to: last) + 1, 1)))
        picker.reloadAllComponents()
        if datePickerMode == .countDownTimer { showDuration(animated: false) } else { setDate(shownDate, animated: false) }
    }

    private func limitsDidChange() {
        shownDate = clamped(shownDate)
        rebuild()
    }

    /// The wheels on the date's reading in the zone.
    private func showDate(animated: Bool) {
        guard datePickerMode != .countDownTimer else { return }
        let reading = timeZone.localDateTime(at: shownDate)
        for (component, column) in columns.enumerated() {
            let value = column.value(of: reading)
            // Turning, a looping wheel goes the short way, to the value's nearest copy; at once, to the middle one.
            let current = picker.selectedRow(inComponent: component)
            let row = animated && column.loops ? column.row(forValue: value, near: current) : column.row(forValue: value)
            picker.selectRow(row, inComponent: component, animated: animated)
        }
        wheels.readingDidChange()
    }

    private func showDuration(animated: Bool) {
        guard datePickerMode == .countDownTimer, columns.count == 2 else { return }
        let minutes = Int(countDownDuration) / 60
        picker.selectRow(columns[0].row(forValue: minutes / 60), inComponent: 0, animated: animated)
        picker.selectRow(columns[1].row(forValue: (minutes % 60) / effectiveMinuteInterval), inComponent: 1, animated: animated)
    }

    // MARK: What the user chose

    /// The value each wheel rests on.
    var wheelValues: [Int] { columns.enumerated().map { $0.element.value(atRow: picker.selectedRow(inComponent: $0.offset)) } }

    /// The reading the wheels show, were they on `values`.
    func reading(for values: [Int]) -> CivilDateTime {
        DateColumn.reading(columns, values: values, from: timeZone.localDateTime(at: shownDate))
    }

    /// Whether the wheels on `values` make a date the picker may take: a real day of the month, within the limits.
    func isAllowed(_ values: [Int]) -> Bool {
        let reading = reading(for: values)
        let instant = timeZone.instant(for: reading)
        return showsItsDay(values, reading) && clamped(instant) == instant
    }

    /// Whether the day wheel is on the reading's day: `reading(for:)` clamps a day past the month's end.
    private func showsItsDay(_ values: [Int], _ reading: CivilDateTime) -> Bool {
        guard let day = columns.firstIndex(of: .day) else { return true }
        return values[day] + 1 == reading.day
    }

    /// A wheel the user turned came to rest: the new date (or duration), the wheels put back on the middle
    /// copy of their values, or turned to the nearest allowed date; `.valueChanged` when it changed.
    func userDidTurnWheels() {
        if datePickerMode == .countDownTimer {
            let values = wheelValues
            let seconds = Double(values[0] * 3600 + values[1] * effectiveMinuteInterval * 60)
            let old = countDownDuration
            // Zero is the smallest, a minute (UIKit's); a changed duration is shown by the property, and this
            // puts looping wheels back on their middle copy when it did not change.
            countDownDuration = seconds
            showDuration(animated: false)
            if countDownDuration != old { sendValueChanged() }
            return
        }
        let values = wheelValues
        let reading = reading(for: values)
        let wanted = timeZone.instant(for: reading)
        let chosen = clamped(wanted)
        let old = shownDate
        shownDate = chosen
        // Not on what they show (a day past the month's end, a date past a limit): they turn to the date.
        showDate(animated: !showsItsDay(values, reading) || chosen != wanted)
        if shownDate != old { sendValueChanged() }
    }
}
