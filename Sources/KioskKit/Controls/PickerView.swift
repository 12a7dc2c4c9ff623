/// How many wheels a picker has and how many rows each (as `UIPickerViewDataSource`).
@MainActor
public protocol PickerViewDataSource: AnyObject {
    func numberOfComponents(in pickerView: PickerView) -> Int
    func pickerView(_ pickerView: PickerView, numberOfRowsInComponent component: Int) -> Int
}

/// What a picker shows in its rows and what it tells about them (as `UIPickerViewDelegate`); every method
/// is optional. Give each row a title or a view of your own, the same way for every row of a component.
@MainActor
public protocol PickerViewDelegate: AnyObject {
    /// The wheel's width; unless implemented, the components share the picker's width equally.
    func pickerView(_ pickerView: PickerView, widthForComponent component: Int) -> Double
    /// The height of the wheel's rows (32 unless implemented).
    func pickerView(_ pickerView: PickerView, rowHeightForComponent component: Int) -> Double
    /// The row's title, drawn centred in the row (nil: an empty row, unless the row has a view).
    func pickerView(_ pickerView: PickerView, titleForRow row: Int, forComponent component: Int) -> String?
    /// A view of your own for the row, centred in it at its own size (the row's size when it has none);
    /// `view` is one this component showed before and no longer does, to fill in again. Nil: the title.
    func pickerView(_ pickerView: PickerView, viewForRow row: Int, forComponent component: Int, reusing view: View?) -> View?
    /// The user moved the wheel and it came to rest on `row`, another row than it was on.
    func pickerView(_ pickerView: PickerView, didSelectRow row: Int, inComponent component: Int)
}

extension PickerViewDelegate {
    public func pickerView(_ pickerView: PickerView, widthForComponent component: Int) -> Double {
        pickerView.equalComponentWidth
    }
    public func pickerView(_ pickerView: PickerView, rowHeightForComponent component: Int) -> Double { PickerView.defaultRowHeight }
    public func pickerView(_ pickerView: PickerView, titleForRow row: Int, forComponent component: Int) -> String? { nil }
    public func pickerView(_ pickerView: PickerView, viewForRow row: Int, forComponent component: Int, reusing view: View?) -> View? {
        nil
    }
    public func pickerView(_ pickerView: PickerView, didSelectRow row: Int, inComponent component: Int) {}
}

/// Wheels of rows side by side, each turned by a finger to the row wanted (as `UIPickerView`, in its look
/// since iOS 14: the chosen rows on a light rounded band across the middle, the rows above and below
/// fading away). A wheel goes on with momentum after a fling and always comes to rest with a row in the
/// middle; a tap on a row turns the wheel to it; a touch stops a turning wheel, which then settles on the
/// nearest row. Coming to rest on another row than before tells the delegate (`didSelectRow`);
/// `selectRow(_:inComponent:animated:)` tells it nothing, as UIKit's.
///
/// Only the rows in view have views (titles are labels kept for the next rows that come into view; views
/// of the delegate's own are handed back to it), so a wheel of 10,000 rows costs the memory of the dozen
/// on screen. Its intrinsic size is UIKit's: 320 by 216 points.
@MainActor
open class PickerView: View {
    /// The height of a row unless the delegate says otherwise.
    public static let defaultRowHeight = 32.0
    /// The room between two wheels.
    static let componentSpacing = 4.0
    /// The middle band's inset from the picker's sides, and its corners.
    static let bandInset = 8.0, bandCornerRadius = 8.0

    public weak var dataSource: (any PickerViewDataSource)? {
        didSet { if dataSource !== oldValue { reloadAllComponents() } }
    }

    public weak var delegate: (any PickerViewDelegate)? {
        didSet { if delegate !== oldValue { reloadAllComponents() } }
    }

    /// The titles' font and colour.
    public var font: Font = .system(size: 21) { didSet { reloadAllComponents() } }
    public var textColor: Color = .black { didSet { reloadAllComponents() } }

    /// One wheel a component, left to right.
    private(set) var wheels: [PickerWheel] = []
    /// The row each wheel rests on (-1: a wheel without rows).
    private var selectedRows: [Int] = []
    /// The light band behind the middle rows.
    let band = View()

    override public init(frame: Rect = .zero) {
        super.init(frame: frame)
        clipsToBounds = true
        band.backgroundColor = .tertiarySystemFill
        band.cornerRadius = Self.bandCornerRadius
        band.isUserInteractionEnabled = false
        band.identifier = "picker-band"
        addSubview(band)
    }

