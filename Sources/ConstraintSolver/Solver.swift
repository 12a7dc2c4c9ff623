/// An incremental simplex solver of the Cassowary family (Badros, Borning and Stuckey, 2001), as UIKit's
/// layout engine and kiwi are: required constraints hold, optional ones are errors in one weighted
/// objective it minimises; adding or removing a constraint, changing a constant or suggesting an edit
/// variable's value re-solves from the current solution instead of from scratch.
///
/// Written here because no library fits: Debian has kiwi (C++, behind Python's and C++'s APIs only) and
/// no Swift solver; the algorithm follows kiwi's (its symbols, rows and pivots), and the tests check it
/// against hand-solved systems and a brute-force search, the benchmarks against kiwi itself.
///
/// Not thread-safe; KioskKit uses one per window on the main actor.
public final class Solver {
    /// The symbols a constraint added: its marker (a slack, the plus error, or a dummy) and, for an
    /// optional constraint, its other error; each with its coefficient in the constraint's own equation,
    /// which a changed constant shifts.
    struct Tag {
        var marker: Symbol
        var markerCoefficient: Double
        var other: Symbol?
        var otherCoefficient: Double = 0
    }

    struct Edit {
        let constraint: Constraint
        var value: Double
    }

    var tags: [Constraint: Tag] = [:]
    /// The row of each basic symbol, by symbol id; nil for a parametric (non-basic) or unused one.
    var tableau: [Row?] = []
    var kinds: [Symbol.Kind] = []
    /// Ids no row, tag or variable uses any more, made again first (so removing and adding constraints in
    /// a loop does not grow the tableau).
    var freeIDs: [Int] = []
    /// Each variable's symbol, and how many added constraints name it (at none, it leaves the solver).
    var externals: [Variable: (symbol: Symbol, uses: Int)] = [:]
    /// The variable of each external symbol, by symbol id, for `updateVariables` to walk in order.
    var variables: [Variable?] = []
    var edits: [Variable: Edit] = [:]
    var infeasibleRows: [Symbol] = []
    var objective = Row()
    /// The objective of phase one while a required constraint with no subject is added.
    var artificial: Row?
    /// While a constraint that may turn out unsatisfiable is added: the rows as they were before each
    /// change, put back in reverse order if it is.
    var undoLog: [(id: Int, row: Row?)]?

    public init() {}

    // MARK: Constraints

    public func contains(_ constraint: Constraint) -> Bool { tags[constraint] != nil }

    public var constraintCount: Int { tags.count }

    /// Adds `constraint` and re-solves. A required one that cannot hold with those added is refused
    /// (`unsatisfiable`) and the solver is as before.
    public func add(_ constraint: Constraint) throws(SolverError) {
        guard tags[constraint] == nil else { throw .duplicateConstraint("\(constraint)") }
        guard constraint.expression.isFinite else { throw .notFinite("\(constraint)") }
        let (made, tag) = row(for: constraint)
        var row = made
        var subject = chooseSubject(row, tag)
        if subject == nil, row.cells.allSatisfy({ $0.symbol.kind == .dummy }) {
            guard isNearZero(row.constant) else {
                release(tag)
                throw .unsatisfiable("\(constraint)")
            }
            subject = tag.marker
        }
        if let subject {
            row.solve(for: subject)
            substitute(subject, with: row)
            setRow(row, of: subject)
        } else {
            let objectiveBefore = objective
            undoLog = []
            defer { undoLog = nil }
            let added: Bool
            do { added = try addWithArtificialVariable(row) } catch {
                restore(objective: objectiveBefore)
                release(tag)
                throw error
            }
            guard added else {
                restore(objective: objectiveBefore)
                release(tag)
                throw .unsatisfiable("\(constraint)")
            }
        }
        tags[constraint] = tag
        retainVariables(of: constraint)
        try optimize()
    }

