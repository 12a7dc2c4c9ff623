import KioskTesting
import Testing

@testable import KioskKit

/// `Stepper` as UIStepper: a step a touch, repeats while held on the manual clock, the ends (dimmed, or
/// wrapped round), `.valueChanged` per step or once, and its look.
@MainActor
@Suite(.serialized)
struct StepperTests {
    /// An animation bed with a stepper at (100, 100) (its − half 100...147, its + half 147...194), and the
    /// values it sent.
    static func stepperBed() -> (AnimationBed, Stepper, Recorded<Double>) {
        let bed = AnimationBed()
        let stepper = Stepper(frame: Rect(x: 100, y: 100, width: 0, height: 0))
        bed.window.addSubview(stepper)
        let sent = Recorded<Double>()
        stepper.addAction(for: .valueChanged) { control in sent.values.append((control as! Stepper).value) }
        bed.render.render()
        return (bed, stepper, sent)
    }

    static let minus = Point(x: 120, y: 116), plus = Point(x: 170, y: 116)

    /// A finger on `point` for `hold` seconds.
    static func press(_ bed: AnimationBed, _ point: Point, hold: TimeInterval = 0.05) {
        let touch = bed.render.bed.touchDown(at: point, time: bed.clock.now)
        bed.advance(by: hold)
        bed.render.bed.touch(touch, .ended, time: bed.clock.now)
    }

    @Test func eachTouchStepsOnce() {
        let (bed, stepper, sent) = Self.stepperBed()
        #expect(stepper.bounds.size == Stepper.standardSize && stepper.value == 0)
        Self.press(bed, Self.plus)
        Self.press(bed, Self.plus)
        Self.press(bed, Self.minus)
        #expect(stepper.value == 1 && sent.values == [1, 2, 1])
        stepper.stepValue = 0.5
        Self.press(bed, Self.plus)
        #expect(stepper.value == 1.5)
        stepper.stepValue = 0
        #expect(stepper.stepValue == 0.5, "a step of 0 is refused")
        stepper.value = 1000
        #expect(stepper.value == 100 && sent.values.count == 4, "set: pinned, and nothing sent")
    }

    @Test func theRepeatsComeAtTheirTimes() {
        #expect(Stepper.repeatTime(0) == 0.5 && Stepper.repeatTime(1) == 0.6 && Stepper.repeatTime(20) == 2.5)
        #expect(Stepper.repeatTime(21) == 2.55 && Stepper.repeatTime(30) == 3.0)
    }

    /// Held 1.0 s: a step at once, then at 0.5, 0.6, ..., 1.0 s: seven. Held 3 s: after 2 s of repeats
    /// (at 2.5 s) they come twice as fast.
    @Test func aHeldButtonRepeatsThenFaster() {
        let (bed, stepper, _) = Self.stepperBed()
        Self.press(bed, Self.plus, hold: 1.0)
        #expect(stepper.value == 7)
        stepper.value = 0
        Self.press(bed, Self.plus, hold: 3.0)
        // 1 + 21 repeats (0.5 ... 2.5 s) + 10 more at 0.05 s (2.55 ... 3.0 s).
        #expect(stepper.value == 32)
        #expect(bed.clock.pendingTimers.isEmpty, "nothing left once lifted")
        stepper.autorepeat = false
        stepper.value = 0
        Self.press(bed, Self.plus, hold: 1.0)
        #expect(stepper.value == 1)
    }

    @Test func atAnEndItStopsOrWrapsRound() {
        let (bed, stepper, sent) = Self.stepperBed()
        stepper.maximumValue = 2
        Self.press(bed, Self.minus)
        #expect(stepper.value == 0 && sent.values.isEmpty && !stepper.canStep(-1))
        Self.press(bed, Self.plus, hold: 2)
        #expect(stepper.value == 2 && sent.values == [1, 2] && bed.clock.pendingTimers.isEmpty)
        stepper.wraps = true
        Self.press(bed, Self.plus)
        #expect(stepper.value == 0 && sent.values.last == 0)
        Self.press(bed, Self.minus)
        #expect(stepper.value == 2)
    }

    @Test func notContinuousItSendsOnceAtTheEnd() {
        let (bed, stepper, sent) = Self.stepperBed()
        stepper.isContinuous = false
        Self.press(bed, Self.plus, hold: 1.0)
        #expect(stepper.value == 7 && sent.values == [7])
    }

    @Test func disabledOrRemovedWhileHeldItStopsRepeating() {
        let (bed, stepper, _) = Self.stepperBed()
        let touch = bed.render.bed.touchDown(at: Self.plus, time: bed.clock.now)
        bed.advance(by: 0.55)
        stepper.isEnabled = false
        #expect(stepper.value == 2 && bed.clock.pendingTimers.isEmpty)
        bed.render.bed.touch(touch, .ended, time: bed.clock.now)
        stepper.isEnabled = true
        let again = bed.render.bed.touchDown(at: Self.plus, time: bed.clock.now)
        stepper.removeFromSuperview()
        bed.advance(by: 1)
        #expect(stepper.value == 3 && bed.clock.pendingTimers.isEmpty)
        bed.render.bed.touch(again, .ended, time: bed.clock.now)
    }

    @Test func theTouchAreaIsAtLeast44PointsTall() {
        let (bed, stepper, _) = Self.stepperBed()
        // The plate is 100...132: 44 around its middle is 94...138.
        Self.press(bed, Point(x: 170, y: 137))
        Self.press(bed, Point(x: 170, y: 95))
        #expect(stepper.value == 2)
        Self.press(bed, Point(x: 170, y: 139))
        #expect(stepper.value == 2)
    }

    @Test func theLookOfEachState() throws {
        let r = RenderBed(width: 320, height: 50)
        let window = r.bed.window("main")
        window.backgroundColor = .white
        let atMinimum = Stepper(frame: Rect(x: 6, y: 9, width: 0, height: 0))
        let between = Stepper(frame: Rect(x: 110, y: 9, width: 0, height: 0))
        between.value = 5
        let disabled = Stepper(frame: Rect(x: 214, y: 9, width: 0, height: 0))
        disabled.value = 5
        disabled.isEnabled = false
        for stepper in [atMinimum, between, disabled] { window.addSubview(stepper) }
        try expectGolden(r.render(), named: "stepper-states")
    }
}
