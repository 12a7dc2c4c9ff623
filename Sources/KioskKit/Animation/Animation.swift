import Geometry
import Graphics

// MARK: - The API (UIKit's, without the UI prefix)

extension View {
    /// How `animate(withDuration:...)` runs (as `UIView.AnimationOptions`, same raw values).
    public struct AnimationOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }

        /// Touches reach the animated views while they move (otherwise they pass them by).
        public static let allowUserInteraction = AnimationOptions(rawValue: 1 << 1)
        /// Start from what the screen shows now when the property is already animating (otherwise from
        /// the value that animation was heading to).
        public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
        /// Run again and again, until another animation of the property replaces it.
        public static let `repeat` = AnimationOptions(rawValue: 1 << 3)
        /// Run forwards, then backwards (each way taking the duration); the model value shows at the end.
        public static let autoreverse = AnimationOptions(rawValue: 1 << 4)
        /// A block inside another keeps its own duration (by default it takes the outer block's).
        public static let overrideInheritedDuration = AnimationOptions(rawValue: 1 << 5)
        /// A block inside another keeps its own curve (by default it takes the outer block's).
        public static let overrideInheritedCurve = AnimationOptions(rawValue: 1 << 6)

        public static let curveEaseInOut = AnimationOptions(rawValue: 0 << 16)
        public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
        public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
        public static let curveLinear = AnimationOptions(rawValue: 3 << 16)

        /// The curve the options name (ease-in-out when none is given, as UIKit).
        var timingFunction: TimingFunction {
            switch (rawValue >> 16) & 3 {
            case 1: .easeIn
            case 2: .easeOut
            case 3: .linear
            default: .easeInEaseOut
            }
        }
    }

    /// Animates the changes `animations` makes to `frame`, `bounds`, `center`, `alpha`, `backgroundColor`
    /// and `transform` of any views (as `UIView.animate(withDuration:delay:options:animations:completion:)`).
    /// The properties take their new values at once; the screen passes to them over `duration` seconds,
    /// after `delay`, one frame per display refresh. `completion` runs once every animation it started
    /// has ended: with true when all ran to their end, false when one was replaced by a new animation of
    /// its property. When nothing changed it runs at once (on the next turn of the run loop) with true.
    ///
    /// A `duration` of 0 or less makes the changes without animating them (an animation of the same
    /// property ends, not finished), and the completion runs on the next turn of the run loop. A block
    /// inside another starts with it and takes its duration and curve, unless `overrideInheritedDuration`
    /// or `overrideInheritedCurve` is given (UIKit's nested animation blocks).
    public static func animate(
        withDuration duration: TimeInterval, delay: TimeInterval = 0, options: AnimationOptions = [],
        animations: () -> Void, completion: (@MainActor (Bool) -> Void)? = nil
    ) {
        Application.shared.animator.run(
            AnimationParameters(
                duration: duration, delay: delay, options: options, timing: .curve(options.timingFunction)),
            animations: animations, completion: completion)
    }

    /// The spring form: the changes move like a damped spring (`dampingRatio` 1 settles without
    /// overshooting, smaller values oscillate), starting at `velocity` (1 means the whole distance per
    /// second), and are at rest after `duration` (see `SpringTiming`).
    public static func animate(
        withDuration duration: TimeInterval, delay: TimeInterval = 0, usingSpringWithDamping dampingRatio: Double,
        initialSpringVelocity velocity: Double, options: AnimationOptions = [], animations: () -> Void,
        completion: (@MainActor (Bool) -> Void)? = nil
    ) {
        let spring = SpringTiming(dampingRatio: dampingRatio, initialVelocity: velocity, duration: max(duration, 0))
        Application.shared.animator.run(
            AnimationParameters(duration: duration, delay: delay, options: options, timing: .spring(spring)),
            animations: animations, completion: completion)
    }

    /// Runs `actions` with animations off: changes inside take effect on screen at once, even inside an
    /// animation block (as `UIView.performWithoutAnimation`).
    public static func performWithoutAnimation(_ actions: () -> Void) {
        let wasEnabled = areAnimationsEnabled
        areAnimationsEnabled = false
        defer { areAnimationsEnabled = wasEnabled }
        actions()
    }

    /// When false, animation blocks change the properties at once and completions get true at once.
    public private(set) static var areAnimationsEnabled = true

    public static func setAnimationsEnabled(_ enabled: Bool) { areAnimationsEnabled = enabled }
}

