import Geometry

/// One component of a picker: a scroll view of rows whose insets let the first and the last row reach
/// the middle, which snaps every release to a row (`scrollViewWillEndDragging`) and says where the
/// user's movements come to rest. The rows in view have views; the others give theirs back.
@MainActor
final class PickerWheel: ScrollView, ScrollViewDelegate {
    private weak var picker: PickerView?
    let component: Int
    private(set) var rowCount = 0
    private(set) var rowHeight = PickerView.defaultRowHeight
    /// The views of the rows in view, by row.
    private(set) var rowViews: [Int: View] = [:]
    /// Views of rows that left the view, to be filled in again: the titles' labels, and the delegate's
    /// views for it to reuse.
    private var spareLabels: [PickerRowLabel] = []
    private var spareViews: [View] = []
    /// Whether the movement under way is the user's (a drag, a fling, a tap), whose end tells the delegate.
    private var movedByUser = false
    /// Whether the offset is to be put on the selected row at the next layout (the rows' geometry changed).
    private var needsRecentring = true
    private let releaseRecognizer = PickerReleaseRecognizer()

    init(picker: PickerView, component: Int) {
        self.picker = picker
        self.component = component
        super.init(frame: .zero)
        identifier = "picker-wheel"
        showsVerticalScrollIndicator = false
        showsHorizontalScrollIndicator = false
        alwaysBounceVertical = true
        // The rows take no touches: nothing to hold back.
        delaysContentTouches = false
        delegate = self
        releaseRecognizer.addTarget(self, action: PickerWheel.released)
        addGestureRecognizer(releaseRecognizer)
    }

    /// New counts from the data source: every row is asked for again.
    func reload(rowCount: Int, rowHeight: Double) {
        for row in Array(rowViews.keys) { recycle(row) }
        self.rowCount = rowCount
        self.rowHeight = rowHeight
        needsRecentring = true
        setNeedsLayout()
    }

    // MARK: Rows and offsets

    /// The offset that puts `row` in the middle.
    func offset(for row: Int) -> Double { Double(row) * rowHeight - contentInset.top }

    /// The row nearest the middle at offset `y`.
    func nearestRow(to y: Double) -> Int {
        min(max(Int(((y + contentInset.top) / rowHeight).rounded()), 0), max(rowCount - 1, 0))
    }

    /// Turns to `row`; `byUser`, its coming to rest tells the picker (which tells the delegate of a change).
    func turn(to row: Int, animated: Bool, byUser: Bool) {
        movedByUser = byUser
        needsRecentring = false
        let target = Point(x: 0, y: offset(for: row))
        guard target != contentOffset else {
            stopMotion()
            return cameToRest()
        }
        // Off screen nothing turns: there at once.
        let turns = animated && window != nil
        setContentOffset(target, animated: turns)
        if !turns { cameToRest() }
    }

    private func cameToRest() {
        let byUser = movedByUser
        movedByUser = false
        guard byUser, rowCount > 0 else { return }
        picker?.wheel(self, cameToRestOn: nearestRow(to: contentOffset.y))
    }

    /// A finger lifted without dragging: a turning wheel it stopped, or one it moved sideways, settles on
    /// the nearest row; a tap on a wheel at rest turns it to the row tapped.
    private func released(_ recognizer: PickerReleaseRecognizer) {
        guard rowCount > 0 else { return }
        let nearest = nearestRow(to: contentOffset.y)
        guard contentOffset.y == offset(for: nearest), !recognizer.moved else { return turn(to: nearest, animated: true, byUser: true) }
        // In content coordinates: the bounds' origin is the offset.
        let y = recognizer.location(in: self).y
        turn(to: min(max(Int((y / rowHeight).rounded(.down)), 0), rowCount - 1), animated: true, byUser: true)
    }

    // MARK: Scroll view delegate (the wheel's own)

    func scrollViewWillBeginDragging(_ scrollView: ScrollView) { movedByUser = true }

    func scrollViewWillEndDragging(_ scrollView: ScrollView, withVelocity velocity: Point, targetContentOffset: UnsafeMutablePointer<Point>)
    {
        targetContentOffset.pointee.y = offset(for: nearestRow(to: targetContentOffset.pointee.y))
    }

    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {
        if !decelerate { cameToRest() }
    }

