/// What the toolkit tells whoever watches it: a frame composed or shown, a region painted, an animation (a
/// view transition too) begun or ended, a gesture's state, a text field's edit, a scroll, input activity, a
/// touch or a key delivered, a controller's view appeared or gone, a layout problem, the session become idle. The runtime's trace writes them, its
/// power manager counts idle time from `activity`, the launch and sd_notify wait for the first
/// `frameComposed`, and tests read them.
///
/// One typed event per thing that happened, rather than one settable closure each: as wlroots' signals
/// (`wl_signal` with any number of listeners) or Instruments' signposts, several clients watch at once
/// without taking the one slot from each other (the trace and a test, the power manager and the trace).
public enum InstrumentationEvent {
    /// A frame was composed for the screen and handed to the output.
    case frameComposed(Screen)
    /// A frame of the screen is on the display (after its page flip), with the flip's vblank time when the
    /// output knows it (CLOCK_MONOTONIC seconds).
    case presented(Screen, vblank: TimeInterval?)
    /// A change that moved only what planes show (a cursor on its plane) is on the display, in place of
    /// `presented`: no frame was composed.
    case planesPresented(Screen, vblank: TimeInterval?)
    /// The region a frame's paint composites (tests: a scroll paints only what came into view).
    case painted(Region)
    /// An animation block started animating `properties` (`view identifier: property`, one per view of
    /// `views`) for `duration`; a view transition is the property `transition` of its container.
    case animationBegan(views: [View], properties: [String], duration: TimeInterval)
    /// It ended: `finished` false when one of its animations was replaced first.
    case animationEnded(views: [View], properties: [String], duration: TimeInterval, finished: Bool)
    /// A gesture recognizer changed state, to anything but `.possible`.
    case gestureChanged(GestureRecognizer)
    /// A text field's text was edited (a listener that writes it anywhere must not write the text: it may
    /// be a PIN).
    case textEdited(TextField)
    /// A scroll view's content offset changed.
    case scrolled(ScrollView)
    /// The user changed a control's value (its `.valueChanged`) or a picker's row: the value as text
    /// (`Control.tracedValue`; a picker's `component:row`).
    case valueChanged(View, value: String)
    /// An input event is about to be routed: the screen it happened on, nil for keys (which map to no
    /// screen); a touch event on several screens posts one for each.
    case activity(Screen?)
    /// A touch was delivered to a view.
    case touchDelivered(Touch)
    /// A press was delivered to the key window.
    case pressDelivered(Press, Window)
    /// Auto Layout could not lay out as asked (a constraint broken as unsatisfiable, one refused, a layout
    /// that did not settle): the message its log line has too.
    case layoutProblem(String)
    /// `timeout` seconds passed without input: the session is idle (`Application.sessionIdleTimeout`), once
    /// per idle period.
    case sessionDidBecomeIdle(timeout: TimeInterval)
    /// A view controller's view appeared (`viewDidAppear` was called) or disappeared (`viewDidDisappear`):
    /// a screen pushed, popped, presented or dismissed, or a window's root shown or hidden.
    case appearanceChanged(ViewController, appeared: Bool, animated: Bool)
    /// An event of a module above the toolkit, which KioskKit cannot name (the runtime's
    /// `KioskRuntime.InputOutcome`): listeners match its type (`case .runtime(let outcome as InputOutcome)`).
    case runtime(any Sendable)
}

/// The application's one instrumentation seam: clients `observe` its events, the toolkit `post`s them.
///
/// Listeners are called synchronously, in the order they were added, on the main actor, where the event
/// happened: a listener sees the toolkit's state as it is at that moment (a frame's number, a recognizer's
/// state), which is what a trace line must say. Delivery works on the listeners as they were when the event
/// was posted: a listener added while one is delivered hears the next event, not that one; a listener
/// cancelled while one is delivered is not called any more, that event included.
///
/// Nothing is paid while nobody listens: `post` takes its event as an autoclosure and returns after one
/// check of an empty array, so the touch and frame paths (benchmarked by their instruction counts) never
/// build an event's payload (an animation's list of views, a boxed `runtime` value) for no one.
@MainActor
public final class Instrumentation {
    /// The listeners, in the order they were added.
    private var listeners: [InstrumentationListener] = []

    public init() {}

    /// Whether anyone listens: the one check `post` makes.
    public var isObserved: Bool { !listeners.isEmpty }

    /// Calls `handler` with every event posted from now on, until the returned token is cancelled or
    /// released. Keep the token as long as the events are wanted (`let token = ...observe { ... }`): one
    /// discarded at once hears nothing.
    public func observe(_ handler: @escaping (InstrumentationEvent) -> Void) -> InstrumentationToken {
        let listener = InstrumentationListener(handler: handler)
        listeners.append(listener)
        return InstrumentationToken(listener: listener, instrumentation: self)
    }

    /// Tells every listener about `event`; builds it only when there is one.
    @inlinable
    public func post(_ event: @autoclosure () -> InstrumentationEvent) {
        guard isObserved else { return }
        deliver(event())
    }

    @usableFromInline
    func deliver(_ event: InstrumentationEvent) {
        // A copy: listeners added or removed by a listener change `listeners`, not this loop.
        let current = listeners
        for listener in current where listener.isActive { listener.handler(event) }
    }

    fileprivate func remove(_ listener: InstrumentationListener) {
        listener.isActive = false
        listeners.removeAll { $0 === listener }
    }
}

/// One listener: its handler, and whether its token still wants events (checked at each call, so a
/// listener cancelled during a delivery is not called after that).
@MainActor
final class InstrumentationListener {
    let handler: (InstrumentationEvent) -> Void
    var isActive = true

    init(handler: @escaping (InstrumentationEvent) -> Void) { self.handler = handler }
}

/// A subscription to an `Instrumentation`: events reach its handler until `cancel()` or until the token is
/// released, as Combine's `AnyCancellable`, so a client that goes away stops listening without a call.
@MainActor
public final class InstrumentationToken {
    private let listener: InstrumentationListener
    private weak var instrumentation: Instrumentation?

    fileprivate init(listener: InstrumentationListener, instrumentation: Instrumentation) {
        self.listener = listener
        self.instrumentation = instrumentation
    }

    /// Whether events still reach the handler.
    public var isActive: Bool { listener.isActive }

    /// Stops the events: the handler is not called again, not even for an event being delivered now.
    /// Cancelling twice does nothing.
    public func cancel() {
        guard listener.isActive else { return }
        listener.isActive = false
        instrumentation?.remove(listener)
    }

    isolated deinit { cancel() }
}