// MARK: - What animates

/// A property that animates, as the trace names it. `transition` is a view transition's progress, 0 to 1
/// (`View.transition(with:...)`, ViewTransition.swift), run as any animation so that it is paced, timed,
/// replaced and ended as they are.
enum AnimatableProperty: String, Hashable, Sendable {
    case center, bounds, alpha, backgroundColor, transform, transition
}

/// A value of an animatable property.
enum AnimatableValue: Equatable {
    case point(Point)
    case rect(Rect)
    case scalar(Double)
    case color(Color?)
    case transform(AffineTransform)

    /// `fraction` of the way to `other` (beyond 1 or below 0 for a spring's overshoot); a missing colour
    /// is the other colour made transparent, so a background fades in rather than through black.
    func interpolated(to other: AnimatableValue, fraction: Double) -> AnimatableValue {
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * fraction }
        switch (self, other) {
        case (.point(let a), .point(let b)):
            return .point(Point(x: mix(a.x, b.x), y: mix(a.y, b.y)))
        case (.rect(let a), .rect(let b)):
            return .rect(
                Rect(
                    x: mix(a.origin.x, b.origin.x), y: mix(a.origin.y, b.origin.y),
                    width: max(mix(a.width, b.width), 0), height: max(mix(a.height, b.height), 0)))
        case (.scalar(let a), .scalar(let b)):
            return .scalar(mix(a, b))
        case (.color(let a), .color(let b)):
            guard a != nil || b != nil else { return .color(nil) }
            let from = a ?? b!.withAlphaComponent(0), to = b ?? a!.withAlphaComponent(0)
            func unit(_ x: Double) -> Double { min(max(x, 0), 1) }
            return .color(
                Color(
                    red: unit(mix(from.red, to.red)), green: unit(mix(from.green, to.green)),
                    blue: unit(mix(from.blue, to.blue)), alpha: unit(mix(from.alpha, to.alpha))))
        case (.transform(let a), .transform(let b)):
            return .transform(a.interpolated(to: b, fraction: fraction))
        default:
            return other
        }
    }
}

/// What a view shows where it differs from its model values.
struct PresentationValues {
    var center: Point?
    var bounds: Rect?
    var alpha: Double?
    var backgroundColor: Color??
    var transform: AffineTransform?
    /// How far a transition of the view has come (0: its old rendering shows, 1: its new one), and the
    /// transition: while set, the compositor shows the transition in place of the view's subtree.
    var transitionProgress: Double?
    var transition: ViewTransition?

    subscript(property: AnimatableProperty) -> AnimatableValue? {
        get {
            switch property {
            case .center: center.map { .point($0) }
            case .bounds: bounds.map { .rect($0) }
            case .alpha: alpha.map { .scalar($0) }
            case .backgroundColor: backgroundColor.map { .color($0) }
            case .transform: transform.map { .transform($0) }
            case .transition: transitionProgress.map { .scalar($0) }
            }
        }
        set {
            switch (property, newValue) {
            case (.center, .point(let value)?): center = value
            case (.bounds, .rect(let value)?): bounds = value
            case (.alpha, .scalar(let value)?): alpha = min(max(value, 0), 1)
            case (.backgroundColor, .color(let value)?): backgroundColor = .some(value)
            case (.transform, .transform(let value)?): transform = value
            case (.transition, .scalar(let value)?): transitionProgress = min(max(value, 0), 1)
            case (.center, _): center = nil
            case (.bounds, _): bounds = nil
            case (.alpha, _): alpha = nil
            case (.backgroundColor, _): backgroundColor = nil
            case (.transform, _): transform = nil
            case (.transition, _): transitionProgress = nil
            }
        }
    }
}

