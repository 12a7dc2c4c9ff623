import Geometry

/// Decides, for the recognizers it is the delegate of, whether they may begin, see a touch, recognize
/// together with another one, or wait for another one to fail (as `UIGestureRecognizerDelegate`). Every
/// method is optional.
@MainActor
public protocol GestureRecognizerDelegate: AnyObject {
    /// Asked when the recognizer is about to leave `.possible` for `.began` or `.recognized`; false makes
    /// it fail.
    func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool
    /// Asked for every new touch before the recognizer sees it; false keeps the touch from it.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool
    /// Whether the two may recognize at the same time; true from either one's delegate is enough.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool
    /// Whether `recognizer` must wait for `other` to fail, as if `require(toFail: other)` had been called.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool
    /// Whether `other` must wait for `recognizer` to fail.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool
}

extension GestureRecognizerDelegate {
    public func gestureRecognizerShouldBegin(_ recognizer: GestureRecognizer) -> Bool { true }
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool { true }
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRecognizeSimultaneouslyWith other: GestureRecognizer) -> Bool {
        false
    }
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldRequireFailureOf other: GestureRecognizer) -> Bool { false }
    public func gestureRecognizer(_ recognizer: GestureRecognizer, shouldBeRequiredToFailBy other: GestureRecognizer) -> Bool { false }
}

/// Turns touches into a gesture (as `UIGestureRecognizer`): attached to a view with
/// `View.addGestureRecognizer(_:)`, it sees every touch that lands in that view or its subviews before the
/// view the touch was hit-tested to does, and moves through UIKit's states:
///
/// - discrete gestures (tap, swipe): `.possible` → `.recognized` (= `.ended`), or → `.failed`;
/// - continuous gestures (long press, pan, pinch): `.possible` → `.began` → `.changed`… → `.ended` or
///   `.cancelled`, or → `.failed`.
///
/// Its actions run on `.recognized`, and on each of `.began`, `.changed`, `.ended` and `.cancelled`. When it
/// leaves `.possible` the other recognizers of the same touches fail unless a delegate lets them recognize
/// simultaneously, and with `cancelsTouchesInView` the views those touches were delivered to get
/// `touchesCancelled` and nothing more of them. Subclasses override the `touches…` methods and `reset()` and
/// set `state`, as with `UIGestureRecognizerSubclass`.
@MainActor
open class GestureRecognizer {
    /// The states of a gesture (as `UIGestureRecognizer.State`).
    public enum State: String, Sendable {
        case possible, began, changed, ended, cancelled, failed

        /// A discrete gesture's success: the same state as `.ended`.
        public static let recognized = State.ended

        /// A state the recognizer leaves only by being reset.
        var isFinished: Bool { self == .ended || self == .cancelled || self == .failed }
        /// The gesture is under way or done: it keeps others that cannot recognize with it from beginning.
        var isRecognizing: Bool { self == .began || self == .changed }
    }

    public required init() {}

    /// The view it is attached to.
    public internal(set) weak var view: View?

    /// A name for traces and logs (`"open-menu"`); `kind` is used when it is nil.
    public var name: String?

    /// What traces print for this kind of recognizer (`tap`, `pan`…); subclasses answer their own.
    open var kind: String { String(describing: type(of: self)) }

    /// A disabled recognizer sees no touches; disabling one under way cancels it (or fails it while still
    /// `.possible`).
    public var isEnabled = true {
        didSet { if !isEnabled, oldValue { Application.shared.gestures.abandon(self) } }
    }

    /// When it recognizes, the views its touches were delivered to get `touchesCancelled` and no more of
    /// those touches (true by default).
    public var cancelsTouchesInView = true
    /// While it is `.possible`, new touches reach their views only once it fails (false by default); if it
    /// recognizes they never do.
    public var delaysTouchesBegan = false
    /// While it is `.possible`, touches that end reach their views only once it fails (true by default); if
    /// it recognizes the views get `touchesCancelled` instead.
    public var delaysTouchesEnded = true

    public weak var delegate: (any GestureRecognizerDelegate)?

    // MARK: State

    private var storedState = State.possible
    /// What it asked for while a recognizer it requires to fail was still `.possible`.
    var pendingState: State?

    /// The current state. Subclasses set it as the touches come in; the change is checked as UIKit does
    /// (a recognizer that must wait for another to fail waits, one that may not begin fails) before it
    /// takes effect, so read it back rather than assume.
    public var state: State {
        get { storedState }
        set { Application.shared.gestures.request(newValue, for: self) }
    }

    /// Sets the state without any check (the arena's transitions and reset).
    func commit(_ state: State) { storedState = state }

    // MARK: Touches

