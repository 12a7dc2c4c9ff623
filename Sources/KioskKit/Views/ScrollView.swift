import Geometry
import Glibc

/// Distances inward from the edges of a rectangle (as `UIEdgeInsets`).
public struct EdgeInsets: Hashable, Sendable {
    public var top: Double
    public var left: Double
    public var bottom: Double
    public var right: Double

    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    public static let zero = EdgeInsets()
}

/// What a scroll view tells its delegate (as `UIScrollViewDelegate`); every method is optional.
@MainActor
public protocol ScrollViewDelegate: AnyObject {
    /// The content offset changed (at most once per frame while it moves by itself).
    func scrollViewDidScroll(_ scrollView: ScrollView)
    func scrollViewWillBeginDragging(_ scrollView: ScrollView)
    /// The finger is lifting at `velocity` (points per millisecond, the way the offset goes), and the content
    /// would come to rest at `targetContentOffset.pointee`; set it to stop somewhere else (snapping to an
    /// item). Not called with `isPagingEnabled` (as UIKit).
    func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Point, targetContentOffset: UnsafeMutablePointer<Point>)
    /// The finger lifted; `decelerate` says whether the content goes on moving (momentum, a bounce back,
    /// settling on a page).
    func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool)
    /// The content goes on moving after the finger lifted (after `scrollViewDidEndDragging`).
    func scrollViewWillBeginDecelerating(_ scrollView: ScrollView)
    /// The movement after the finger lifted came to rest.
    func scrollViewDidEndDecelerating(_ scrollView: ScrollView)
    /// `setContentOffset(_:animated: true)` arrived.
    func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView)
}

extension ScrollViewDelegate {
    public func scrollViewDidScroll(_ scrollView: ScrollView) {}
    public func scrollViewWillBeginDragging(_ scrollView: ScrollView) {}
    public func scrollViewWillEndDragging(
        _ scrollView: ScrollView, withVelocity velocity: Point, targetContentOffset: UnsafeMutablePointer<Point>
    ) {}
    public func scrollViewDidEndDragging(_ scrollView: ScrollView, willDecelerate decelerate: Bool) {}
    public func scrollViewWillBeginDecelerating(_ scrollView: ScrollView) {}
    public func scrollViewDidEndDecelerating(_ scrollView: ScrollView) {}
    public func scrollViewDidEndScrollingAnimation(_ scrollView: ScrollView) {}
}

/// A view whose content is larger than itself, moved by dragging (as `UIScrollView`): the content offset
/// is the bounds' origin, so scrolling moves the subviews' cached content and never redraws it. A fling
/// goes on with momentum after the finger lifts, one step per display frame (a `DisplayLink`), slowing
/// as UIKit's does; past an edge the content follows the finger on a rubber band and springs back; with
/// paging it settles on whole pages. At rest no frame is made.
///
/// Touches on the content: with `delaysContentTouches` a new touch reaches the content only after
/// 0.15 s without the pan beginning (or at once when it lifts first), so a tap on a button presses the
/// button while a drag starting on it scrolls; a touch the content already has is cancelled when the
/// pan begins if `canCancelContentTouches` and `touchesShouldCancel(in:)` allow (not for controls, as
/// UIKit), else the scroll view does not scroll. A touch while the content moves stops it and goes no
/// further.
@MainActor
open class ScrollView: View {
    /// How quickly momentum dies away: the fraction of the velocity kept per millisecond (as
    /// `UIScrollView.DecelerationRate`).
    public struct DecelerationRate: RawRepresentable, Hashable, Sendable {
        public var rawValue: Double
        public init(rawValue: Double) { self.rawValue = rawValue }
        public static let normal = DecelerationRate(rawValue: 0.998)
        public static let fast = DecelerationRate(rawValue: 0.99)
    }

    /// The size of the content, in points.
    public var contentSize: Size = .zero {
        didSet { if contentSize != oldValue { contentGeometryDidChange() } }
    }

