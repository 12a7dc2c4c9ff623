import Glibc

/// One finger on a touchscreen, from down to up (as `UITouch`). The same object is updated for every
/// frame of the gesture; it stays with the view it began in until it ends or is cancelled.
@MainActor
public final class Touch: Hashable {
    public enum Phase: String, Sendable {
        case began, moved, stationary, ended, cancelled
    }

    public private(set) var phase: Phase
    /// Seconds since boot, from the kernel's input event.
    public private(set) var timestamp: TimeInterval
    /// How many taps in quick succession at this place, this one included.
    public internal(set) var tapCount = 1
    /// The screen the touch happened on.
    public let screen: Screen
    /// The position on the screen, in the screen's (rotated, logical) coordinates.
    public private(set) var locationOnScreen: Point
    public private(set) var previousLocationOnScreen: Point
    /// The window and view the touch was delivered to; nil when no window was under the finger. Held until
    /// the touch ends (as `UITouch`): a view removed and let go mid-touch still gets the rest of it, and the
    /// recognizers of what was around it still see the finger move and lift.
    public internal(set) var window: Window?
    public internal(set) var view: View?
    /// Whether the view it began on kept its touches secret (`View.touchesAreSecret`), decided then: a
    /// tapped key the keyboard takes out of its window (shift ends, the keys are rebuilt) is no less secret
    /// when the touch ends.
    public internal(set) var isSecret = false
    /// Set once the application routed the touch, so later phases keep its window and view.
    var isRouted = false

    /// The recognizers that receive this touch: those of its view and the view's ancestors up to the
    /// window, deepest first, as they were when it began (as `UITouch.gestureRecognizers`).
    public internal(set) var gestureRecognizers: [GestureRecognizer] = []
    /// A recognizer that cancels touches in view recognized with it: its view gets nothing more.
    var isClaimedByGesture = false
    /// Phases a recognizer holds back from the view (`delaysTouchesBegan`, `delaysTouchesEnded`).
    var delayedPhases: [Phase] = []
    /// Phases about to go to the view, grouped with the other touches of the delivery.
    var pendingViewPhases: [Phase] = []
    /// What the view has seen of it.
    var viewSawBegin = false
    var viewSawEnd = false
    /// Creation order, for deterministic delivery order among the touches of one event.
    let sequence: UInt64
    private static var nextSequence: UInt64 = 0

    /// A touch that just went down; input backends create it and pass it to `Application.sendEvent(_:)`.
    public init(screen: Screen, location: Point, timestamp: TimeInterval) {
        self.screen = screen
        Touch.nextSequence += 1
        sequence = Touch.nextSequence
        phase = .began
        self.timestamp = timestamp
        locationOnScreen = location
        previousLocationOnScreen = location
    }

    /// The next frame of this touch, from an input backend.
    public func update(phase: Phase, location: Point, timestamp: TimeInterval) {
        self.phase = phase
        self.timestamp = timestamp
        previousLocationOnScreen = locationOnScreen
        locationOnScreen = location
    }

    func cancel() {
        phase = .cancelled
    }

    /// The location in `view`'s coordinates; nil means the touch's window.
    public func location(in view: View?) -> Point { convert(locationOnScreen, to: view) }

    public func previousLocation(in view: View?) -> Point { convert(previousLocationOnScreen, to: view) }

    private func convert(_ point: Point, to view: View?) -> Point {
        Self.convert(point, to: view, window: window)
    }

    /// `point` on the screen in `view`'s coordinates; nil means `window`'s.
    static func convert(_ point: Point, to view: View?, window: Window?) -> Point {
        guard let window = view?.window ?? window else { return point }
        let inWindow = window.convert(point, from: nil)
        guard let view, view !== window else { return inWindow }
        return view.convert(inWindow, from: window)
    }

    nonisolated public static func == (lhs: Touch, rhs: Touch) -> Bool { lhs === rhs }
    nonisolated public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
