import Geometry

/// A spinner that says work is going on (as `UIActivityIndicatorView`): eight spokes around a centre, the
/// brightest one stepping round once a second, the others fading behind it. `startAnimating()` shows and
/// turns it, `stopAnimating()` stops it and, with `hidesWhenStopped` (the default, as UIKit's), hides it; a
/// new one is stopped, so hidden.
///
/// It costs nothing unless it is seen turning: each step schedules one timer for the next (`SeenPacing`),
/// and a step is drawn only while the view is composed on screen. Stopped, hidden, transparent, in no
/// window or scrolled away, no timer runs and no frame is asked for; seen again, it shows the step due.
@MainActor
open class ActivityIndicatorView: View {
    /// Its size (as `UIActivityIndicatorView.Style`).
    public enum Style: Sendable {
        /// 20 x 20 points.
        case medium
        /// 37 x 37 points.
        case large

        /// The side of its square.
        public var size: Double { self == .medium ? 20 : 37 }
    }

    /// The spokes, and the steps of a turn: one a spoke.
    public static let spokeCount = 8
    /// How long a turn takes.
    public static let turnDuration: TimeInterval = 1
    /// The spokes' colour unless `color` is set (UIKit's secondary grey).
    public static let defaultColor = Color(red: 60.0 / 255, green: 60.0 / 255, blue: 67.0 / 255, alpha: 0.6)

    open var style: Style { didSet { if style != oldValue { styleDidChange() } } }
    /// The spokes' colour; nil: `defaultColor`.
    open var color: Color? { didSet { if color != oldValue { setNeedsDisplay() } } }
    /// Whether stopping hides it (and starting shows it).
    open var hidesWhenStopped = true {
        didSet { if hidesWhenStopped != oldValue, !isAnimating { isHidden = hidesWhenStopped } }
    }
    /// Whether it is turning: started and not stopped since.
    public private(set) var isAnimating = false

    /// When the turning began (the frame clock's time).
    private var start: TimeInterval = 0
    private var pacing = SeenPacing()

    public init(style: Style) {
        self.style = style
        super.init(frame: Rect(x: 0, y: 0, width: style.size, height: style.size))
        setUp()
    }

    override public init(frame: Rect = .zero) {
        style = .medium
        super.init(frame: frame)
        setUp()
    }

    private func setUp() { isHidden = true }

    /// Starts the turning from the first step, and shows it.
    open func startAnimating() {
        guard !isAnimating else { return }
        isAnimating = true
        // Told of each frame that composes it only while it turns: a stopped one costs the walk nothing.
        observesComposition = true
        start = Application.shared.clock.now
        pacing.cancel()
        if hidesWhenStopped { isHidden = false }
        setNeedsDisplay()
    }

    /// Stops the turning (on the first step, as it shows when not hidden), and hides it.
    open func stopAnimating() {
        guard isAnimating else { return }
        isAnimating = false
        observesComposition = false
        pacing.cancel()
        if hidesWhenStopped { isHidden = true }
        setNeedsDisplay()
    }

    override open var intrinsicContentSize: Size { Size(width: style.size, height: style.size) }
    override open func sizeThatFits(_ size: Size) -> Size { intrinsicContentSize }

    /// The step shown `time` after the turning began: the spoke that is brightest.
    static func step(at time: TimeInterval, start: TimeInterval) -> Int {
        let stepDuration = turnDuration / Double(spokeCount)
        // In whole microseconds, so that a timer at a step's due time shows that step.
        let elapsed = max(Int64(((time - start) * 1e6).rounded()), 0)
        return Int(elapsed / Int64((stepDuration * 1e6).rounded()) % Int64(spokeCount))
    }

    /// When the step shown at `time` gives way to the next.
    static func nextStep(after time: TimeInterval, start: TimeInterval) -> TimeInterval {
        let stepMicroseconds = Int64((turnDuration / Double(spokeCount) * 1e6).rounded())
        let elapsed = max(Int64(((time - start) * 1e6).rounded()), 0)
        return start + Double((elapsed / stepMicroseconds + 1) * stepMicroseconds) / 1e6
    }

    override open func draw(_ rect: Rect) {
        guard let context = DrawingContext.current else { return }
        let now = Application.shared.clock.now
        let head = isAnimating ? Self.step(at: now, start: start) : 0
        let side = min(bounds.width, bounds.height)
        guard side > 0 else { return }
        // Spokes from 24 % to 46 % of the side out, a tenth of it wide, with round ends.
        let width = side * 0.1, inner = side * 0.24, outer = side * 0.46
        let base = color ?? Self.defaultColor
        context.save()
        context.translateBy(x: bounds.midX, y: bounds.midY)
        for spoke in 0..<Self.spokeCount {
            // The head is spoke `head` (0 points up, then clockwise); those behind it fade to 30 %.
            let behind = (head - spoke + Self.spokeCount) % Self.spokeCount
            let strength = 1 - 0.7 * Double(behind) / Double(Self.spokeCount - 1)
            context.save()
            context.rotate(by: 2 * Double.pi * Double(spoke) / Double(Self.spokeCount))
            context.fillRoundedRect(
                Rect(x: -width / 2, y: -outer, width: width, height: outer - inner), radius: width / 2,
                color: base.withAlphaComponent(base.alpha * strength))
            context.restore()
        }
        context.restore()
        if isAnimating {
            pacing.schedule(at: Self.nextStep(after: now, start: start)) { [weak self] in self?.stepDue() }
        }
    }

    private func stepDue() {
        guard isAnimating, pacing.timerFired(in: window) else { return }
        setNeedsDisplay()
    }

    override func willBeComposed(onScreen: Bool) {
        guard onScreen, isAnimating, pacing.composedOnScreen(in: window) else { return }
        markForDrawingInThisFrame()
    }

    override open func didMoveToWindow() {
        super.didMoveToWindow()
        // Back in a window while turning: the step due then is drawn when it is composed.
        if window != nil, isAnimating { pacing.waitToBeShown() }
    }

    private func styleDidChange() {
        invalidateIntrinsicContentSize()
        setNeedsDisplay()
    }
}
