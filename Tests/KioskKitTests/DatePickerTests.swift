import CivilTime
import KioskTesting
import Testing

@testable import KioskKit

/// `DatePicker` as UIDatePicker's wheels: what each mode's wheels show and make, looping wheels turning the
/// short way, a day the month lacks springing back to its last, the limits holding, a time in the
/// spring-forward gap moved past it, the countdown's minute, `.valueChanged` only for the user's turns.
@MainActor
@Suite(.serialized)
struct DatePickerTests {
    static let berlin = try! CivilTime.TimeZone(named: "Europe/Berlin")

    static func instant(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, in zone: CivilTime.TimeZone = berlin) -> Instant
    {
        zone.instant(for: CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute)!)
    }

    /// A date picker filling a 320x216 screen on the manual clock, in Berlin, and the dates it sent.
    @MainActor
    final class Bed {
        let animation = AnimationBed(width: 320, height: 216)
        let picker = DatePicker(frame: Rect(x: 0, y: 0, width: 320, height: 216))
        let sent = Recorded<String>()
        var finger: Finger { Finger(clock: animation.clock) }

        init(mode: DatePicker.Mode, date: Instant, configure: (DatePicker) -> Void = { _ in }) {
            picker.timeZone = DatePickerTests.berlin
            picker.today = { DatePickerTests.instant(2026, 12, 4, 9, 0) }
            picker.datePickerMode = mode
            configure(picker)
            picker.date = date
            animation.window.addSubview(picker)
            let picker = picker, sent = sent
            picker.addAction(for: .valueChanged) { _ in
                sent.values.append(
                    picker.datePickerMode == .countDownTimer
                        ? "\(Int(picker.countDownDuration))s" : "\(picker.timeZone.localDateTime(at: picker.date))")
            }
            animation.render.render()
        }

        /// What each wheel rests on, as its titles.
        var shown: [String] {
            picker.columns.enumerated().map { component, column in
                column.title(forValue: column.value(atRow: picker.picker.selectedRow(inComponent: component)))
            }
        }

        /// A tap `rows` rows below (above, when negative) the middle of a wheel, and the frames until all rest.
        func tap(component: Int, rows: Int) {
            let wheel = picker.picker.wheels[component]
            let point = Point(x: wheel.frame.midX, y: 108 + Double(rows) * wheel.rowHeight)
            let touch = finger.down(at: point)
            animation.clock.advance(by: 0.05)
            finger.up(touch)
            settle()
        }

        func settle() {
            let end = animation.clock.now + 10
            while animation.clock.now < end, picker.picker.wheels.contains(where: { $0.isMoving || $0.isDragging }) {
                animation.clock.advance(by: 1.0 / 60)
            }
        }
    }

    @Test func eachModeHasUIKitsWheels() {
        let days = (first: CivilDate(year: 2026, month: 1, day: 1)!, count: 365)
        func kinds(_ mode: DatePicker.Mode, twelveHour: Bool = false) -> [DateColumn] {
            DateColumn.columns(for: mode, twelveHour: twelveHour, minuteInterval: 5, years: 2000...2030, days: days)
        }
        #expect(kinds(.date) == [.month, .day, .year(2000...2030)])
        #expect(kinds(.time) == [.hour(twelveHour: false), .minute(interval: 5)])
        #expect(kinds(.time, twelveHour: true) == [.hour(twelveHour: true), .minute(interval: 5), .period])
        #expect(kinds(.dateAndTime) == [.weekdayDate(first: days.first, count: 365), .hour(twelveHour: false), .minute(interval: 5)])
        #expect(kinds(.countDownTimer) == [.countdownHours, .countdownMinutes(interval: 5)])
        #expect(
            DateColumn.minute(interval: 5).valueCount == 12 && DateColumn.minute(interval: 5).loops && !DateColumn.year(2000...2030).loops)
    }

    @Test(arguments: [
        (DateColumn.month, 11, "December"), (.day, 0, "1"), (.year(1990...2100), 36, "2026"), (.hour(twelveHour: false), 7, "07"),
        (.hour(twelveHour: true), 0, "12"), (.minute(interval: 15), 3, "45"), (.period, 1, "PM"), (.countdownHours, 1, "1 hour"),
        (.countdownHours, 2, "2 hours"), (.countdownMinutes(interval: 1), 30, "30 min"),
        (.weekdayDate(first: CivilDate(year: 2026, month: 12, day: 1)!, count: 60), 3, "Today"),
        (.weekdayDate(first: CivilDate(year: 2026, month: 12, day: 1)!, count: 60), 4, "Sat Dec 5"),
    ])
    func titles(column: DateColumn, value: Int, title: String) {
        #expect(column.title(forValue: value, today: CivilDate(year: 2026, month: 12, day: 4)) == title)
    }

    /// The reading the wheels make: what they do not show kept, 12 as hour 0 of each half, the day clamped.
    @Test func theWheelsMakeAReading() {
        let start = CivilDateTime(year: 2024, month: 1, day: 31, hour: 9, minute: 41)!
        let time = DateColumn.columns(for: .time, twelveHour: true, minuteInterval: 1, years: 1...9999, days: (start.date, 1))
        #expect(
            DateColumn.reading(time, values: [0, 5, 1], from: start) == CivilDateTime(year: 2024, month: 1, day: 31, hour: 12, minute: 5)!)
        #expect(
            DateColumn.reading(time, values: [0, 5, 0], from: start) == CivilDateTime(year: 2024, month: 1, day: 31, hour: 0, minute: 5)!)
        let date = DateColumn.columns(for: .date, twelveHour: false, minuteInterval: 1, years: 2000...2100, days: (start.date, 1))
        #expect(
            DateColumn.reading(date, values: [1, 30, 24], from: start) == CivilDateTime(year: 2024, month: 2, day: 29, hour: 9, minute: 41)!
        )
        // A looping wheel turns the short way: from the 31st (row 30 of a copy) to the 1st is one row on.
        let day = DateColumn.day
        #expect(day.row(forValue: 0, near: day.row(forValue: 30)) == day.row(forValue: 30) + 1)
        #expect(day.row(forValue: 29, near: day.row(forValue: 1)) == day.row(forValue: 1) - 3)
    }

    @Test func aTurnMakesTheDateAndSettingItSendsNothing() {
        let bed = Bed(mode: .date, date: Self.instant(2024, 3, 30, 12, 0))
        #expect(bed.shown == ["March", "30", "2024"] && bed.sent.values.isEmpty)
        bed.tap(component: 1, rows: 1)
        #expect(
            bed.shown == ["March", "31", "2024"] && bed.sent.values == ["2024-03-31T12:00:00"],
            "the time of day kept, across the change to summer time")
        #expect(bed.picker.date == Self.instant(2024, 3, 31, 12, 0))
        bed.picker.setDate(Self.instant(2025, 7, 1, 8, 0), animated: true)
        bed.settle()
        #expect(bed.shown == ["July", "1", "2025"] && bed.sent.values.count == 1)
    }

    @Test func aDayTheMonthLacksSpringsBackToItsLast() throws {
        let bed = Bed(mode: .date, date: Self.instant(2024, 3, 31, 12, 0))
        bed.tap(component: 0, rows: 1)
        #expect(bed.shown == ["April", "30", "2024"] && bed.sent.values == ["2024-04-30T12:00:00"])
        // The 31st is greyed while April shows.
        let wheel = bed.picker.picker.wheels[1]
        let next = try #require(wheel.rowViews.values.first { ($0 as? Label)?.text == "31" } as? Label)
        #expect(next.textColor == DatePickerWheels.disallowedColor)
    }

    @Test func february29thInAYearWithoutOneIsThe28th() {
        let bed = Bed(mode: .date, date: Self.instant(2024, 2, 29, 8, 0))
        bed.tap(component: 2, rows: 1)
        #expect(bed.shown == ["February", "28", "2025"] && bed.sent.values == ["2025-02-28T08:00:00"])
    }

    @Test func disabledItTakesNoTurn() {
        let bed = Bed(mode: .date, date: Self.instant(2024, 2, 10, 8, 0))
        bed.picker.isEnabled = false
        bed.tap(component: 1, rows: 1)
        #expect(bed.shown == ["February", "10", "2024"] && bed.sent.values.isEmpty && bed.picker.picker.alpha == 0.4)
    }

    @Test func theLimitsHold() throws {
        let bed = Bed(mode: .date, date: Self.instant(2024, 3, 10, 12, 0)) { picker in
            picker.minimumDate = Self.instant(2024, 3, 10, 0, 0)
            picker.maximumDate = Self.instant(2024, 3, 20, 0, 0)
        }
        bed.tap(component: 1, rows: -1)
        #expect(bed.shown == ["March", "10", "2024"] && bed.sent.values == ["2024-03-10T00:00:00"], "the 9th springs back to the minimum")
        let ninth = try #require(bed.picker.picker.wheels[1].rowViews.values.first { ($0 as? Label)?.text == "9" } as? Label)
        #expect(ninth.textColor == DatePickerWheels.disallowedColor)
        bed.picker.date = Self.instant(2030, 1, 1, 0, 0)
        #expect(bed.picker.date == Self.instant(2024, 3, 20, 0, 0) && bed.shown == ["March", "20", "2024"], "set past the end: the end")
        #expect(bed.picker.columns[2] == .year(2024...2024))
    }

    /// 01:30 on Berlin's spring-forward night, the hour turned to 02: 02:30 does not exist, so the picker
    /// takes 03:30 summer time (Foundation's choice), the same instant.
    @Test func aTimeTheClocksSkipIsMovedPastTheGap() {
        let bed = Bed(mode: .time, date: Self.instant(2024, 3, 31, 1, 30))
        #expect(bed.shown == ["01", "30"])
        bed.tap(component: 0, rows: 1)
        #expect(bed.sent.values == ["2024-03-31T03:30:00"] && bed.shown == ["03", "30"])
        #expect(bed.picker.date.secondsSinceEpoch == Self.instant(2024, 3, 31, 1, 30).secondsSinceEpoch + 3600)
    }

    @Test func twelveHoursWithAMAndPM() {
        let bed = Bed(mode: .time, date: Self.instant(2024, 6, 1, 11, 5)) { $0.uses24HourClock = false }
        #expect(bed.shown == ["11", "05", "AM"])
        bed.tap(component: 2, rows: 1)
        #expect(bed.sent.values == ["2024-06-01T23:05:00"] && bed.shown == ["11", "05", "PM"])
        bed.tap(component: 0, rows: 1)
        #expect(bed.sent.values.last == "2024-06-01T12:05:00" && bed.shown == ["12", "05", "PM"], "12 PM is noon: the hour wheel looped")
    }

    @Test func theMinuteIntervalSteps() {
        let bed = Bed(mode: .time, date: Self.instant(2024, 6, 1, 9, 41)) { $0.minuteInterval = 15 }
        #expect(bed.shown == ["09", "30"] && bed.picker.columns[1] == .minute(interval: 15))
        bed.tap(component: 1, rows: 2)
        #expect(bed.sent.values == ["2024-06-01T09:00:00"] && bed.shown == ["09", "00"], "45 + 15 loops to 00; the hour is its own wheel")
        bed.picker.minuteInterval = 7
        #expect(bed.picker.columns[1] == .minute(interval: 1), "7 does not divide 60: 1, as UIKit")
    }

    @Test func theCountdownIsAtLeastAMinute() {
        let bed = Bed(mode: .countDownTimer, date: .now()) { $0.countDownDuration = 5400 }
        #expect(bed.shown == ["1 hour", "30 min"])
        bed.tap(component: 0, rows: -1)
        #expect(bed.sent.values == ["1800s"] && bed.picker.countDownDuration == 1800)
        // The minute wheel turned to 0 with no hours: it springs to 1 min.
        bed.picker.picker.selectRow(bed.picker.columns[1].row(forValue: 0), inComponent: 1, animated: false)
        bed.picker.userDidTurnWheels()
        bed.settle()
        #expect(bed.picker.countDownDuration == 60 && bed.shown == ["0 hours", "1 min"] && bed.sent.values.last == "60s")
    }

    @Test func theLookOfEachMode() throws {
        let r = RenderBed(width: 320, height: 4 * 216)
        let window = r.bed.window("main")
        window.backgroundColor = .white
        let modes: [(DatePicker.Mode, Bool)] = [(.date, true), (.time, false), (.dateAndTime, true), (.countDownTimer, true)]
        for (index, (mode, twentyFour)) in modes.enumerated() {
            let picker = DatePicker(frame: Rect(x: 0, y: Double(index) * 216, width: 320, height: 216))
            picker.timeZone = Self.berlin
            picker.today = { Self.instant(2026, 12, 4, 9, 0) }
            picker.datePickerMode = mode
            picker.uses24HourClock = twentyFour
            picker.minimumDate = mode == .date ? Self.instant(2026, 12, 2, 0, 0) : nil
            picker.date = Self.instant(2026, 12, 4, 14, 25)
            picker.countDownDuration = 2 * 3600 + 15 * 60
            window.addSubview(picker)
        }
        try expectGolden(r.render(), named: "date-picker")
    }
}