extension View {
    /// The screen this view is shown on (its window visible on a connected screen), or nil.
    var screenShowingIt: Screen? {
        guard let window, window.isOnDisplay else { return nil }
        return window.screen
    }

    /// The model value of `property`.
    func modelValue(_ property: AnimatableProperty) -> AnimatableValue {
        switch property {
        case .center: .point(center)
        case .bounds: .rect(bounds)
        case .alpha: .scalar(alpha)
        case .backgroundColor: .color(backgroundColor)
        case .transform: .transform(transform)
        // A transition's model is its end: the new rendering, live.
        case .transition: .scalar(1)
        }
    }
}

// MARK: - The engine

/// How one animation block runs.
struct AnimationParameters {
    enum Timing {
        case curve(TimingFunction)
        case spring(SpringTiming)
    }

    var duration: TimeInterval
    var delay: TimeInterval
    var options: View.AnimationOptions
    var timing: Timing
}

/// One animation block: its parameters, the property animations it started, its completion.
@MainActor
final class AnimationGroup {
    let parameters: AnimationParameters
    /// When its animations start, on the application's clock: the block's time plus the delay until the
    /// first frame that shows them is on screen, then that frame's time plus the delay (`Animator.advance`).
    var begin: TimeInterval
    /// The first frame that shows it is on screen: `begin` is settled.
    var started = false
    /// The screen whose frame with the start values is being made and shown.
    var awaitingFrameOf: Screen?
    let completion: (@MainActor (Bool) -> Void)?
    /// Property animations still running.
    var running = 0
    /// False once one of them was replaced before its end.
    var finished = true
    /// What the trace says: the views and the properties animated.
    var properties: [(view: View, property: AnimatableProperty)] = []
    /// For a view transition's block: its style and renderings.
    var transition: ViewTransition?

    init(parameters: AnimationParameters, begin: TimeInterval, completion: (@MainActor (Bool) -> Void)?) {
        self.parameters = parameters
        self.begin = begin
        self.completion = completion
    }
}

/// One property of one view passing from a value to another.
@MainActor
final class PropertyAnimation {
    let view: View
    let property: AnimatableProperty
    var from: AnimatableValue
    var to: AnimatableValue
    let group: AnimationGroup

    init(view: View, property: AnimatableProperty, from: AnimatableValue, to: AnimatableValue, group: AnimationGroup) {
        self.view = view
        self.property = property
        self.from = from
        self.to = to
        self.group = group
    }

    var parameters: AnimationParameters { group.parameters }

    /// Whether it has started and is still waiting for its delay at `time`.
    func isInItsDelay(at time: TimeInterval) -> Bool { group.started && group.begin > time }

    /// When it ends, or nil if it repeats for ever (or has not started on the screen that shows it).
    var end: TimeInterval? {
        if !group.started, view.screenShowingIt != nil || !group.begin.isFinite { return nil }
        guard !parameters.options.contains(.repeat) else { return nil }
        return group.begin + max(parameters.duration, 0) * (parameters.options.contains(.autoreverse) ? 2 : 1)
    }

    /// What it shows at `time`: the start value before it begins, nil once it has ended (the model shows).
    func value(at time: TimeInterval) -> AnimatableValue? {
        let elapsed = time - group.begin
        if elapsed < 0 { return from }  // during the delay the start value shows (UIKit's backwards fill)
        // A nanosecond early counts as ended: frame times add up periods, and the sum may fall a hair
        // short of an end it reaches exactly.
        if let end, time + 1e-9 >= end { return nil }
        let duration = parameters.duration
        guard duration > 0 else { return nil }
        var phase = elapsed
        let autoreverse = parameters.options.contains(.autoreverse)
        let cycle = autoreverse ? 2 * duration : duration
        if parameters.options.contains(.repeat) { phase = elapsed.truncatingRemainder(dividingBy: cycle) }
        if autoreverse && phase > duration { phase = cycle - phase }
        let progress: Double
        switch parameters.timing {
        case .curve(let function): progress = function.value(at: phase / duration)
        case .spring(let spring): progress = spring.value(at: phase)
        }
        return from.interpolated(to: to, fraction: progress)
    }
}

