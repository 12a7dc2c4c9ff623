import KioskTesting
import Testing

@testable import KioskKit

/// Rows of titles (`rows` per component) or of views of its own, and what the picker told it.
@MainActor
final class PickerSource: PickerViewDataSource, PickerViewDelegate {
    var rows: [Int]
    var ownViews = false
    var selected: [String] = []
    /// Views made, and views given back to be filled in again.
    var made = 0
    var reused = 0

    init(rows: [Int]) { self.rows = rows }

    func numberOfComponents(in pickerView: PickerView) -> Int { rows.count }
    func pickerView(_ pickerView: PickerView, numberOfRowsInComponent component: Int) -> Int { rows[component] }
    func pickerView(_ pickerView: PickerView, titleForRow row: Int, forComponent component: Int) -> String? {
        component == 0 ? "Row \(row)" : ["Small", "Medium", "Large"][row % 3]
    }
    func pickerView(_ pickerView: PickerView, viewForRow row: Int, forComponent component: Int, reusing view: View?) -> View? {
        guard ownViews else { return nil }
        if view != nil { reused += 1 } else { made += 1 }
        let swatch = view ?? PickerSwatch(frame: Rect(x: 0, y: 0, width: 60, height: 20))
        swatch.backgroundColor = Color(white: Double(row % 10) / 10)
        return swatch
    }
    func pickerView(_ pickerView: PickerView, didSelectRow row: Int, inComponent component: Int) {
        selected.append("\(row) in \(component)")
    }
}

/// A row view that counts its drawing.
@MainActor
final class PickerSwatch: View {
    static var draws = 0
    override func draw(_ rect: Rect) { Self.draws += 1 }
}

/// `PickerView` as UIPickerView: wheels that always come to rest on a row, a fling with momentum, a tap
/// that turns to the row tapped, a touch that stops a turning wheel, the delegate told of the user's
/// choices only, the rows in view alone having views, and its look.
@MainActor
@Suite(.serialized)
struct PickerViewTests {
    /// A 400x300 screen on the manual clock with a picker of two components (100 rows and 3) at (40, 20).
    @MainActor
    final class Bed {
        let animation = AnimationBed(width: 400, height: 300)
        let picker = PickerView(frame: Rect(x: 40, y: 20, width: 320, height: 216))
        let source: PickerSource
        var finger: Finger { Finger(clock: animation.clock) }
        var clock: ManualClock { animation.clock }
        /// The middle of the picker on the screen.
        let middleY = 20.0 + 108

        init(rows: [Int] = [100, 3], ownViews: Bool = false) {
            source = PickerSource(rows: rows)
            source.ownViews = ownViews
            picker.dataSource = source
            picker.delegate = source
            animation.window.addSubview(picker)
            animation.render.render()
        }

        var wheel: PickerWheel { picker.wheels[0] }

        /// Frames until every wheel is at rest (at most `limit` seconds).
        func settle(limit: TimeInterval = 10) {
            let end = clock.now + limit
            while clock.now < end, picker.wheels.contains(where: { $0.isMoving || $0.isDragging }) { clock.advance(by: 1.0 / 60) }
        }

        /// A drag from `start` to `end` in 0.2 s, held still for 0.3 s before the finger lifts (no momentum),
        /// and the frames until the wheels rest.
        func dragAndHold(from start: Point, to end: Point) {
            let touch = finger.drag(from: start, to: end, duration: 0.2, steps: 10, lift: false)
            clock.advance(by: 0.3)
            finger.move(touch, to: end)
            finger.up(touch)
            settle()
        }

        /// Whether the first wheel rests with a row exactly in the middle, and which.
        var restingRow: Int? {
            let row = wheel.nearestRow(to: wheel.contentOffset.y)
            return wheel.contentOffset.y == wheel.offset(for: row) && !wheel.isMoving ? row : nil
        }
    }

