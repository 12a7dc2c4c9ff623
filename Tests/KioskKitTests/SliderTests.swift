import KioskTesting
import Testing

@testable import KioskKit

/// `Slider` as UISlider: the value pinned to its range, the thumb dragged with the finger's hold on it kept,
/// `.valueChanged` as it moves or once at the end, the track ignored unless asked, and its look.
@MainActor
@Suite(.serialized)
struct SliderTests {
    /// An animation bed with a 300-point slider at (20, 100) at 0.5, and the values it sent.
    static func sliderBed() -> (AnimationBed, Slider, Recorded<Float>) {
        let bed = AnimationBed(width: 400, height: 240)
        let slider = Slider(frame: Rect(x: 20, y: 100, width: 300, height: 31))
        slider.value = 0.5
        bed.window.addSubview(slider)
        let sent = Recorded<Float>()
        slider.addAction(for: .valueChanged) { control in sent.values.append((control as! Slider).value) }
        bed.render.render()
        return (bed, slider, sent)
    }

    /// A finger down at `start`, through `points`, lifted at the last one (screen coordinates).
    static func drag(_ bed: AnimationBed, from start: Point, through points: [Point]) {
        let touch = bed.render.bed.touchDown(at: start, time: bed.clock.now)
        for point in points {
            bed.advance(by: 0.02)
            bed.render.bed.touch(touch, .moved, at: point, time: bed.clock.now)
        }
        bed.render.bed.touch(touch, .ended, time: bed.clock.now)
    }

    @Test func theValueStaysInItsRange() {
        _ = AnimationBed()
        let slider = Slider(frame: Rect(x: 0, y: 0, width: 200, height: 31))
        slider.value = 2
        #expect(slider.value == 1)
        slider.value = .nan
        #expect(slider.value == 0)
        slider.maximumValue = 10
        slider.value = 7
        slider.minimumValue = 8
        #expect(slider.value == 8, "a minimum above the value moves it up")
        slider.maximumValue = 5
        #expect(slider.minimumValue == 5 && slider.value == 5, "a maximum below the minimum takes it down")
        #expect(slider.intrinsicContentSize == Size(width: View.noIntrinsicMetric, height: 31))
    }

    /// At 0.5 the thumb's centre is at 20 + 14 + 272 / 2 = 170 on the screen (150 in the slider). Taken 5
    /// points right of it and moved 30 right, the centre goes to 200: (200 - 34) / 272.
    @Test func aDraggedThumbKeepsWhereTheFingerTookHold() {
        let (bed, slider, sent) = Self.sliderBed()
        #expect(slider.thumb.frame.midX == 150)
        Self.drag(bed, from: Point(x: 175, y: 115), through: [Point(x: 190, y: 118), Point(x: 205, y: 130)])
        #expect(abs(slider.value - Float(166.0 / 272)) < 1e-5 && abs(slider.thumb.frame.midX - 180) < 1e-3)
        #expect(sent.values.count == 2 && sent.values.last == slider.value, "continuous: one a move")
        // Past the end, it stops there.
        Self.drag(bed, from: Point(x: 200, y: 115), through: [Point(x: 390, y: 115)])
        #expect(slider.value == 1 && sent.values.last == 1)
    }

    @Test func notContinuousItSendsOnceAtTheEnd() {
        let (bed, slider, sent) = Self.sliderBed()
        slider.isContinuous = false
        Self.drag(bed, from: Point(x: 170, y: 115), through: [Point(x: 100, y: 115), Point(x: 120, y: 115)])
        #expect(sent.values == [slider.value] && slider.value < 0.5)
        Self.drag(bed, from: Point(x: 120, y: 115), through: [Point(x: 160, y: 115), Point(x: 120, y: 115)])
        #expect(sent.values.count == 1, "back where it began: nothing changed")
    }

    @Test func theTrackIsIgnoredUnlessAsked() {
        let (bed, slider, sent) = Self.sliderBed()
        Self.drag(bed, from: Point(x: 60, y: 115), through: [Point(x: 80, y: 115)])
        #expect(slider.value == 0.5 && sent.values.isEmpty, "as UIKit's")
        slider.movesToTouchOnTrack = true
        Self.drag(bed, from: Point(x: 60, y: 115), through: [Point(x: 80, y: 115)])
        #expect(abs(slider.value - Float(46.0 / 272)) < 1e-5 && sent.values.count == 2)
    }

    @Test func theTouchAreaIsAtLeast44PointsTall() {
        let (bed, slider, _) = Self.sliderBed()
        // The slider is 31 tall, 100...131: 44 around its middle reaches 137.5.
        Self.drag(bed, from: Point(x: 170, y: 137), through: [Point(x: 200, y: 137)])
        #expect(slider.value > 0.5)
    }

    @Test func settingTheValueSendsNothingAndAnimatesOnlyWhenAsked() {
        let (bed, slider, sent) = Self.sliderBed()
        slider.setValue(1, animated: true)
        #expect(slider.value == 1 && slider.thumb.frame.midX == 286)
        bed.advance(by: Slider.animationDuration / 2)
        bed.render.render()
        let midway = slider.thumb.presentationFrame.midX
        #expect(midway > 155 && midway < 280, "on its way: \(midway)")
        slider.value = 0
        bed.render.render()
        #expect(slider.thumb.presentationFrame.midX == 14 && sent.values.isEmpty, "set at once mid-way: there at once")
    }

    @Test func disabledUnderAFingerItStops() {
        let (bed, slider, sent) = Self.sliderBed()
        let touch = bed.render.bed.touchDown(at: Point(x: 170, y: 115), time: bed.clock.now)
        bed.render.bed.touch(touch, .moved, at: Point(x: 200, y: 115), time: bed.clock.now)
        let moved = slider.value
        slider.isEnabled = false
        bed.render.bed.touch(touch, .moved, at: Point(x: 250, y: 115), time: bed.clock.now)
        bed.render.bed.touch(touch, .ended, time: bed.clock.now)
        #expect(slider.value == moved && sent.values == [moved])
    }

    @Test func theLookOfEachState() throws {
        let r = RenderBed(width: 220, height: 180)
        let window = r.bed.window("main")
        window.backgroundColor = .white
        let states: [(Float, Bool, Color?)] = [(0, true, nil), (0.3, true, nil), (1, true, nil), (0.5, false, nil), (0.7, true, .red)]
        View.performWithoutAnimation {
            for (index, (value, enabled, tint)) in states.enumerated() {
                let slider = Slider(frame: Rect(x: 10, y: 4 + Double(index) * 34, width: 200, height: 31))
                slider.value = value
                slider.isEnabled = enabled
                slider.minimumTrackTintColor = tint
                window.addSubview(slider)
            }
        }
        try expectGolden(r.render(), named: "slider-states")
    }
}