    /// Room around the content: the offset may go this far past each edge.
    public var contentInset: EdgeInsets = .zero {
        didSet { if contentInset != oldValue { contentGeometryDidChange() } }
    }

    /// The insets in effect (`contentInset`: a kiosk has no safe area to add).
    public var adjustedContentInset: EdgeInsets { contentInset }

    /// The point of the content at the view's top left: the bounds' origin. Set during a drag, the content
    /// goes on following the finger from there; during momentum or a bounce, the motion goes on from there
    /// at the speed it had (as UIKit's, which lets an endless list recentre itself while it moves); an
    /// animated `setContentOffset` is stopped.
    public var contentOffset: Point {
        get { bounds.origin }
        set {
            let old = bounds.origin
            guard newValue != old else { return }
            moveContent(to: newValue)
            contentWasMoved(by: Point(x: newValue.x - old.x, y: newValue.y - old.y))
        }
    }

    /// The content's own moves (the finger, a frame of motion): the offset, without `contentWasMoved`.
    private func moveContent(to offset: Point) {
        guard offset != bounds.origin else { return }
        bounds.origin = offset
        didScroll()
    }

    /// Whether the content goes past its edges on a rubber band and springs back (true).
    public var bounces = true
    /// Drag vertically (and bounce) even when the content is not taller than the view.
    public var alwaysBounceVertical = false
    public var alwaysBounceHorizontal = false
    /// Settle on multiples of the view's size.
    public var isPagingEnabled = false
    public var isScrollEnabled = true {
        didSet { panGestureRecognizer.isEnabled = isScrollEnabled }
    }
    public var decelerationRate: DecelerationRate = .normal
    public var showsVerticalScrollIndicator = true
    public var showsHorizontalScrollIndicator = true
    /// Hold new touches back from the content for 0.15 s, until it is clear they are not a drag (true).
    public var delaysContentTouches = true {
        didSet { touchDownRecognizer.delaysTouchesBegan = delaysContentTouches }
    }
    /// A drag may take touches the content already has (true); see `touchesShouldCancel(in:)`.
    public var canCancelContentTouches = true

    public weak var delegate: (any ScrollViewDelegate)?

    /// The drag that scrolls; other recognizers may `require(toFail:)` it.
    public let panGestureRecognizer = PanGestureRecognizer()
    private let touchDownRecognizer = ScrollTouchDownRecognizer()

    /// A finger is on the content (from touch down, before any drag).
    public var isTracking: Bool { touchDownRecognizer.numberOfTouches > 0 || isDragging }
    /// The content follows a finger.
    public private(set) var isDragging = false
    /// The content moves on by itself after the finger lifted.
    public private(set) var isDecelerating = false

    /// How long new touches are held back with `delaysContentTouches` (UIKit's 150 ms).
    public static let contentTouchDelay: TimeInterval = 0.15

    override public init(frame: Rect = .zero) {
        super.init(frame: frame)
        clipsToBounds = true
        panGestureRecognizer.name = "scroll"
        panGestureRecognizer.addTarget(self, action: ScrollView.handlePan)
        touchDownRecognizer.scrollView = self
        touchDownRecognizer.delaysTouchesBegan = delaysContentTouches
        addGestureRecognizer(panGestureRecognizer)
        addGestureRecognizer(touchDownRecognizer)
        for indicator in [verticalIndicator, horizontalIndicator] {
            indicator.alpha = 0
            addSubview(indicator)
        }
    }

    // MARK: Limits

    /// The smallest and largest offsets at rest.
    public var minimumContentOffset: Point { Point(x: -contentInset.left, y: -contentInset.top) }
    public var maximumContentOffset: Point {
        let minimum = minimumContentOffset
        return Point(
            x: max(contentSize.width + contentInset.right - bounds.width, minimum.x),
            y: max(contentSize.height + contentInset.bottom - bounds.height, minimum.y))
    }

    /// Whether a drag moves the content sideways: it is wider than the view, or `alwaysBounceHorizontal`
    /// (with `bounces`, as UIKit) lets it bounce anyway.
    private var scrollsHorizontally: Bool {
        (alwaysBounceHorizontal && bounces) || contentSize.width + contentInset.left + contentInset.right > bounds.width
    }

