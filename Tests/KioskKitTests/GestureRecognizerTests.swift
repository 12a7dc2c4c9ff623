import Foundation
import KioskTesting
import Testing

@testable import KioskKit

/// One step of a gesture table. Fingers are numbered, positions are screen points and times are the
/// kernel's timestamps in seconds, relative to the start of the row.
enum GestureStep {
    case down(Int, Double, Double, at: TimeInterval)
    case move(Int, Double, Double, at: TimeInterval)
    /// The finger lifts where it is (libinput's touch-up carries no position).
    case up(Int, at: TimeInterval)
    /// Several fingers in one event (one frame of the device), at the time of the first.
    case frame([GestureStep])
    /// The clock goes on to this time, firing the recognizers' timers due by then.
    case wait(TimeInterval)
    /// `Application.cancelTouches` on every touch down (the device went away).
    case cancelAll(at: TimeInterval)
    /// Logs the label, then does something to the recognizers in the middle of the gesture.
    case act(String, @MainActor () -> Void)
    /// Logs what the closure reports (a translation between state changes).
    case note(@MainActor () -> String)
}

/// A row of a gesture table: the touches and every line they make the log say, in order.
struct GestureRow {
    let name: String
    let setup: (@MainActor () -> Void)?
    let steps: [GestureStep]
    let expected: [String]

    init(_ name: String, setup: (@MainActor () -> Void)? = nil, _ steps: [GestureStep], _ expected: [String]) {
        self.name = name
        self.setup = setup
        self.steps = steps
        self.expected = expected
    }
}

/// A window on the in-memory screen, a manual clock, and one log of what the recognizers do (each state
/// change, through the instrumentation's `gestureChanged`) and what the views and controls under the fingers get,
/// every line stamped with the row's time, so the order of the two is part of what a table checks.
@MainActor
final class GestureLab {
    let bed = TestBed()
    let clock = ManualClock(now: 0)
    let window: Window
    private(set) var log: [String] = []
    /// Where the current row's times start: each row runs 10 s after the last, on the same recognizers.
    private var base: TimeInterval = 0
    private var fingers: [Int: Touch] = [:]
    private var recognizers: [GestureRecognizer] = []
    private var details: [ObjectIdentifier: () -> String] = [:]
    /// `log`'s subscription to the recognizers' state changes.
    private var gestures: InstrumentationToken?

    init() {
        // The recognizers' timers (multi-tap interval, long press, swipe duration) run on this clock.
        bed.app.clock = clock
        window = bed.window("main")
        gestures = bed.app.instrumentation.observe { [unowned self] event in
            guard case .gestureChanged(let recognizer) = event else { return }
            let detail = details[ObjectIdentifier(recognizer)]?() ?? ""
            record("\(recognizer.name ?? recognizer.kind) \(recognizer.state.rawValue)" + (detail.isEmpty ? "" : " " + detail))
        }
    }

    func record(_ line: String) {
        log.append(String(format: "%.2f ", clock.now - base) + line)
    }

    /// A view that logs the touches it gets, added to `parent` (the window by default).
    func view(_ name: String, frame: Rect, in parent: View? = nil) -> LoggingView {
        let view = LoggingView(frame: frame)
        view.lab = self
        view.identifier = name
        (parent ?? window).addSubview(view)
        return view
    }

    /// A button that logs the control events it sends.
    func button(_ name: String, frame: Rect, in parent: View) -> Button {
        let button = Button(title: name, frame: frame)
        let events: [(Control.Events, String)] = [
            (.touchDown, "touchDown"), (.touchDragInside, "touchDragInside"), (.touchDragOutside, "touchDragOutside"),
            (.touchUpInside, "touchUpInside"), (.touchUpOutside, "touchUpOutside"), (.touchCancel, "touchCancel"),
        ]
        for (event, label) in events {
            button.addAction(for: event) { [unowned self] _ in record("\(name) \(label)") }
        }
        parent.addSubview(button)
        return button
    }

    /// Attaches `recognizer` to `view` under `name`; `detail` adds what it measures to its log lines.
    @discardableResult
    func add<Recognizer: GestureRecognizer>(
        _ recognizer: Recognizer, _ name: String, to view: View, detail: ((Recognizer) -> String)? = nil
    ) -> Recognizer {
        recognizer.name = name
        view.addGestureRecognizer(recognizer)
        recognizers.append(recognizer)
        if let detail { details[ObjectIdentifier(recognizer)] = { detail(recognizer) } }
        return recognizer
    }

    /// Runs the rows one after the other on the same recognizers, twice over: each row must log exactly
    /// its lines both times, and leave every recognizer back at `.possible` (reset after its gesture).
    func check(_ rows: [GestureRow], sourceLocation: SourceLocation = #_sourceLocation) {
        for pass in 1...2 {
            for row in rows {
                base += 10
                clock.advance(to: base)
                log = []
                row.setup?()
                run(row.steps)
                // Whatever timers are left fire within the row's ten seconds and log here.
                clock.advance(to: base + 9)
                #expect(log == row.expected, "\(row.name) (pass \(pass))", sourceLocation: sourceLocation)
                #expect(fingers.isEmpty, "\(row.name): a finger is still down", sourceLocation: sourceLocation)
                let states = recognizers.map { "\($0.name ?? $0.kind) \($0.state.rawValue)" }
                #expect(
                    states == recognizers.map { "\($0.name ?? $0.kind) possible" }, "\(row.name) (pass \(pass)): not reset",
                    sourceLocation: sourceLocation)
            }
        }
    }

    func run(_ steps: [GestureStep]) {
        for step in steps {
            switch step {
            case .down, .move, .up: send([step])
            case .frame(let parts): send(parts)
            case .wait(let time): clock.advance(to: base + time)
            case .cancelAll(let time):
                clock.advance(to: base + time)
                bed.app.cancelTouches(reason: "test") { _ in true }
                fingers.removeAll()
            case .act(let label, let body):
                record(label)
                body()
            case .note(let body): record(body())
            }
        }
    }

    /// One event: the clock first (timers due before it fire before it), then the touches.
    private func send(_ parts: [GestureStep]) {
        var time: TimeInterval?
        for part in parts {
            switch part {
            case .down(_, _, _, let at), .move(_, _, _, let at), .up(_, let at): time = time ?? base + at
            default: Issue.record("a frame holds downs, moves and ups only")
            }
        }
        guard let time else { return }
        clock.advance(to: time)
        var touches: Set<Touch> = []
        for part in parts {
            switch part {
            case .down(let finger, let x, let y, _):
                let touch = Touch(screen: Screen.main, location: Point(x: x, y: y), timestamp: time)
                fingers[finger] = touch
                touches.insert(touch)
            case .move(let finger, let x, let y, _):
                guard let touch = fingers[finger] else {
                    Issue.record("finger \(finger) is not down")
                    return
                }
                touch.update(phase: .moved, location: Point(x: x, y: y), timestamp: time)
                touches.insert(touch)
            case .up(let finger, _):
                guard let touch = fingers.removeValue(forKey: finger) else {
                    Issue.record("finger \(finger) is not down")
                    return
                }
                touch.update(phase: .ended, location: touch.locationOnScreen, timestamp: time)
                touches.insert(touch)
            default: break
            }
        }
        bed.app.sendEvent(Event(touches: touches, timestamp: time))
    }
}