/// Work waiting for the animations to end, and its time limit.
@MainActor
private final class SettleWaiter {
    let action: @MainActor () -> Void
    var limit: FrameTimer?

    init(action: @escaping @MainActor () -> Void) { self.action = action }
}

/// Runs every view animation of an application: records the changes an animation block makes, moves the
/// presentation values on each frame the compositor asks for (`advance(to:)`), ends animations and calls
/// completions. Nothing runs while nothing animates.
@MainActor
final class Animator {
    unowned let application: Application
    /// In start order.
    private(set) var animations: [PropertyAnimation] = []
    /// Animation blocks being run (nested blocks stack).
    private static var blocks: [AnimationGroup] = []
    /// The one timer that ends animations no screen is showing, at the earliest end.
    private var endTimer: FrameTimer?
    /// What waits for every animation to end (`whenSettled`), each with its time limit.
    private var settleWaiters: [SettleWaiter] = []

    init(application: Application) {
        self.application = application
    }

    var clock: any FrameClock { application.clock }

    /// Whether any animation moves on a view shown on `screen`: then the screen needs a frame per refresh.
    /// One still in its delay shows its start value and needs none until `startLead` before it begins
    /// (the end timer wakes the frames then); one waiting for its screen's first frame needs that frame.
    func isAnimating(on screen: Screen) -> Bool {
        let now = clock.now
        return animations.contains { $0.view.screenShowingIt === screen && !$0.isInItsDelay(at: now + Self.startLead) }
    }

    /// How long before a delayed animation begins its screen's frames start again: a few refreshes, so
    /// that the frame shown at its beginning is already moving.
    static let startLead: TimeInterval = 0.05

    var isAnimating: Bool { !animations.isEmpty }

    // MARK: Recording

    func run(
        _ parameters: AnimationParameters, animations body: () -> Void, completion: (@MainActor (Bool) -> Void)?
    ) {
        guard View.areAnimationsEnabled else {
            body()
            if let completion { runLater { completion(true) } }
            return
        }
        var parameters = parameters
        if let outer = Self.blocks.last?.parameters {
            if !parameters.options.contains(.overrideInheritedDuration) { parameters.duration = outer.duration }
            if !parameters.options.contains(.overrideInheritedCurve) { parameters.timing = outer.timing }
        }
        let group = AnimationGroup(parameters: parameters, begin: clock.now + max(parameters.delay, 0), completion: completion)
        Self.blocks.append(group)
        body()
        Self.blocks.removeLast()
        began(group)
    }

    /// A block's animations were recorded: the trace hears of them and their screens' frames start; a
    /// block that animates nothing completes at once, finished (UIKit's).
    func began(_ group: AnimationGroup) {
        guard group.running > 0 else {
            if let completion = group.completion { runLater { completion(true) } }
            return
        }
        application.instrumentation.post(
            .animationBegan(
                views: group.properties.map(\.view), properties: group.properties.map { $0.property.rawValue },
                duration: group.parameters.duration))
        requestFrames()
    }

    /// Whether changes made now animate: inside an animation block, with animations on (a stack view lays
    /// out at once then, so that its arranged views' frames animate with the block).
    static var changesAnimate: Bool { !blocks.isEmpty && View.areAnimationsEnabled }

    /// A property of `view` changed from `old` to `new`: inside an animation block (and with animations
    /// on), that change animates. Called by the property setters; cheap outside blocks.
    static func record(_ view: View, _ property: AnimatableProperty, from old: AnimatableValue, to new: AnimatableValue) {
        guard let group = blocks.last, View.areAnimationsEnabled else { return }
        Application.shared.animator.add(view, property, from: old, to: new, group: group)
    }