    private var scrollsVertically: Bool {
        (alwaysBounceVertical && bounces) || contentSize.height + contentInset.top + contentInset.bottom > bounds.height
    }

    private func clamped(_ offset: Point) -> Point {
        let low = minimumContentOffset, high = maximumContentOffset
        return Point(x: min(max(offset.x, low.x), high.x), y: min(max(offset.y, low.y), high.y))
    }

    private func contentGeometryDidChange() {
        if !isDragging, var motion {
            // A move under way keeps to the new limits: a target past them (the old end a spring returns to,
            // a page, an animated offset) becomes the new edge, from where the content is now.
            let low = minimumContentOffset, high = maximumContentOffset, now = Application.shared.clock.now
            motion.x = retargeted(motion.x, from: contentOffset.x, low: low.x, high: high.x, at: now)
            motion.y = retargeted(motion.y, from: contentOffset.y, low: low.y, high: high.y, at: now)
            self.motion = motion
        } else if !isDragging {
            // A resting offset past the new limits moves back within them, as UIKit does on reloading content.
            let inside = clamped(contentOffset)
            if inside != contentOffset { contentOffset = inside }
        }
        placeIndicators()
    }

    /// `axis` with its end kept within `low...high`, the content being at `current` at `time`.
    private func retargeted(_ axis: AxisMotion, from current: Double, low: Double, high: Double, at time: TimeInterval) -> AxisMotion {
        switch axis {
        case .rest where current < low || current > high:
            let edge = current < low ? low : high
            return .springing(target: edge, spring: ScrollPhysics.Spring(displacement: current - edge, velocity: 0), since: time)
        case .springing(let target, let spring, let since) where target < low || target > high:
            let edge = target < low ? low : high
            let velocity = spring.velocity(at: max(time - since, 0))
            return .springing(target: edge, spring: ScrollPhysics.Spring(displacement: current - edge, velocity: velocity), since: time)
        case .animating(_, let to, _) where to < low || to > high:
            return .animating(from: current, to: min(max(to, low), high), since: time)
        default:
            // A deceleration meets the new edge as it would the old one.
            return axis
        }
    }

    // MARK: Moving the content

    /// Moves the content to `offset`, at once or over 0.3 s (a frame per display refresh, ease in and out,
    /// ending with `scrollViewDidEndScrollingAnimation`).
    public func setContentOffset(_ offset: Point, animated: Bool) {
        stopMotion()
        guard animated, offset != contentOffset else {
            contentOffset = offset
            return
        }
        let now = Application.shared.clock.now
        motion = Motion(
            x: .animating(from: contentOffset.x, to: offset.x, since: now), y: .animating(from: contentOffset.y, to: offset.y, since: now),
            endsAs: .scrollingAnimation)
        showIndicators()
        startFrames()
    }

    /// Scrolls just enough to show `rect` (content coordinates) within the insets.
    public func scrollRectToVisible(_ rect: Rect, animated: Bool) {
        var offset = contentOffset
        let inset = adjustedContentInset
        let right = bounds.width - inset.right, bottom = bounds.height - inset.bottom
        if rect.maxX > offset.x + right { offset.x = rect.maxX - right }
        if rect.minX < offset.x + inset.left { offset.x = rect.minX - inset.left }
        if rect.maxY > offset.y + bottom { offset.y = rect.maxY - bottom }
        if rect.minY < offset.y + inset.top { offset.y = rect.minY - inset.top }
        // "If the area is already visible, the method does nothing" (UIKit): momentum goes on.
        let target = clamped(offset)
        guard target != contentOffset else { return }
        setContentOffset(target, animated: animated)
    }

    /// Shows the indicators for a moment.
    public func flashScrollIndicators() {
        showIndicators()
        scheduleIndicatorFade()
    }

    /// Whether the content moves by itself (momentum, a bounce, an animated offset).
    var isMoving: Bool { motion != nil }

