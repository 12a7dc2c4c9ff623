import Geometry
import Glibc

/// A tap, or several in a row, of one or more fingers (as `UITapGestureRecognizer`); discrete. The fingers
/// may move up to `allowableMovement` and each tap must begin within `Application`'s multi-tap interval
/// (0.35 s) of the last one ending, and near it.
@MainActor
open class TapGestureRecognizer: GestureRecognizer {
    public var numberOfTapsRequired = 1
    public var numberOfTouchesRequired = 1
    /// How far (points) a finger may move before it is no longer a tap.
    public var allowableMovement = 45.0

    override open var kind: String { "tap" }

    private var tapsDone = 0
    private var starts: [Touch: Point] = [:]
    /// The fingers of the tap under way, in the order they went down, lifted ones included: the tap's
    /// location is their centroid when the last one lifts, as `UITapGestureRecognizer`'s.
    private var fingers: [Touch] = []
    private var mostTouches = 0
    /// Where the last tap's fingers went down, and when it ended.
    private var lastTapEnd: (locations: [Point], time: TimeInterval)?

    override open func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        guard pendingState == nil else { return }
        cancelTimer()
        if let lastTapEnd {
            // Each finger of the next tap comes soon, and near one of the last tap's fingers (two fingers
            // 60 pt apart tap twice: each is near its own place, not near their centre).
            for touch in touches
            where touch.timestamp - lastTapEnd.time > Application.multiTapInterval
                || !lastTapEnd.locations.contains(where: { distance(touch.locationOnScreen, $0) <= Application.multiTapDistance })
            {
                return state = .failed
            }
        }
        for touch in touches { starts[touch] = touch.locationOnScreen }
        fingers += self.touches.filter { !fingers.contains($0) }
        mostTouches = max(mostTouches, self.touches.count)
        if mostTouches > numberOfTouchesRequired { state = .failed }
    }

    override var locatedTouches: [Touch] {
        let fingers = fingers.filter { !ignoredTouches.contains($0) }
        return fingers.isEmpty ? touches : fingers
    }

    override open func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        guard pendingState == nil else { return }
        for touch in touches {
            if let start = starts[touch], distance(start, touch.locationOnScreen) > allowableMovement { return state = .failed }
        }
    }

    override open func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        guard pendingState == nil else { return }
        // The tap is over when its last finger lifts (the others of this event included).
        guard self.touches.allSatisfy({ $0.phase == .ended }) else { return }
        guard mostTouches == numberOfTouchesRequired else { return state = .failed }
        tapsDone += 1
        if tapsDone >= numberOfTapsRequired { return state = .recognized }
        let end = touches.map(\.timestamp).max() ?? event.timestamp
        lastTapEnd = (Array(starts.values), end)
        mostTouches = 0
        starts.removeAll()
        fingers.removeAll()
        schedule(at: end + Application.multiTapInterval) { $0.state = .failed }
    }

    override open func reset() {
        super.reset()
        tapsDone = 0
        starts.removeAll()
        fingers.removeAll()
        mostTouches = 0
        lastTapEnd = nil
    }
}

/// A press held still (as `UILongPressGestureRecognizer`); continuous: it begins once the fingers have
/// been down `minimumPressDuration` without moving more than `allowableMovement`, changes as they move,
/// and ends when they lift.
@MainActor
open class LongPressGestureRecognizer: GestureRecognizer {
    public var minimumPressDuration: TimeInterval = 0.5
    public var allowableMovement = 10.0
    public var numberOfTouchesRequired = 1
    /// Taps before the press (0: the press alone).
    public var numberOfTapsRequired = 0

    override open var kind: String { "long-press" }

    private var starts: [Touch: Point] = [:]
    private var tapsDone = 0

