/// A view that turns touches into actions (as `UIControl`): it tracks a touch from down to up, shows a
/// highlighted state while the finger is on it, and sends `.touchUpInside` when the finger lifts inside.
@MainActor
open class Control: View {
    /// The moments a control reports (as `UIControl.Event`).
    public struct Events: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        public static let touchDown = Events(rawValue: 1 << 0)
        public static let touchDragInside = Events(rawValue: 1 << 2)
        public static let touchDragOutside = Events(rawValue: 1 << 3)
        public static let touchUpInside = Events(rawValue: 1 << 6)
        public static let touchUpOutside = Events(rawValue: 1 << 7)
        public static let touchCancel = Events(rawValue: 1 << 8)
        public static let valueChanged = Events(rawValue: 1 << 12)
        /// The control's one action happened (UIKit's semantic event): a button tapped (with
        /// `.touchUpInside`), a value control changed (with every `.valueChanged`), Return in a text field
        /// (with `.editingDidEndOnExit`).
        public static let primaryActionTriggered = Events(rawValue: 1 << 13)
        /// Every touch event (UIKit's `allTouchEvents`).
        public static let allTouchEvents = Events(rawValue: 0x0FFF)
        /// Every event (UIKit's `allEvents`).
        public static let allEvents = Events(rawValue: 0x0FFF_FFFF)
    }

    /// The states a control's look can be set for (as `UIControl.State`, the same raw values); a
    /// combination (`[.selected, .highlighted]`) is a state of its own.
    public struct State: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        public static let normal: State = []
        public static let highlighted = State(rawValue: 1 << 0)
        public static let disabled = State(rawValue: 1 << 1)
        public static let selected = State(rawValue: 1 << 2)
    }

    /// The state now: highlighted while a finger is on it, disabled, selected (as `UIControl.state`).
    public var state: State {
        var state: State = []
        if isHighlighted { state.insert(.highlighted) }
        if !isEnabled { state.insert(.disabled) }
        if isSelected { state.insert(.selected) }
        return state
    }

    /// Whether the control is selected (as `UIControl.isSelected`): the app sets it, for a button that
    /// toggles, a tab; it changes only the look (`state`).
    open var isSelected = false {
        didSet { if isSelected != oldValue { stateDidChange() } }
    }

    /// `isHighlighted`, `isEnabled` or `isSelected` changed: the look is redrawn (a subclass with per-state
    /// content also resizes).
    open func stateDidChange() { setNeedsDisplay() }

    /// A disabled control ignores touches and draws dimmed. Disabled while a finger is on it (a session
    /// timing out under a held button), it lets that touch go: `.touchCancel`, and no `.touchUpInside`.
    open var isEnabled = true {
        didSet {
            guard isEnabled != oldValue else { return }
            stateDidChange()
            if !isEnabled, isTracking {
                endTracking()
                sendActions(for: .touchCancel)
            }
        }
    }
    /// True while a finger is down on the control and inside it.
    open var isHighlighted = false { didSet { if isHighlighted != oldValue { stateDidChange() } } }
    /// Whether the control is tracking a touch now.
    public private(set) var isTracking = false

    private var actions: [(events: Events, handler: @MainActor (Control) -> Void)] = []
    private weak var trackedTouch: Touch?
    /// Touches that began while it was disabled: the responder chain has them, to their end.
    private var passedOn: Set<Touch> = []

    /// Calls `handler` with the control for each of `events`.
    public func addAction(for events: Events, _ handler: @escaping @MainActor (Control) -> Void) {
        actions.append((events, handler))
    }

    /// Target-action: calls `action` on `target` (held weakly) for each of `events`, e.g.
    /// `button.addTarget(self, action: MenuController.buy, for: .touchUpInside)`.
    public func addTarget<Target: AnyObject>(
        _ target: Target, action: @escaping @MainActor (Target) -> (Control) -> Void,
        for events: Events
    ) {
        actions.append(
            (
                events,
                { [weak target] control in
                    guard let target else { return }
                    action(target)(control)
                }
            ))
    }

    /// Whether a lift inside is the control's primary action (a button's), sent with `.touchUpInside`;
    /// value controls send theirs with `.valueChanged` (`sendValueChanged()`).
    open var sendsPrimaryActionOnTouchUpInside: Bool { false }

    /// `.valueChanged`, the primary action of a control that holds a value; the instrumentation hears the
    /// value (`tracedValue`).
    public func sendValueChanged() {
        Application.shared.instrumentation.post(.valueChanged(self, value: tracedValue ?? ""))
        sendActions(for: [.valueChanged, .primaryActionTriggered])
    }

    /// The value as a trace writes it (a slider's number, a switch's `true`); nil: none. A control whose
    /// value is a secret returns nil.
    open var tracedValue: String? { nil }

    /// Runs the actions registered for any of `events`.
    public func sendActions(for events: Events) {
        for action in actions where !action.events.isDisjoint(with: events) { action.handler(self) }
    }

    /// A single-tap recognizer of another view does not take the control's tap: its own action wins, as
    /// UIKit's controls do since iOS 6. Recognizers attached to the control itself, and other gestures, may;
    /// and any may when the control is disabled, as it has no action to run.
    override open func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool {
        if isEnabled, gestureRecognizer.view !== self, let tap = gestureRecognizer as? TapGestureRecognizer,
            tap.numberOfTapsRequired == 1, tap.numberOfTouchesRequired == 1
        {
            return false
        }
        return true
    }

    override open func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        // Disabled, it ignores touches: they go on up the responder chain (a table cell's row selects).
        guard isEnabled else {
            passedOn.formUnion(touches)
            return super.touchesBegan(touches, with: event)
        }
        guard trackedTouch == nil, let touch = touches.first else { return }
        trackedTouch = touch
        isTracking = true
        isHighlighted = true
        sendActions(for: .touchDown)
    }

    override open func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        let others = touches.intersection(passedOn)
        if !others.isEmpty { super.touchesMoved(others, with: event) }
        guard let touch = trackedTouch, touches.contains(touch) else { return }
        let inside = self.point(inside: touch.location(in: self), with: event)
        isHighlighted = inside
        sendActions(for: inside ? .touchDragInside : .touchDragOutside)
    }

    override open func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        let others = touches.intersection(passedOn)
        if !others.isEmpty {
            passedOn.subtract(others)
            super.touchesEnded(others, with: event)
        }
        guard let touch = trackedTouch, touches.contains(touch) else { return }
        // Inside as the hit test sees it: a control that widens its touch area (`point(inside:with:)`)
        // fires where its touches land.
        let inside = self.point(inside: touch.location(in: self), with: event)
        endTracking()
        var events: Events = inside ? .touchUpInside : .touchUpOutside
        if inside, sendsPrimaryActionOnTouchUpInside { events.insert(.primaryActionTriggered) }
        sendActions(for: events)
    }

    override open func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        let others = touches.intersection(passedOn)
        if !others.isEmpty {
            passedOn.subtract(others)
            super.touchesCancelled(others, with: event)
        }
        guard let touch = trackedTouch, touches.contains(touch) else { return }
        endTracking()
        sendActions(for: .touchCancel)
    }

    private func endTracking() {
        trackedTouch = nil
        isTracking = false
        isHighlighted = false
    }
}