    /// Whether the pan may take the content's touches: when it begins, touches the content already has are
    /// cancelled only if this is true for their view. True unless the view is a control (as UIKit).
    open func touchesShouldCancel(in view: View) -> Bool { !(view is Control) }

    override open func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool {
        guard gestureRecognizer === panGestureRecognizer else { return super.gestureRecognizerShouldBegin(gestureRecognizer) }
        // A drag the content cannot follow is not this view's: a list that fits takes no drag (its rows
        // keep their touches), and a vertical list inside a horizontal pager lets sideways drags go to the
        // pager (UIKit's nested scroll views). Diagonal drags go by their larger component.
        let horizontal = scrollsHorizontally, vertical = scrollsVertically
        guard horizontal || vertical else { return false }
        if horizontal != vertical {
            let translation = panGestureRecognizer.translation(in: superview)
            if (abs(translation.x) > abs(translation.y)) != horizontal { return false }
        }
        for touch in panGestureRecognizer.touches where touch.viewSawBegin && !touch.viewSawEnd {
            guard let view = touch.view, view !== self else { continue }
            if !canCancelContentTouches || !touchesShouldCancel(in: view) { return false }
        }
        return true
    }

    // MARK: Dragging

    /// The offset the drag started from, without the rubber band (what the finger would have moved).
    private var dragOrigin: Point = .zero

    private func handlePan(_ pan: PanGestureRecognizer) {
        // Measured in the superview: the scroll view's own coordinates move with the content.
        let reference = superview
        switch pan.state {
        case .began:
            stopMotion()
            dragOrigin = unbanded(contentOffset)
            pan.setTranslation(.zero, in: reference)
            isDragging = true
            showIndicators()
            delegate?.scrollViewWillBeginDragging(self)
        case .changed:
            let translation = pan.translation(in: reference)
            let wanted = Point(
                x: scrollsHorizontally ? dragOrigin.x - translation.x : contentOffset.x,
                y: scrollsVertically ? dragOrigin.y - translation.y : contentOffset.y)
            moveContent(to: banded(wanted).roundedToPoints)
        case .ended, .cancelled:
            isDragging = false
            let velocity = pan.state == .ended ? pan.velocity(in: reference) : .zero
            // The content moves against the finger.
            release(
                velocity: Point(x: scrollsHorizontally ? -velocity.x : 0, y: scrollsVertically ? -velocity.y : 0),
                at: Application.shared.clock.now, askingDelegate: true)
            delegate?.scrollViewDidEndDragging(self, willDecelerate: motion != nil)
            if motion != nil { delegate?.scrollViewWillBeginDecelerating(self) } else { scheduleIndicatorFade() }
        default:
            break
        }
    }

    /// The app set `contentOffset` while the content moved by itself or followed a finger: the drag goes on
    /// from the new offset; momentum and springs start again from it with the speed they had (a page
    /// setting again picks its page); an animated scroll stops there.
    private func contentWasMoved(by delta: Point) {
        if isDragging { dragOrigin = Point(x: dragOrigin.x + delta.x, y: dragOrigin.y + delta.y) }
        guard let current = motion else { return }
        guard current.endsAs == .deceleration else { return stopMotion() }
        // The time the offset was for: a frame's motion is worked out for the time it will be shown.
        let now = offsetTime
        func speed(_ axis: AxisMotion) -> Double {
            switch axis {
            case .rest, .animating: return 0
            case .decelerating(_, let deceleration, let since): return deceleration.velocity(at: max(now - since, 0))
            case .springing(_, let spring, let since): return spring.velocity(at: max(now - since, 0))
            }
        }
        motion = nil
        release(velocity: Point(x: speed(current.x), y: speed(current.y)), at: now)
        if motion == nil { finishMotion(.deceleration) }
    }

