import Glibc

/// A rectangle of content and the events in it (as `UIView`). Views form a tree under a window; a view
/// whose `window` is nil is not visible.
///
/// Geometry follows UIKit: `frame` is derived from `center`, `bounds.size` and `transform` (applied about
/// the centre), and a bounds origin other than zero shifts the subviews (scrolling). Changes made inside
/// `View.animate(withDuration:...)` animate: the properties hold their new (model) values at once while
/// the screen shows the presentation values passing between them.
@MainActor
open class View: Responder {
    // MARK: Geometry

    /// Position and size in the superview's coordinates (for a window: in screen coordinates). With a
    /// `transform` other than the identity it is the box around the transformed bounds; setting it then
    /// moves the centre and, for a pure scale, sizes the bounds so that the scaled box fits (UIKit calls
    /// the frame undefined in that case).
    open var frame: Rect {
        get {
            let size = bounds.size
            let box = Rect(x: -size.width / 2, y: -size.height / 2, width: size.width, height: size.height)
            return (hasTransform ? box.applying(transform) : box).offsetBy(dx: center.x, dy: center.y)
        }
        set {
            let rect = newValue.standardized
            center = rect.center
            if hasTransform, transform.b == 0, transform.c == 0, transform.a != 0, transform.d != 0 {
                bounds.size = Size(width: rect.width / abs(transform.a), height: rect.height / abs(transform.d))
            } else {
                bounds.size = rect.size
            }
        }
    }

    /// The view's own coordinate system: origin (usually zero) and size.
    ///
    /// This and the other properties hit testing reads for every view under a finger are
    /// `@exclusivity(unchecked)`: all access is on the main actor, and the runtime exclusivity check on
    /// each read was three quarters of a hit test's instructions (Benchmarks/README.md).
    @exclusivity(unchecked) open var bounds: Rect = .zero {
        didSet {
            guard bounds != oldValue else { return }
            Animator.record(self, .bounds, from: .rect(oldValue), to: .rect(bounds))
            if bounds.size != oldValue.size {
                invalidateSuperviewHitTestIndex()
                setNeedsLayout()
                setNeedsDisplay()
                resizeSubviews(from: oldValue.size)
                layoutFrameDidChange()
            }
            subtreeDidChange()
        }
    }

    /// The centre of `frame`, in the superview's coordinates.
    @exclusivity(unchecked) open var center: Point = .zero {
        didSet {
            guard center != oldValue else { return }
            invalidateSuperviewHitTestIndex()
            Animator.record(self, .center, from: .point(oldValue), to: .point(center))
            layoutFrameDidChange()
            subtreeDidChange()
        }
    }

    /// Scale, rotation and translation of the view about its centre (as `UIView.transform`), applied when
    /// it is composited (bilinear filtering), by hit testing and by `convert`. Its content is drawn at
    /// the bounds' size and transformed, never redrawn for it.
    open var transform: AffineTransform = .identity {
        didSet {
            guard transform != oldValue else { return }
            hasTransform = !transform.isIdentity
            invalidateSuperviewHitTestIndex()
            Animator.record(self, .transform, from: .transform(oldValue), to: .transform(transform))
            subtreeDidChange()
        }
    }

    /// `transform` is not the identity (read on every hit test: a flag is cheaper than six comparisons).
    @exclusivity(unchecked) private(set) var hasTransform = false

    /// Maps this view's coordinates into its superview's (for a window: into screen coordinates), from
    /// the model values: the bounds' centre goes to `center`, turned and scaled by `transform` about it.
    public var transformToSuperview: AffineTransform {
        let size = bounds.size
        let middle = Point(x: bounds.origin.x + size.width / 2, y: bounds.origin.y + size.height / 2)
        guard hasTransform else { return AffineTransform(translationX: center.x - middle.x, y: center.y - middle.y) }
        return AffineTransform(translationX: -middle.x, y: -middle.y).concatenating(transform)
            .concatenating(AffineTransform(translationX: center.x, y: center.y))
    }

