import Foundation
import KioskTesting

@testable import KioskKit

/// A fresh application on a private notification center, with an in-memory display backend, recording
/// every screen and window notification in order as `"<event> <name>"` lines.
@MainActor
final class TestBed {
    let center = NotificationHub()
    let app: Application
    private var observations: [NotificationObservation] = []
    let backend = InMemoryDisplayBackend()
    private(set) var log: [String] = []

    init(screens: [String] = ["HDMI-A-1"]) {
        app = Application.reset(notificationCenter: center)
        for (name, event) in Application.modelNotifications {
            // The model posts synchronously on the main actor.
            observations.append(
                center.addObserver(forName: name) { [weak self] note in
                    let label: String
                    if let screen = note.object as? Screen {
                        label = screen.name
                    } else if let view = note.object as? View {
                        label = view.displayName
                    } else {
                        label = "?"
                    }
                    self?.log.append("\(event) \(label)")
                })
        }
        for name in screens { backend.connect(name, modes: Modes.standard) }
        log = []
    }

    /// The log so far, then cleared.
    func takeLog() -> [String] {
        defer { log = [] }
        return log
    }

    func screen(_ name: String) -> Screen { backend.screen(named: name) }

    @discardableResult
    /// A visible window with `identifier`, made key and visible unless told otherwise.
    func window(
        _ identifier: String, frame: Rect? = nil, level: Window.Level = .normal, on screen: Screen? = nil,
        show: Bool = true
    ) -> Window {
        let window = frame.map { Window(frame: $0) } ?? Window(screen: screen ?? Screen.main)
        if let screen { window.screen = screen }
        window.identifier = identifier
        window.windowLevel = level
        if show { window.makeKeyAndVisible() }
        return window
    }

    /// Sends one touch-down at `point` (screen coordinates) and returns the touch.
    @discardableResult
    func touchDown(at point: Point, on screen: Screen? = nil, time: TimeInterval = 1) -> Touch {
        let touch = Touch(screen: screen ?? Screen.main, location: point, timestamp: time)
        app.sendEvent(Event(touches: [touch], timestamp: time))
        return touch
    }

    func touch(_ touch: Touch, _ phase: Touch.Phase, at point: Point? = nil, time: TimeInterval = 2) {
        touch.update(phase: phase, location: point ?? touch.locationOnScreen, timestamp: time)
        app.sendEvent(Event(touches: [touch], timestamp: time))
    }
}

enum Modes {
    static let fullHD = Screen.Mode(width: 1920, height: 1080, refreshRate: 60)
    static let fullHD50 = Screen.Mode(width: 1920, height: 1080, refreshRate: 50)
    static let hd = Screen.Mode(width: 1280, height: 720, refreshRate: 60)
    static let wxga = Screen.Mode(width: 1280, height: 800, refreshRate: 59.81)
    static let standard = [fullHD, fullHD50, hd]
}

/// A view that records the touch calls it gets, as `"<phase> <identifier>"` lines in a shared log.
@MainActor
final class RecordingView: View {
    var calls: [String] = []
    var handlesTouches = true

    override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        guard handlesTouches else { return super.touchesBegan(touches, with: event) }
        calls.append("began \(touches.count)")
    }
    override func touchesMoved(_ touches: Set<Touch>, with event: Event) { calls.append("moved \(touches.count)") }
    override func touchesEnded(_ touches: Set<Touch>, with event: Event) { calls.append("ended \(touches.count)") }
    override func touchesCancelled(_ touches: Set<Touch>, with event: Event) { calls.append("cancelled \(touches.count)") }
}

/// A window that records the key changes it is told about.
@MainActor
final class RecordingWindow: Window {
    var calls: [String] = []
    override func becomeKey() {
        calls.append("becomeKey")
        super.becomeKey()
    }
    override func resignKey() {
        calls.append("resignKey")
        super.resignKey()
    }
}