    @Test func theMiddleRowIsTheSelectedOneAndTheFirstAndTheLastReachIt() throws {
        let bed = Bed()
        #expect(bed.picker.numberOfComponents == 2 && bed.picker.numberOfRows(inComponent: 0) == 100)
        #expect(bed.picker.selectedRow(inComponent: 0) == 0 && bed.picker.selectedRow(inComponent: 1) == 0)
        #expect(bed.picker.rowSize(forComponent: 0) == Size(width: 150, height: 32))
        // Two wheels of (320 − 16 − 4) / 2 = 150 side by side in the middle, the band behind the middle row.
        #expect(bed.picker.wheels.map(\.frame) == [Rect(x: 8, y: 0, width: 150, height: 216), Rect(x: 162, y: 0, width: 150, height: 216)])
        #expect(bed.picker.band.frame == Rect(x: 8, y: 92, width: 304, height: 32))
        let first = try #require(bed.picker.view(forRow: 0, forComponent: 0) as? Label)
        #expect(first.text == "Row 0" && first.convert(first.bounds, to: bed.picker).midY == 108 && first.alpha == 1)
        bed.picker.selectRow(99, inComponent: 0, animated: false)
        #expect(bed.wheel.contentOffset.y == bed.wheel.maximumContentOffset.y && bed.restingRow == 99)
        bed.animation.render.render()
        let last = try #require(bed.picker.view(forRow: 99, forComponent: 0))
        #expect(last.convert(last.bounds, to: bed.picker).midY == 108)
        #expect(bed.picker.view(forRow: 0, forComponent: 0) == nil && bed.source.selected.isEmpty, "selectRow tells nothing")
        // The rows beside the middle fade away.
        let beside = try #require(bed.picker.view(forRow: 98, forComponent: 0))
        #expect(beside.alpha == 0.45)
    }

    @Test func aFlingTurnsWithMomentumAndComesToRestOnARow() {
        let bed = Bed()
        // 150 pt up in 60 ms: 2500 pt/s when the finger lifts.
        bed.finger.drag(from: Point(x: 120, y: 200), to: Point(x: 120, y: 50), duration: 0.06, steps: 6)
        #expect(bed.wheel.isDecelerating && bed.source.selected.isEmpty)
        bed.settle()
        let row = bed.restingRow
        #expect(row != nil && row! > 10, "momentum carried it past the 150 pt the finger moved: \(String(describing: row))")
        #expect(bed.picker.selectedRow(inComponent: 0) == row && bed.source.selected == ["\(row ?? -1) in 0"])
        #expect(bed.picker.selectedRow(inComponent: 1) == 0, "the other wheel did not move")
    }

    @Test func aDragReleasedBetweenRowsSettlesOnTheNearest() {
        let bed = Bed()
        // 45 pt up, then held still before lifting (no momentum): 45 / 32 = 1.4 rows, so row 1.
        bed.dragAndHold(from: Point(x: 120, y: 150), to: Point(x: 120, y: 105))
        #expect(bed.restingRow == 1 && bed.source.selected == ["1 in 0"])
        // 10 pt back down, a third of a row: it settles on the same row again, and the delegate hears nothing.
        bed.dragAndHold(from: Point(x: 120, y: 150), to: Point(x: 120, y: 160))
        #expect(bed.restingRow == 1 && bed.source.selected == ["1 in 0"])
    }

    @Test func aTapOnARowTurnsTheWheelToIt() {
        let bed = Bed()
        // Two rows below the middle.
        let touch = bed.finger.down(at: Point(x: 120, y: bed.middleY + 64))
        bed.clock.advance(by: 0.05)
        bed.finger.up(touch)
        #expect(bed.wheel.isMoving, "it turns, animated")
        bed.settle()
        #expect(bed.restingRow == 2 && bed.source.selected == ["2 in 0"])
        // A tap on the middle row changes nothing.
        let middle = bed.finger.down(at: Point(x: 120, y: bed.middleY))
        bed.finger.up(middle)
        bed.settle()
        #expect(bed.restingRow == 2 && bed.source.selected == ["2 in 0"])
        // One above the middle, on the second wheel: it has no row there.
        let above = bed.finger.down(at: Point(x: 280, y: bed.middleY - 32))
        bed.finger.up(above)
        bed.settle()
        #expect(bed.picker.selectedRow(inComponent: 1) == 0 && bed.source.selected == ["2 in 0"])
    }

    @Test func aTouchStopsATurningWheelWhichThenSettlesOnTheNearestRow() {
        let bed = Bed()
        bed.finger.drag(from: Point(x: 120, y: 200), to: Point(x: 120, y: 50), duration: 0.06, steps: 6)
        bed.clock.advance(by: 0.1)
        #expect(bed.wheel.isDecelerating)
        let touch = bed.finger.down(at: Point(x: 120, y: 150))
        #expect(!bed.wheel.isDecelerating)
        bed.clock.advance(by: 0.4)
        bed.finger.up(touch)
        bed.settle()
        let row = bed.restingRow
        #expect(row != nil && bed.source.selected == ["\(row ?? -1) in 0"])
    }