    /// How the view follows its superview's size changes (as `UIView.AutoresizingMask`); where the view takes
    /// part in Auto Layout with `translatesAutoresizingMaskIntoConstraints`, it is made into constraints.
    public var autoresizingMask: AutoresizingMask = [] {
        didSet { if autoresizingMask != oldValue { layoutFrameDidChange() } }
    }

    /// The view's Auto Layout state (View+AutoLayout.swift), nil for a view that never took part in it.
    var layoutStateIfMade: ViewLayoutState?

    // MARK: Tree

    public private(set) weak var superview: View?
    @exclusivity(unchecked) public private(set) var subviews: [View] = [] {
        didSet { hitTestIndex = nil }
    }
    /// The view controller whose root view this is.
    weak var owningViewController: ViewController?

    /// The window containing this view at any depth, or nil: such a view is not visible.
    open var window: Window? {
        var view: View? = self
        while let current = view {
            if let window = current as? Window { return window }
            view = current.superview
        }
        return nil
    }

    // MARK: Appearance

    /// When true the view and its subviews are not drawn and receive no input: a text field being edited
    /// in it ends its editing ("a hidden view does not receive input events", UIKit).
    @exclusivity(unchecked) open var isHidden = false {
        didSet {
            guard isHidden != oldValue else { return }
            subtreeDidChange()
            (superview as? StackView)?.arrangedSubviewVisibilityDidChange(self)
            // A window's own hiding is the application's to handle (`windowDidHide`).
            if isHidden, !(self is Window) { takeFirstResponderStatusInside() }
        }
    }

    /// Opacity of the view and its subviews, 0...1.
    @exclusivity(unchecked) open var alpha: Double = 1 {
        didSet {
            // Clamped here, and still drawn: setting a property in its own didSet calls no observer again.
            let clamped = min(max(alpha, 0), 1)
            if clamped != alpha { alpha = clamped }
            guard clamped != oldValue else { return }
            Animator.record(self, .alpha, from: .scalar(oldValue), to: .scalar(clamped))
            subtreeDidChange()
        }
    }

    /// Fills the bounds before `draw(_:)`; nil draws nothing.
    open var backgroundColor: Color? {
        didSet {
            guard backgroundColor != oldValue else { return }
            Animator.record(self, .backgroundColor, from: .color(oldValue), to: .color(backgroundColor))
            setNeedsDisplay()
        }
    }

    /// Rounds the corners of the background and the border (as `layer.cornerRadius`).
    open var cornerRadius: Double = 0 {
        didSet { if cornerRadius != oldValue { setNeedsDisplay() } }
    }

    /// Width of a border drawn inside the bounds, over the view's own content (as `layer.borderWidth`).
    open var borderWidth: Double = 0 {
        didSet { if borderWidth != oldValue { setNeedsDisplay() } }
    }

    open var borderColor: Color = .black {
        didSet { if borderColor != oldValue { setNeedsDisplay() } }
    }

    /// A promise that the view fills every pixel of its bounds with opaque colour, so the compositor may
    /// skip what lies beneath. Opaqueness is declared, never found by scanning pixels.
    open var isOpaque = false {
        didSet { if isOpaque != oldValue { subtreeDidChange() } }
    }

    /// When true, subviews are cut to this view's bounds.
    open var clipsToBounds = false {
        didSet { if clipsToBounds != oldValue { subtreeDidChange() } }
    }
    /// Whether the display should scan this view and its subviews out from a buffer of their own, on a
    /// hardware plane (`PlanePreference`; a kiosk option, UIKit has none). Where no plane takes it, the view
    /// is composed as any other, with the same pixels.
    public var planePreference = PlanePreference.composited {
        didSet { if planePreference != oldValue { subtreeDidChange() } }
    }

    /// When false, touches pass through the view and its subviews as if they were not there.
    @exclusivity(unchecked) open var isUserInteractionEnabled = true

