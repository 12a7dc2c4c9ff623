import ConstraintSolver

/// The engine's own constraints on an item, which UIKit makes too: a root's place and size, a view's
/// autoresizing mask as constraints (`translatesAutoresizingMaskIntoConstraints`), a constrained view's
/// intrinsic size at its hugging and compression-resistance priorities, a system guide's insets.
extension LayoutEngine {
    /// Makes the item's own constraints again; where only a constant changed, in place.
    func refreshSupport(of variables: LayoutItemVariables) {
        variables.supportIsCurrent = true
        let wanted = supportConstraints(of: variables)
        let current = variables.support
        if wanted.count == current.count, zip(wanted, current).allSatisfy({ $0.hasSameShape(as: $1) }) {
            var kept = current
            let changed = kept.indices.filter { kept[$0].constant != wanted[$0].constant }
            if changed.count > 1 {
                // Several at once (a frame moved: both margins of its autoresizing): one changed after the
                // other can pass through a state no layout satisfies (the new left margin with the old right
                // one squeezes the view below what its content requires) though the end state is fine; they
                // are taken out together and put back with their new constants.
                for index in changed {
                    if let added = kept[index].added { try? solver.remove(added) }
                    kept[index].added = nil
                    kept[index].constant = wanted[index].constant
                }
            } else if let index = changed.first {
                kept[index].constant = wanted[index].constant
                if let added = kept[index].added {
                    do {
                        try solver.setConstant(of: added, to: wanted[index].constant)
                    } catch {
                        try? solver.remove(added)
                        kept[index].added = nil
                        reportRefusedSupport(kept[index], error)
                    }
                }
            }
            // Ones refused before, or taken out above, are put back with their new constants.
            for index in kept.indices where kept[index].added == nil { kept[index].added = addSupport(kept[index]) }
            variables.support = kept
            return
        }
        for support in current {
            if let added = support.added { try? solver.remove(added) }
        }
        variables.support = wanted.map { support in
            var made = support
            made.added = addSupport(support)
            return made
        }
    }

    private func addSupport(_ support: SupportConstraint) -> Constraint? {
        let made = Constraint(
            Expression(support.terms, constant: support.constant), support.relation, strength: support.strength,
            name: support.name)
        do {
            try solver.add(made)
            return made
        } catch {
            reportRefusedSupport(support, error)
            return nil
        }
    }

    /// The system guides whose view's insets moved since their constraints were made (a status bar shown, the
    /// keyboard sliding, the view itself moved) are made again at this pass; a safe area's view hears of it.
    func checkSystemGuides() {
        for variables in systemGuides {
            guard let guide = variables.item as? LayoutGuide, let owner = guide.owningView,
                let insets = owner.insets(for: guide.role), insets != variables.guideInsets
            else { continue }
            let wasMade = variables.guideInsets != nil
            markStale(variables)
            if wasMade, guide.role == .safeArea {
                owner.safeAreaInsetsDidChange()
                owner.owningViewController?.viewSafeAreaInsetsDidChange()
            }
        }
    }

    /// What the item's own constraints should be now.
    func supportConstraints(of variables: LayoutItemVariables) -> [SupportConstraint] {
        if let guide = variables.item as? LayoutGuide { return guideSupport(guide, variables) }
        guard let view = variables.item as? View else { return [] }
        let name = view.layoutName
        if view === host {
            // The root stays where it is, at its own size unless its constraints size it.
            var pins = [
                SupportConstraint(equal: [Term(variables.minX)], 0, name: "\(name).minX == 0 (root)"),
                SupportConstraint(equal: [Term(variables.minY)], 0, name: "\(name).minY == 0 (root)"),
            ]
            if view.translatesAutoresizingMaskIntoConstraints {
                let size = view.bounds.size
                pins.append(SupportConstraint(equal: [Term(variables.width)], size.width, name: "\(name).width == \(size.width) (root)"))
                pins.append(
                    SupportConstraint(equal: [Term(variables.height)], size.height, name: "\(name).height == \(size.height) (root)"))
            }
            return pins
        }
        if view.translatesAutoresizingMaskIntoConstraints, let parent = variables.parent {
            return autoresizingConstraints(view, variables, parent)
        }
        return intrinsicSizeConstraints(view, variables)
    }

    /// UIKit's `NSAutoresizingMaskLayoutConstraint`s: on each axis the parts of the parent's length the mask
    /// keeps fixed hold their current values, and the flexible ones keep their proportions, as
    /// `AutoresizingMask.resize` shares a change out; with no flexible part the margin and length are fixed.
    private func autoresizingConstraints(
        _ view: View, _ v: LayoutItemVariables, _ parent: LayoutItemVariables
    ) -> [SupportConstraint] {
        let frame = view.frame, parentSize = view.superview?.bounds.size ?? .zero, mask = view.autoresizingMask
        let name = "\(view.layoutName) (autoresizing)"
        let x = axisConstraints(
            min: v.minX, length: v.width, parentMin: parent.minX, parentLength: parent.width,
            old: (frame.minX, frame.width, parentSize.width - frame.maxX),
            flexible: (mask.contains(.flexibleLeftMargin), mask.contains(.flexibleWidth), mask.contains(.flexibleRightMargin)),
            name: "\(name) x")
        let y = axisConstraints(
            min: v.minY, length: v.height, parentMin: parent.minY, parentLength: parent.height,
            old: (frame.minY, frame.height, parentSize.height - frame.maxY),
            flexible: (mask.contains(.flexibleTopMargin), mask.contains(.flexibleHeight), mask.contains(.flexibleBottomMargin)),
            name: "\(name) y")
        return x + y
    }