    override open func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        guard state == .possible, pendingState == nil else { return }
        cancelTimer()
        for touch in touches { starts[touch] = touch.locationOnScreen }
        if numberOfTouches > numberOfTouchesRequired { return state = .failed }
        if numberOfTouches == numberOfTouchesRequired, tapsDone == numberOfTapsRequired {
            let start = touches.map(\.timestamp).max() ?? event.timestamp
            schedule(at: start + minimumPressDuration) { recognizer in
                recognizer.state = .began
            }
        }
    }

    override open func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        switch state {
        case .possible:
            for touch in touches {
                if let start = starts[touch], distance(start, touch.locationOnScreen) > allowableMovement { return state = .failed }
            }
        case .began, .changed:
            state = .changed
        default: break
        }
    }

    override open func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        switch state {
        case .possible:
            // Lifted too early: a tap before the press when taps are wanted, else a failure. A tap of
            // several fingers is over when its last finger lifts (they seldom lift in one frame).
            guard tapsDone < numberOfTapsRequired else { return state = .failed }
            guard self.touches.allSatisfy({ $0.phase == .ended }) else { return }
            tapsDone += 1
            starts.removeAll()
            let end = touches.map(\.timestamp).max() ?? event.timestamp
            schedule(at: end + Application.multiTapInterval) { $0.state = .failed }
        case .began, .changed:
            state = .ended
        default: break
        }
    }

    override open func reset() {
        super.reset()
        starts.removeAll()
        tapsDone = 0
    }
}

/// A drag of one or more fingers (as `UIPanGestureRecognizer`); continuous: it begins once the fingers'
/// centroid has moved `hysteresis` points, and reports the translation since the touch went down and a
/// velocity from the kernel's event timestamps.
@MainActor
open class PanGestureRecognizer: GestureRecognizer {
    public var minimumNumberOfTouches = 1
    public var maximumNumberOfTouches = Int.max
    /// How far (points) the fingers move before the pan begins (UIKit's is about 10).
    public var hysteresis = 10.0

    override open var kind: String { "pan" }

    /// Where the centroid was when the translation was zero, on the screen.
    private var origin: Point?
    /// Recent centroids and their times, for the velocity.
    private var samples: [(location: Point, time: TimeInterval)] = []
    /// The velocity is measured over this much of the latest movement (seconds).
    static let velocityWindow: TimeInterval = 0.1

    /// The movement since the touches went down (or since `setTranslation`), in `view`'s coordinates.
    public func translation(in view: View?) -> Point {
        guard let origin else { return .zero }
        let now = location(in: view)
        let start = Touch.convert(origin, to: view, window: self.view?.window)
        return Point(x: now.x - start.x, y: now.y - start.y)
    }

    /// Makes the translation `translation` (in `view`'s coordinates) from here on.
    public func setTranslation(_ translation: Point, in view: View?) {
        let current = centroidOnScreen
        // The origin in the view's coordinates, then back onto the screen along the same mapping.
        let here = Touch.convert(current, to: view, window: self.view?.window)
        let wanted = Point(x: here.x - translation.x, y: here.y - translation.y)
        let unit = Touch.convert(Point(x: current.x + 1, y: current.y), to: view, window: self.view?.window)
        let unitY = Touch.convert(Point(x: current.x, y: current.y + 1), to: view, window: self.view?.window)
        // Invert the 2x2 linear map (screen to view) to take the wanted point's offset back to the screen.
        let a = unit.x - here.x, b = unit.y - here.y, c = unitY.x - here.x, d = unitY.y - here.y
        let determinant = a * d - b * c
        guard determinant != 0 else { return }
        let dx = wanted.x - here.x, dy = wanted.y - here.y
        origin = Point(x: current.x + (dx * d - dy * c) / determinant, y: current.y + (dy * a - dx * b) / determinant)
        // "Changing the translation value resets the velocity of the pan" (UIKit): the movement so far no
        // longer counts.
        if let last = samples.last { samples = [(current, last.time)] }
    }