/// A view that logs the touch calls it gets as `"<name> <phase> <count>"`.
@MainActor
final class LoggingView: View {
    weak var lab: GestureLab?

    private func record(_ phase: String, _ touches: Set<Touch>) { lab?.record("\(displayName) \(phase) \(touches.count)") }

    override func touchesBegan(_ touches: Set<Touch>, with event: Event) { record("began", touches) }
    override func touchesMoved(_ touches: Set<Touch>, with event: Event) { record("moved", touches) }
    override func touchesEnded(_ touches: Set<Touch>, with event: Event) { record("ended", touches) }
    override func touchesCancelled(_ touches: Set<Touch>, with event: Event) { record("cancelled", touches) }
}

/// A delegate whose answers the test sets; it logs the questions that decide something.
@MainActor
final class ScriptedDelegate: GestureRecognizerDelegate {
    weak var lab: GestureLab?
    var shouldBegin = true
    var receives: (Touch) -> Bool = { _ in true }
    var simultaneous = false

    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool {
        lab?.record("should \(recognizer.name ?? recognizer.kind) begin? \(shouldBegin)")
        return shouldBegin
    }

    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool {
        let answer = receives(touch)
        lab?.record("should \(recognizer.name ?? recognizer.kind) receive \(format(touch.locationOnScreen))? \(answer)")
        return answer
    }

    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
        simultaneous
    }
}

/// A target for `addTarget(_:action:)` that keeps the states its action was called in.
@MainActor
final class ActionLog {
    var states: [String] = []

    func pressed(_ press: LongPressGestureRecognizer) { states.append(press.state.rawValue) }
}

/// Rounded to a thousandth, so that a velocity computed from timestamps such as 1.11 - 1.02 reads as the
/// number it stands for; -0 reads as 0.
func format(_ value: Double) -> String { "\((value * 1000).rounded() / 1000 + 0.0)" }

func format(_ point: Point) -> String { "(\(format(point.x)), \(format(point.y)))" }

func name(of direction: SwipeGestureRecognizer.Direction) -> String {
    switch direction {
    case .right: "right"
    case .left: "left"
    case .up: "up"
    case .down: "down"
    default: "\(direction.rawValue)"
    }
}

@MainActor @Suite(.serialized)
struct GestureRecognizerTests {
    /// The pad covers most of the screen, 100 pt in from its corner: its coordinates are the screen's
    /// minus 100.
    static let padFrame = Rect(x: 100, y: 100, width: 1600, height: 900)

    // MARK: Tap

    @Test func singleTapWaitsForTheDoubleTapToFail() {
        let lab = GestureLab()
        let pad = lab.view("pad", frame: Self.padFrame)
        let single = lab.add(TapGestureRecognizer(), "single", to: pad)
        let double = lab.add(TapGestureRecognizer(), "double", to: pad)
        double.numberOfTapsRequired = 2
        single.require(toFail: double)
        lab.check([
            GestureRow(
                "one tap: the single tap once the 0.35 s interval is over and the double tap failed",
                [.down(1, 300, 300, at: 1.0), .up(1, at: 1.1), .wait(2.0)],
                [
                    "1.00 pad began 1",
                    "1.45 double failed",
                    // The end was held back (delaysTouchesEnded) and is cancelled now that a tap took it.
                    "1.45 pad cancelled 1",
                    "1.45 single ended",
                ]),
            GestureRow(
                "two quick taps: the double tap, the single tap fails, both touches are cancelled",
                [.down(1, 300, 300, at: 1.0), .up(1, at: 1.1), .down(2, 310, 305, at: 1.2), .up(2, at: 1.3), .wait(2.0)],
                [
                    "1.00 pad began 1",
                    "1.20 pad began 1",
                    "1.30 single failed",
                    "1.30 pad cancelled 2",
                    "1.30 double ended",
                ]),
            GestureRow(
                "two taps 0.4 s apart: two single taps",
                [.down(1, 300, 300, at: 1.0), .up(1, at: 1.1), .down(2, 300, 300, at: 1.5), .up(2, at: 1.6), .wait(2.5)],
                [
                    "1.00 pad began 1",
                    "1.45 double failed",
                    "1.45 pad cancelled 1",
                    "1.45 single ended",
                    "1.50 pad began 1",
                    "1.95 double failed",
                    "1.95 pad cancelled 1",
                    "1.95 single ended",
                ]),
            GestureRow(
                "a second tap 100 pt away: the double tap fails at once, the single tap takes the first tap only",
                [
                    .down(1, 300, 300, at: 1.0), .up(1, at: 1.1), .down(2, 400, 300, at: 1.2), .up(2, at: 1.3),
                    // Both are reset once that second finger is up: the next tap is a single tap again.
                    .down(3, 300, 300, at: 2.0), .up(3, at: 2.1), .wait(3.0),
                ],
                [
                    "1.00 pad began 1",
                    "1.20 double failed",
                    "1.20 pad cancelled 1",
                    "1.20 single ended",
                    // The second finger is no part of the single tap's gesture: its view gets it all.
                    "1.20 pad began 1",
                    "1.30 pad ended 1",
                    "2.00 pad began 1",
                    "2.45 double failed",
                    "2.45 pad cancelled 1",
                    "2.45 single ended",
                ]),
        ])
    }

    @Test func tapFailsWhenTheFingerMovesTooFar() {
        let lab = GestureLab()
        let pad = lab.view("pad", frame: Self.padFrame)
        let tap = lab.add(TapGestureRecognizer(), "tap", to: pad)
        #expect(tap.allowableMovement == 45)
        lab.check([
            GestureRow(
                "40 pt is still a tap",
                [.down(1, 300, 300, at: 1.0), .move(1, 340, 300, at: 1.05), .up(1, at: 1.1)],
                ["1.00 pad began 1", "1.05 pad moved 1", "1.10 pad cancelled 1", "1.10 tap ended"]),
            GestureRow(
                "46 pt is not",
                [.down(1, 300, 300, at: 1.0), .move(1, 346, 300, at: 1.05), .up(1, at: 1.1)],
                ["1.00 pad began 1", "1.05 tap failed", "1.05 pad moved 1", "1.10 pad ended 1"]),
            GestureRow(
                "a finger that lands while the tap has failed is not the next tap's",
                [
                    .down(1, 300, 300, at: 1.0), .move(1, 400, 300, at: 1.05), .down(2, 600, 300, at: 1.1),
                    // The tap is reset here, finger 2 still down: it must not see finger 2 end without its start.
                    .up(1, at: 1.15), .up(2, at: 1.2),
                    .down(3, 300, 300, at: 2.0), .up(3, at: 2.1),
                ],
                [
                    "1.00 pad began 1",
                    "1.05 tap failed",
                    "1.05 pad moved 1",
                    "1.10 pad began 1",
                    "1.15 pad ended 1",
                    "1.20 pad ended 1",
                    "2.00 pad began 1",
                    "2.10 pad cancelled 1",
                    "2.10 tap ended",
                ]),
        ])
    }

