import ConstraintSolver

/// The Auto Layout engine of one view tree (a window's, or a subtree's that is laid out on its own): the
/// constraints held in the tree, as one incremental simplex (`ConstraintSolver.Solver`), and the frames
/// it solves, applied before the tree's layout pass.
///
/// Changes are gathered, not solved one by one: activating, deactivating or editing constraints, a view's
/// frame set by hand or its intrinsic size invalidated mark the engine, which asks the window for a frame;
/// the frame's layout pass (`View.layoutIfNeeded()`) then adds what waits, re-solves from the current
/// solution and sets the frames that changed. A frame in which nothing changed runs no pass at all.
@MainActor
final class LayoutEngine {
    /// Whether any constraint was ever activated: until then tree changes look for none.
    static var inUse = false
    /// True while the engine sets frames: those are not changes made by hand.
    static var isApplying = false

    /// The tree's root.
    private(set) weak var host: View?
    let solver = Solver()
    /// The items with variables here, by their variables' identity.
    var items: [ObjectIdentifier: LayoutItemVariables] = [:]
    /// Active constraints waiting for the next pass to be added, in activation order.
    var pending: [LayoutConstraint] = []
    /// Required constraints refused as unsatisfiable, tried again when another constraint goes.
    var broken: [LayoutConstraint] = []
    /// Items whose own constraints (`support`) are to be made again at the next pass.
    var staleItems: [LayoutItemVariables] = []
    /// The system guides here (margins, safe area, keyboard), whose insets each pass checks.
    var systemGuides: [LayoutItemVariables] = []
    /// Something goes away or changes since the last pass: broken constraints may hold now.
    var mayUnbreak = false
    /// The variables `exerciseAmbiguityInLayout` holds elsewhere, and whether the next pass keeps them.
    var exercised: [Variable] = []
    var keepsExercise = false
    /// The passes run (tests: a frame in which nothing changed runs none).
    private(set) var passCount = 0

    /// Whether a pass is waiting; becoming true asks the window for a frame.
    private(set) var needsUpdate = false

    init(host: View) {
        self.host = host
    }

    func setNeedsUpdate() {
        guard !needsUpdate else { return }
        needsUpdate = true
        (host as? Window)?.requestFrame()
    }

    // MARK: Constraints

    /// Takes `constraint` in: its items get variables (and their parents up to the root), and it is added at
    /// the next pass.
    func install(_ constraint: LayoutConstraint) {
        guard constraint.engine !== self else { return }
        guard let first = constraint.first else { return }
        constraint.engine = self
        var sides = [LayoutSide(resolving: first, constraint.firstAttribute, in: self)]
        if let second = constraint.second {
            sides.append(LayoutSide(resolving: second, constraint.secondAttribute, in: self))
        }
        constraint.sides = sides
        pending.append(constraint)
        setNeedsUpdate()
    }

    /// Takes `constraint` out of the solver and lets its items' variables go.
    func uninstall(_ constraint: LayoutConstraint) {
        guard constraint.engine === self else { return }
        takeOutOfSolver(constraint)
        pending.removeAll { $0 === constraint }
        constraint.engine = nil
        for side in constraint.sides { release(side.variables) }
        constraint.sides = []
        setNeedsUpdate()
    }

    private func takeOutOfSolver(_ constraint: LayoutConstraint) {
        switch constraint.solverConstraint {
        case .added(let added):
            do { try solver.remove(added) } catch { LayoutEngine.report("removing \(constraint): \(error)") }
            mayUnbreak = true
        case .broken:
            broken.removeAll { $0 === constraint }
        case .none:
            break
        }
        constraint.solverConstraint = .none
    }

    /// The constant changed: an added constraint changes in place; a broken one is tried again.
    func constantDidChange(of constraint: LayoutConstraint) {
        switch constraint.solverConstraint {
        case .added(let added):
            do {
                try solver.setConstant(of: added, to: constraint.expressionOffset - constraint.constant)
            } catch {
                // It no longer holds with the required ones: broken, as if added now.
                takeOutOfSolver(constraint)
                refuse(constraint, because: error)
            }
        case .broken:
            broken.removeAll { $0 === constraint }
            constraint.solverConstraint = .none
            pending.append(constraint)
        case .none:
            break
        }
        setNeedsUpdate()
    }

    /// An optional priority changed: its weight is part of the objective, so it is added again.
    func priorityDidChange(of constraint: LayoutConstraint) {
        guard case .added = constraint.solverConstraint else { return }
        takeOutOfSolver(constraint)
        pending.append(constraint)
        setNeedsUpdate()
    }

    /// A view's intrinsic size or baseline changed: its size constraints, and the constraints on its
    /// baselines, are made again.
    func itemMeasurementsDidChange(_ variables: LayoutItemVariables) {
        markStale(variables)
        for constraint in variables.item?.layoutReferences ?? [] where constraint.engine === self {
            guard constraint.usesBaseline, case .added = constraint.solverConstraint else { continue }
            takeOutOfSolver(constraint)
            pending.append(constraint)
        }
    }

    // MARK: Variables

