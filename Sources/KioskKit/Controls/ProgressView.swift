/// A bar that fills from its leading end as a task goes on (as `UIProgressView`): `progress` from 0 to 1,
/// drawn over the bar's whole width in `progressTintColor` (by default the tint) on a track of
/// `trackTintColor`. In the default
/// style both have round ends, as UIKit's since iOS 14; the bar style (a toolbar's) has square ends and no
/// track unless one is given. Its intrinsic height is 4 points, its width is the layout's.
///
/// `setProgress(_:animated:)` eases the fill to its new length over `animationDuration`, one step per frame
/// of its screen's display link, which is removed when it arrives: nothing runs while the value stands.
@MainActor
open class ProgressView: View {
    /// The look (as `UIProgressView.Style`).
    public enum Style: Sendable {
        /// Round ends on a light track.
        case `default`
        /// Square ends, no track of its own (a toolbar's).
        case bar
    }

    /// How long `setProgress(_:animated: true)` takes.
    public static let animationDuration: TimeInterval = 0.25
    /// The default style's track unless `trackTintColor` is set (UIKit's light track fill).
    public static let defaultTrackTintColor = Color.systemGray5

    open var progressViewStyle: Style { didSet { if progressViewStyle != oldValue { setNeedsDisplay() } } }
    /// How far the task has come, 0 to 1 (a value outside is pinned to the nearer end; NaN is 0). Set, the
    /// bar shows it at once.
    open var progress: Float {
        get { value }
        set { setProgress(newValue, animated: false) }
    }
    /// The fill's colour; nil: the tint (`tintColor`).
    open var progressTintColor: Color? { didSet { if progressTintColor != oldValue { setNeedsDisplay() } } }
    /// The track's colour; nil: `defaultTrackTintColor` in the default style, none in the bar style.
    open var trackTintColor: Color? { didSet { if trackTintColor != oldValue { setNeedsDisplay() } } }

    private var value: Float = 0
    /// The fraction drawn: `progress`, or on its way there.
    private(set) var shownFraction = 0.0
    /// The animation under way: where it began, when, and the display link that steps it.
    private var animation: (from: Double, start: TimeInterval, link: DisplayLink)?

    public init(progressViewStyle: Style) {
        self.progressViewStyle = progressViewStyle
        super.init(frame: .zero)
    }

    override public init(frame: Rect = .zero) {
        progressViewStyle = .default
        super.init(frame: frame)
    }

    /// Moves to `progress`, easing the fill there when `animated` and in a window on a screen, else at once.
    /// Calls during an animation take it over from where the fill is.
    open func setProgress(_ progress: Float, animated: Bool) {
        value = progress.isNaN ? 0 : min(max(progress, 0), 1)
        let target = Double(value)
        animation?.link.invalidate()
        animation = nil
        guard animated, target != shownFraction, let screen = window?.screen else {
            show(target)
            return
        }
        let link = screen.displayLink { [weak self] link in
            // A view gone mid-way leaves no link behind.
            guard let self else { return link.invalidate() }
            self.step(link)
        }
        animation = (shownFraction, Application.shared.clock.now, link)
        link.add()
    }

    override open func tintColorDidChange() {
        super.tintColorDidChange()
        if progressTintColor == nil { setNeedsDisplay() }
    }

    override open var intrinsicContentSize: Size { Size(width: View.noIntrinsicMetric, height: 4) }
    override open func sizeThatFits(_ size: Size) -> Size { Size(width: size.width, height: 4) }

    override open func draw(_ rect: Rect) {
        guard let context = DrawingContext.current else { return }
        let rounded = progressViewStyle == .default
        let radius = rounded ? bounds.height / 2 : 0
        if let track = trackTintColor ?? (rounded ? Self.defaultTrackTintColor : nil) {
            context.fillRoundedRect(bounds, radius: radius, color: track)
        }
        let width = bounds.width * shownFraction
        guard width > 0 else { return }
        context.fillRoundedRect(
            Rect(x: bounds.minX, y: bounds.minY, width: width, height: bounds.height), radius: radius,
            color: progressTintColor ?? tintColor)
    }

    /// One frame of the animation: the eased fraction for the time that frame is shown.
    private func step(_ link: DisplayLink) {
        guard let animation else { return link.invalidate() }
        let elapsed = (link.targetTimestamp - animation.start) / Self.animationDuration
        let target = Double(value)
        guard elapsed < 1 else {
            link.invalidate()
            self.animation = nil
            show(target)
            return
        }
        let eased = TimingFunction.easeInEaseOut.value(at: max(elapsed, 0))
        show(animation.from + (target - animation.from) * eased)
    }

    private func show(_ fraction: Double) {
        guard fraction != shownFraction else { return }
        shownFraction = fraction
        setNeedsDisplay()
    }
}