    @Test func twoFingerTap() {
        let lab = GestureLab()
        let pad = lab.view("pad", frame: Self.padFrame)
        let tap = lab.add(TapGestureRecognizer(), "tap", to: pad) { tap in
            // The centroid of the tap's fingers, where they lifted, in the event that ends it (lifted one
            // after the other as well), and each finger by its index.
            tap.state == .ended && tap.numberOfTouches == 2
                ? "at \(format(tap.location(in: pad))) from \(format(tap.location(ofTouch: 0, in: pad))), \(format(tap.location(ofTouch: 1, in: pad)))"
                : ""
        }
        tap.numberOfTouchesRequired = 2
        lab.check([
            GestureRow(
                "two fingers down and up together",
                [.frame([.down(1, 300, 300, at: 1.0), .down(2, 360, 300, at: 1.0)]), .frame([.up(1, at: 1.1), .up(2, at: 1.1)])],
                // The centroid of the two fingers, in the pad's coordinates.
                ["1.00 pad began 2", "1.10 pad cancelled 2", "1.10 tap ended at (230.0, 200.0) from (200.0, 200.0), (260.0, 200.0)"]),
            GestureRow(
                "down one after the other, up together",
                [.down(1, 300, 300, at: 1.0), .down(2, 360, 300, at: 1.03), .frame([.up(1, at: 1.1), .up(2, at: 1.1)])],
                [
                    "1.00 pad began 1", "1.03 pad began 1", "1.10 pad cancelled 2",
                    "1.10 tap ended at (230.0, 200.0) from (200.0, 200.0), (260.0, 200.0)",
                ]),
            GestureRow(
                "up one after the other: the tap ends with the last finger, at the centroid of both",
                [.down(1, 300, 300, at: 1.0), .down(2, 360, 300, at: 1.02), .up(1, at: 1.1), .up(2, at: 1.12)],
                [
                    "1.00 pad began 1", "1.02 pad began 1", "1.12 pad cancelled 2",
                    "1.12 tap ended at (230.0, 200.0) from (200.0, 200.0), (260.0, 200.0)",
                ]),
            GestureRow(
                "one finger only",
                [.down(1, 300, 300, at: 1.0), .up(1, at: 1.1)],
                ["1.00 pad began 1", "1.10 tap failed", "1.10 pad ended 1"]),
            GestureRow(
                "three fingers",
                [
                    .down(1, 300, 300, at: 1.0), .down(2, 360, 300, at: 1.01), .down(3, 420, 300, at: 1.02),
                    .frame([.up(1, at: 1.1), .up(2, at: 1.1), .up(3, at: 1.1)]),
                ],
                ["1.00 pad began 1", "1.01 pad began 1", "1.02 tap failed", "1.02 pad began 1", "1.10 pad ended 3"]),
        ])
    }

    // MARK: Long press

    @Test func longPress() {
        let lab = GestureLab()
        let pad = lab.view("pad", frame: Self.padFrame)
        let press = lab.add(LongPressGestureRecognizer(), "press", to: pad) { "at \(format($0.location(in: pad)))" }
        #expect(press.minimumPressDuration == 0.5 && press.allowableMovement == 10)
        // Target-action runs on every change but to `.failed` (and `.possible`).
        let target = ActionLog()
        press.addTarget(target, action: ActionLog.pressed)
        lab.check([
            GestureRow(
                "held 0.5 s: began then, changed on a move, ended on the lift",
                [.down(1, 300, 300, at: 1.0), .wait(1.6), .move(1, 340, 300, at: 1.7), .up(1, at: 1.8)],
                [
                    "1.00 pad began 1",
                    "1.50 pad cancelled 1",
                    "1.50 press began at (200.0, 200.0)",
                    "1.70 press changed at (240.0, 200.0)",
                    "1.80 press ended at (240.0, 200.0)",
                ]),
            GestureRow(
                "moving exactly allowableMovement before the time is still a press",
                [.down(1, 300, 300, at: 1.0), .move(1, 310, 300, at: 1.2), .up(1, at: 1.6)],
                [
                    "1.00 pad began 1",
                    "1.20 pad moved 1",
                    "1.50 pad cancelled 1",
                    "1.50 press began at (210.0, 200.0)",
                    "1.60 press ended at (210.0, 200.0)",
                ]),
            GestureRow(
                "lifted after 0.3 s",
                [.down(1, 300, 300, at: 1.0), .up(1, at: 1.3), .wait(2.0)],
                ["1.00 pad began 1", "1.30 press failed at (200.0, 200.0)", "1.30 pad ended 1"]),
            GestureRow(
                "moved 11 pt before the time",
                [.down(1, 300, 300, at: 1.0), .move(1, 311, 300, at: 1.2), .wait(1.6), .up(1, at: 1.7)],
                ["1.00 pad began 1", "1.20 press failed at (211.0, 200.0)", "1.20 pad moved 1", "1.70 pad ended 1"]),
        ])
        let onePass = ["began", "changed", "ended", "began", "ended"]
        #expect(target.states == onePass + onePass)
    }

    // MARK: Pan

    @Test func panOverAButtonCancelsTheButtonsTouch() {
        let lab = GestureLab()
        let panel = lab.view("panel", frame: Rect(x: 100, y: 100, width: 800, height: 600))
        // On the screen the button spans x 200...400, y 200...280.
        _ = lab.button("button", frame: Rect(x: 100, y: 100, width: 200, height: 80), in: panel)
        lab.add(PanGestureRecognizer(), "pan", to: panel) { pan in
            "t=\(format(pan.translation(in: panel))) v=\(format(pan.velocity(in: panel)))"
        }
        lab.check([
            GestureRow(
                "the button is pressed, then the pan takes the finger: touchCancel, no touchUpInside",
                [
                    .down(1, 250, 240, at: 1.0), .move(1, 253, 240, at: 1.02), .move(1, 283, 240, at: 1.05),
                    .move(1, 313, 240, at: 1.08), .move(1, 343, 240, at: 1.11), .move(1, 373, 240, at: 1.14), .up(1, at: 1.17),
                ],
                [
                    "1.00 button touchDown",
                    // 3 pt is under the pan's 10 pt hysteresis.
                    "1.02 button touchDragInside",
                    "1.05 button touchCancel",
                    // The velocity is over the last 0.1 s of samples: 33 pt in 0.05 s, 63 pt in 0.08 s, then
                    // 90 pt in 0.09 s = 1000 pt/s.
                    "1.05 pan began t=(33.0, 0.0) v=(660.0, 0.0)",
                    "1.08 pan changed t=(63.0, 0.0) v=(787.5, 0.0)",
                    "1.11 pan changed t=(93.0, 0.0) v=(1000.0, 0.0)",
                    "1.14 pan changed t=(123.0, 0.0) v=(1000.0, 0.0)",
                    // The finger rested 0.03 s before it lifted: 60 pt in the last 0.09 s.
                    "1.17 pan ended t=(123.0, 0.0) v=(666.667, 0.0)",
                ]),
            GestureRow(
                "a tap on the button under the pan is the button's",
                [.down(1, 250, 240, at: 1.0), .up(1, at: 1.1)],
                ["1.00 button touchDown", "1.10 pan failed t=(0.0, 0.0) v=(0.0, 0.0)", "1.10 button touchUpInside"]),
        ])
    }