    /// The item's variables here, made (with its parent's) when it has none yet.
    func retain(_ item: any LayoutItem) -> LayoutItemVariables {
        if let variables = item.layoutVariables, variables.engine === self {
            variables.references += 1
            return variables
        }
        let variables = LayoutItemVariables(engine: self, item: item)
        item.layoutVariables = variables
        items[ObjectIdentifier(variables)] = variables
        variables.references = 1
        if let guide = item as? LayoutGuide, guide.role != .app { systemGuides.append(variables) }
        if item !== host, let parent = item.layoutParent { variables.parent = retain(parent) }
        markStale(variables)
        return variables
    }

    /// One use fewer; at none the item leaves the engine, with its own constraints.
    func release(_ variables: LayoutItemVariables) {
        variables.references -= 1
        guard variables.references <= 0, items.removeValue(forKey: ObjectIdentifier(variables)) != nil else { return }
        for support in variables.support {
            if let added = support.added { try? solver.remove(added) }
        }
        variables.support = []
        systemGuides.removeAll { $0 === variables }
        mayUnbreak = true
        if let item = variables.item, item.layoutVariables === variables { item.layoutVariables = nil }
        if let parent = variables.parent { release(parent) }
        variables.parent = nil
    }

    func markStale(_ variables: LayoutItemVariables) {
        if variables.supportIsCurrent {
            variables.supportIsCurrent = false
            staleItems.append(variables)
        } else if !staleItems.contains(where: { $0 === variables }) {
            staleItems.append(variables)
        }
        setNeedsUpdate()
    }

    /// A view in the engine got a frame from its app, not from the engine: one that follows its autoresizing
    /// mask keeps it (its constraints are made from it again); a constrained one gets the engine's again.
    func frameChangedByHand(_ variables: LayoutItemVariables) {
        guard let view = variables.item as? View else { return }
        if view === host || view.translatesAutoresizingMaskIntoConstraints {
            markStale(variables)
        } else {
            variables.appliedFrame = nil
            setNeedsUpdate()
        }
    }

    // MARK: The pass

    /// Runs the pass if one waits: `updateConstraints` where asked for, the engine's own constraints made
    /// again, the waiting constraints added, broken ones tried again, then the frames that changed set.
    func updateIfNeeded() {
        guard needsUpdate, let host else { return }
        LayoutEngine.updateConstraints(in: host)
        needsUpdate = false
        if !exercised.isEmpty || keepsExercise { endExercise() }
        let stale = staleItems
        staleItems = []
        for variables in stale where items[ObjectIdentifier(variables)] != nil {
            refreshSupport(of: variables)
        }
        let waiting = pending
        pending = []
        for constraint in waiting where constraint.engine === self {
            add(constraint)
        }
        if mayUnbreak {
            mayUnbreak = false
            let retry = broken
            broken = []
            for constraint in retry {
                constraint.solverConstraint = .none
                add(constraint, retrying: true)
            }
        }
        solver.updateVariables()
        applyFrames()
        passCount += 1
    }

    private func add(_ constraint: LayoutConstraint, retrying: Bool = false) {
        guard let made = constraint.solverExpression() else { return }
        let solverConstraint = Constraint(
            made, constraint.relation.solverRelation, strength: Strength(priority: constraint.priority.rawValue),
            name: "\(constraint)")
        do {
            try solver.add(solverConstraint)
            constraint.solverConstraint = .added(solverConstraint)
        } catch {
            refuse(constraint, because: error, quietly: retrying)
        }
    }

    /// `constraint` cannot be added: an unsatisfiable one is broken (kept active, tried again later) and
    /// reported once; one with a number that is not finite is reported and left out.
    private func refuse(_ constraint: LayoutConstraint, because error: SolverError, quietly: Bool = false) {
        guard case .unsatisfiable = error else {
            LayoutEngine.report("constraint \(constraint) is left out: \(error)")
            return
        }
        constraint.solverConstraint = .broken
        broken.append(constraint)
        guard !quietly, !constraint.breakWasReported else { return }
        constraint.breakWasReported = true
        reportUnsatisfiable(constraint)
    }

    /// Sets each item's solved frame where it changed.
    private func applyFrames() {
        LayoutEngine.isApplying = true
        defer { LayoutEngine.isApplying = false }
        // Parents first, so that a view set here sees its superview's new size before its own frame.
        let ordered = items.values.sorted { $0.depth < $1.depth }
        for variables in ordered {
            guard let item = variables.item, item !== host else { continue }
            let rect = variables.roundedRect
            let parent = variables.parent?.roundedRect.origin ?? .zero
            let frame = rect.offsetBy(dx: -parent.x, dy: -parent.y)
            guard frame != variables.appliedFrame else { continue }
            variables.appliedFrame = frame
            item.applyLayoutFrame(frame)
        }
    }
}

extension LayoutItemVariables {
    /// How many parents up to the root.
    var depth: Int {
        var count = 0
        var current = parent
        while let next = current {
            count += 1
            current = next.parent
        }
        return count
    }
}

extension LayoutConstraint.Relation {
    var solverRelation: ConstraintSolver.Relation {
        switch self {
        case .lessThanOrEqual: .lessThanOrEqual
        case .equal: .equal
        case .greaterThanOrEqual: .greaterThanOrEqual
        }
    }
}
