import KioskTesting
import Testing

@testable import KioskKit

/// What every control shares: a change to one composes its own rectangle and nothing else, and on a screen
/// turned a quarter they are drawn upright in the turned frame (each control's own look and states are in
/// its own suite's golden image).
@MainActor
@Suite(.serialized)
struct ControlsTests {
    /// One of each control, stacked down a 320-point-wide column.
    static func controls(in window: Window) -> [(name: String, view: View, change: () -> Void)] {
        let toggle = Switch(frame: Rect(x: 20, y: 20, width: 0, height: 0))
        let slider = Slider(frame: Rect(x: 20, y: 70, width: 280, height: 31))
        slider.value = 0.3
        let stepper = Stepper(frame: Rect(x: 20, y: 120, width: 0, height: 0))
        let segments = SegmentedControl(titles: ["Day", "Week", "Month"])
        segments.frame = Rect(x: 20, y: 170, width: 280, height: 32)
        segments.selectedSegmentIndex = 0
        let dots = PageControl(frame: Rect(x: 20, y: 220, width: 280, height: 26))
        dots.numberOfPages = 4
        let progress = ProgressView(frame: Rect(x: 20, y: 270, width: 280, height: 4))
        progress.progress = 0.4
        let spinner = ActivityIndicatorView(style: .large)
        spinner.frame.origin = Point(x: 20, y: 300)
        spinner.hidesWhenStopped = false
        let button = Button(title: "Continue", frame: Rect(x: 20, y: 360, width: 280, height: 44))
        button.backgroundColor = Color(white: 0.94)
        button.cornerRadius = 10
        let all: [(String, View, () -> Void)] = [
            ("switch", toggle, { toggle.isOn = true }), ("slider", slider, { slider.value = 0.8 }),
            ("stepper", stepper, { stepper.value = 3 }), ("segmented control", segments, { segments.selectedSegmentIndex = 2 }),
            ("page control", dots, { dots.currentPage = 2 }), ("progress view", progress, { progress.progress = 0.9 }),
            ("activity indicator", spinner, { spinner.color = .red }), ("button", button, { button.title = "Pay" }),
        ]
        for (_, view, _) in all { window.addSubview(view) }
        return all
    }

    @Test func aChangeToAControlComposesOnlyItsRectangle() {
        let r = RenderBed(width: 320, height: 480)
        let window = r.bed.window("main")
        window.backgroundColor = .white
        let controls = Self.controls(in: window)
        r.render()
        for (name, view, change) in controls {
            let before = r.output.presented.count
            change()
            r.render()
            #expect(r.output.presented.count == before + 1, "\(name): one frame")
            guard let damage = r.output.presented.last?.damage else { continue }
            // Its frame, and the touch area or the thumb's overhang a control draws within it.
            let allowed = Region(PixelRect(enclosing: view.frame.insetBy(dx: -1, dy: -1)))
            #expect(!damage.isEmpty && allowed.contains(damage.extents), "\(name): damage \(damage.extents) beyond \(view.frame)")
        }
    }

    /// Placed by constraints alone, each control takes its intrinsic size (the width too where it has one),
    /// with no layout problem.
    @Test func constraintsGiveEachControlItsIntrinsicSize() {
        let bed = LayoutBed()
        let segments = SegmentedControl(titles: ["Day", "Week"])
        let dots = PageControl()
        dots.numberOfPages = 3
        let controls: [View] = [Switch(), Stepper(), segments, dots, Slider(), PickerView()]
        var above = bed.container.topAnchor
        for control in controls {
            control.translatesAutoresizingMaskIntoConstraints = false
            bed.container.addSubview(control)
            LayoutConstraint.activate([
                control.leadingAnchor.constraint(equalTo: bed.container.leadingAnchor, constant: 10),
                control.topAnchor.constraint(equalTo: above, constant: 4),
            ])
            above = control.bottomAnchor
        }
        // The slider has no intrinsic width: the layout gives it one.
        controls[4].widthAnchor.constraint(equalToConstant: 200).isActive = true
        bed.layout()
        #expect(bed.takeProblems().isEmpty)
        #expect(controls[0].frame.size == Size(width: 51, height: 31) && controls[1].frame.size == Size(width: 94, height: 32))
        #expect(controls[2].frame.size == segments.intrinsicContentSize && controls[3].frame.size == Size(width: 56, height: 26))
        #expect(controls[4].frame.size == Size(width: 200, height: 31) && controls[4].frame.minY == controls[3].frame.maxY + 4)
        #expect(controls[5].frame.size == Size(width: 320, height: 216), "UIKit's picker")
    }

    /// `.primaryActionTriggered`, UIKit's semantic event: a button's tap, a value control's change, Return in
    /// a text field; a handler for it and another event is called once.
    @Test func thePrimaryActionComesWithTheEventThatIsIt() {
        let bed = AnimationBed()
        let button = Button(title: "Buy", frame: Rect(x: 10, y: 10, width: 100, height: 44))
        let toggle = Switch(frame: Rect(x: 10, y: 80, width: 0, height: 0))
        let field = TextField(frame: Rect(x: 10, y: 140, width: 200, height: 40))
        let log = Recorded<String>()
        let pairs: [(String, Control, Control.Events)] = [
            ("button", button, .touchUpInside), ("switch", toggle, .valueChanged), ("field", field, .editingDidEndOnExit),
        ]
        for (name, control, event) in pairs {
            bed.window.addSubview(control)
            control.addAction(for: .primaryActionTriggered) { _ in log.values.append("\(name) primary") }
            control.addAction(for: [event, .primaryActionTriggered]) { _ in log.values.append("\(name) once") }
        }
        bed.render.render()
        for point in [Point(x: 50, y: 30), Point(x: 30, y: 95)] {
            let touch = bed.render.bed.touchDown(at: point, time: bed.clock.now)
            bed.render.bed.touch(touch, .ended, time: bed.clock.now)
        }
        #expect(log.values == ["button primary", "button once", "switch primary", "switch once"])
        log.values = []
        #expect(field.becomeFirstResponder())
        field.pressReturn()
        #expect(log.values == ["field primary", "field once"])
    }

    @Test func theyAreDrawnUprightOnAScreenTurnedAQuarter() throws {
        let r = RenderBed(width: 480, height: 320, rotation: .rotated90)
        let window = r.bed.window("main")
        window.backgroundColor = .white
        #expect(window.frame.size == Size(width: 320, height: 480))
        View.performWithoutAnimation { _ = Self.controls(in: window) }
        try expectGolden(r.render(), named: "controls-rotated-90")
    }
}