    /// Removes `constraint` and re-solves.
    public func remove(_ constraint: Constraint) throws(SolverError) {
        guard let tag = tags.removeValue(forKey: constraint) else { throw .unknownConstraint("\(constraint)") }
        if !constraint.strength.isRequired {
            removeEffects(of: tag.marker, weight: constraint.strength.weight)
            if let other = tag.other { removeEffects(of: other, weight: constraint.strength.weight) }
        }
        if tableau[tag.marker.id] != nil {
            setRow(nil, of: tag.marker)
        } else {
            guard let leaving = markerLeavingRow(tag.marker), var row = tableau[leaving.id] else {
                throw .internalError("no row to remove \(constraint) from")
            }
            setRow(nil, of: leaving)
            row.solve(for: leaving, tag.marker)
            substitute(tag.marker, with: row)
        }
        freeID(tag.marker)
        if let other = tag.other, isUnused(other) { freeID(other) }
        releaseVariables(of: constraint)
        try optimize()
    }

    /// Changes `constraint`'s constant (its expression's, `expression relation 0`) and re-solves from the
    /// current solution, the way an edit variable's suggestion does: the constraint stays in the tableau.
    /// A required one that would no longer hold is refused (`unsatisfiable`) and keeps its constant.
    public func setConstant(of constraint: Constraint, to constant: Double) throws(SolverError) {
        guard let tag = tags[constraint] else { throw .unknownConstraint("\(constraint)") }
        guard constant.isFinite else { throw .notFinite("\(constraint)") }
        let delta = constant - constraint.expression.constant
        guard delta != 0 else { return }
        if try shift(tag, by: delta) {
            constraint.expression.constant = constant
            return
        }
        // The required constraints cannot hold with the new constant: the old one gives back a solution
        // (the dual simplex may have left other rows infeasible on its way, so every row is looked at).
        guard try shift(tag, by: -delta, checkingEveryRow: true) else {
            throw .internalError("no solution after putting back the constant of \(constraint)")
        }
        throw .unsatisfiable("\(constraint)")
    }

    // MARK: Edit variables

    public func hasEditVariable(_ variable: Variable) -> Bool { edits[variable] != nil }

    /// Makes `variable` one whose value `suggestValue` asks for, at `strength` (optional).
    public func addEditVariable(_ variable: Variable, strength: Strength) throws(SolverError) {
        guard edits[variable] == nil else { throw .duplicateEditVariable("\(variable)") }
        guard !strength.isRequired else { throw .requiredEditVariable("\(variable)") }
        let constraint = Constraint(Expression(variable), .equal, strength: strength, name: "edit \(variable)")
        try add(constraint)
        edits[variable] = Edit(constraint: constraint, value: 0)
    }

    public func removeEditVariable(_ variable: Variable) throws(SolverError) {
        guard let edit = edits.removeValue(forKey: variable) else { throw .unknownEditVariable("\(variable)") }
        try remove(edit.constraint)
    }

    /// Asks for `value` for an edit variable; the solution moves there as far as the constraints stronger
    /// than the edit allow (the dual simplex from the current solution).
    public func suggestValue(_ value: Double, for variable: Variable) throws(SolverError) {
        guard var edit = edits[variable] else { throw .unknownEditVariable("\(variable)") }
        guard value.isFinite else { throw .notFiniteSuggestion("\(variable)", value) }
        // The edit's constraint is `variable - value == 0`: its constant is -value.
        try setConstant(of: edit.constraint, to: -value)
        edit.value = value
        edits[variable] = edit
    }

    // MARK: Values

    /// Writes the current solution into the variables' `value`.
    public func updateVariables() {
        tableau.withUnsafeBufferPointer { rows in
            variables.withUnsafeBufferPointer { variables in
                for id in variables.indices {
                    guard let variable = variables[id] else { continue }
                    variable.value = rows[id]?.constant ?? 0
                }
            }
        }
    }

    /// The current value of `variable` without writing every variable's.
    public func value(of variable: Variable) -> Double {
        guard let external = externals[variable] else { return 0 }
        return tableau[external.symbol.id]?.constant ?? 0
    }

    /// The objective's value: the weighted sum of the optional constraints' errors.
    public var totalError: Double { objective.constant }

    /// Forgets every constraint and variable.
    public func reset() {
        tags = [:]
        tableau = []
        kinds = []
        freeIDs = []
        externals = [:]
        variables = []
        edits = [:]
        infeasibleRows = []
        objective = Row()
        artificial = nil
    }
}