    @Test func panTranslationSetTranslationAndASecondFinger() {
        let lab = GestureLab()
        let pad = lab.view("pad", frame: Self.padFrame)
        let pan = lab.add(PanGestureRecognizer(), "pan", to: pad) { pan in
            "t=\(format(pan.translation(in: pad))) v=\(format(pan.velocity(in: pad)))"
        }
        let measure = { "t=\(format(pan.translation(in: pad))) v=\(format(pan.velocity(in: pad)))" }
        lab.check([
            GestureRow(
                "setTranslation starts the translation and the velocity over; fingers joining and lifting move neither",
                [
                    .down(1, 300, 300, at: 1.0), .move(1, 320, 300, at: 1.03),
                    .act("setTranslation(.zero)") { pan.setTranslation(Point(x: 0, y: 0), in: pad) },
                    .note { "after setTranslation: " + measure() },
                    .move(1, 330, 310, at: 1.06),
                    // The centroid jumps 50 pt down when finger 2 lands; the translation and velocity do not.
                    .down(2, 330, 410, at: 1.09),
                    .note { "finger 2 joined: " + measure() },
                    .move(2, 350, 410, at: 1.12),
                    // ...and 60 pt back when finger 1 lifts.
                    .up(1, at: 1.15),
                    .note { "finger 1 lifted: " + measure() },
                    .move(2, 360, 420, at: 1.18), .up(2, at: 1.21),
                ],
                [
                    "1.00 pad began 1",
                    "1.03 pad cancelled 1",
                    "1.03 pan began t=(20.0, 0.0) v=(666.667, 0.0)",
                    "1.03 setTranslation(.zero)",
                    "1.03 after setTranslation: t=(0.0, 0.0) v=(0.0, 0.0)",
                    "1.06 pan changed t=(10.0, 10.0) v=(333.333, 333.333)",
                    // Finger 2 joins the pan under way: the pad never sees it.
                    "1.09 finger 2 joined: t=(10.0, 10.0) v=(166.667, 166.667)",
                    "1.12 pan changed t=(20.0, 10.0) v=(222.222, 111.111)",
                    "1.15 finger 1 lifted: t=(20.0, 10.0) v=(111.111, 0.0)",
                    "1.18 pan changed t=(30.0, 20.0) v=(222.222, 111.111)",
                    "1.21 pan ended t=(30.0, 20.0) v=(111.111, 111.111)",
                ]),
            GestureRow(
                "lifted without moving 10 pt: the pan fails and the view gets the touch",
                [.down(1, 300, 300, at: 1.0), .move(1, 309, 300, at: 1.03), .up(1, at: 1.06)],
                ["1.00 pad began 1", "1.03 pad moved 1", "1.06 pan failed t=(9.0, 0.0) v=(150.0, 0.0)", "1.06 pad ended 1"]),
        ])
    }

    // MARK: Swipe

    @Test func swipe() {
        let lab = GestureLab()
        let pad = lab.view("pad", frame: Self.padFrame)
        let swipe = lab.add(SwipeGestureRecognizer(), "swipe", to: pad) { swipe in
            swipe.state == .ended ? name(of: swipe.recognizedDirection) : ""
        }
        #expect(swipe.direction == .right && swipe.minimumDistance == 50 && swipe.maximumDuration == 0.5)
        func recognized(_ direction: String) -> [String] {
            ["1.00 pad began 1", "1.05 pad moved 1", "1.10 pad cancelled 1", "1.10 swipe ended \(direction)"]
        }
        let failed = ["1.00 pad began 1", "1.05 pad moved 1", "1.10 pad moved 1", "1.15 swipe failed", "1.15 pad ended 1"]
        // 30 pt, then 60 pt the way of the swipe within 0.1 s, drifting 5 and 10 pt sideways.
        let right: [GestureStep] = [
            .down(1, 500, 500, at: 1.0), .move(1, 530, 505, at: 1.05), .move(1, 560, 510, at: 1.1), .up(1, at: 1.15),
        ]
        let left: [GestureStep] = [
            .down(1, 500, 500, at: 1.0), .move(1, 470, 505, at: 1.05), .move(1, 440, 510, at: 1.1), .up(1, at: 1.15),
        ]
        let up: [GestureStep] = [.down(1, 500, 500, at: 1.0), .move(1, 505, 470, at: 1.05), .move(1, 510, 440, at: 1.1), .up(1, at: 1.15)]
        let down: [GestureStep] = [
            .down(1, 500, 500, at: 1.0), .move(1, 505, 530, at: 1.05), .move(1, 510, 560, at: 1.1), .up(1, at: 1.15),
        ]
        lab.check([
            GestureRow("right", setup: { swipe.direction = .right }, right, recognized("right")),
            GestureRow("left", setup: { swipe.direction = .left }, left, recognized("left")),
            GestureRow("up", setup: { swipe.direction = .up }, up, recognized("up")),
            GestureRow("down", setup: { swipe.direction = .down }, down, recognized("down")),
            GestureRow("left of left or right", setup: { swipe.direction = [.left, .right] }, left, recognized("left")),
            GestureRow("down of up or down", setup: { swipe.direction = [.up, .down] }, down, recognized("down")),
            GestureRow("left when right is wanted", setup: { swipe.direction = .right }, left, failed),
            GestureRow("up when left or right is wanted", setup: { swipe.direction = [.left, .right] }, up, failed),
            GestureRow(
                "too sideways: 40 pt off for 60 pt on", setup: { swipe.direction = .right },
                [.down(1, 500, 500, at: 1.0), .move(1, 530, 520, at: 1.05), .move(1, 560, 540, at: 1.1), .up(1, at: 1.15)], failed),
            GestureRow(
                "too slow: not 50 pt within maximumDuration", setup: { swipe.direction = .right },
                [.down(1, 500, 500, at: 1.0), .move(1, 520, 500, at: 1.3), .wait(1.6), .move(1, 600, 500, at: 1.7), .up(1, at: 1.8)],
                ["1.00 pad began 1", "1.30 pad moved 1", "1.50 swipe failed", "1.70 pad moved 1", "1.80 pad ended 1"]),
        ])
    }

    // MARK: Pinch