    func scrollViewDidEndDecelerating(_ scrollView: ScrollView) { cameToRest() }
    func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) { cameToRest() }

    // MARK: Layout

    override func layoutSubviews() {
        super.layoutSubviews()
        // The first row's top in the middle at the smallest offset, the last row's at the largest.
        let top = ((bounds.height - rowHeight) / 2).rounded()
        let insets = EdgeInsets(top: top, bottom: max(bounds.height - rowHeight - top, 0))
        let size = Size(width: bounds.width, height: Double(rowCount) * rowHeight)
        if contentInset != insets || contentSize != size {
            contentInset = insets
            contentSize = size
            needsRecentring = true
        }
        if needsRecentring, !isDragging, !isMoving, let picker {
            needsRecentring = false
            contentOffset = Point(x: 0, y: offset(for: max(picker.selectedRow(inComponent: component), 0)))
        }
        View.performWithoutAnimation { tileRows() }
    }

    /// The rows in view get views, placed and faded by their distance from the middle; the others give
    /// theirs back.
    private func tileRows() {
        let top = contentOffset.y, bottom = contentOffset.y + bounds.height
        let first = max(Int((top / rowHeight).rounded(.down)), 0)
        let last = min(Int((bottom / rowHeight).rounded(.up)) - 1, rowCount - 1)
        let wanted = first <= last ? first..<(last + 1) : 0..<0
        for row in Array(rowViews.keys) where !wanted.contains(row) { recycle(row) }
        let middle = contentOffset.y + bounds.height / 2
        for row in wanted {
            let view = rowViews[row] ?? makeView(for: row)
            let rect = Rect(x: 0, y: Double(row) * rowHeight, width: bounds.width, height: rowHeight)
            let frame: Rect
            if view is PickerRowLabel {
                frame = rect.insetBy(dx: 4, dy: 0)
            } else {
                let size = view.bounds.size == .zero ? rect.size : view.bounds.size
                frame = Rect(
                    x: (rect.midX - size.width / 2).rounded(), y: (rect.midY - size.height / 2).rounded(), width: size.width,
                    height: size.height)
            }
            if view.frame != frame { view.frame = frame }
            let alpha = Self.rowAlpha(distance: abs(rect.midY - middle), rowHeight: rowHeight, halfHeight: bounds.height / 2)
            if view.alpha != alpha { view.alpha = alpha }
        }
    }

    /// How opaque a row is whose middle is `distance` from the wheel's: whole in the middle, fading to
    /// 45% one row away and on to 20% at the wheel's edge (the look of UIKit's wheel turning away), in
    /// steps of 1/100 so that a row a frame moves by less than that is not composed again.
    static func rowAlpha(distance: Double, rowHeight: Double, halfHeight: Double) -> Double {
        let alpha: Double
        if distance <= rowHeight {
            alpha = 1 - 0.55 * distance / rowHeight
        } else {
            let beyond = halfHeight > rowHeight ? (distance - rowHeight) / (halfHeight - rowHeight) : 1
            alpha = 0.45 - 0.25 * min(beyond, 1)
        }
        return (alpha * 100).rounded() / 100
    }

    private func makeView(for row: Int) -> View {
        let view: View
        if let picker, let own = picker.delegate?.pickerView(picker, viewForRow: row, forComponent: component, reusing: spareViews.last) {
            if own === spareViews.last { spareViews.removeLast() }
            view = own
        } else {
            let label = spareLabels.popLast() ?? PickerRowLabel()
            label.text = picker.flatMap { $0.delegate?.pickerView($0, titleForRow: row, forComponent: component) } ?? ""
            label.font = picker?.font ?? .system(size: 21)
            label.textColor = picker?.textColor ?? .black
            view = label
        }
        rowViews[row] = view
        addSubview(view)
        return view
    }

    private func recycle(_ row: Int) {
        guard let view = rowViews.removeValue(forKey: row) else { return }
        view.removeFromSuperview()
        if let label = view as? PickerRowLabel {
            spareLabels.append(label)
        } else if Double(spareViews.count) < (bounds.height / rowHeight).rounded(.up) + 1 {
            // As many kept for the delegate to fill in again as the wheel shows (a frame may turn all of them
            // out of view); past that, a delegate that makes new views does not make the pile grow.
            spareViews.append(view)
        }
    }
}

/// A row's title: a label of the picker's own (a view the delegate gave is never taken for one).
@MainActor
final class PickerRowLabel: Label {
    init() {
        super.init(frame: .zero)
        textAlignment = .center
        identifier = "picker-row"
    }
}

/// A finger that lifts from a wheel without the wheel's drag having begun (recognized then, whatever it
/// did meanwhile): it lets the wheel settle after a touch stopped it, and turn to a tapped row. It never
/// keeps another recognizer from recognizing, and the wheel's drag keeps it from recognizing.
@MainActor
final class PickerReleaseRecognizer: GestureRecognizer {
    /// How far (points) a finger may move and still tap a row.
    static let allowableMovement = 10.0
    private var start: Point?
    /// Whether the finger moved further than a tap's.
    private(set) var moved = false

    override var kind: String { "picker-release" }

    required init() {
        super.init()
        cancelsTouchesInView = false
        delaysTouchesEnded = false
    }

    override func canPrevent(_ other: GestureRecognizer) -> Bool { false }

    override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        if start == nil { start = touches.first?.locationOnScreen }
    }

    override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        guard let start else { return }
        if touches.contains(where: { distance(start, $0.locationOnScreen) > Self.allowableMovement }) { moved = true }
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        guard state == .possible, self.touches.allSatisfy({ $0.phase == .ended }) else { return }
        state = .recognized
    }

    override func reset() {
        super.reset()
        start = nil
        moved = false
    }
}