    private func axisConstraints(
        min: Variable, length: Variable, parentMin: Variable, parentLength: Variable,
        old: (Double, Double, Double), flexible: (Bool, Bool, Bool), name: String
    ) -> [SupportConstraint] {
        // The three parts as expressions: the leading margin, the length, the trailing margin.
        let parts: [[Term]] = [
            [Term(min), Term(parentMin, -1)],
            [Term(length)],
            [Term(parentLength), Term(min, -1), Term(parentMin), Term(length, -1)],
        ]
        let olds = [old.0, old.1, old.2]
        var isFlexible = [flexible.0, flexible.1, flexible.2]
        if !isFlexible.contains(true) { isFlexible = [false, false, true] }
        var made: [SupportConstraint] = []
        for index in 0..<3 where !isFlexible[index] {
            made.append(SupportConstraint(equal: parts[index], olds[index], name: name))
        }
        // Consecutive flexible parts keep their ratio: part_i * old_j == part_j * old_i (equal when both
        // were empty, as the mask shares a change equally then).
        let flexibleIndices = (0..<3).filter { isFlexible[$0] }
        for (i, j) in zip(flexibleIndices, flexibleIndices.dropFirst()) {
            var a = max(olds[j], 0), b = max(olds[i], 0)
            if a == 0, b == 0 { (a, b) = (1, 1) }
            let terms = parts[i].map { Term($0.variable, $0.coefficient * a) } + parts[j].map { Term($0.variable, -$0.coefficient * b) }
            made.append(SupportConstraint(equal: terms, 0, name: name))
        }
        return made
    }

    /// A constrained view's intrinsic size: not larger than it at the hugging priority, not smaller at the
    /// compression resistance, on each axis where it has one.
    private func intrinsicSizeConstraints(_ view: View, _ v: LayoutItemVariables) -> [SupportConstraint] {
        let size = view.intrinsicContentSize
        let state = view.layoutState
        var made: [SupportConstraint] = []
        let name = view.layoutName
        for (length, variable, hugging, resistance, axis) in [
            (size.width, v.width, state.hugging.horizontal, state.compressionResistance.horizontal, "width"),
            (size.height, v.height, state.hugging.vertical, state.compressionResistance.vertical, "height"),
        ] where length != View.noIntrinsicMetric && length.isFinite {
            made.append(
                SupportConstraint(
                    terms: [Term(variable)], constant: -length, relation: .lessThanOrEqual,
                    strength: Strength(priority: hugging.rawValue), name: "\(name).\(axis) <= \(length) (hugging @\(hugging))"))
            made.append(
                SupportConstraint(
                    terms: [Term(variable)], constant: -length, relation: .greaterThanOrEqual,
                    strength: Strength(priority: resistance.rawValue),
                    name: "\(name).\(axis) >= \(length) (compression resistance @\(resistance))"))
        }
        return made
    }

    /// A system guide sits at its view's insets; an app's own guide has none of its own.
    private func guideSupport(_ guide: LayoutGuide, _ v: LayoutItemVariables) -> [SupportConstraint] {
        guard let owner = guide.owningView, let parent = v.parent else { return [] }
        guard let insets = owner.insets(for: guide.role) else { return [] }
        v.guideInsets = insets
        let name = guide.layoutName
        return [
            SupportConstraint(equal: [Term(v.minX), Term(parent.minX, -1)], insets.left, name: "\(name).left"),
            SupportConstraint(equal: [Term(v.minY), Term(parent.minY, -1)], insets.top, name: "\(name).top"),
            SupportConstraint(equal: [Term(v.width), Term(parent.width, -1)], -insets.left - insets.right, name: "\(name).width"),
            SupportConstraint(equal: [Term(v.height), Term(parent.height, -1)], -insets.top - insets.bottom, name: "\(name).height"),
        ]
    }
}

extension SupportConstraint {
    /// `terms == value`, required.
    init(equal terms: [Term], _ value: Double, name: String) {
        self.init(terms: terms, constant: -value, relation: .equal, strength: .required, name: name)
    }

    init(terms: [Term], constant: Double, relation: ConstraintSolver.Relation, strength: Strength, name: String) {
        self.terms = terms
        self.constant = constant
        self.relation = relation
        self.strength = strength
        self.name = name
        added = nil
    }
}

extension View {
    /// Where a system guide of the view sits; nil for an app's guide, which has no insets of its own.
    func insets(for role: LayoutGuide.Role) -> EdgeInsets? {
        switch role {
        case .app: nil
        case .layoutMargins: layoutMarginsForGuide
        case .safeArea: safeAreaInsets
        case .keyboard: keyboardGuideInsets
        }
    }
}