    /// The finger lifted: momentum, a spring back inside the edges, or settling on a page. Asking the
    /// delegate (`scrollViewWillEndDragging`, not when paging), it may choose where the content stops.
    private func release(velocity: Point, at time: TimeInterval, askingDelegate: Bool = false) {
        let low = minimumContentOffset, high = maximumContentOffset
        let offset = contentOffset
        var x: AxisMotion, y: AxisMotion
        if isPagingEnabled {
            x = pageMotion(offset.x, velocity.x, length: bounds.width, low: low.x, high: high.x, since: time)
            y = pageMotion(offset.y, velocity.y, length: bounds.height, low: low.y, high: high.y, since: time)
        } else {
            x = releaseMotion(offset.x, velocity.x, low: low.x, high: high.x, since: time)
            y = releaseMotion(offset.y, velocity.y, low: low.y, high: high.y, since: time)
            if askingDelegate, let delegate {
                let natural = Point(
                    x: resting(x, at: offset.x, low: low.x, high: high.x), y: resting(y, at: offset.y, low: low.y, high: high.y))
                var target = natural
                withUnsafeMutablePointer(to: &target) {
                    delegate.scrollViewWillEndDragging(
                        self, withVelocity: Point(x: velocity.x / 1000, y: velocity.y / 1000), targetContentOffset: $0)
                }
                if target.x != natural.x { x = motion(to: target.x, from: offset.x, velocity.x, low: low.x, high: high.x, since: time) }
                if target.y != natural.y { y = motion(to: target.y, from: offset.y, velocity.y, low: low.y, high: high.y, since: time) }
            }
        }
        guard x != .rest || y != .rest else { return }
        motion = Motion(x: x, y: y, endsAs: .deceleration)
        offsetTime = time
        isDecelerating = true
        startFrames()
    }

    /// Where an axis comes to rest (inside the edges: a bounce ends there).
    private func resting(_ axis: AxisMotion, at offset: Double, low: Double, high: Double) -> Double {
        switch axis {
        case .rest: offset
        case .decelerating(let start, let deceleration, _): min(max((start + deceleration.totalDistance).rounded(), low), high)
        case .springing(let target, _, _): target
        case .animating(_, let to, _): to
        }
    }

    /// A motion that ends at `target` (within the edges, whole points): momentum that comes to rest just
    /// there, or from past an edge (or for a step too short for momentum) a spring.
    private func motion(
        to target: Double, from offset: Double, _ velocity: Double, low: Double, high: Double, since: TimeInterval
    ) -> AxisMotion {
        let target = min(max(target.rounded(), low), high)
        guard target != offset else { return .rest }
        let deceleration = ScrollPhysics.Deceleration(distance: target - offset, rate: decelerationRate.rawValue)
        guard offset >= low, offset <= high, deceleration.duration > 0 else {
            return .springing(target: target, spring: ScrollPhysics.Spring(displacement: offset - target, velocity: velocity), since: since)
        }
        return .decelerating(start: offset, deceleration: deceleration, since: since)
    }

    private func releaseMotion(_ offset: Double, _ velocity: Double, low: Double, high: Double, since: TimeInterval) -> AxisMotion {
        if offset < low || offset > high {
            let edge = offset < low ? low : high
            return .springing(target: edge, spring: ScrollPhysics.Spring(displacement: offset - edge, velocity: velocity), since: since)
        }
        let deceleration = ScrollPhysics.Deceleration(velocity: velocity, rate: decelerationRate.rawValue)
        guard deceleration.duration > 0 else { return .rest }
        return .decelerating(start: offset, deceleration: deceleration, since: since)
    }

    private func pageMotion(
        _ offset: Double, _ velocity: Double, length: Double, low: Double, high: Double, since: TimeInterval
    ) -> AxisMotion {
        guard length > 0, high > low else { return releaseMotion(offset, velocity, low: low, high: high, since: since) }
        let lastPage = Int(((high - low) / length).rounded(.up))
        let page = ScrollPhysics.page(forOffset: offset - low, velocity: velocity, pageLength: length, lastPage: lastPage)
        let target = min(low + Double(page) * length, high)
        guard target != offset || velocity != 0 else { return .rest }
        return .springing(target: target, spring: ScrollPhysics.Spring(displacement: offset - target, velocity: velocity), since: since)
    }