    @Test func pinchScaleAndVelocity() {
        let lab = GestureLab()
        let pad = lab.view("pad", frame: Self.padFrame)
        // The scale as Swift prints it: "2.0" only when it is exactly 2.
        let pinch = lab.add(PinchGestureRecognizer(), "pinch", to: pad) { "scale=\($0.scale) v=\(format($0.velocity))" }
        lab.check([
            GestureRow(
                "100 pt apart to 200 pt apart, then back to 160",
                [
                    .frame([.down(1, 900, 500, at: 1.0), .down(2, 1000, 500, at: 1.0)]),
                    .move(1, 875, 500, at: 1.05), .move(2, 1050, 500, at: 1.1), .move(1, 850, 500, at: 1.15),
                    .note { "exactly 2: \(pinch.scale == 2.0)" },
                    .frame([.move(1, 870, 500, at: 1.2), .move(2, 1030, 500, at: 1.2)]),
                    .frame([.up(1, at: 1.25), .up(2, at: 1.25)]),
                ],
                [
                    "1.00 pad began 2",
                    "1.05 pad cancelled 2",
                    "1.05 pinch began scale=1.25 v=0.0",
                    // +0.5 in 0.05 s, then +0.25 in 0.05 s: spreading fingers, a positive velocity.
                    "1.10 pinch changed scale=1.75 v=10.0",
                    "1.15 pinch changed scale=2.0 v=5.0",
                    "1.15 exactly 2: true",
                    // Pinching in: negative.
                    "1.20 pinch changed scale=1.6 v=-8.0",
                    "1.25 pinch ended scale=1.6 v=-8.0",
                ]),
            GestureRow(
                "fingers that do not move apart: no pinch",
                [
                    .frame([.down(1, 900, 500, at: 1.0), .down(2, 1000, 500, at: 1.0)]), .move(1, 895, 500, at: 1.05), .up(1, at: 1.1),
                    .up(2, at: 1.15),
                ],
                ["1.00 pad began 2", "1.05 pad moved 1", "1.10 pinch failed scale=1.05 v=0.0", "1.10 pad ended 1", "1.15 pad ended 1"]),
        ])
    }

    // MARK: Simultaneous recognition

    @Test func panAndPinchTogetherOnlyWhenTheDelegateAllows() {
        let lab = GestureLab()
        let pad = lab.view("pad", frame: Self.padFrame)
        let delegate = ScriptedDelegate()
        lab.add(PanGestureRecognizer(), "pan", to: pad) { "t=\(format($0.translation(in: pad)))" }
        let pinch = lab.add(PinchGestureRecognizer(), "pinch", to: pad) { "scale=\($0.scale)" }
        pinch.delegate = delegate
        // Apart by 50 pt and right by 15 pt, then 40 pt more apart and 10 pt more right.
        let steps: [GestureStep] = [
            .frame([.down(1, 900, 500, at: 1.0), .down(2, 1000, 500, at: 1.0)]),
            .frame([.move(1, 890, 500, at: 1.05), .move(2, 1040, 500, at: 1.05)]),
            .frame([.move(1, 880, 500, at: 1.1), .move(2, 1070, 500, at: 1.1)]),
            .frame([.up(1, at: 1.15), .up(2, at: 1.15)]),
        ]
        lab.check([
            GestureRow(
                "allowed: both recognize",
                setup: { delegate.simultaneous = true }, steps,
                [
                    "1.00 pad began 2",
                    "1.05 pad cancelled 2",
                    "1.05 pan began t=(15.0, 0.0)",
                    "1.05 pinch began scale=1.5",
                    "1.10 pan changed t=(25.0, 0.0)",
                    "1.10 pinch changed scale=1.9",
                    "1.15 pan ended t=(25.0, 0.0)",
                    "1.15 pinch ended scale=1.9",
                ]),
            GestureRow(
                "not allowed: the pan, first to begin, makes the pinch fail",
                setup: { delegate.simultaneous = false }, steps,
                [
                    "1.00 pad began 2",
                    // The pinch has not seen this move yet when it fails.
                    "1.05 pinch failed scale=1.0",
                    "1.05 pad cancelled 2",
                    "1.05 pan began t=(15.0, 0.0)",
                    "1.10 pan changed t=(25.0, 0.0)",
                    "1.15 pan ended t=(25.0, 0.0)",
                ]),
        ])
    }

    // MARK: Delays

    @Test func delaysTouchesBegan() {
        let lab = GestureLab()
        let pad = lab.view("pad", frame: Self.padFrame)
        let tap = lab.add(TapGestureRecognizer(), "tap", to: pad)
        tap.delaysTouchesBegan = true
        lab.check([
            GestureRow(
                "recognized: the view never hears of the touch",
                [.down(1, 300, 300, at: 1.0), .up(1, at: 1.1)],
                ["1.10 tap ended"]),
            GestureRow(
                "failed on a move: the view gets the begin it was kept from, then the move",
                [.down(1, 300, 300, at: 1.0), .move(1, 360, 300, at: 1.05), .move(1, 370, 300, at: 1.08), .up(1, at: 1.1)],
                ["1.05 tap failed", "1.05 pad began 1", "1.05 pad moved 1", "1.08 pad moved 1", "1.10 pad ended 1"]),
        ])
    }

    @Test func delaysTouchesBeganUntilATimerFails() {
        let lab = GestureLab()
        let pad = lab.view("pad", frame: Self.padFrame)
        let double = lab.add(TapGestureRecognizer(), "double", to: pad)
        double.numberOfTapsRequired = 2
        double.delaysTouchesBegan = true
        lab.check([
            GestureRow(
                "one tap: begin and end reach the view together when the double tap gives up",
                [.down(1, 300, 300, at: 1.0), .up(1, at: 1.1)],
                ["1.45 double failed", "1.45 pad began 1", "1.45 pad ended 1"]),
            GestureRow(
                "two taps: nothing reaches the view",
                [.down(1, 300, 300, at: 1.0), .up(1, at: 1.1), .down(2, 300, 300, at: 1.2), .up(2, at: 1.3)],
                ["1.30 double ended"]),
        ])
    }

    @Test func delaysTouchesEnded() {
        let lab = GestureLab()
        let pad = lab.view("pad", frame: Self.padFrame)
        let double = lab.add(TapGestureRecognizer(), "double", to: pad)
        double.numberOfTapsRequired = 2
        let oneTap: [GestureStep] = [.down(1, 300, 300, at: 1.0), .up(1, at: 1.1)]
        let twoTaps: [GestureStep] = [.down(1, 300, 300, at: 1.0), .up(1, at: 1.1), .down(2, 300, 300, at: 1.2), .up(2, at: 1.3)]
        lab.check([
            GestureRow(
                "one tap: the end waits for the double tap to fail",
                setup: { double.delaysTouchesEnded = true }, oneTap,
                ["1.00 pad began 1", "1.45 double failed", "1.45 pad ended 1"]),
            GestureRow(
                "two taps: both ends become cancels",
                setup: { double.delaysTouchesEnded = true }, twoTaps,
                ["1.00 pad began 1", "1.20 pad began 1", "1.30 pad cancelled 2", "1.30 double ended"]),
            GestureRow(
                "not delayed, one tap: the end at once",
                setup: { double.delaysTouchesEnded = false }, oneTap,
                ["1.00 pad began 1", "1.10 pad ended 1", "1.45 double failed"]),
            GestureRow(
                "not delayed, two taps: only the second touch, still going, is cancelled",
                setup: { double.delaysTouchesEnded = false }, twoTaps,
                ["1.00 pad began 1", "1.10 pad ended 1", "1.20 pad began 1", "1.30 pad cancelled 1", "1.30 double ended"]),
        ])
    }