    func add(
        _ view: View, _ property: AnimatableProperty, from old: AnimatableValue, to new: AnimatableValue,
        group: AnimationGroup
    ) {
        let now = clock.now
        var from = old
        if let index = animations.firstIndex(where: { $0.view === view && $0.property == property }) {
            let running = animations[index]
            if running.group === group {
                // Set again in the same block: one animation from the first value to the last.
                running.to = new
                return
            }
            // One whose end has come by the clock ran its course, though the frame that shows its end
            // state has not come yet (the main thread was held): finished, as UIKit's render server, which
            // keeps time apart from the app's thread, would have ended it; and it ends on its end value.
            let ranItsCourse = running.end.map { now + 1e-9 >= $0 } ?? false
            if group.parameters.options.contains(.beginFromCurrentState), !ranItsCourse {
                // What the screen shows now (no presentation value: the model's old value shows).
                from = view.presentation[property] ?? old
            }
            remove(running, finished: ranItsCourse)
        }
        // "If you specify a negative value or 0, the changes are made without animating them" (UIKit).
        guard group.parameters.duration > 0 else { return }
        let animation = PropertyAnimation(view: view, property: property, from: from, to: new, group: group)
        animations.append(animation)
        group.running += 1
        group.properties.append((view, property))
        if !group.parameters.options.contains(.allowUserInteraction) { view.interactionBlockingAnimations += 1 }
        show(animation, value: animation.value(at: now))
    }

    /// Ends the animations of `view` and its subviews, unfinished (the views left their window).
    func removeAnimations(inside view: View) {
        guard !animations.isEmpty else { return }
        for animation in animations where animation.view.isDescendant(of: view) { remove(animation, finished: false) }
        scheduleEndTimer()
    }

    // MARK: Running

    /// Moves every animation to `time`: presentation values change (damaging what moved), ended
    /// animations go and their blocks' completions run, in the order the blocks began. `screen` is the
    /// screen whose frame (to be shown at `time`) this is; nil for the end timer.
    ///
    /// An animation's time starts when the first frame of the screen that shows it, with its start values,
    /// is on the display (Core Animation starts one when the transaction that adds it commits, not when
    /// the code asked): what ran before (an app's launch, a screen's first layout and text, a slow first
    /// frame) never eats into it, and every step of it shows. One that no screen shows runs from when it
    /// was asked for.
    func advance(to time: TimeInterval, frameOf screen: Screen? = nil) {
        guard !animations.isEmpty else { return }
        var ended: [PropertyAnimation] = []
        // Whether a block still has a view on the screen whose frame it waits for (a block may also animate
        // views on no screen or another one, which wait with it), looked at once per block.
        var stillAwaited: [ObjectIdentifier: Bool] = [:]
        func hasAViewOn(_ screen: Screen, _ group: AnimationGroup) -> Bool {
            if let known = stillAwaited[ObjectIdentifier(group)] { return known }
            let found = animations.contains { $0.group === group && $0.view.screenShowingIt === screen }
            stillAwaited[ObjectIdentifier(group)] = found
            return found
        }
        for animation in animations {
            let group = animation.group
            if let awaiting = group.awaitingFrameOf, !hasAViewOn(awaiting, group) {
                // Its views left that screen before the frame showed: it starts now.
                group.awaitingFrameOf = nil
                group.started = true
                group.begin = time
            }
            if !group.started, let shownOn = animation.view.screenShowingIt {
                // Waits for a frame of its own screen, which shows the start values; `frameShown` starts it.
                guard shownOn === screen || group.awaitingFrameOf != nil else { continue }
                if group.awaitingFrameOf == nil {
                    group.awaitingFrameOf = shownOn
                    group.begin = .infinity
                }
            }
            let value = animation.value(at: time)
            show(animation, value: value)
            if value == nil { ended.append(animation) }
        }
        for animation in ended { remove(animation, finished: true) }
        scheduleEndTimer()
    }