    /// Points per second in `view`'s coordinates, over the last tenth of a second of movement.
    public func velocity(in view: View?) -> Point {
        guard let last = samples.last else { return .zero }
        let recent = samples.filter { last.time - $0.time <= Self.velocityWindow }
        guard let first = recent.first, last.time > first.time else { return .zero }
        let window = self.view?.window
        let a = Touch.convert(first.location, to: view, window: window)
        let b = Touch.convert(last.location, to: view, window: window)
        let seconds = last.time - first.time
        return Point(x: (b.x - a.x) / seconds, y: (b.y - a.y) / seconds)
    }

    private func sample(at time: TimeInterval) {
        samples.append((centroidOnScreen, time))
        samples.removeAll { time - $0.time > Self.velocityWindow * 2 }
    }

    override open func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        let time = touches.map(\.timestamp).max() ?? event.timestamp
        if origin == nil {
            origin = centroidOnScreen
        } else {
            shiftOrigin(joining: touches)
        }
        if self.touches.count > maximumNumberOfTouches {
            if state == .possible { return state = .failed }
        }
        sample(at: time)
    }

    override open func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        guard let origin else { return }
        sample(at: touches.map(\.timestamp).max() ?? event.timestamp)
        switch state {
        case .possible:
            guard self.touches.count >= minimumNumberOfTouches, self.touches.count <= maximumNumberOfTouches else { return }
            if distance(origin, centroidOnScreen) >= hysteresis { state = .began }
        case .began, .changed:
            // "It changes when a finger moves while at least the minimum number of fingers are pressed".
            if fingersDown >= minimumNumberOfTouches { state = .changed }
        default: break
        }
    }

    /// The fingers still on the glass.
    private var fingersDown: Int { touches.count { $0.phase != .ended && $0.phase != .cancelled } }

    override open func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        let remaining = self.touches.filter { $0.phase != .ended && $0.phase != .cancelled }
        sample(at: touches.map(\.timestamp).max() ?? event.timestamp)
        switch state {
        case .possible:
            if remaining.isEmpty { state = .failed }
        case .began, .changed:
            // "It ends when all fingers are lifted" (UIKit), not when fewer than the minimum are left.
            if remaining.isEmpty {
                state = .ended
            } else {
                // The centroid of the fingers left jumps; the translation and the velocity do not.
                follow(jumpFrom: centroidOnScreen, to: centroid(of: remaining))
            }
        default: break
        }
    }

    private func shiftOrigin(joining touches: Set<Touch>) {
        let without = self.touches.filter { !touches.contains($0) }
        guard !without.isEmpty else { return }
        follow(jumpFrom: centroid(of: without), to: centroidOnScreen)
    }

    /// Moves the origin and the velocity samples with a jump of the centroid (a finger joined or lifted),
    /// which is no movement: shifting the origin alone kept the translation but counted the jump in the
    /// velocity.
    private func follow(jumpFrom before: Point, to after: Point) {
        let dx = after.x - before.x, dy = after.y - before.y
        if let origin { self.origin = Point(x: origin.x + dx, y: origin.y + dy) }
        samples = samples.map { (Point(x: $0.location.x + dx, y: $0.location.y + dy), $0.time) }
    }

    override open func reset() {
        super.reset()
        origin = nil
        samples.removeAll()
    }
}