    /// The tint this view sets itself; nil: its superview's (`tintColor`, View+Tint.swift).
    var ownTintColor: Color?

    /// The view's tint (`tintColor`) changed: set on it or on the superview it takes it from, or it moved
    /// under another tint (as `UIView.tintColorDidChange()`). A view that draws with its tint redraws here.
    open func tintColorDidChange() {}

    /// A name for logs and traces (`"buy-button"`); the type name is used when it is nil.
    open var identifier: String?

    /// A number the app gives the view to find it again with `viewWithTag` (as `UIView.tag`); 0 by default.
    open var tag = 0

    /// This view, else the first view below it (depth first, subviews back to front) whose `tag` is `tag`.
    public func viewWithTag(_ tag: Int) -> View? {
        if self.tag == tag { return self }
        for subview in subviews {
            if let found = subview.viewWithTag(tag) { return found }
        }
        return nil
    }

    /// `identifier`, else the type name: what logs and traces print for this view.
    public var displayName: String { identifier ?? String(describing: type(of: self)) }

    /// Whether a touch on this view or below it would tell what is being typed: the on-screen keyboard's
    /// window says so, and so may an app's own PIN pad. A trace then leaves out the touch's view and where
    /// it landed (a PIN must not reach a trace; the keys' names and places spell it).
    public var keepsTouchesSecret = false

    /// Whether this view or one above it keeps its touches secret.
    public var touchesAreSecret: Bool {
        var view: View? = self
        while let current = view {
            if current.keepsTouchesSecret { return true }
            view = current.superview
        }
        return false
    }

    // MARK: Layout and display state

    public private(set) var needsLayout = false
    /// The area waiting for `draw(_:)`, in bounds coordinates; empty when the content cache is current.
    public private(set) var dirtyRect: Rect = .null

    public init(frame: Rect = .zero) {
        let rect = frame.standardized
        bounds = Rect(size: rect.size)
        center = rect.center
        super.init()
        needsLayout = true
        dirtyRect = bounds
    }

    /// For windows, which start hidden (setting `isHidden` in their initializer would post notifications).
    init(frame: Rect, hidden: Bool) {
        let rect = frame.standardized
        bounds = Rect(size: rect.size)
        center = rect.center
        isHidden = hidden
        super.init()
        needsLayout = true
        dirtyRect = bounds
    }

    override open var next: Responder? {
        if let owningViewController { return owningViewController }
        return superview
    }

    override var firstResponderView: View? { self }

    /// Whether the view takes input (the first responder status): in a window, and neither it, a view
    /// around it nor the window hidden; a window on its way to the screen (`Window.isAppearing`) counts
    /// as shown.
    var takesInput: Bool {
        var view: View? = self
        while let current = view {
            if let window = current as? Window { return !window.isHidden || window.isAppearing }
            if current.isHidden { return false }
            view = current.superview
        }
        return false
    }

    /// Takes the first responder status away from a responder in this view's subtree (a view, or a
    /// controller whose view is there): the subtree is hidden or leaves its window.
    func takeFirstResponderStatusInside() {
        guard let responder = Application.shared.firstResponder, responder.firstResponderView?.isDescendant(of: self) == true else {
            return
        }
        responder.takeFirstResponderStatus()
    }

    // MARK: Managing subviews

    /// Adds `view` on top of the other subviews (removing it from its old superview first).
    public func addSubview(_ view: View) {
        insertSubview(view, at: subviews.count)
    }