    /// The touches it tracks: those of its gesture still down, and those that ended in the event being
    /// delivered.
    var touches: [Touch] = []
    /// Every touch it tracked since it was last reset, ended ones included: recognizing claims those
    /// whose end its views have not seen yet (a double tap's first tap).
    var touchesSinceReset: [Touch] = []
    /// Touches it was told to ignore (`ignore(_:for:)`).
    var ignoredTouches: [Touch] = []
    /// Where the last touch was when it went, for `location(in:)` after every finger has lifted.
    private var lastLocation: (screen: Point, window: Window?)?

    /// The touches its location and `numberOfTouches` report: those it tracks, unless a subclass keeps
    /// a gesture's fingers after they lift (a tap of several fingers that lift one after the other).
    var locatedTouches: [Touch] { touches }

    /// The number of touches in its gesture.
    public var numberOfTouches: Int { locatedTouches.count }

    /// The centroid of its touches in `view`'s coordinates (nil: the window's).
    public func location(in view: View?) -> Point {
        let touches = locatedTouches
        guard !touches.isEmpty else {
            guard let lastLocation else { return .zero }
            return Touch.convert(lastLocation.screen, to: view, window: lastLocation.window)
        }
        var x = 0.0, y = 0.0
        for touch in touches {
            let point = touch.location(in: view)
            x += point.x
            y += point.y
        }
        return Point(x: x / Double(touches.count), y: y / Double(touches.count))
    }

    /// Where the touch at `index` is, in `view`'s coordinates.
    public func location(ofTouch index: Int, in view: View?) -> Point {
        let touches = locatedTouches
        precondition(touches.indices.contains(index), "GestureRecognizer.location(ofTouch:in:): no touch at index \(index)")
        return touches[index].location(in: view)
    }

    /// The centroid of the touches it tracks, on the screen.
    var centroidOnScreen: Point {
        guard !touches.isEmpty else { return lastLocation?.screen ?? .zero }
        return centroid(of: touches)
    }

    /// Stops sending `touch` to this recognizer (as `ignore(_:for:)`); the view still gets it.
    public func ignore(_ touch: Touch, for event: Event) {
        guard !ignoredTouches.contains(touch) else { return }
        ignoredTouches.append(touch)
        forget(touch)
    }

    func track(_ touch: Touch) {
        if !touches.contains(touch) { touches.append(touch) }
        if !touchesSinceReset.contains(touch) { touchesSinceReset.append(touch) }
    }

    func forget(_ touch: Touch) {
        guard let index = touches.firstIndex(of: touch) else { return }
        if touches.count == 1 { lastLocation = (touch.locationOnScreen, touch.window) }
        touches.remove(at: index)
    }

    // MARK: Subclass overrides