    @Test func selectingFromCodeTellsTheDelegateNothingAndAnimatesOnlyWhenAsked() {
        let bed = Bed()
        bed.picker.selectRow(40, inComponent: 0, animated: true)
        #expect(bed.picker.selectedRow(inComponent: 0) == 40 && bed.wheel.isMoving)
        bed.settle()
        #expect(bed.restingRow == 40 && bed.source.selected.isEmpty)
        bed.picker.selectRow(500, inComponent: 0, animated: false)
        #expect(bed.restingRow == 99 && bed.picker.selectedRow(inComponent: 0) == 99, "past the end: the last row")
        bed.picker.selectRow(1, inComponent: 7, animated: false)
        #expect(bed.picker.selectedRow(inComponent: 7) == -1)
    }

    @Test func reloadingKeepsTheRowOrTakesTheLast() {
        let bed = Bed()
        bed.picker.selectRow(50, inComponent: 0, animated: false)
        bed.source.rows = [10, 0]
        bed.picker.reloadAllComponents()
        bed.animation.render.render()
        #expect(bed.picker.selectedRow(inComponent: 0) == 9 && bed.restingRow == 9)
        #expect(bed.picker.selectedRow(inComponent: 1) == -1 && bed.picker.numberOfRows(inComponent: 1) == 0)
        bed.source.rows = [10]
        bed.picker.reloadAllComponents()
        bed.animation.render.render()
        #expect(bed.picker.numberOfComponents == 1 && bed.picker.wheels[0].frame == Rect(x: 8, y: 0, width: 304, height: 216))
    }

    /// 10,000 rows turned through: the views held stay those of the rows in view (216 / 32 → 8 at most),
    /// and the delegate's own views come back to it to be filled in again.
    @Test func onlyTheRowsInViewHaveViews() {
        for ownViews in [false, true] {
            let bed = Bed(rows: [10_000], ownViews: ownViews)
            for _ in 0..<5 {
                bed.finger.drag(from: Point(x: 120, y: 220), to: Point(x: 120, y: 30), duration: 0.05, steps: 5)
                bed.clock.advance(by: 0.3)
            }
            bed.settle()
            let rows = bed.wheel.subviews.filter { !($0 is ScrollIndicator) }
            #expect(rows.count <= 8 && bed.wheel.rowViews.count == rows.count, "\(rows.count) row views")
            #expect(bed.restingRow ?? 0 > 100)
            if ownViews {
                #expect(bed.source.made <= 12 && bed.source.reused > 100, "made \(bed.source.made), reused \(bed.source.reused)")
                let view = bed.picker.view(forRow: bed.restingRow ?? 0, forComponent: 0)
                #expect(view?.frame.size == Size(width: 60, height: 20), "centred at its own size")
            }
        }
    }

    /// A turn draws no row again (their pictures are kept; they move and fade) and composes nothing outside
    /// the picker.
    @Test func aTurnDrawsNoRowAgainAndComposesOnlyThePicker() {
        let bed = Bed(rows: [100], ownViews: true)
        #expect(PickerSwatch.draws > 0, "the rows in view were drawn once")
        PickerSwatch.draws = 0
        let before = bed.animation.output.presented.count
        // Rows 0 to 3 are in view from the middle down (the wheel is 216 tall): 4 points bring in no new row.
        bed.wheel.contentOffset.y += 4
        bed.animation.render.render()
        #expect(PickerSwatch.draws == 0 && bed.animation.output.presented.count == before + 1)
        let damage = bed.animation.output.presented.last!.damage
        #expect(!damage.isEmpty && Region(PixelRect(enclosing: bed.picker.frame)).contains(damage.extents), "\(damage.extents)")
    }

    @Test(arguments: [
        (distance: 0.0, alpha: 1.0), (distance: 16, alpha: 0.73), (distance: 32, alpha: 0.45), (distance: 70, alpha: 0.33),
        (distance: 108, alpha: 0.2), (distance: 300, alpha: 0.2),
    ])
    func rowsFadeByTheirDistanceFromTheMiddle(distance: Double, alpha: Double) {
        #expect(PickerWheel.rowAlpha(distance: distance, rowHeight: 32, halfHeight: 108) == alpha)
    }

    @Test func theLook() throws {
        let r = RenderBed(width: 340, height: 236)
        let window = r.bed.window("main")
        window.backgroundColor = .white
        let source = PickerSource(rows: [100, 3])
        let picker = PickerView(frame: Rect(x: 10, y: 10, width: 320, height: 216))
        picker.dataSource = source
        picker.delegate = source
        window.addSubview(picker)
        picker.selectRow(12, inComponent: 0, animated: false)
        picker.selectRow(1, inComponent: 1, animated: false)
        try expectGolden(r.render(), named: "picker")
    }
}