    /// Inserts `view` at `index` (0 is the back); an index past the end puts it on top.
    public func insertSubview(_ view: View, at index: Int) {
        precondition(view !== self, "View.insertSubview: a view cannot be its own subview")
        precondition(!isDescendant(of: view), "View.insertSubview: adding an ancestor as a subview would make a cycle")
        let oldWindow = view.window
        let oldTint: Color = view.tintColor
        let controllers = view.childControllersInSubtree()
        for controller in controllers { controller.viewWillMove(toWindow: window) }
        defer { for controller in controllers { controller.endAppearanceTransition() } }
        let joins = view.superview !== self
        if !joins, let current = subviews.firstIndex(where: { $0 === view }) {
            subviews.remove(at: current)
        } else {
            if view.superview != nil { oldWindow?.subtreeWillLeave(view) }
            LayoutEngine.subtreeWillLeave(view)
            view.detachFromSuperview()
        }
        subviews.insert(view, at: min(max(index, 0), subviews.count))
        view.superview = self
        if joins { LayoutEngine.subtreeDidJoin(view) }
        view.windowMayHaveChanged(from: oldWindow)
        view.tintMayHaveChanged(from: oldTint)
        view.subtreeDidChange()
        didAddSubview(view)
    }

    /// Called after `subview` was added or moved among the subviews (as `UIView.didAddSubview(_:)`).
    open func didAddSubview(_ subview: View) {}

    /// Called before `subview` leaves this view, removed or moved into another (as
    /// `UIView.willRemoveSubview(_:)`).
    open func willRemoveSubview(_ subview: View) {}

    public func insertSubview(_ view: View, aboveSubview sibling: View) {
        guard let index = subviews.firstIndex(where: { $0 === sibling }) else { return addSubview(view) }
        insertSubview(view, at: view.superview === self && (subviews.firstIndex { $0 === view } ?? 0) < index ? index : index + 1)
    }

    public func insertSubview(_ view: View, belowSubview sibling: View) {
        guard let index = subviews.firstIndex(where: { $0 === sibling }) else { return insertSubview(view, at: 0) }
        insertSubview(view, at: view.superview === self && (subviews.firstIndex { $0 === view } ?? 0) < index ? index - 1 : index)
    }

    /// Detaches the view from its superview and window.
    public func removeFromSuperview() {
        guard superview != nil else { return }
        let oldWindow = window
        let oldTint: Color = tintColor
        let controllers = childControllersInSubtree()
        for controller in controllers { controller.viewWillMove(toWindow: nil) }
        defer { for controller in controllers { controller.endAppearanceTransition() } }
        // Damage where the subtree was painted while it still has a window to say so to.
        oldWindow?.subtreeWillLeave(self)
        // Constraints to views outside deactivate, as UIKit's (LayoutEngine+Tree.swift).
        LayoutEngine.subtreeWillLeave(self)
        detachFromSuperview()
        windowMayHaveChanged(from: oldWindow)
        tintMayHaveChanged(from: oldTint)
    }

    public func bringSubviewToFront(_ view: View) {
        guard view.superview === self else { return }
        insertSubview(view, at: subviews.count)
    }

    public func sendSubviewToBack(_ view: View) {
        guard view.superview === self else { return }
        insertSubview(view, at: 0)
    }

    public func isDescendant(of view: View) -> Bool {
        var current: View? = self
        while let candidate = current {
            if candidate === view { return true }
            current = candidate.superview
        }
        return false
    }

    /// The child view controllers whose views are this view or below it, outer ones first: a move of the
    /// subtree into or out of a window makes them appear or disappear. (A child's own children hear it
    /// from their container first; the view below another container's child may belong to any container.)
    private func childControllersInSubtree() -> [ViewController] {
        guard ViewController.containmentInUse else { return [] }
        var found: [ViewController] = []
        func visit(_ view: View) {
            if let controller = view.owningViewController, controller.parent != nil { found.append(controller) }
            for subview in view.subviews { visit(subview) }
        }
        visit(self)
        return found
    }

    private func detachFromSuperview() {
        guard let superview else { return }
        superview.willRemoveSubview(self)
        superview.subviews.removeAll { $0 === self }
        self.superview = nil
    }

