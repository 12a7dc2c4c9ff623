import ConstraintSolver

/// What the layout engine needs of a view or a layout guide.
@MainActor
protocol LayoutItem: AnyObject {
    /// The view itself, or the view owning the guide: where a constraint's common ancestor is looked for.
    var layoutOwnerView: View? { get }
    /// The item whose coordinates the item's frame is in: a view's superview, a guide's owning view.
    var layoutParent: (any LayoutItem)? { get }
    /// What logs call it.
    var layoutName: String { get }
    /// Its variables in the engine of its tree, while a constraint there names it or an item inside it.
    var layoutVariables: LayoutItemVariables? { get set }
    /// The active constraints naming it, wherever they are held.
    var layoutReferences: [LayoutConstraint] { get set }
    /// The frame the engine solved, in `layoutParent`'s coordinates.
    func applyLayoutFrame(_ frame: Rect)
}

/// An item's four variables in an engine, in the engine's space: the root's bounds, with every view's
/// frame origin added on the way down (bounds origins, that is scrolling, and transforms left out, as
/// Auto Layout works on untransformed frames).
@MainActor
final class LayoutItemVariables {
    weak var engine: LayoutEngine?
    weak var item: (any LayoutItem)?
    let minX: Variable
    let minY: Variable
    let width: Variable
    let height: Variable
    /// The parent's variables (a view's are in the engine while any of its subviews' are).
    var parent: LayoutItemVariables?
    /// Constraints naming it, and items whose parent it is.
    var references = 0
    /// The engine's own constraints on the item (its autoresizing mask, its intrinsic size, a system guide's
    /// insets, a root's size), as last made; `supportIsCurrent` false makes them again at the next pass.
    var support: [SupportConstraint] = []
    var supportIsCurrent = false
    /// The frame last applied (in the parent's coordinates); nil before the first, or to apply it again.
    var appliedFrame: Rect?
    /// A system guide's insets its constraints were last made from (checked at each pass).
    var guideInsets: EdgeInsets?

    init(engine: LayoutEngine, item: any LayoutItem) {
        self.engine = engine
        self.item = item
        let name = item.layoutName
        minX = Variable("\(name).minX")
        minY = Variable("\(name).minY")
        width = Variable("\(name).width")
        height = Variable("\(name).height")
    }

    var all: [Variable] { [minX, minY, width, height] }

    /// The solved frame in engine space, its edges rounded to whole points (as UIKit rounds to pixels), so
    /// that neighbours share an edge whatever their fractions.
    var roundedRect: Rect {
        let left = minX.value.rounded(), top = minY.value.rounded()
        let right = (minX.value + width.value).rounded(), bottom = (minY.value + height.value).rounded()
        return Rect(x: left, y: top, width: max(right - left, 0), height: max(bottom - top, 0))
    }
}

/// One of the engine's own constraints: what it is made of, to tell whether a new one differs only in its
/// constant (then changed in place, incrementally) or must replace it.
struct SupportConstraint {
    var terms: [Term]
    var constant: Double
    var relation: ConstraintSolver.Relation
    var strength: Strength
    var name: String
    /// In the solver; nil when it was refused (logged).
    var added: Constraint?

    func hasSameShape(as other: SupportConstraint) -> Bool {
        relation == other.relation && strength == other.strength && terms.count == other.terms.count
            && zip(terms, other.terms).allSatisfy { $0.variable === $1.variable && $0.coefficient == $1.coefficient }
    }
}

/// A rectangle that takes part in Auto Layout without being a view (as `UILayoutGuide`): space between
/// views, or a region to centre in. Add it to a view (`View.addLayoutGuide(_:)`) and constrain its anchors;
/// `layoutFrame` is where the layout put it, in that view's coordinates.
@MainActor
public final class LayoutGuide: LayoutAnchoring, LayoutItem {
    /// Which guide it is: an app's own, or one a view provides and keeps at its insets.
    enum Role { case app, layoutMargins, safeArea, keyboard }
    let role: Role

    public private(set) weak var owningView: View?
    /// A name for logs.
    public var identifier: String?
    /// The frame the layout gave it, in the owning view's coordinates.
    public private(set) var layoutFrame: Rect = .zero

    public init() { role = .app }

    init(role: Role, owningView: View) {
        self.role = role
        self.owningView = owningView
    }

    func setOwningView(_ view: View?) { owningView = view }

    // MARK: LayoutItem

    var layoutOwnerView: View? { owningView }
    var layoutParent: (any LayoutItem)? { owningView }
    var layoutName: String {
        let owner = owningView?.layoutName ?? "(no view)"
        switch role {
        case .app: return identifier ?? "\(owner).guide"
        case .layoutMargins: return "\(owner).layoutMarginsGuide"
        case .safeArea: return "\(owner).safeAreaLayoutGuide"
        case .keyboard: return "\(owner).keyboardLayoutGuide"
        }
    }
    var layoutVariables: LayoutItemVariables?
    var layoutReferences: [LayoutConstraint] = []
    func applyLayoutFrame(_ frame: Rect) { layoutFrame = frame }
}

/// A view's Auto Layout state, made when first needed (most views never use constraints).
@MainActor
final class ViewLayoutState {
    var translatesAutoresizingMaskIntoConstraints = true
    var hugging = (horizontal: LayoutPriority.defaultLow, vertical: LayoutPriority.defaultLow)
    var compressionResistance = (horizontal: LayoutPriority.defaultHigh, vertical: LayoutPriority.defaultHigh)
    /// The active constraints this view holds (`View.constraints`): it is their items' nearest common ancestor.
    var heldConstraints: [LayoutConstraint] = []
    /// The active constraints naming this view.
    var references: [LayoutConstraint] = []
    var variables: LayoutItemVariables?
    /// The engine of the tree this view is the root of, once constraints there need one.
    var engine: LayoutEngine?
    /// The subtree left its superview holding constraints: an engine is made for it when it is laid out.
    var needsEngine = false
    var needsUpdateConstraints = false
    /// This root's layout did not settle once already (said once).
    var unsettledWasReported = false
    var layoutMargins = ViewLayoutState.defaultLayoutMargins
    var insetsLayoutMarginsFromSafeArea = true
    /// UIKit's default margins of a view.
    static let defaultLayoutMargins = EdgeInsets(top: 8, left: 8, bottom: 8, right: 8)
    /// The guides added with `addLayoutGuide(_:)`.
    var guides: [LayoutGuide] = []
    var layoutMarginsGuide: LayoutGuide?
    var safeAreaLayoutGuide: LayoutGuide?
    var keyboardLayoutGuide: LayoutGuide?

    /// Every guide the view has made or been given.
    var allGuides: [LayoutGuide] {
        guides + [layoutMarginsGuide, safeAreaLayoutGuide, keyboardLayoutGuide].compactMap { $0 }
    }
}