    override open var intrinsicContentSize: Size { Size(width: 320, height: 216) }

    // MARK: Components and rows

    public var numberOfComponents: Int { wheels.count }

    public func numberOfRows(inComponent component: Int) -> Int {
        wheels.indices.contains(component) ? wheels[component].rowCount : 0
    }

    /// The size of a row of the component (its width and row height; zero for one that does not exist).
    public func rowSize(forComponent component: Int) -> Size {
        guard wheels.indices.contains(component) else { return .zero }
        return Size(width: wheels[component].frame.width, height: wheels[component].rowHeight)
    }

    /// Asks the data source and the delegate again for every component: counts, sizes, rows. Each wheel
    /// stays on its row, or on its last row when it has fewer now.
    public func reloadAllComponents() {
        let count = max(dataSource?.numberOfComponents(in: self) ?? 0, 0)
        while wheels.count > count { wheels.removeLast().removeFromSuperview() }
        while wheels.count < count {
            let wheel = PickerWheel(picker: self, component: wheels.count)
            wheels.append(wheel)
            addSubview(wheel)
        }
        selectedRows = Array(selectedRows.prefix(count)) + Array(repeating: 0, count: max(count - selectedRows.count, 0))
        for component in 0..<count { reloadComponent(component) }
        setNeedsLayout()
    }

    /// Asks again for one component's row count, row height and rows.
    public func reloadComponent(_ component: Int) {
        guard wheels.indices.contains(component) else { return }
        let wheel = wheels[component]
        let rows = max(dataSource?.pickerView(self, numberOfRowsInComponent: component) ?? 0, 0)
        let height = max(delegate?.pickerView(self, rowHeightForComponent: component) ?? Self.defaultRowHeight, 1)
        selectedRows[component] = rows == 0 ? -1 : min(max(selectedRows[component], 0), rows - 1)
        wheel.reload(rowCount: rows, rowHeight: height)
        setNeedsLayout()
    }

    /// The row the component rests on (-1 when it has none).
    public func selectedRow(inComponent component: Int) -> Int {
        selectedRows.indices.contains(component) ? selectedRows[component] : -1
    }

    /// Turns the component to `row`, at once or as a scroll of 0.3 s; the delegate is not told.
    public func selectRow(_ row: Int, inComponent component: Int, animated: Bool) {
        guard wheels.indices.contains(component) else { return }
        let wheel = wheels[component]
        guard wheel.rowCount > 0 else { return }
        let row = min(max(row, 0), wheel.rowCount - 1)
        selectedRows[component] = row
        wheel.turn(to: row, animated: animated, byUser: false)
    }

    /// The view of a row in view (a title's label or the delegate's view); nil when it is not in view.
    public func view(forRow row: Int, forComponent component: Int) -> View? {
        wheels.indices.contains(component) ? wheels[component].rowViews[row] : nil
    }

    /// A wheel the user turned came to rest on `row`.
    func wheel(_ wheel: PickerWheel, cameToRestOn row: Int) {
        let component = wheel.component
        guard selectedRows.indices.contains(component), selectedRows[component] != row else { return }
        selectedRows[component] = row
        Application.shared.instrumentation.post(.valueChanged(self, value: "\(component):\(row)"))
        delegate?.pickerView(self, didSelectRow: row, inComponent: component)
    }

    // MARK: Layout

    /// Each component's share of the width when the delegate does not give widths.
    var equalComponentWidth: Double {
        let count = Double(max(wheels.count, 1))
        return max(((bounds.width - 2 * Self.bandInset - Self.componentSpacing * (count - 1)) / count).rounded(.down), 0)
    }

    override open func layoutSubviews() {
        super.layoutSubviews()
        let widths = wheels.indices.map { max(delegate?.pickerView(self, widthForComponent: $0) ?? equalComponentWidth, 0) }
        let total = widths.reduce(0, +) + Self.componentSpacing * Double(max(widths.count - 1, 0))
        // The wheels as a group in the middle (UIKit's), each as tall as the picker.
        var x = ((bounds.width - total) / 2).rounded()
        for (wheel, width) in zip(wheels, widths) {
            let frame = Rect(x: x, y: 0, width: width, height: bounds.height)
            if wheel.frame != frame { wheel.frame = frame }
            x += width + Self.componentSpacing
        }
        let rowHeight = wheels.first?.rowHeight ?? Self.defaultRowHeight
        band.frame = Rect(
            x: Self.bandInset, y: ((bounds.height - rowHeight) / 2).rounded(), width: max(bounds.width - 2 * Self.bandInset, 0),
            height: rowHeight)
    }
}