    private func windowMayHaveChanged(from oldWindow: Window?) {
        let newWindow = window
        guard newWindow !== oldWindow else { return }
        // A first responder that leaves its window (or goes into another) lets the focus go, as UIKit.
        if oldWindow != nil {
            takeFirstResponderStatusInside()
            // Its animations end there (Core Animation removes a layer's when it leaves the window): their
            // completions hear `false`, and a repeating one no longer keeps the views alive and the frames going.
            Application.shared.animator.removeAnimations(inside: self)
            // Keys held on a responder here will not come up there: cancelled, their releases go nowhere.
            let application = Application.shared
            for (responder, presses) in application.pressPairing.cancel(inside: self) {
                responder.pressesCancelled(presses, with: Event(presses: presses, timestamp: application.clock.now))
            }
        }
        didMoveToWindow()
        for subview in subviews { subview.windowMayHaveChangedFromAncestor() }
    }

    private func windowMayHaveChangedFromAncestor() {
        didMoveToWindow()
        for subview in subviews { subview.windowMayHaveChangedFromAncestor() }
    }

    /// Called after the view joined or left a window; `window` tells which.
    open func didMoveToWindow() {}

    // MARK: Layout

    /// The size the view would like within `size` (as `UIView.sizeThatFits(_:)`); the default is its current
    /// size. Labels, buttons and image views say what their content needs; override it for your own views.
    open func sizeThatFits(_ size: Size) -> Size { bounds.size }

    /// Resizes the view to `sizeThatFits(bounds.size)`, keeping its origin (as `UIView.sizeToFit()`).
    open func sizeToFit() {
        frame = Rect(origin: frame.origin, size: sizeThatFits(bounds.size))
    }

    /// Asks for `layoutSubviews` before the next frame.
    public func setNeedsLayout() {
        needsLayout = true
        window?.requestFrame()
    }

    /// Lays out the view's tree now if anything waits: the constraints' pass of the tree's Auto Layout
    /// engine, then `layoutSubviews` where a layout is pending, from this view down. Inside
    /// `View.animate(...)` the frames it sets animate, as UIKit's.
    public func layoutIfNeeded() {
        guard LayoutEngine.inUse else { return layoutSubtreeIfNeeded() }
        // A `layoutSubviews` may change constraints or sizes again: rounds until the tree is settled, bounded
        // so that a layout that changes something every time cannot hang the frame (logged once).
        let root = rootView
        for _ in 0..<LayoutEngine.roundsPerPass {
            let engine = root.layoutStateIfMade?.needsEngine == true ? root.layoutEngineMakingIt() : root.layoutStateIfMade?.engine
            engine?.checkSystemGuides()
            engine?.updateIfNeeded()
            layoutSubtreeIfNeeded()
            if engine?.needsUpdate != true { return }
        }
        LayoutEngine.reportUnsettled(root)
    }

    /// `layoutSubviews` where a layout is pending, from this view down.
    private func layoutSubtreeIfNeeded() {
        if needsLayout {
            needsLayout = false
            layoutSubviews()
        }
        for subview in subviews { subview.layoutSubtreeIfNeeded() }
    }

    /// Override to place subviews; the default does nothing (autoresizing and constraints already ran).
    open func layoutSubviews() {}

    // MARK: Auto Layout (View+AutoLayout.swift)

    /// The size the view's content needs (as `UIView.intrinsicContentSize`), `View.noIntrinsicMetric` on an
    /// axis where it needs none (the default on both). Auto Layout keeps a constrained view at it, with the
    /// content hugging and compression resistance priorities; call `invalidateIntrinsicContentSize()` when
    /// it changes.
    open var intrinsicContentSize: Size { Size(width: View.noIntrinsicMetric, height: View.noIntrinsicMetric) }

    /// Override to change the view's constraints when `setNeedsUpdateConstraints()` asked for it; runs
    /// before the layout pass, deepest views first (as `UIView.updateConstraints()`). Nothing by default.
    open func updateConstraints() {}

    /// The view whose first and last baselines are this view's (as UIKit's): the view itself by default; a
    /// view holding a label may name the label.
    open var forFirstBaselineLayout: View { self }
    open var forLastBaselineLayout: View { self }