    /// Past an edge the content follows the finger on a rubber band (or stops there without `bounces`).
    private func banded(_ offset: Point) -> Point {
        let low = minimumContentOffset, high = maximumContentOffset
        func band(_ value: Double, _ low: Double, _ high: Double, _ dimension: Double) -> Double {
            if value < low { return bounces ? low + ScrollPhysics.rubberBand(value - low, dimension: dimension) : low }
            if value > high { return bounces ? high + ScrollPhysics.rubberBand(value - high, dimension: dimension) : high }
            return value
        }
        return Point(x: band(offset.x, low.x, high.x, bounds.width), y: band(offset.y, low.y, high.y, bounds.height))
    }

    /// The inverse of `banded`: where the finger would be for an offset on the rubber band (a drag that
    /// catches a bounce goes on from there without a jump).
    private func unbanded(_ offset: Point) -> Point {
        let low = minimumContentOffset, high = maximumContentOffset
        func unband(_ value: Double, _ low: Double, _ high: Double, _ dimension: Double) -> Double {
            let over = value < low ? value - low : value > high ? value - high : 0
            guard over != 0, dimension > 0, abs(over) < dimension else { return value }
            let c = ScrollPhysics.rubberBandCoefficient
            let x = abs(over) * dimension / (c * (dimension - abs(over)))
            return (over < 0 ? low - x : high + x)
        }
        return Point(x: unband(offset.x, low.x, high.x, bounds.width), y: unband(offset.y, low.y, high.y, bounds.height))
    }

    // MARK: Motion, one step per frame

    enum AxisMotion: Equatable {
        case rest
        case decelerating(start: Double, deceleration: ScrollPhysics.Deceleration, since: TimeInterval)
        case springing(target: Double, spring: ScrollPhysics.Spring, since: TimeInterval)
        case animating(from: Double, to: Double, since: TimeInterval)
    }

    struct Motion {
        var x: AxisMotion
        var y: AxisMotion
        enum Ending { case deceleration, scrollingAnimation }
        var endsAs: Ending
    }

    private var motion: Motion?
    /// The time the motion's latest offset belongs to.
    private var offsetTime: TimeInterval = 0
    private var link: DisplayLink?

    private func startFrames() {
        guard link == nil || link?.isAdded == false else { return }
        let link = DisplayLink(screen: window?.screen ?? Screen.main) { [weak self] link in
            self?.step(to: link.targetTimestamp)
        }
        self.link = link
        link.add()
    }

    private func stopFrames() {
        link?.invalidate()
        link = nil
    }

    /// Stops any movement where it is (a touch caught it, a new drag, `setContentOffset`).
    func stopMotion() {
        guard motion != nil else { return }
        motion = nil
        isDecelerating = false
        if indicatorFade == nil { stopFrames() }
    }

    /// One frame: the content where the motion puts it at `time`, then the indicators' fade.
    private func step(to time: TimeInterval) {
        if var motion {
            let low = minimumContentOffset, high = maximumContentOffset
            var offset = contentOffset
            offset.x = advance(&motion.x, from: offset.x, to: time, low: low.x, high: high.x)
            offset.y = advance(&motion.y, from: offset.y, to: time, low: low.y, high: high.y)
            self.motion = motion
            offsetTime = time
            moveContent(to: offset)
            // The delegate may have moved the content meanwhile, which gives the motion a new start.
            if let motion = self.motion, motion.x == .rest, motion.y == .rest { finishMotion(motion.endsAs) }
        }
        stepIndicatorFade(at: time)
        if motion == nil, indicatorFade == nil { stopFrames() }
    }