/// A quick stroke in one of the allowed directions (as `UISwipeGestureRecognizer`); discrete: recognized
/// once the fingers have moved `minimumDistance` points that way within `maximumDuration`, mostly along
/// that axis (the sideways movement at most half the forward one).
@MainActor
open class SwipeGestureRecognizer: GestureRecognizer {
    /// The directions a swipe is recognized in (as `UISwipeGestureRecognizer.Direction`).
    public struct Direction: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let right = Direction(rawValue: 1 << 0)
        public static let left = Direction(rawValue: 1 << 1)
        public static let up = Direction(rawValue: 1 << 2)
        public static let down = Direction(rawValue: 1 << 3)
    }

    /// Right by default, as UIKit.
    public var direction: Direction = .right
    public var numberOfTouchesRequired = 1
    public var minimumDistance = 50.0
    public var maximumDuration: TimeInterval = 0.5

    override open var kind: String { "swipe" }

    /// The direction of the swipe recognized last (one of `direction`'s).
    public private(set) var recognizedDirection: Direction = []
    private var start: Point?

    override open func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        if numberOfTouches > numberOfTouchesRequired { return state = .failed }
        guard numberOfTouches == numberOfTouchesRequired else { return }
        start = centroidOnScreen
        let began = touches.map(\.timestamp).max() ?? event.timestamp
        schedule(at: began + maximumDuration) { $0.state = .failed }
    }

    override open func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        guard let start, state == .possible else { return }
        // The axes of the view: a rotated view's swipe "right" follows the view.
        let window = view?.window
        let a = Touch.convert(start, to: view, window: window), b = Touch.convert(centroidOnScreen, to: view, window: window)
        let dx = b.x - a.x, dy = b.y - a.y
        for (candidate, forward, sideways) in [
            (Direction.right, dx, dy), (.left, -dx, dy), (.down, dy, dx), (.up, -dy, dx),
        ] where direction.contains(candidate) && forward >= minimumDistance && abs(sideways) <= forward / 2 {
            recognizedDirection = candidate
            return state = .recognized
        }
    }

    override open func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        if state == .possible { state = .failed }
    }

    override open func reset() {
        super.reset()
        start = nil
    }
}

/// Two fingers moving apart or together (as `UIPinchGestureRecognizer`); continuous: it begins once their
/// distance has changed `hysteresis` points. `scale` is the distance now over the distance when they
/// touched down.
@MainActor
open class PinchGestureRecognizer: GestureRecognizer {
    /// The fingers' distance relative to the start (settable: the ratio goes on from the value set).
    public var scale: Double {
        get { startDistance > 0 ? currentDistance / startDistance : 1 }
        set {
            guard currentDistance > 0, newValue > 0 else { return }
            startDistance = currentDistance / newValue
            lastSample = lastSample.map { (newValue, $0.time) }
        }
    }
    /// Scale per second, from the last two movements' kernel timestamps.
    public private(set) var velocity: Double = 0
    /// How far (points) the distance changes before the pinch begins.
    public var hysteresis = 8.0

    override open var kind: String { "pinch" }

    private var startDistance = 0.0
    private var currentDistance = 0.0
    private var lastSample: (scale: Double, time: TimeInterval)?

    private var fingers: [Touch] { Array(touches.prefix(2)) }

    private func measure() -> Double {
        let pair = fingers
        guard pair.count == 2 else { return currentDistance }
        return distance(pair[0].locationOnScreen, pair[1].locationOnScreen)
    }

    override open func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        if self.touches.count > 2, state == .possible { return state = .failed }
        if self.touches.count == 2, startDistance == 0 {
            startDistance = measure()
            currentDistance = startDistance
        }
    }

    override open func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        guard startDistance > 0 else { return }
        currentDistance = measure()
        let time = touches.map(\.timestamp).max() ?? event.timestamp
        if let lastSample, time > lastSample.time { velocity = (scale - lastSample.scale) / (time - lastSample.time) }
        lastSample = (scale, time)
        switch state {
        case .possible:
            if abs(currentDistance - startDistance) >= hysteresis { state = .began }
        case .began, .changed:
            state = .changed
        default: break
        }
    }

    override open func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        switch state {
        case .possible: state = .failed
        case .began, .changed: state = .ended
        default: break
        }
    }

    override open func reset() {
        super.reset()
        startDistance = 0
        currentDistance = 0
        velocity = 0
        lastSample = nil
    }
}

func distance(_ a: Point, _ b: Point) -> Double { hypot(a.x - b.x, a.y - b.y) }

/// The mean of the touches' positions on the screen.
@MainActor
func centroid(of touches: [Touch]) -> Point {
    guard !touches.isEmpty else { return .zero }
    var x = 0.0, y = 0.0
    for touch in touches {
        x += touch.locationOnScreen.x
        y += touch.locationOnScreen.y
    }
    return Point(x: x / Double(touches.count), y: y / Double(touches.count))
}
