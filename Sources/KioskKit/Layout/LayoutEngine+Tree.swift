/// Constraints follow their views between trees, as UIKit's: taking a subtree out of its superview
/// deactivates the constraints between it and the views outside it, and takes the ones inside it out of
/// the old tree's engine (still active, held by their views); putting a subtree into a tree adds those
/// to that tree's engine.
extension LayoutEngine {
    /// `view` (with its subtree) is about to leave its superview.
    static func subtreeWillLeave(_ view: View) {
        guard inUse, view.superview != nil else { return }
        var keptActive = false
        view.visitLayoutItems { item in
            for constraint in item.layoutReferences {
                if let holder = constraint.holder, holder.isDescendant(of: view) {
                    constraint.engine?.uninstall(constraint)
                    keptActive = true
                } else {
                    constraint.isActive = false
                }
            }
        }
        if keptActive { view.layoutState.needsEngine = true }
    }

    /// `view` (with its subtree) was put into a superview.
    static func subtreeDidJoin(_ view: View) {
        guard inUse else { return }
        // A subtree that was a tree of its own brings its constraints, not its engine.
        if let own = view.layoutStateIfMade?.engine {
            own.dissolve()
            view.layoutState.engine = nil
        }
        view.layoutStateIfMade?.needsEngine = false
        var held: [LayoutConstraint] = []
        view.visitViews { held += $0.layoutStateIfMade?.heldConstraints ?? [] }
        guard !held.isEmpty else { return }
        let root = view.rootView
        if let engine = root.layoutStateIfMade?.engine {
            for constraint in held { engine.install(constraint) }
        } else {
            _ = root.layoutEngineMakingIt()
        }
    }

    /// Lets every constraint and item go (its tree joined another).
    func dissolve() {
        for variables in items.values {
            if let item = variables.item, item.layoutVariables === variables { item.layoutVariables = nil }
            variables.parent = nil
        }
        for constraint in pending + broken {
            constraint.engine = nil
            constraint.sides = []
            constraint.solverConstraint = .none
        }
        host?.visitViews { view in
            for constraint in view.layoutStateIfMade?.heldConstraints ?? [] where constraint.engine === self {
                constraint.engine = nil
                constraint.sides = []
                constraint.solverConstraint = .none
            }
        }
        items = [:]
        pending = []
        broken = []
        staleItems = []
        systemGuides = []
        exercised = []
        solver.reset()
    }

    // MARK: updateConstraints

    /// Views that asked for `updateConstraints` (weakly: a view that goes needs none).
    static var viewsNeedingConstraintUpdate: [WeakView] = []

    /// Calls `updateConstraints` on the views of `root`'s tree that asked for it, deepest first (as UIKit:
    /// a view's constraints are current before its superview's).
    static func updateConstraints(in root: View) {
        guard !viewsNeedingConstraintUpdate.isEmpty else { return }
        // An update may ask for more: rounds until none is left (bounded, as a view asking every time would
        // otherwise never let the pass end).
        for _ in 0..<10 {
            viewsNeedingConstraintUpdate.removeAll { $0.view == nil }
            let mine = viewsNeedingConstraintUpdate.compactMap(\.view).filter { $0.rootView === root }
            guard !mine.isEmpty else { return }
            viewsNeedingConstraintUpdate.removeAll { entry in mine.contains { $0 === entry.view } }
            for view in mine.sorted(by: { $0.depth > $1.depth }) where view.layoutState.needsUpdateConstraints {
                view.layoutState.needsUpdateConstraints = false
                view.updateConstraints()
            }
        }
    }
}

/// A view held weakly.
struct WeakView {
    weak var view: View?
}

extension View {
    /// The top of the tree: the window, or the top of a subtree not in one.
    var rootView: View {
        var view = self
        while let superview = view.superview { view = superview }
        return view
    }

    /// How many superviews up to the root.
    var depth: Int {
        var count = 0
        var view = self
        while let superview = view.superview {
            count += 1
            view = superview
        }
        return count
    }

    /// The deepest view both are in, or nil when they are in different trees.
    func nearestCommonAncestor(with other: View) -> View? {
        var mine = Set<ObjectIdentifier>()
        var view: View? = self
        while let current = view {
            mine.insert(ObjectIdentifier(current))
            view = current.superview
        }
        view = other
        while let current = view {
            if mine.contains(ObjectIdentifier(current)) { return current }
            view = current.superview
        }
        return nil
    }

    /// This view and every view below it, parents first.
    func visitViews(_ body: (View) -> Void) {
        body(self)
        for subview in subviews { subview.visitViews(body) }
    }

    /// Every view and layout guide of the subtree.
    func visitLayoutItems(_ body: (any LayoutItem) -> Void) {
        visitViews { view in
            body(view)
            for guide in view.layoutStateIfMade?.allGuides ?? [] { body(guide) }
        }
    }

    /// The engine of this root's tree, made with every constraint held in the tree when it has none.
    func layoutEngineMakingIt() -> LayoutEngine {
        if let engine = layoutStateIfMade?.engine { return engine }
        let engine = LayoutEngine(host: self)
        layoutState.engine = engine
        layoutState.needsEngine = false
        visitViews { view in
            for constraint in view.layoutStateIfMade?.heldConstraints ?? [] { engine.install(constraint) }
        }
        return engine
    }
}
