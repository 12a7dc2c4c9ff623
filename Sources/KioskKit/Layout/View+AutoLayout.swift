/// A view's part in Auto Layout (as `UIView`'s): its anchors, the constraints it holds, whether its
/// autoresizing mask becomes constraints, its intrinsic size with the priorities it hugs and resists
/// compression at, and the debugging calls for an ambiguous layout.
extension View: LayoutAnchoring, LayoutItem {
    /// The view's baseline anchors: the first and the last line of text (of the view
    /// `forFirstBaselineLayout`/`forLastBaselineLayout` names); the bottom edge for a view without text.
    public var firstBaselineAnchor: LayoutYAxisAnchor { LayoutYAxisAnchor(item: self, attribute: .firstBaseline) }
    public var lastBaselineAnchor: LayoutYAxisAnchor { LayoutYAxisAnchor(item: self, attribute: .lastBaseline) }

    /// When true (the default, as UIKit's) the view's `frame` and `autoresizingMask` are turned into
    /// constraints wherever the view takes part in a layout, so it stays where it was put; set it to false
    /// for a view its own constraints place.
    public var translatesAutoresizingMaskIntoConstraints: Bool {
        get { layoutStateIfMade?.translatesAutoresizingMaskIntoConstraints ?? true }
        set {
            guard newValue != translatesAutoresizingMaskIntoConstraints else { return }
            layoutState.translatesAutoresizingMaskIntoConstraints = newValue
            if let variables = layoutVariables { variables.engine?.markStale(variables) }
        }
    }

    /// The active constraints this view holds: those whose items' nearest common ancestor it is.
    public var constraints: [LayoutConstraint] { layoutStateIfMade?.heldConstraints ?? [] }

    /// Activates `constraint` (as `UIView.addConstraint(_:)`; `isActive` is the way UIKit recommends).
    public func addConstraint(_ constraint: LayoutConstraint) { constraint.isActive = true }
    public func addConstraints(_ constraints: [LayoutConstraint]) { LayoutConstraint.activate(constraints) }

    /// Deactivates `constraint` if this view holds it.
    public func removeConstraint(_ constraint: LayoutConstraint) {
        if constraint.holder === self { constraint.isActive = false }
    }
    public func removeConstraints(_ constraints: [LayoutConstraint]) {
        for constraint in constraints { removeConstraint(constraint) }
    }

    // MARK: Intrinsic size

    /// Says that `intrinsicContentSize` (or a baseline) changed, so the layout asks for it again.
    public func invalidateIntrinsicContentSize() {
        if let variables = layoutVariables { variables.engine?.itemMeasurementsDidChange(variables) }
        (superview as? StackView)?.arrangedSubviewMeasurementsDidChange(self)
    }

    /// Axes of a layout (as `NSLayoutConstraint.Axis`).
    public func contentHuggingPriority(for axis: LayoutConstraint.Axis) -> LayoutPriority {
        let hugging = layoutStateIfMade?.hugging ?? (.defaultLow, .defaultLow)
        return axis == .horizontal ? hugging.horizontal : hugging.vertical
    }

    /// How much the view resists growing beyond its intrinsic size on `axis` (250 by default).
    public func setContentHuggingPriority(_ priority: LayoutPriority, for axis: LayoutConstraint.Axis) {
        if axis == .horizontal { layoutState.hugging.horizontal = priority } else { layoutState.hugging.vertical = priority }
        invalidateIntrinsicContentSize()
    }

    public func contentCompressionResistancePriority(for axis: LayoutConstraint.Axis) -> LayoutPriority {
        let resistance = layoutStateIfMade?.compressionResistance ?? (.defaultHigh, .defaultHigh)
        return axis == .horizontal ? resistance.horizontal : resistance.vertical
    }

    /// How much the view resists shrinking below its intrinsic size on `axis` (750 by default).
    public func setContentCompressionResistancePriority(_ priority: LayoutPriority, for axis: LayoutConstraint.Axis) {
        if axis == .horizontal {
            layoutState.compressionResistance.horizontal = priority
        } else {
            layoutState.compressionResistance.vertical = priority
        }
        invalidateIntrinsicContentSize()
    }

    // MARK: Updating constraints

    /// Asks for `updateConstraints()` before the next layout pass (as `UIView.setNeedsUpdateConstraints()`).
    public func setNeedsUpdateConstraints() {
        guard !layoutState.needsUpdateConstraints else { return }
        layoutState.needsUpdateConstraints = true
        LayoutEngine.viewsNeedingConstraintUpdate.append(WeakView(view: self))
        LayoutEngine.inUse = true
        rootView.layoutEngineMakingIt().setNeedsUpdate()
    }

    /// Whether `updateConstraints()` is waiting to run.
    public func needsUpdateConstraints() -> Bool { layoutStateIfMade?.needsUpdateConstraints ?? false }

    /// Runs the waiting `updateConstraints()` of this view's tree now.
    public func updateConstraintsIfNeeded() {
        guard LayoutEngine.inUse else { return }
        LayoutEngine.updateConstraints(in: rootView)
    }

    /// The value of an axis in `intrinsicContentSize` that has none (as `UIView.noIntrinsicMetric`).
    public static let noIntrinsicMetric: Double = -1

    // MARK: Debugging

    /// Whether the constraints leave the view's frame undetermined: some part of it could move without
    /// breaking any constraint more (as `UIView.hasAmbiguousLayout`). False for a view no constraint names.
    public var hasAmbiguousLayout: Bool {
        guard let variables = layoutVariables, let engine = variables.engine else { return false }
        engine.updateIfNeeded()
        return engine.isAmbiguous(variables)
    }

    /// Moves an ambiguously laid out view to another place its constraints allow (as
    /// `UIView.exerciseAmbiguityInLayout()`), to see which way it is free.
    public func exerciseAmbiguityInLayout() {
        guard let variables = layoutVariables, let engine = variables.engine else { return }
        engine.updateIfNeeded()
        engine.exerciseAmbiguity(of: variables)
        engine.updateIfNeeded()
    }

    // MARK: LayoutItem

    var layoutOwnerView: View? { self }
    var layoutParent: (any LayoutItem)? { superview }
    var layoutName: String { displayName }
    var layoutVariables: LayoutItemVariables? {
        get { layoutStateIfMade?.variables }
        set {
            if newValue == nil, layoutStateIfMade == nil { return }
            layoutState.variables = newValue
        }
    }
    var layoutReferences: [LayoutConstraint] {
        get { layoutStateIfMade?.references ?? [] }
        set { layoutState.references = newValue }
    }

    /// The frame the engine solved: as UIKit, it sets the bounds' size and the centre, so a transform
    /// applies about the laid-out frame's middle.
    func applyLayoutFrame(_ frame: Rect) {
        bounds.size = frame.size
        center = Point(x: frame.midX, y: frame.midY)
    }

    /// The view's Auto Layout state, made on first use.
    var layoutState: ViewLayoutState {
        if let layoutStateIfMade { return layoutStateIfMade }
        let made = ViewLayoutState()
        layoutStateIfMade = made
        return made
    }
}

extension LayoutConstraint {
    /// A layout's direction (UIKit's raw values).
    public enum Axis: Int, Sendable {
        case horizontal = 0
        case vertical = 1
    }
}