    /// Where the view's first or last baseline lies in its frame: the bottom edge for a view without text.
    func baselinePosition(last: Bool) -> BaselinePosition { .bottom }

    /// Called when `layoutMargins` changed (as `UIView.layoutMarginsDidChange()`).
    open func layoutMarginsDidChange() {}

    /// Called when `safeAreaInsets` changed (as `UIView.safeAreaInsetsDidChange()`).
    open func safeAreaInsetsDidChange() {}

    /// The frame or mask changed by the app (or by a superview's autoresizing): a tree's Auto Layout engine
    /// holding the view takes the new frame in.
    private func layoutFrameDidChange() {
        guard let variables = layoutStateIfMade?.variables, !LayoutEngine.isApplying else { return }
        variables.engine?.frameChangedByHand(variables)
    }

    // MARK: Drawing

    /// Marks the whole view for redrawing: `draw(_:)` runs before the next frame.
    public func setNeedsDisplay() {
        setNeedsDisplay(bounds)
    }

    /// Marks `rect` (bounds coordinates) for redrawing.
    public func setNeedsDisplay(_ rect: Rect) {
        let area = rect.intersection(bounds)
        guard !area.isEmpty else { return }
        dirtyRect = dirtyRect.union(area)
        window?.contentDidChange(in: self, rect: area)
    }

    /// Draws the view's content into the current drawing context, which is clipped to `rect`. Runs only
    /// after `setNeedsDisplay`; the result is cached. The default draws nothing (the background colour is
    /// filled before it is called).
    open func draw(_ rect: Rect) {}

    /// The compositor's cached rendering of this view.
    var rendering = LayerState()

    /// Whether the compositor calls `willBeComposed(onScreen:)` at each frame that walks this view (not
    /// hidden, not transparent, in a shown window): for a view that paces itself by being seen, an animated
    /// image, which must cost nothing while hidden or scrolled away.
    var observesComposition = false

    /// The view is about to be composed (its `draw(_:)`, if it asked for one, comes next); `onScreen` is
    /// whether any of it lands on the screen, inside its clipping ancestors. Only when
    /// `observesComposition`.
    func willBeComposed(onScreen: Bool) {}

    /// Marks the whole view for drawing in the frame being composed, from `willBeComposed(onScreen:)`:
    /// unlike `setNeedsDisplay()`, it asks for no frame (this one is under way) and no damage but the
    /// view's own rendering, which the compositor adds when it draws it.
    func markForDrawingInThisFrame() {
        dirtyRect = bounds
    }

    /// The dirty area is being drawn; returns it and marks the content current.
    func takeDirtyRect() -> Rect {
        defer { dirtyRect = .null }
        return dirtyRect
    }

    // MARK: Hit testing

    /// The deepest visible, interactive view containing `point` (this view's coordinates), front to back;
    /// nil when the point is outside, or the view is hidden, non-interactive, nearly transparent (alpha
    /// < 0.01) or being animated without `.allowUserInteraction`. As in UIKit it tests the model values
    /// (where an animation is going), not what the screen shows on the way.
    open func hitTest(_ point: Point, with event: Event?) -> View? {
        guard !isHidden, isUserInteractionEnabled, alpha >= 0.01, interactionBlockingAnimations == 0,
            self.point(inside: point, with: event)
        else { return nil }
        return hitTestSubviews(point, with: event) ?? self
    }

    /// The grid of the subviews' frames `hitTestSubviews` goes through (View+HitTesting.swift); nil until a
    /// hit test needs it, and after any change to it.
    @exclusivity(unchecked) final var hitTestIndex: HitTestIndex? {
        willSet { retireHitTestIndex() }
    }

