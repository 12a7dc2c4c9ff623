import KioskTesting
import Testing

@testable import KioskKit

/// `SegmentedControl` as UISegmentedControl: a lift selects, `.valueChanged` only for a change (each lift
/// when momentary), disabled segments, segments added and removed, widths, and its look.
@MainActor
@Suite(.serialized)
struct SegmentedControlTests {
    /// An animation bed with a 300x32 control of three segments at (10, 100) (100 points each), and the
    /// selections it sent.
    static func controlBed() -> (AnimationBed, SegmentedControl, Recorded<Int>) {
        let bed = AnimationBed()
        let control = SegmentedControl(titles: ["Small", "Medium", "Large"])
        control.frame = Rect(x: 10, y: 100, width: 300, height: 32)
        bed.window.addSubview(control)
        let sent = Recorded<Int>()
        control.addAction(for: .valueChanged) { control in sent.values.append((control as! SegmentedControl).selectedSegmentIndex) }
        bed.render.render()
        return (bed, control, sent)
    }

    static func tap(_ bed: AnimationBed, _ x: Double, to end: Double? = nil) {
        let touch = bed.render.bed.touchDown(at: Point(x: x, y: 116), time: bed.clock.now)
        if let end { bed.render.bed.touch(touch, .moved, at: Point(x: end, y: 116), time: bed.clock.now) }
        bed.render.bed.touch(touch, .ended, time: bed.clock.now)
    }

    @Test func aLiftSelectsAndReportsOnlyAChange() {
        let (bed, control, sent) = Self.controlBed()
        #expect(control.selectedSegmentIndex == SegmentedControl.noSegment && control.numberOfSegments == 3)
        Self.tap(bed, 150)
        Self.tap(bed, 160)
        Self.tap(bed, 290)
        #expect(control.selectedSegmentIndex == 2 && sent.values == [1, 2])
        // Down on one, lifted on another: the one it lifts on.
        Self.tap(bed, 50, to: 150)
        #expect(control.selectedSegmentIndex == 1 && sent.values == [1, 2, 1])
        // Lifted outside: nothing.
        Self.tap(bed, 50, to: 400)
        #expect(control.selectedSegmentIndex == 1 && sent.values.count == 3)
        control.selectedSegmentIndex = 0
        #expect(sent.values.count == 3, "set: nothing sent")
        control.selectedSegmentIndex = 7
        #expect(control.selectedSegmentIndex == SegmentedControl.noSegment)
    }

    @Test func momentarySegmentsReportEachLiftAndDoNotStay() {
        let (bed, control, sent) = Self.controlBed()
        control.isMomentary = true
        Self.tap(bed, 50)
        Self.tap(bed, 50)
        #expect(sent.values == [0, 0] && control.selectedSegmentIndex == SegmentedControl.noSegment)
    }

    @Test func aDisabledSegmentTakesNoTouch() {
        let (bed, control, sent) = Self.controlBed()
        control.setEnabled(false, forSegmentAt: 1)
        Self.tap(bed, 150)
        #expect(control.selectedSegmentIndex == SegmentedControl.noSegment && sent.values.isEmpty)
        #expect(!control.isEnabledForSegment(at: 1) && control.isEnabledForSegment(at: 0))
    }

    @Test func segmentsComeAndGoAndTheSelectionFollows() {
        _ = AnimationBed()
        let control = SegmentedControl(titles: ["A", "B"])
        control.selectedSegmentIndex = 1
        control.insertSegment(withTitle: "Z", at: 0, animated: false)
        #expect(control.titleForSegment(at: 0) == "Z" && control.selectedSegmentIndex == 2)
        control.removeSegment(at: 0, animated: false)
        #expect(control.selectedSegmentIndex == 1 && control.titleForSegment(at: 1) == "B")
        control.removeSegment(at: 1, animated: false)
        #expect(control.selectedSegmentIndex == SegmentedControl.noSegment && control.numberOfSegments == 1)
        let image = Bitmap(width: 16, height: 16)
        control.insertSegment(with: image, at: 9, animated: false)
        #expect(control.imageForSegment(at: 1) === image && control.titleForSegment(at: 1) == nil)
        control.removeAllSegments()
        #expect(control.numberOfSegments == 0)
    }

    @Test func widthsAreEqualByDefaultAndByContentWhenAsked() {
        _ = AnimationBed()
        let control = SegmentedControl(titles: ["A", "A much longer title"])
        let natural = control.intrinsicContentSize
        #expect(natural.height == 32)
        control.bounds.size = natural
        let equal = control.segmentFrames()
        #expect(equal[0].width == equal[1].width && equal[0].width * 2 == natural.width)
        control.apportionsSegmentWidthsByContent = true
        #expect(control.intrinsicContentSize.width < natural.width)
        control.bounds.size = control.intrinsicContentSize
        let own = control.segmentFrames()
        #expect(own[0].width < own[1].width)
        control.apportionsSegmentWidthsByContent = false
        control.setWidth(40, forSegmentAt: 0)
        control.bounds.size = Size(width: 200, height: 32)
        #expect(control.segmentFrames().map(\.width) == [40, 160] && control.widthForSegment(at: 0) == 40)
    }

    @Test func theLookOfEachState() throws {
        let r = RenderBed(width: 320, height: 90)
        let window = r.bed.window("main")
        window.backgroundColor = .white
        let selected = SegmentedControl(titles: ["Day", "Week", "Month"])
        selected.frame = Rect(x: 10, y: 8, width: 300, height: 32)
        selected.selectedSegmentIndex = 1
        let plain = SegmentedControl(titles: ["One", "Two", "Three"])
        plain.frame = Rect(x: 10, y: 50, width: 300, height: 32)
        plain.setEnabled(false, forSegmentAt: 2)
        for control in [selected, plain] { window.addSubview(control) }
        try expectGolden(r.render(), named: "segmented-controls")
    }
}