    // MARK: Controls

    @Test func aSuperviewsSingleTapDoesNotTakeAButtonsTap() {
        let lab = GestureLab()
        let panel = lab.view("panel", frame: Rect(x: 100, y: 100, width: 800, height: 600))
        let button = lab.button("button", frame: Rect(x: 100, y: 100, width: 200, height: 80), in: panel)
        let panelTap = lab.add(TapGestureRecognizer(), "panelTap", to: panel)
        let buttonTap = lab.add(TapGestureRecognizer(), "buttonTap", to: button)
        /// The panel's tap needs `taps`; the button has a tap of its own or not.
        func configure(taps: Int, buttonHasATap: Bool) -> @MainActor () -> Void {
            {
                panelTap.numberOfTapsRequired = taps
                if buttonHasATap { button.addGestureRecognizer(buttonTap) } else { button.removeGestureRecognizer(buttonTap) }
            }
        }
        lab.check([
            GestureRow(
                "on the button: the button's action, the panel's tap fails",
                setup: configure(taps: 1, buttonHasATap: false),
                [.down(1, 250, 240, at: 1.0), .up(1, at: 1.1)],
                ["1.00 button touchDown", "1.10 panelTap failed", "1.10 button touchUpInside"]),
            GestureRow(
                "beside the button: the panel's tap",
                setup: configure(taps: 1, buttonHasATap: false),
                [.down(1, 600, 500, at: 1.0), .up(1, at: 1.1)],
                ["1.00 panel began 1", "1.10 panel cancelled 1", "1.10 panelTap ended"]),
            GestureRow(
                "a double tap on the panel is not the button's to refuse",
                setup: configure(taps: 2, buttonHasATap: false),
                [.down(1, 250, 240, at: 1.0), .up(1, at: 1.1), .down(2, 250, 240, at: 1.2), .up(2, at: 1.3)],
                // The double tap holds the first end back, so the button still tracks the first touch when
                // the second lands and ignores that one (one touch at a time).
                ["1.00 button touchDown", "1.30 button touchCancel", "1.30 panelTap ended"]),
            GestureRow(
                "a tap attached to the button itself takes the button's tap",
                setup: configure(taps: 1, buttonHasATap: true),
                [.down(1, 250, 240, at: 1.0), .up(1, at: 1.1)],
                ["1.00 button touchDown", "1.10 panelTap failed", "1.10 button touchCancel", "1.10 buttonTap ended"]),
        ])
    }

    /// A superview's single tap that waits for its double tap to fail is still refused by the button under
    /// the finger: the button's tap goes to the button (UIKit: the control's default action wins).
    @Test func aSingleTapWaitingForADoubleTapDoesNotTakeAButtonsTap() {
        let lab = GestureLab()
        let panel = lab.view("panel", frame: Rect(x: 100, y: 100, width: 800, height: 600))
        _ = lab.button("button", frame: Rect(x: 100, y: 100, width: 200, height: 80), in: panel)
        let single = lab.add(TapGestureRecognizer(), "single", to: panel)
        let double = lab.add(TapGestureRecognizer(), "double", to: panel)
        double.numberOfTapsRequired = 2
        single.require(toFail: double)
        lab.check([
            GestureRow(
                "on the button: the double tap fails, then the single, and the button has its tap",
                [.down(1, 250, 240, at: 1.0), .up(1, at: 1.1), .wait(2.0)],
                ["1.00 button touchDown", "1.45 double failed", "1.45 single failed", "1.45 button touchUpInside"]),
            GestureRow(
                "beside the button: the single tap, once the double tap failed",
                [.down(1, 600, 500, at: 1.0), .up(1, at: 1.1), .wait(2.0)],
                ["1.00 panel began 1", "1.45 double failed", "1.45 panel cancelled 1", "1.45 single ended"]),
        ])
    }

    // MARK: Disabling and removing

    @Test func disablingOrRemovingARecognizerDuringItsGesture() {
        let lab = GestureLab()
        let pad = lab.view("pad", frame: Self.padFrame)
        let pan = lab.add(PanGestureRecognizer(), "pan", to: pad) { "t=\(format($0.translation(in: pad)))" }
        let press = LongPressGestureRecognizer()
        press.name = "press"
        press.delaysTouchesBegan = true
        let panGesture: [GestureStep] = [.down(1, 300, 300, at: 1.0), .move(1, 320, 300, at: 1.03)]
        lab.check([
            GestureRow(
                "isEnabled = false cancels the pan; the finger goes on to nobody",
                panGesture + [
                    .act("pan.isEnabled = false") { pan.isEnabled = false },
                    .note { "pan is \(pan.state.rawValue)" },
                    .move(1, 340, 300, at: 1.06), .up(1, at: 1.09),
                    .act("pan.isEnabled = true") { pan.isEnabled = true },
                ],
                [
                    "1.00 pad began 1",
                    "1.03 pad cancelled 1",
                    "1.03 pan began t=(20.0, 0.0)",
                    "1.03 pan.isEnabled = false",
                    "1.03 pan cancelled t=(20.0, 0.0)",
                    "1.03 pan is possible",
                    "1.09 pan.isEnabled = true",
                ]),
            GestureRow(
                "enabled again, the next pan is like the first",
                panGesture + [.up(1, at: 1.06)],
                ["1.00 pad began 1", "1.03 pad cancelled 1", "1.03 pan began t=(20.0, 0.0)", "1.06 pan ended t=(20.0, 0.0)"]),
            GestureRow(
                "removeGestureRecognizer cancels the pan",
                panGesture + [
                    .act("pad.removeGestureRecognizer(pan)") { pad.removeGestureRecognizer(pan) },
                    .note { "pan is \(pan.state.rawValue), view \(pan.view == nil ? "nil" : "set")" },
                    .move(1, 340, 300, at: 1.06), .up(1, at: 1.09),
                    .act("pad.addGestureRecognizer(pan)") { pad.addGestureRecognizer(pan) },
                ],
                [
                    "1.00 pad began 1",
                    "1.03 pad cancelled 1",
                    "1.03 pan began t=(20.0, 0.0)",
                    "1.03 pad.removeGestureRecognizer(pan)",
                    "1.03 pan cancelled t=(20.0, 0.0)",
                    "1.03 pan is possible, view nil",
                    "1.09 pad.addGestureRecognizer(pan)",
                ]),
            GestureRow(
                "removing a long press still deciding fails it and lets the view have the touch it held back",
                setup: { pad.addGestureRecognizer(press) },
                [
                    .down(1, 300, 300, at: 1.0),
                    .act("pad.removeGestureRecognizer(press)") { pad.removeGestureRecognizer(press) },
                    .up(1, at: 1.1),
                ],
                [
                    "1.00 pad.removeGestureRecognizer(press)",
                    "1.00 press failed",
                    "1.00 pad began 1",
                    "1.10 pan failed t=(0.0, 0.0)",
                    "1.10 pad ended 1",
                ]),
        ])
    }

