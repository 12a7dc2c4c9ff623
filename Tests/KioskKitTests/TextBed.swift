import Glibc
import KioskTesting
import Testing

@testable import KioskKit

/// A screen of a given size on a manual clock, with touches and key presses sent through
/// `Application.sendEvent` as a kiosk's input backend sends them.
@MainActor
final class TextBed {
    let bed: TestBed
    let clock = ManualClock(now: 10)
    /// A compositor on an output that shows each frame at once: the keyboard's slide runs on its frames.
    let output = TestOutput(bufferCount: 1)
    let compositor: Compositor
    var app: Application { bed.app }
    private(set) var notes: [String] = []
    private var observations: [NotificationObservation] = []

    init(width: Int = 320, height: Int = 568) {
        bed = TestBed(screens: [])
        bed.app.clock = clock
        bed.backend.connect("DSI-1", modes: [Screen.Mode(width: width, height: height, refreshRate: 60)])
        compositor = Compositor(output: output, application: bed.app)
        output.compositor = compositor
        for name in [
            Responder.keyboardWillShowNotification, Responder.keyboardDidShowNotification,
            Responder.keyboardWillHideNotification, Responder.keyboardDidHideNotification,
        ] {
            observations.append(
                bed.center.addObserver(forName: name) { [weak self] note in
                    let end = note.userInfo[Responder.keyboardFrameEndUserInfoKey] as? Rect
                    self?.notes.append(
                        "\(note.name.rawValue.replacingOccurrences(of: "KioskKeyboard", with: "")) \(end.map { "\($0)" } ?? "?")")
                })
        }
    }

    func takeNotes() -> [String] {
        defer { notes = [] }
        return notes
    }

    /// Lets the keyboard's slide (and anything else on the clock) finish.
    func settle() { clock.advance(by: 1) }

    var keyboardWindow: Window? { app.keyboard.window }

    /// The key with `identifier` on the keyboard (nil when it has none).
    func key(_ identifier: String) -> View? {
        keyboardWindow?.subviews.first { $0.identifier == identifier }
    }

    /// Taps the centre of `view` (down, 60 ms, up), as a finger would.
    func tap(_ view: View, hold: TimeInterval = 0.06) {
        let window = view.window!
        let center = window.convert(view.convert(Point(x: view.bounds.midX, y: view.bounds.midY), to: nil), to: nil as Window?)
        tap(at: center, hold: hold)
    }

    func tap(at point: Point, hold: TimeInterval = 0.06) {
        lift(touchDown(at: point), hold: hold)
    }

    /// A finger going down at `point`, 0.1 s after what came before; `lift` ends its touch.
    func touchDown(at point: Point) -> Touch {
        clock.advance(by: 0.1)
        let touch = Touch(screen: Screen.main, location: point, timestamp: clock.now)
        app.sendEvent(Event(touches: [touch], timestamp: clock.now))
        return touch
    }

    func lift(_ touch: Touch, hold: TimeInterval = 0.06) {
        clock.advance(by: hold)
        touch.update(phase: .ended, location: touch.locationOnScreen, timestamp: clock.now)
        app.sendEvent(Event(touches: [touch], timestamp: clock.now))
    }

    /// Taps the keys named, in order (`"key.a"`), each found on the page showing when its turn comes.
    func tapKeys(_ identifiers: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for identifier in identifiers {
            guard let key = key(identifier) else {
                Issue.record(
                    "no key \(identifier) on the keyboard: \(keyboardWindow?.subviews.compactMap(\.identifier) ?? [])",
                    sourceLocation: sourceLocation)
                return
            }
            tap(key)
        }
    }

    /// A full-screen key window holding one text field at `frame` (width 280 unless given).
    func field(_ frame: Rect = Rect(x: 20, y: 20, width: 280, height: 44)) -> TextField {
        let window = Window(screen: Screen.main)
        window.makeKeyAndVisible()
        let field = TextField(frame: frame)
        window.addSubview(field)
        return field
    }

    /// Taps `field` and lets the keyboard come.
    func focus(_ field: TextField) {
        tap(field)
        settle()
    }

    /// A hardware key: its keysym and the text it types, pressed and released.
    func press(_ keysym: UInt32, _ text: String = "") {
        clock.advance(by: 0.05)
        app.sendEvent(Event(presses: [Press(phase: .began, keysym: keysym, text: text, timestamp: clock.now)], timestamp: clock.now))
        app.sendEvent(Event(presses: [Press(phase: .ended, keysym: keysym, text: "", timestamp: clock.now)], timestamp: clock.now))
    }
}
