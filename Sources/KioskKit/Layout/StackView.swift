/// A view that lays out a row or a column of views with Auto Layout (as `UIStackView`): its arranged
/// subviews are placed one after the other along `axis`, shared out by `distribution`, lined up across it
/// by `alignment`, `spacing` apart (or a custom spacing after one). It makes and keeps the constraints
/// itself (StackView+Arrangement.swift), as UIKit's does; size the stack view with constraints of its own,
/// or let its content size it.
///
/// A hidden arranged view leaves the arrangement and its spacing collapses; hiding or showing one inside
/// an animation block animates the others into their new places.
@MainActor
open class StackView: View {
    /// The direction views are laid out in (as `NSLayoutConstraint.Axis`).
    public typealias Axis = LayoutConstraint.Axis

    /// How the views share the length along the axis (as `UIStackView.Distribution`).
    public enum Distribution: Int, Sendable {
        /// The views fill it; the one that hugs least grows (the one that resists compression least shrinks).
        case fill
        /// The views fill it, all of one length.
        case fillEqually
        /// The views fill it, each in proportion to its intrinsic length.
        case fillProportionally
        /// The views keep their lengths and the space between them is equal (at least `spacing`).
        case equalSpacing
        /// The views keep their lengths and their centres are equally far apart (the spacing at least `spacing`).
        case equalCentering
    }

    /// How the views line up across the axis (as `UIStackView.Alignment`).
    public enum Alignment: Int, Sendable {
        /// Each view is as wide (in a column) or as tall (in a row) as the stack.
        case fill
        /// At the leading edge of a column, the top of a row (`top` is the same).
        case leading
        /// Rows only: the first lines of text on one baseline (a column takes it as `fill`, as UIKit
        /// documents it for rows alone).
        case firstBaseline
        case center
        /// At the trailing edge of a column, the bottom of a row (`bottom` is the same).
        case trailing
        /// Rows only: the last lines of text on one baseline.
        case lastBaseline

        public static let top = Alignment.leading
        public static let bottom = Alignment.trailing
    }

    /// `setCustomSpacing`'s value for "the stack's `spacing`" (as `UIStackView.spacingUseDefault`).
    public static let spacingUseDefault = Double.greatestFiniteMagnitude

    /// The views it lays out, in order (a subset of its subviews; see `addArrangedSubview`).
    public private(set) var arrangedSubviews: [View] = []

    public var axis: Axis = .horizontal { didSet { if axis != oldValue { arrangementDidChange() } } }
    public var distribution: Distribution = .fill { didSet { if distribution != oldValue { arrangementDidChange() } } }
    public var alignment: Alignment = .fill { didSet { if alignment != oldValue { arrangementDidChange() } } }
    /// The space between neighbours (the least for `equalSpacing` and `equalCentering`); may be negative.
    public var spacing: Double = 0 { didSet { if spacing != oldValue { arrangementDidChange() } } }
    /// Whether the views are laid out within the stack's layout margins rather than its edges.
    public var isLayoutMarginsRelativeArrangement = false {
        didSet { if isLayoutMarginsRelativeArrangement != oldValue { arrangementDidChange() } }
    }

    /// Custom spacings after arranged views, by view.
    private var customSpacings: [ObjectIdentifier: Double] = [:]
    /// The constraints the stack made for the arrangement as it was last made, and its spacer guides.
    var arrangementConstraints: [LayoutConstraint] = []
    var spacers: [LayoutGuide] = []
    /// The fill distribution's tie breaks of each view but the last (their constants follow its intrinsic length).
    var tieBreakConstraints: [ObjectIdentifier: [LayoutConstraint]] = [:]

    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        arrangementDidChange()
    }

    /// A stack of `views`, in order, laid out along the horizontal axis.
    public convenience init(arrangedSubviews views: [View]) {
        self.init(frame: .zero)
        for view in views { addArrangedSubview(view) }
    }

    // MARK: Arranged subviews

    /// Adds `view` at the end of the arrangement, and as a subview when it is not one (UIKit's), with
    /// `translatesAutoresizingMaskIntoConstraints` off: the stack places it.
    public func addArrangedSubview(_ view: View) {
        insertArrangedSubview(view, at: arrangedSubviews.count)
    }

    /// Inserts `view` at `index` of the arrangement (moving it there when it is arranged already).
    public func insertArrangedSubview(_ view: View, at index: Int) {
        guard view !== self else { return }
        arrangedSubviews.removeAll { $0 === view }
        arrangedSubviews.insert(view, at: min(max(index, 0), arrangedSubviews.count))
        view.translatesAutoresizingMaskIntoConstraints = false
        if view.superview !== self { addSubview(view) }
        arrangementDidChange()
    }

    /// Takes `view` out of the arrangement; it stays a subview, as UIKit's (remove it from its superview
    /// too to take it away). Removing an arranged view from its superview takes it out of the arrangement.
    public func removeArrangedSubview(_ view: View) {
        guard arrangedSubviews.contains(where: { $0 === view }) else { return }
        arrangedSubviews.removeAll { $0 === view }
        customSpacings[ObjectIdentifier(view)] = nil
        arrangementDidChange()
    }

    override open func willRemoveSubview(_ subview: View) {
        super.willRemoveSubview(subview)
        removeArrangedSubview(subview)
    }

    /// Sets the space after `view` (as UIKit's; `spacingUseDefault` goes back to `spacing`). A hidden view's
    /// spacing is not used, nor the last one's.
    public func setCustomSpacing(_ spacing: Double, after view: View) {
        let key = ObjectIdentifier(view)
        if spacing == Self.spacingUseDefault { customSpacings[key] = nil } else { customSpacings[key] = spacing }
        arrangementDidChange()
    }

    /// The space after `view`: its custom spacing, else `spacingUseDefault`.
    public func customSpacing(after view: View) -> Double { customSpacings[ObjectIdentifier(view)] ?? Self.spacingUseDefault }

    /// The space used after `view`.
    func spacing(after view: View) -> Double { customSpacings[ObjectIdentifier(view)] ?? spacing }

    // MARK: Changes

    /// An arranged view was hidden or shown: inside an animation block the stack lays out at once, so that
    /// the others move to their new places in that animation.
    func arrangedSubviewVisibilityDidChange(_ view: View) {
        arrangementDidChange()
        if Animator.changesAnimate { rootView.layoutIfNeeded() }
    }

    /// An arranged view's intrinsic size changed: proportions and tie breaks are made again from it.
    func arrangedSubviewMeasurementsDidChange(_ view: View) {
        switch distribution {
        case .fillProportionally:
            arrangementDidChange()
        case .fill:
            // A label's new text: its tie breaks take the new length in place (a clock ticking in a row).
            let pair = tieBreakConstraints[ObjectIdentifier(view)]
            guard let intrinsic = intrinsicLength(of: view), let pair else {
                if pair != nil || arrangedSubviews.dropLast().contains(where: { $0 === view }) { arrangementDidChange() }
                return
            }
            for constraint in pair { constraint.constant = intrinsic }
        case .fillEqually, .equalSpacing, .equalCentering:
            break
        }
    }

    /// The constraints are made again at the next layout pass (`updateConstraints`).
    func arrangementDidChange() {
        setNeedsUpdateConstraints()
    }

    override open func updateConstraints() {
        rebuildArrangement()
        super.updateConstraints()
    }
}
