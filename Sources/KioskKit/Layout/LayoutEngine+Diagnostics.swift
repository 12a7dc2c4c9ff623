import ConstraintSolver

/// What the engine tells about a layout that cannot be as asked: logged (kiosk.app) and posted on the
/// instrumentation seam, once per cause; and the debugging calls UIKit has for an ambiguous layout.
extension LayoutEngine {
    /// Logs `message` as an error and posts it.
    static func report(_ message: String) {
        Log.app.error("\(message)")
        Application.shared.instrumentation.post(.layoutProblem(message))
    }

    /// How many rounds of constraints and `layoutSubviews` one `layoutIfNeeded` runs before it gives up
    /// on a tree whose layout changes something every time.
    static let roundsPerPass = 8

    /// A tree kept changing its own layout: said once for the tree (its frames are as the last round left them).
    static func reportUnsettled(_ root: View) {
        guard !root.layoutState.unsettledWasReported else { return }
        root.layoutState.unsettledWasReported = true
        report(
            "the layout of \(root.layoutName) did not settle in \(roundsPerPass) rounds: updateConstraints or "
                + "layoutSubviews changes constraints or sizes on every pass")
    }

    /// UIKit's "Unable to simultaneously satisfy constraints": the broken one, with the required
    /// constraints on its items it could not hold with.
    func reportUnsatisfiable(_ constraint: LayoutConstraint) {
        let items = Set(constraint.sides.map { ObjectIdentifier($0.variables) })
        var others: [String] = []
        for variables in self.items.values where items.contains(ObjectIdentifier(variables)) {
            for reference in variables.item?.layoutReferences ?? [] where reference !== constraint {
                if case .added = reference.solverConstraint, reference.priority == .required { others.append("\(reference)") }
            }
            others += variables.support.filter { $0.added != nil && $0.strength.isRequired }.map(\.name)
        }
        let with = others.isEmpty ? "" : "; it conflicts with some of: " + Array(Set(others)).sorted().joined(separator: ", ")
        LayoutEngine.report("unable to satisfy constraints: breaking \(constraint)\(with)")
    }

    func reportRefusedSupport(_ support: SupportConstraint, _ error: SolverError) {
        LayoutEngine.report("unable to satisfy constraints: breaking \(support.name): \(error)")
    }

    // MARK: Ambiguity

    /// Whether any of the item's variables can move without changing how well the constraints are met:
    /// each is pulled by a weak edit (weaker than any priority) and let go again. Where it could move, the
    /// solver may keep another of the equally good solutions after the edit goes, so an ambiguous layout
    /// can be laid out differently at the next pass (it is ambiguous).
    func isAmbiguous(_ variables: LayoutItemVariables) -> Bool {
        variables.all.contains { variable in
            let start = solver.value(of: variable)
            guard (try? solver.addEditVariable(variable, strength: Self.ambiguityPull)) != nil else { return false }
            defer { try? solver.removeEditVariable(variable) }
            guard (try? solver.suggestValue(start + 10, for: variable)) != nil else { return false }
            let moved = abs(solver.value(of: variable) - start) > 0.5
            try? solver.suggestValue(start, for: variable)
            if moved { setNeedsUpdate() }
            return moved
        }
    }

    /// Moves what is ambiguous of the item to another valid place, held there by weak edits until the next
    /// pass that has a change of its own.
    func exerciseAmbiguity(of variables: LayoutItemVariables) {
        for variable in variables.all where !exercised.contains(where: { $0 === variable }) {
            let start = solver.value(of: variable)
            guard (try? solver.addEditVariable(variable, strength: Self.ambiguityPull)) != nil else { continue }
            try? solver.suggestValue(start + 40, for: variable)
            if abs(solver.value(of: variable) - start) > 0.5 {
                exercised.append(variable)
            } else {
                try? solver.removeEditVariable(variable)
            }
        }
        keepsExercise = true
        setNeedsUpdate()
    }

    /// The exercise's edits go at a pass with a change of its own.
    func endExercise() {
        guard !keepsExercise else {
            keepsExercise = false
            return
        }
        for variable in exercised { try? solver.removeEditVariable(variable) }
        exercised = []
    }

    /// Weaker than any priority (a priority of 1 weighs 10^(1/111) - 1, about 0.02).
    private static let ambiguityPull = Strength(weight: 1e-6)
}