    /// New touches in the view or its subviews. Subclasses call `super` first.
    open func touchesBegan(_ touches: Set<Touch>, with event: Event) {}
    open func touchesMoved(_ touches: Set<Touch>, with event: Event) {}
    open func touchesEnded(_ touches: Set<Touch>, with event: Event) {}
    /// The touches were cancelled (their device went, their window hid). A gesture under way should go to
    /// `.cancelled`, one still `.possible` to `.failed`; the default does so.
    open func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        if state.isRecognizing {
            state = .cancelled
        } else if state == .possible {
            state = .failed
        }
    }

    /// Back to the start once the gesture is over (called after it ended, was cancelled or failed, and its
    /// touches are gone). Subclasses clear their own state and call `super`.
    open func reset() {
        timer?.cancel()
        timer = nil
    }

    /// Whether this recognizer, recognizing, makes `other` fail (true; subclasses may narrow it).
    open func canPrevent(_ other: GestureRecognizer) -> Bool { true }
    /// Whether `other`, recognizing, makes this one fail (true; subclasses may narrow it).
    open func canBePrevented(by other: GestureRecognizer) -> Bool { true }
    /// Whether this recognizer waits for `other` to fail, beyond `require(toFail:)` (false).
    open func shouldRequireFailure(of other: GestureRecognizer) -> Bool { false }
    /// Whether `other` waits for this recognizer to fail (false).
    open func shouldBeRequiredToFail(by other: GestureRecognizer) -> Bool { false }

    // MARK: Failure requirements

    /// Recognizers that must fail before this one may leave `.possible` (held weakly).
    private var failureRequirements: [WeakRecognizer] = []

    /// This recognizer recognizes only once `other` has failed; if `other` recognizes, this one fails
    /// (the single tap that waits for a double tap).
    public func require(toFail other: GestureRecognizer) {
        failureRequirements.removeAll { $0.recognizer == nil || $0.recognizer === other }
        failureRequirements.append(WeakRecognizer(recognizer: other))
    }

    /// Whether this one must wait for `other` to fail: `require(toFail:)`, the subclass hooks or a delegate.
    func requiresFailure(of other: GestureRecognizer) -> Bool {
        guard other !== self else { return false }
        return failureRequirements.contains { $0.recognizer === other }
            || shouldRequireFailure(of: other) || other.shouldBeRequiredToFail(by: self)
            || delegate?.gestureRecognizer(self, shouldRequireFailureOf: other) == true
            || other.delegate?.gestureRecognizer(other, shouldBeRequiredToFailBy: self) == true
    }

    /// Whether the two may recognize at the same time (either delegate says so).
    func recognizesSimultaneously(with other: GestureRecognizer) -> Bool {
        delegate?.gestureRecognizer(self, shouldRecognizeSimultaneouslyWith: other) == true
            || other.delegate?.gestureRecognizer(other, shouldRecognizeSimultaneouslyWith: self) == true
    }

    // MARK: Actions

    private var actions: [(target: ObjectIdentifier?, handler: @MainActor (GestureRecognizer) -> Void)] = []

    func appendAction(target: AnyObject?, _ handler: @escaping @MainActor (GestureRecognizer) -> Void) {
        actions.append((target.map(ObjectIdentifier.init), handler))
    }

    /// Removes the actions added for `target`; nil removes them all.
    public func removeTarget(_ target: AnyObject?) {
        guard let target else { return actions.removeAll() }
        actions.removeAll { $0.target == ObjectIdentifier(target) }
    }

    func sendActions() {
        for action in actions { action.handler(self) }
    }

    // MARK: Timers

    private var timer: FrameTimer?

    /// Runs `action` at `deadline` (CLOCK_MONOTONIC seconds, the clock of the touches' timestamps) unless
    /// the recognizer is reset first; one timer at a time. State changes it makes are processed as those
    /// made while touches are delivered.
    func schedule(at deadline: TimeInterval, _ action: @escaping @MainActor (GestureRecognizer) -> Void) {
        timer?.cancel()
        timer = Application.shared.clock.schedule(at: deadline) { [weak self] in
            guard let self else { return }
            self.timer = nil
            Application.shared.gestures.runOutsideDelivery { action(self) }
        }
    }

    func cancelTimer() {
        timer?.cancel()
        timer = nil
    }
}

struct WeakRecognizer {
    weak var recognizer: GestureRecognizer?
}

/// Actions typed for the recognizer's own class: `TapGestureRecognizer { tap in … }`,
/// `pan.addTarget(self, action: Menu.dragged)` with `func dragged(_ pan: PanGestureRecognizer)`.
@MainActor
public protocol GestureRecognizerActions: GestureRecognizer {}

extension GestureRecognizer: GestureRecognizerActions {}

extension GestureRecognizerActions {
    /// A recognizer that calls `handler` with itself (as `init(target:action:)`).
    public init(_ handler: @escaping @MainActor (Self) -> Void) {
        self.init()
        addAction(handler)
    }

    /// Calls `handler` with the recognizer each time its state changes (but to `.possible` or `.failed`).
    public func addAction(_ handler: @escaping @MainActor (Self) -> Void) {
        appendAction(target: nil) { handler($0 as! Self) }
    }

    /// Target-action: calls `action` on `target` (held weakly), as `addTarget(_:action:)`.
    public func addTarget<Target: AnyObject>(_ target: Target, action: @escaping @MainActor (Target) -> (Self) -> Void) {
        appendAction(target: target) { [weak target] recognizer in
            guard let target else { return }
            action(target)(recognizer as! Self)
        }
    }
}

extension View {
    /// The recognizers attached to this view, in the order added (nil when none, as UIKit).
    public var gestureRecognizers: [GestureRecognizer]? {
        get { attachedRecognizers.isEmpty ? nil : attachedRecognizers }
        set {
            for recognizer in attachedRecognizers { removeGestureRecognizer(recognizer) }
            for recognizer in newValue ?? [] { addGestureRecognizer(recognizer) }
        }
    }

    /// Attaches `recognizer` (taking it from the view it was on); it sees the touches that land in this
    /// view and its subviews from the next touch on.
    public func addGestureRecognizer(_ recognizer: GestureRecognizer) {
        if let old = recognizer.view {
            if old === self { return }
            old.removeGestureRecognizer(recognizer)
        }
        attachedRecognizers.append(recognizer)
        recognizer.view = self
    }

    /// Detaches `recognizer`; a gesture under way is cancelled.
    public func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
        guard recognizer.view === self else { return }
        Application.shared.gestures.abandon(recognizer)
        attachedRecognizers.removeAll { $0 === recognizer }
        recognizer.view = nil
    }
}