    private func advance(_ axis: inout AxisMotion, from current: Double, to time: TimeInterval, low: Double, high: Double) -> Double {
        switch axis {
        case .rest:
            return current
        case .decelerating(let start, let deceleration, let since):
            let elapsed = max(time - since, 0)
            if elapsed >= deceleration.duration {
                axis = .rest
                let end = start + deceleration.totalDistance
                return bounces ? end.rounded() : min(max(end.rounded(), low), high)
            }
            let position = start + deceleration.distance(at: elapsed)
            if position < low || position > high {
                let edge = position < low ? low : high
                guard bounces else {
                    axis = .rest
                    return edge
                }
                // Over the edge: the spring takes the momentum and brings it back.
                axis = .springing(
                    target: edge, spring: ScrollPhysics.Spring(displacement: position - edge, velocity: deceleration.velocity(at: elapsed)),
                    since: time)
            }
            return position.rounded()
        case .springing(let target, let spring, let since):
            let elapsed = max(time - since, 0)
            if spring.isAtRest(at: elapsed) {
                axis = .rest
                return target
            }
            let position = (target + spring.position(at: elapsed)).rounded()
            // Without `bounces` the content stops at its edges ("scrolling stops immediately at the content
            // boundary", UIKit): a page's spring does not swing past the first or last page.
            return bounces ? position : min(max(position, low), high)
        case .animating(let from, let to, let since):
            let fraction = (time - since) / Self.animationDuration
            if fraction >= 1 {
                axis = .rest
                return to
            }
            return from + (to - from) * TimingFunction.easeInEaseOut.value(at: max(fraction, 0))
        }
    }

    /// How long `setContentOffset(_:animated: true)` takes.
    static let animationDuration: TimeInterval = 0.3

    private func finishMotion(_ ending: Motion.Ending) {
        motion = nil
        isDecelerating = false
        scheduleIndicatorFade()
        switch ending {
        case .deceleration: delegate?.scrollViewDidEndDecelerating(self)
        case .scrollingAnimation: delegate?.scrollViewDidEndScrollingAnimation(self)
        }
    }

    /// The offset changed: indicators follow, the delegate and the trace hear of it, and the content is
    /// laid out again (a table view brings in the rows that came into view).
    private func didScroll() {
        placeIndicators()
        setNeedsLayout()
        delegate?.scrollViewDidScroll(self)
        Application.shared.instrumentation.post(.scrolled(self))
    }

    // MARK: Indicators

    private let verticalIndicator = ScrollIndicator()
    private let horizontalIndicator = ScrollIndicator()
    /// When the indicators' fade began (they fade out after the content comes to rest).
    private var indicatorFade: TimeInterval?
    /// Waits `indicatorHold` before the fade, without frames.
    private var indicatorTimer: FrameTimer?
    static let indicatorThickness = 3.0
    static let indicatorMinimumLength = 36.0
    static let indicatorHold: TimeInterval = 0.3
    static let indicatorFadeDuration: TimeInterval = 0.25

    override open func didAddSubview(_ subview: View) {
        super.didAddSubview(subview)
        // The indicators stay in front of the content.
        guard !(subview is ScrollIndicator) else { return }
        for indicator in [verticalIndicator, horizontalIndicator] { bringSubviewToFront(indicator) }
    }

    private func showIndicators() {
        indicatorFade = nil
        indicatorTimer?.cancel()
        indicatorTimer = nil
        verticalIndicator.alpha = showsVerticalScrollIndicator && scrollsVertically ? 1 : 0
        horizontalIndicator.alpha = showsHorizontalScrollIndicator && scrollsHorizontally ? 1 : 0
        placeIndicators()
    }

    private func scheduleIndicatorFade() {
        guard verticalIndicator.alpha > 0 || horizontalIndicator.alpha > 0 else { return }
        indicatorTimer?.cancel()
        let clock = Application.shared.clock
        indicatorTimer = clock.schedule(at: clock.now + Self.indicatorHold) { [weak self] in
            guard let self else { return }
            self.indicatorTimer = nil
            self.indicatorFade = clock.now
            self.startFrames()
        }
    }