    /// Puts `value` on screen for `animation` (nil: the model value).
    private func show(_ animation: PropertyAnimation, value: AnimatableValue?) {
        let view = animation.view
        let shown = value == animation.view.modelValue(animation.property) ? nil : value
        // A transition shows while its progress does, and its renderings go with it.
        if animation.property == .transition { view.presentation.transition = shown == nil ? nil : animation.group.transition }
        guard view.presentation[animation.property] != shown else { return }
        view.presentation[animation.property] = shown
        view.presentationDidChange(animation.property)
    }

    private func remove(_ animation: PropertyAnimation, finished: Bool) {
        animations.removeAll { $0 === animation }
        show(animation, value: nil)
        if !animation.parameters.options.contains(.allowUserInteraction) { animation.view.interactionBlockingAnimations -= 1 }
        let group = animation.group
        group.running -= 1
        if !finished { group.finished = false }
        if animations.isEmpty { settle() }
        guard group.running == 0 else { return }
        application.instrumentation.post(
            .animationEnded(
                views: group.properties.map(\.view), properties: group.properties.map { $0.property.rawValue },
                duration: group.parameters.duration, finished: group.finished))
        if let completion = group.completion {
            let finished = group.finished
            // After the frame's changes, never inside another block or setter: on the next turn.
            runLater { completion(finished) }
        }
    }

    /// A frame of `screen` is on the display since `time` (its vblank, or when it is due): the animations
    /// whose start values it shows start then.
    func frameShown(on screen: Screen, at time: TimeInterval) {
        var changed = false
        for animation in animations where animation.group.awaitingFrameOf === screen {
            let group = animation.group
            group.awaitingFrameOf = nil
            group.started = true
            group.begin = time + max(group.parameters.delay, 0)
            changed = true
        }
        if changed { scheduleEndTimer() }
    }

    /// Runs `action` once no animation is in flight (on the next turn if none is), or after `limit`
    /// seconds at the latest.
    func whenSettled(within limit: TimeInterval, _ action: @escaping @MainActor () -> Void) {
        guard isAnimating else { return runLater(action) }
        let waiter = SettleWaiter(action: action)
        // Whichever comes first runs it: the limit (which takes it off the list) or `settle` (which
        // cancels the limit).
        waiter.limit = clock.schedule(at: clock.now + limit) { [weak self] in
            self?.settleWaiters.removeAll { $0 === waiter }
            waiter.action()
        }
        settleWaiters.append(waiter)
    }

    private func settle() {
        let waiters = settleWaiters
        settleWaiters = []
        for waiter in waiters {
            waiter.limit?.cancel()
            runLater(waiter.action)
        }
    }

    /// Asks the compositor for frames on the screens that show an animation, and keeps the end timer.
    private func requestFrames() {
        application.changeObserver?.framesRequested()
        scheduleEndTimer()
    }

    /// Animations whose views no screen shows still end on time (their completions run): one timer at the
    /// earliest end among them, or at the earliest moment a delayed one needs frames again (`startLead`
    /// before it begins). Screens that show animations advance them on each frame instead.
    private func scheduleEndTimer() {
        let now = clock.now
        let starts = animations.filter { $0.isInItsDelay(at: now + Self.startLead) }.map { $0.group.begin - Self.startLead }
        let earliest = (animations.compactMap(\.end) + starts).min()
        if let endTimer, !endTimer.isCancelled, endTimer.deadline == earliest { return }
        endTimer?.cancel()
        endTimer = nil
        guard let earliest else { return }
        endTimer = clock.schedule(at: earliest) { [weak self] in
            guard let self else { return }
            self.endTimer = nil
            self.advance(to: self.clock.now)
            // A delayed animation about to begin: its screen's frames start again.
            self.application.changeObserver?.framesRequested()
        }
    }

    /// Runs `action` on the next turn of the run loop (through the clock, so manual clocks in tests run it).
    func runLater(_ action: @escaping @MainActor () -> Void) {
        _ = clock.schedule(at: clock.now, action)
    }
}