    /// `point` from the superview's coordinates (a window's: the screen's) into this view's; without a
    /// transform a translation, with no matrix to invert (hit tests run it for every view they visit).
    @inline(__always) func convertFromSuperview(_ point: Point) -> Point {
        guard !hasTransform else { return point.applying(transformToSuperview.inverted()) }
        // `bounds` read once: it is an open property, so each read is a call.
        let bounds = self.bounds, center = self.center
        let size = bounds.size, origin = bounds.origin
        return Point(x: point.x - center.x + size.width / 2 + origin.x, y: point.y - center.y + size.height / 2 + origin.y)
    }

    // MARK: Editing

    /// Makes the first responder resign if it is this view or one of its subviews (as
    /// `UIView.endEditing(_:)`); with `force` it goes even if it would rather not. True when no first
    /// responder is left in this view's subtree.
    @discardableResult
    public func endEditing(_ force: Bool) -> Bool {
        let application = Application.shared
        guard let responder = application.firstResponder as? View, responder.isDescendant(of: self) else { return true }
        if force { responder.takeFirstResponderStatus() } else { responder.resignFirstResponder() }
        return application.firstResponder !== responder
    }

    // MARK: Gesture recognizers

    /// The recognizers `addGestureRecognizer` attached, in order.
    var attachedRecognizers: [GestureRecognizer] = []

    /// Asked before a recognizer that received this view's touches (or is attached to it) begins; false
    /// makes it fail (as `UIView.gestureRecognizerShouldBegin(_:)`). True by default; controls refuse a
    /// superview's single tap, so that tapping a button presses the button.
    open func gestureRecognizerShouldBegin(_ gestureRecognizer: GestureRecognizer) -> Bool { true }

    // MARK: Animation state

    /// What the screen shows where it differs from the model while animations run (Core Animation's
    /// presentation layer); empty at rest.
    var presentation = PresentationValues()
    /// Animations of this view in flight without `.allowUserInteraction`: while any is, touches pass it by.
    @exclusivity(unchecked) var interactionBlockingAnimations = 0

    var shownCenter: Point { presentation.center ?? center }
    var shownBounds: Rect { presentation.bounds ?? bounds }
    var shownAlpha: Double { presentation.alpha ?? alpha }
    var shownTransform: AffineTransform { presentation.transform ?? transform }
    var shownBackgroundColor: Color? { presentation.backgroundColor ?? backgroundColor }

    /// `transformToSuperview` from the presentation values: where the compositor puts the view.
    var shownTransformToSuperview: AffineTransform {
        let bounds = shownBounds, center = shownCenter, transform = shownTransform
        let middle = Point(x: bounds.origin.x + bounds.width / 2, y: bounds.origin.y + bounds.height / 2)
        return AffineTransform(translationX: -middle.x, y: -middle.y).concatenating(transform)
            .concatenating(AffineTransform(translationX: center.x, y: center.y))
    }

    /// The frame the screen shows now (the model `frame` at rest), as `layer.presentation()?.frame`.
    public var presentationFrame: Rect {
        let size = shownBounds.size
        return Rect(x: -size.width / 2, y: -size.height / 2, width: size.width, height: size.height)
            .applying(shownTransform).offsetBy(dx: shownCenter.x, dy: shownCenter.y)
    }

    /// The alpha the screen shows now (the model `alpha` at rest).
    public var presentationAlpha: Double { shownAlpha }

    /// A presentation value changed: damage as a model change would, without touching the model.
    func presentationDidChange(_ property: AnimatableProperty) {
        // The background is part of the cached content (redrawn); the rest only moves cached content.
        if property == .backgroundColor { setNeedsDisplay() } else { subtreeDidChange() }
    }

    /// Whether `point` (this view's coordinates) is inside the bounds.
    open func point(inside point: Point, with event: Event?) -> Bool {
        bounds.contains(point)
    }

    // MARK: Change tracking for the compositor

    /// Position, size, visibility, opacity or stacking of this view (and so of its subviews) changed: the
    /// compositor damages where the subtree was last painted and where it is now.
    private func subtreeDidChange() {
        window?.subtreeDidChange(self)
    }
}
