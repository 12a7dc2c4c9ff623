/// The date picker's picker view: its data source and delegate, a separate object so that `DatePicker`
/// conforms to neither in its public API. Rows are labels of its own, greyed where the date they would make
/// is not allowed.
@MainActor
final class DatePickerWheels: PickerViewDataSource, PickerViewDelegate {
    private unowned let datePicker: DatePicker

    /// The text of a row the picker may not take (a day the month lacks, a date past a limit).
    static let disallowedColor = Color(rgb: 0xB4B4B9)

    init(datePicker: DatePicker) { self.datePicker = datePicker }

    func numberOfComponents(in pickerView: PickerView) -> Int { datePicker.columns.count }

    func pickerView(_ pickerView: PickerView, numberOfRowsInComponent component: Int) -> Int {
        datePicker.columns[component].rowCount
    }

    /// The picker's width shared by each wheel's weight: a month's name wider than a day's number.
    func pickerView(_ pickerView: PickerView, widthForComponent component: Int) -> Double {
        let columns = datePicker.columns
        let available = pickerView.bounds.width - 2 * PickerView.bandInset - PickerView.componentSpacing * Double(max(columns.count - 1, 0))
        let weights = columns.map(Self.weight)
        return max((available * weights[component] / weights.reduce(0, +)).rounded(.down), 0)
    }

    static func weight(_ column: DateColumn) -> Double {
        switch column {
        case .month: 3
        case .day: 1.2
        case .year: 1.8
        case .weekdayDate: 3.4
        case .hour, .minute, .period: 1.2
        case .countdownHours, .countdownMinutes: 2
        }
    }

    func pickerView(_ pickerView: PickerView, viewForRow row: Int, forComponent component: Int, reusing view: View?) -> View? {
        let label = view as? DatePickerRowLabel ?? DatePickerRowLabel()
        let column = datePicker.columns[component]
        let value = column.value(atRow: row)
        label.text = column.title(forValue: value, today: datePicker.timeZone.localDateTime(at: datePicker.today()).date)
        label.frame.size = Size(
            width: max(self.pickerView(pickerView, widthForComponent: component) - 8, 0),
            height: pickerView.rowSize(forComponent: component).height)
        label.value = (component, value)
        colour(label)
        return label
    }

    func pickerView(_ pickerView: PickerView, didSelectRow row: Int, inComponent component: Int) {
        datePicker.userDidTurnWheels()
    }

    /// The rows in view greyed again for the reading now on the wheels.
    func readingDidChange() {
        for wheel in datePicker.picker.wheels {
            for case let label as DatePickerRowLabel in wheel.rowViews.values { colour(label) }
        }
    }

    private func colour(_ label: DatePickerRowLabel) {
        guard datePicker.datePickerMode != .countDownTimer, let (component, value) = label.value else { return }
        var values = datePicker.wheelValues
        guard values.indices.contains(component) else { return }
        values[component] = value
        label.textColor = datePicker.isAllowed(values) ? datePicker.picker.textColor : Self.disallowedColor
    }
}

/// A row of a date picker's wheel, with the value it shows.
@MainActor
final class DatePickerRowLabel: Label {
    var value: (component: Int, value: Int)?

    init() {
        super.init(frame: .zero)
        textAlignment = .center
        font = .system(size: 21)
        identifier = "date-picker-row"
    }
}