    private func stepIndicatorFade(at time: TimeInterval) {
        guard let start = indicatorFade, motion == nil, !isDragging else { return }
        let fraction = (time - start) / Self.indicatorFadeDuration
        guard fraction > 0 else { return }
        let alpha = max(1 - fraction, 0)
        for indicator in [verticalIndicator, horizontalIndicator] where indicator.alpha > 0 {
            indicator.alpha = min(indicator.alpha, alpha)
        }
        if alpha == 0 { indicatorFade = nil }
    }

    /// The indicators' frames, in content coordinates (they are subviews, so they move with the content
    /// unless placed again): along the right and bottom edges, as long as the visible share of the
    /// content, shorter while the content is pulled past an edge.
    private func placeIndicators() {
        let thickness = Self.indicatorThickness, inset = 2.0
        let offset = contentOffset, size = bounds.size
        func bar(visible: Double, content: Double, offset: Double, low: Double, high: Double, track: Double) -> (Double, Double) {
            guard content > 0, track > 0 else { return (0, 0) }
            var length = max(track * min(visible / content, 1), Self.indicatorMinimumLength)
            let over = offset < low ? low - offset : offset > high ? offset - high : 0
            length = max(length - over, thickness * 2)
            let progress = high > low ? min(max((offset - low) / (high - low), 0), 1) : 0
            return (progress * (track - length), min(length, track))
        }
        let bothShown = verticalIndicator.alpha > 0 && horizontalIndicator.alpha > 0
        let verticalTrack = size.height - 2 * inset - (bothShown ? thickness + inset : 0)
        let (vy, vLength) = bar(
            visible: size.height, content: contentSize.height + contentInset.top + contentInset.bottom, offset: offset.y,
            low: minimumContentOffset.y, high: maximumContentOffset.y, track: verticalTrack)
        verticalIndicator.frame = Rect(
            x: offset.x + size.width - thickness - inset, y: offset.y + inset + vy, width: thickness, height: vLength)
        let horizontalTrack = size.width - 2 * inset - (bothShown ? thickness + inset : 0)
        let (hx, hLength) = bar(
            visible: size.width, content: contentSize.width + contentInset.left + contentInset.right, offset: offset.x,
            low: minimumContentOffset.x, high: maximumContentOffset.x, track: horizontalTrack)
        horizontalIndicator.frame = Rect(
            x: offset.x + inset + hx, y: offset.y + size.height - thickness - inset, width: hLength, height: thickness)
    }

    override open func layoutSubviews() {
        super.layoutSubviews()
        placeIndicators()
    }
}

/// A scroll indicator: a thin dark bar with round ends that takes no touches.
@MainActor
final class ScrollIndicator: View {
    init() {
        super.init(frame: .zero)
        backgroundColor = Color(white: 0, alpha: 0.35)
        cornerRadius = ScrollView.indicatorThickness / 2
        isUserInteractionEnabled = false
        identifier = "scroll-indicator"
    }
}

/// The scroll view's touch-down recognizer (UIKit's delayed-touches recognizer): it holds new touches back
/// from the content for `ScrollView.contentTouchDelay` with `delaysContentTouches`, then fails and lets
/// them through; a touch that comes while the content moves stops it and is kept from the content. It
/// never keeps the pan or any other recognizer from recognizing.
@MainActor
final class ScrollTouchDownRecognizer: GestureRecognizer {
    weak var scrollView: ScrollView?

    override var kind: String { "scroll-touch" }

    override func canPrevent(_ other: GestureRecognizer) -> Bool { false }

    override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        guard state == .possible, let scrollView, numberOfTouches == touches.count else { return }
        if scrollView.isMoving {
            scrollView.stopMotion()
            return state = .recognized
        }
        guard delaysTouchesBegan else { return state = .failed }
        let began = touches.map(\.timestamp).max() ?? event.timestamp
        schedule(at: began + ScrollView.contentTouchDelay) { $0.state = .failed }
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        if state == .possible { state = .failed }
    }
}

extension Point {
    /// Rounded to whole points: scrolled content lands on the pixel grid (one point is one pixel here).
    var roundedToPoints: Point { Point(x: x.rounded(), y: y.rounded()) }
}