    // MARK: Delegate

    @Test func delegateShouldBegin() {
        let lab = GestureLab()
        let pad = lab.view("pad", frame: Self.padFrame)
        let delegate = ScriptedDelegate()
        delegate.lab = lab
        let pan = lab.add(PanGestureRecognizer(), "pan", to: pad) { "t=\(format($0.translation(in: pad)))" }
        pan.delegate = delegate
        let steps: [GestureStep] = [
            .down(1, 300, 300, at: 1.0), .move(1, 320, 300, at: 1.05), .move(1, 340, 300, at: 1.1), .up(1, at: 1.15),
        ]
        lab.check([
            GestureRow(
                "false: the pan fails, the view gets every touch",
                setup: { delegate.shouldBegin = false }, steps,
                [
                    "1.00 should pan receive (300.0, 300.0)? true",
                    "1.00 pad began 1",
                    "1.05 should pan begin? false",
                    "1.05 pan failed t=(20.0, 0.0)",
                    "1.05 pad moved 1",
                    "1.10 pad moved 1",
                    "1.15 pad ended 1",
                ]),
            GestureRow(
                "true: the pan",
                setup: { delegate.shouldBegin = true }, steps,
                [
                    "1.00 should pan receive (300.0, 300.0)? true",
                    "1.00 pad began 1",
                    "1.05 should pan begin? true",
                    "1.05 pad cancelled 1",
                    "1.05 pan began t=(20.0, 0.0)",
                    "1.10 pan changed t=(40.0, 0.0)",
                    "1.15 pan ended t=(40.0, 0.0)",
                ]),
        ])
    }

    @Test func delegateShouldReceive() {
        let lab = GestureLab()
        let pad = lab.view("pad", frame: Self.padFrame)
        let delegate = ScriptedDelegate()
        delegate.lab = lab
        // Only touches right of x = 500 on the screen.
        delegate.receives = { $0.locationOnScreen.x > 500 }
        let tap = lab.add(TapGestureRecognizer(), "tap", to: pad)
        tap.delegate = delegate
        tap.delaysTouchesBegan = true
        lab.check([
            GestureRow(
                "refused: the tap never sees the touch (it neither fails nor holds anything back)",
                [.down(1, 300, 300, at: 1.0), .move(1, 400, 300, at: 1.05), .up(1, at: 1.1)],
                [
                    "1.00 should tap receive (300.0, 300.0)? false",
                    "1.00 pad began 1",
                    "1.05 pad moved 1",
                    "1.10 pad ended 1",
                ]),
            GestureRow(
                "received: the tap",
                [.down(1, 600, 300, at: 1.0), .up(1, at: 1.1)],
                ["1.00 should tap receive (600.0, 300.0)? true", "1.10 should tap begin? true", "1.10 tap ended"]),
        ])
    }

    // MARK: Subclasses

    /// Recognized when its first finger lifts; every other finger it ignores (`ignore(_:for:)`).
    final class FirstFingerRecognizer: GestureRecognizer {
        private var first: Touch?

        override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
            for touch in touches.sorted(by: { $0.sequence < $1.sequence }) {
                if first == nil { first = touch } else { ignore(touch, for: event) }
            }
        }

        override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
            if let first, touches.contains(first) { state = .recognized }
        }

        override func reset() {
            super.reset()
            first = nil
        }
    }

    @Test func ignoredTouchesStayWithTheirView() {
        let lab = GestureLab()
        let pad = lab.view("pad", frame: Self.padFrame)
        lab.add(FirstFingerRecognizer(), "first", to: pad) { "with \($0.numberOfTouches) touch(es)" }
        lab.check([
            GestureRow(
                "the second finger is ignored: recognizing cancels only the first, the second ends normally",
                [
                    .down(1, 300, 300, at: 1.0), .down(2, 400, 300, at: 1.05), .up(1, at: 1.1), .move(2, 410, 300, at: 1.15),
                    .up(2, at: 1.2),
                ],
                [
                    "1.00 pad began 1",
                    "1.05 pad began 1",
                    "1.10 pad cancelled 1",
                    "1.10 first ended with 1 touch(es)",
                    "1.15 pad moved 1",
                    "1.20 pad ended 1",
                ])
        ])
    }

    // MARK: Cancelled touches

    @Test func touchesCancelledByTheApplication() {
        let lab = GestureLab()
        let pad = lab.view("pad", frame: Self.padFrame)
        lab.add(PanGestureRecognizer(), "pan", to: pad) { "t=\(format($0.translation(in: pad)))" }
        let tap = lab.add(TapGestureRecognizer(), "tap", to: pad)
        tap.numberOfTouchesRequired = 2
        lab.check([
            GestureRow(
                "a pan under way is cancelled; the view, whose touch the pan took, hears nothing more",
                [.down(1, 300, 300, at: 1.0), .move(1, 320, 300, at: 1.05), .cancelAll(at: 1.1)],
                [
                    "1.00 pad began 1",
                    "1.05 tap failed",
                    "1.05 pad cancelled 1",
                    "1.05 pan began t=(20.0, 0.0)",
                    "1.10 pan cancelled t=(20.0, 0.0)",
                ]),
            GestureRow(
                "recognizers still deciding fail; the view gets touchesCancelled",
                [.down(1, 300, 300, at: 1.0), .down(2, 340, 300, at: 1.02), .cancelAll(at: 1.1)],
                [
                    "1.00 pad began 1",
                    "1.02 pad began 1",
                    "1.10 pan failed t=(0.0, 0.0)",
                    "1.10 tap failed",
                    "1.10 pad cancelled 2",
                ]),
        ])
    }
}

/// Recognizers with several fingers, and fingers that do not move, sent as the input router sends them:
/// one event per device frame, fingers that did not change in it `.stationary`.
@MainActor
struct MultiFingerGestureTests {
    @MainActor
    final class Bed {
        let bed = TestBed()
        let clock = ManualClock(now: 0)
        let pad = View(frame: Rect(x: 100, y: 100, width: 1600, height: 900))
        private var fingers: [Int: Touch] = [:]
        /// The states the attached recognizer's actions saw, in order.
        var states: [GestureRecognizer.State] = []

        init() {
            bed.app.clock = clock
            bed.window("main").addSubview(pad)
        }

        /// Attaches `recognizer` to the pad, recording its states.
        func attach<Recognizer: GestureRecognizer>(_ recognizer: Recognizer) {
            pad.addGestureRecognizer(recognizer)
            recognizer.addAction { [unowned self] in states.append($0.state) }
        }

