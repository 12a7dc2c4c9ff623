import KioskTesting
import Testing

@testable import KioskKit

/// `Switch` as UISwitch behaves: taps toggle, a slide takes the side the finger is on, `.valueChanged` once
/// per touch that changed it and never for `setOn(_:animated:)`, its size and touch area, and its look.
@MainActor
@Suite(.serialized)
struct SwitchTests {
    /// An animation bed with a switch whose track is at (100, 100), and the events it sent, in order.
    static func switchBed() -> (AnimationBed, Switch, Recorded<String>) {
        let bed = AnimationBed()
        let toggle = Switch(frame: Rect(x: 100, y: 100, width: 0, height: 0))
        bed.window.addSubview(toggle)
        let events = Recorded<String>()
        let named: [(Control.Events, String)] = [
            (.valueChanged, "valueChanged"), (.touchUpInside, "touchUpInside"), (.touchUpOutside, "touchUpOutside"),
            (.touchCancel, "touchCancel"),
        ]
        for (event, name) in named {
            toggle.addAction(for: event) { control in events.values.append("\(name) \((control as! Switch).isOn)") }
        }
        bed.render.render()
        return (bed, toggle, events)
    }

    /// A finger down at `start`, through `points`, lifted at the last one (screen coordinates).
    static func touch(_ bed: AnimationBed, from start: Point, through points: [Point] = []) {
        let touch = bed.render.bed.touchDown(at: start, time: bed.clock.now)
        for point in points {
            bed.advance(by: 0.02)
            bed.render.bed.touch(touch, .moved, at: point, time: bed.clock.now)
        }
        bed.advance(by: 0.02)
        bed.render.bed.touch(touch, .ended, time: bed.clock.now)
    }

    @Test func aSwitchMadeWithoutASizeHasUIKitsSize() {
        _ = AnimationBed()
        let toggle = Switch()
        #expect(toggle.bounds.size == Size(width: 51, height: 31) && toggle.intrinsicContentSize == Switch.standardSize)
        #expect(toggle.sizeThatFits(Size(width: 500, height: 500)) == Switch.standardSize)
        #expect(!toggle.isOn)
    }

    @Test func aTapTogglesItAndSendsValueChangedOnce() {
        let (bed, toggle, events) = Self.switchBed()
        Self.touch(bed, from: Point(x: 120, y: 115))
        #expect(toggle.isOn)
        Self.touch(bed, from: Point(x: 140, y: 115))
        #expect(!toggle.isOn)
        #expect(events.values == ["touchUpInside true", "valueChanged true", "touchUpInside false", "valueChanged false"])
    }

    @Test func settingTheValueSendsNothingAndAnimatesOnlyWhenAsked() {
        let (bed, toggle, events) = Self.switchBed()
        let offFrame = toggle.thumb.frame
        toggle.setOn(true, animated: true)
        let onFrame = toggle.thumbFrame(on: true, pressed: false)
        #expect(toggle.isOn && toggle.thumb.frame == onFrame)
        bed.advance(by: Switch.animationDuration / 2)
        bed.render.render()
        let midway = toggle.thumb.presentationFrame.minX
        #expect(midway > offFrame.minX + 2 && midway < onFrame.minX - 2, "on its way: \(midway)")
        toggle.isOn = false
        bed.render.render()
        #expect(toggle.thumb.presentationFrame == offFrame, "set without animation mid-way: there at once")
        toggle.setOn(true, animated: true)
        bed.advance(by: Switch.animationDuration + 0.1)
        bed.render.render()
        #expect(toggle.thumb.presentationFrame == onFrame)
        #expect(events.values.isEmpty)
    }

    @Test func aSlideTakesTheSideTheFingerIsOnEvenOutside() {
        let (bed, toggle, events) = Self.switchBed()
        // Right across: on, and the finger lifted outside the switch still counts.
        Self.touch(bed, from: Point(x: 105, y: 115), through: [Point(x: 120, y: 115), Point(x: 140, y: 116), Point(x: 220, y: 130)])
        #expect(toggle.isOn)
        #expect(events.values == ["touchUpOutside true", "valueChanged true"])
        events.values = []
        // There and back: the value it found, nothing sent.
        Self.touch(bed, from: Point(x: 145, y: 115), through: [Point(x: 110, y: 115), Point(x: 148, y: 115)])
        #expect(toggle.isOn && events.values == ["touchUpInside true"])
    }

    @Test func theThumbFollowsASlideAndStretchesWhilePressed() {
        let (bed, toggle, _) = Self.switchBed()
        let touch = bed.render.bed.touchDown(at: Point(x: 105, y: 115), time: bed.clock.now)
        bed.advance(by: 1)
        #expect(toggle.thumb.frame == toggle.thumbFrame(on: false, pressed: true))
        #expect(toggle.thumb.frame.width == 34)
        bed.render.bed.touch(touch, .moved, at: Point(x: 140, y: 115), time: bed.clock.now)
        #expect(toggle.thumb.frame == toggle.thumbFrame(on: true, pressed: true) && !toggle.isOn, "the side, not yet the value")
        bed.render.bed.touch(touch, .ended, time: bed.clock.now)
        #expect(toggle.isOn && toggle.thumb.frame == toggle.thumbFrame(on: true, pressed: false))
    }

    @Test func theTouchAreaIsAtLeast44PointsTall() {
        let (bed, toggle, _) = Self.switchBed()
        // The track is 31 tall, 100...131: 44 around its centre is 93.5...137.5.
        Self.touch(bed, from: Point(x: 125, y: 136))
        #expect(toggle.isOn)
        Self.touch(bed, from: Point(x: 125, y: 139))
        #expect(toggle.isOn, "below the touch area: not its touch")
        #expect(toggle.point(inside: Point(x: 25, y: -6), with: nil) && !toggle.point(inside: Point(x: 25, y: -7), with: nil))
    }

    @Test func disabledUnderAFingerItKeepsItsValue() {
        let (bed, toggle, events) = Self.switchBed()
        let touch = bed.render.bed.touchDown(at: Point(x: 105, y: 115), time: bed.clock.now)
        bed.render.bed.touch(touch, .moved, at: Point(x: 145, y: 115), time: bed.clock.now)
        toggle.isEnabled = false
        bed.render.bed.touch(touch, .ended, time: bed.clock.now)
        #expect(!toggle.isOn && events.values == ["touchCancel false"])
        #expect(toggle.thumb.frame == toggle.thumbFrame(on: false, pressed: false))
        Self.touch(bed, from: Point(x: 125, y: 115))
        #expect(!toggle.isOn, "disabled, a tap does nothing")
    }

    @Test func theLookOfEachState() throws {
        let r = RenderBed(width: 360, height: 60)
        let window = r.bed.window("main")
        window.backgroundColor = .white
        let states: [(on: Bool, pressed: Bool, enabled: Bool, tint: Color?)] = [
            (false, false, true, nil), (true, false, true, nil), (false, true, true, nil), (true, true, true, nil),
            (true, false, false, nil), (true, false, true, Color(rgb: 0x0A84FF)),
        ]
        View.performWithoutAnimation {
            for (index, state) in states.enumerated() {
                let toggle = Switch(frame: Rect(x: 8 + Double(index) * 58, y: 0, width: 51, height: 60))
                toggle.onTintColor = state.tint
                toggle.isOn = state.on
                toggle.isHighlighted = state.pressed
                toggle.isEnabled = state.enabled
                window.addSubview(toggle)
            }
        }
        try expectGolden(r.render(), named: "switch-states")
    }
}