        /// One frame at `time`: the fingers listed go down, move or lift; every other finger down is
        /// `.stationary` in it.
        func frame(at time: TimeInterval, _ changes: [(finger: Int, phase: Touch.Phase, at: Point?)]) {
            clock.advance(to: time)
            var touches: [Touch] = []
            for (finger, phase, point) in changes {
                if phase == .began {
                    let touch = Touch(screen: Screen.main, location: point!, timestamp: time)
                    fingers[finger] = touch
                    touches.append(touch)
                } else if let touch = fingers[finger] {
                    touch.update(phase: phase, location: point ?? touch.locationOnScreen, timestamp: time)
                    touches.append(touch)
                    if phase == .ended { fingers[finger] = nil }
                }
            }
            for (finger, touch) in fingers where !changes.contains(where: { $0.finger == finger }) {
                touch.update(phase: .stationary, location: touch.locationOnScreen, timestamp: time)
                touches.append(touch)
            }
            bed.app.sendEvent(Event(touches: Set(touches), timestamp: time))
        }
    }

    /// A finger that did not move is no move: another finger's frame gives a held press no `.changed`.
    @Test func aStillFingerMakesNoChange() {
        let bed = Bed()
        let press = LongPressGestureRecognizer()
        bed.attach(press)
        bed.frame(at: 1, [(1, .began, Point(x: 300, y: 300))])
        bed.clock.advance(to: 1.6)
        #expect(bed.states == [.began])
        // A second finger, elsewhere in the window, moves: the press's finger is stationary.
        let other = View(frame: Rect(x: 0, y: 0, width: 50, height: 50))
        bed.pad.window!.addSubview(other)
        bed.frame(at: 1.7, [(2, .began, Point(x: 10, y: 10))])
        bed.frame(at: 1.8, [(2, .moved, Point(x: 30, y: 10))])
        #expect(bed.states == [.began])
        bed.frame(at: 1.9, [(1, .moved, Point(x: 320, y: 300))])
        #expect(bed.states == [.began, .changed])
    }

    /// A two-finger pan goes on while a finger is lifted and put back, and ends when all have lifted
    /// ("It ends when all fingers are lifted"); while fewer than the minimum are down it does not change.
    @Test func aTwoFingerPanEndsWhenAllFingersLift() {
        let bed = Bed()
        let pan = PanGestureRecognizer()
        pan.minimumNumberOfTouches = 2
        bed.attach(pan)
        bed.frame(at: 1, [(1, .began, Point(x: 300, y: 300)), (2, .began, Point(x: 360, y: 300))])
        bed.frame(at: 1.05, [(1, .moved, Point(x: 300, y: 320)), (2, .moved, Point(x: 360, y: 320))])
        #expect(bed.states == [.began])
        bed.frame(at: 1.1, [(1, .ended, nil)])
        bed.frame(at: 1.15, [(2, .moved, Point(x: 360, y: 340))])
        #expect(bed.states == [.began])
        bed.frame(at: 1.2, [(3, .began, Point(x: 300, y: 340))])
        bed.frame(at: 1.25, [(2, .moved, Point(x: 360, y: 360)), (3, .moved, Point(x: 300, y: 360))])
        #expect(bed.states == [.began, .changed])
        bed.frame(at: 1.3, [(2, .ended, nil)])
        bed.frame(at: 1.35, [(3, .ended, nil)])
        #expect(bed.states == [.began, .changed, .ended])
    }

    /// Two fingers 60 pt apart tap twice: each lands near where it did, which a two-finger double tap
    /// asks (it compared one finger with the first tap's centre, 30 pt off, and failed).
    @Test func aTwoFingerDoubleTap() {
        let bed = Bed()
        let tap = TapGestureRecognizer()
        tap.numberOfTouchesRequired = 2
        tap.numberOfTapsRequired = 2
        bed.attach(tap)
        // Fingers land and lift in frames of their own, as they do.
        for start in [1.0, 1.2] {
            bed.frame(at: start, [(1, .began, Point(x: 300, y: 300))])
            bed.frame(at: start + 0.01, [(2, .began, Point(x: 360, y: 300))])
            bed.frame(at: start + 0.05, [(1, .ended, nil)])
            bed.frame(at: start + 0.07, [(2, .ended, nil)])
        }
        #expect(bed.states == [.ended])
        // A second tap somewhere else is no double tap.
        bed.clock.advance(to: 5)
        bed.states = []
        bed.frame(at: 10, [(1, .began, Point(x: 300, y: 300)), (2, .began, Point(x: 360, y: 300))])
        bed.frame(at: 10.05, [(1, .ended, nil), (2, .ended, nil)])
        bed.frame(at: 10.2, [(1, .began, Point(x: 600, y: 300)), (2, .began, Point(x: 660, y: 300))])
        bed.frame(at: 10.25, [(1, .ended, nil), (2, .ended, nil)])
        #expect(bed.states.isEmpty)
    }

    /// A two-finger tap, then a two-finger press: the tap's fingers lift in separate frames.
    @Test func aTwoFingerTapThenPress() {
        let bed = Bed()
        let press = LongPressGestureRecognizer()
        press.numberOfTouchesRequired = 2
        press.numberOfTapsRequired = 1
        bed.attach(press)
        bed.frame(at: 1, [(1, .began, Point(x: 300, y: 300)), (2, .began, Point(x: 360, y: 300))])
        bed.frame(at: 1.08, [(1, .ended, nil)])
        bed.frame(at: 1.1, [(2, .ended, nil)])
        bed.frame(at: 1.2, [(3, .began, Point(x: 300, y: 300)), (4, .began, Point(x: 360, y: 300))])
        bed.clock.advance(to: 1.8)
        #expect(bed.states == [.began])
    }

    /// The view a touch began on is held until the touch ends (as `UITouch`'s): a row freed mid-drag (a
    /// cell without a reuse identifier scrolled out) leaves the table's pan to end, not stuck in a drag.
    @Test func aDragWhoseRowIsFreedStillEnds() {
        final class FreshCells: TableViewDataSource {
            func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { 100 }
            func tableView(_ tableView: TableView, cellForRowAt indexPath: KioskKit.IndexPath) -> TableViewCell {
                TableViewCell(style: .default, reuseIdentifier: nil)
            }
        }
        let animation = AnimationBed(width: 320, height: 480)
        let table = TableView(frame: Rect(x: 0, y: 0, width: 320, height: 480))
        let source = FreshCells()
        table.dataSource = source
        let recorder = ScrollRecorder()
        table.delegate = recorder
        animation.window.addSubview(table)
        animation.render.render()
        weak let firstRow = table.cellForRow(at: KioskKit.IndexPath(row: 0, section: 0))
        #expect(firstRow != nil)
        let finger = Finger(clock: animation.clock)
        let touch = finger.drag(from: Point(x: 100, y: 20), to: Point(x: 100, y: 0), duration: 0.1, steps: 2, lift: false)
        for step in 1...6 {
            animation.clock.advance(by: 0.05)
            finger.move(touch, to: Point(x: 100, y: 20 - 60 * Double(step)))
            animation.render.render()
        }
        #expect(table.cellForRow(at: KioskKit.IndexPath(row: 0, section: 0)) == nil && table.isDragging)
        finger.up(touch)
        #expect(!table.isDragging)
        #expect(recorder.events.contains { $0.hasPrefix("didEndDragging") })
        #expect(firstRow == nil)
    }
}
