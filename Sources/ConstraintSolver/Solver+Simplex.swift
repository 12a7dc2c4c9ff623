// The pivots: phase one for a row with no subject, the primal simplex on the objective, the dual simplex
// after a constant changed, and the choice of rows to leave.

extension Solver {
    /// Phase one: adds `row` through an artificial variable and minimises it. Whether it reached zero (the
    /// constraint can hold); if not, the caller puts the tableau back from the undo log.
    func addWithArtificialVariable(_ row: Row) throws(SolverError) -> Bool {
        let art = newSymbol(.slack)
        defer { freeIDIfUnused(art) }
        setRow(row, of: art)
        artificial = row
        try optimize(phaseOne: true)
        let satisfied = isNearZero(artificial?.constant ?? 0)
        artificial = nil
        if var basic = tableau[art.id] {
            setRow(nil, of: art)
            if basic.isEmpty { return satisfied }
            guard satisfied, let entering = basic.cells.first(where: { $0.symbol.isPivotable })?.symbol else { return false }
            basic.solve(for: art, entering)
            substitute(entering, with: basic)
            setRow(basic, of: entering)
        }
        guard satisfied else { return false }
        for id in tableau.indices where tableau[id]?.coefficient(for: art) ?? 0 != 0 {
            undoLog?.append((id, tableau[id]))
            tableau[id]!.remove(art)
        }
        objective.remove(art)
        return true
    }

    private func freeIDIfUnused(_ symbol: Symbol) {
        if tableau[symbol.id] == nil { freeIDs.append(symbol.id) }
    }

    /// The primal simplex: pivots while the objective (or phase one's) can still decrease.
    func optimize(phaseOne: Bool = false) throws(SolverError) {
        while true {
            guard let entering = phaseOne ? enteringSymbol(artificial!) : enteringSymbol(objective) else { return }
            guard let leaving = leavingRow(entering), var row = tableau[leaving.id] else {
                // Nothing bounds it. The objective, a sum of weighted errors that are never negative, is
                // bounded in exact arithmetic: a coefficient this small is what rounding left of a cancelled
                // term (weights reach 10^9, so a residue of 10^-8 and more is rounding), and it goes.
                let coefficient = phaseOne ? artificial!.coefficient(for: entering) : objective.coefficient(for: entering)
                guard abs(coefficient) <= Self.roundingResidue else { throw .internalError("the objective is unbounded") }
                if phaseOne { artificial!.remove(entering) } else { objective.remove(entering) }
                continue
            }
            setRow(nil, of: leaving)
            row.solve(for: leaving, entering)
            substitute(entering, with: row)
            setRow(row, of: entering)
        }
    }

    /// The largest objective coefficient that may be rounding's: 10^9 (the heaviest weight) times a few
    /// units in the last place of a double, with room.
    static let roundingResidue = 1.0e-5

    /// The first parametric symbol (not a dummy) whose coefficient in the objective is negative.
    private func enteringSymbol(_ goal: Row) -> Symbol? {
        goal.cells.first { $0.symbol.kind != .dummy && $0.coefficient < 0 }?.symbol
    }

    /// The restricted basic row that bounds `entering` first as it grows (the ratio test; ties go to the
    /// lowest symbol, so a run never depends on anything but the input).
    private func leavingRow(_ entering: Symbol) -> Symbol? {
        var ratio = Double.greatestFiniteMagnitude
        var found: Int?
        tableau.withUnsafeBufferPointer { rows in
            kinds.withUnsafeBufferPointer { kinds in
                for id in rows.indices where kinds[id] != .external {
                    guard let coefficient = rows[id]?.coefficient(for: entering), coefficient < 0 else { continue }
                    let candidate = -rows[id]!.constant / coefficient
                    if candidate < ratio {
                        ratio = candidate
                        found = id
                    }
                }
            }
        }
        return found.map { Symbol(id: $0, kind: kinds[$0]) }
    }

    /// The dual simplex: pivots the infeasible rows (a restricted symbol below zero) back to feasibility,
    /// keeping the objective optimal. False if a row cannot be: the required constraints cannot all hold.
    func dualOptimize() throws(SolverError) -> Bool {
        while let leaving = infeasibleRows.popLast() {
            guard var row = tableau[leaving.id], kinds[leaving.id] == leaving.kind, row.constant < 0 else {
                continue
            }
            guard let entering = dualEnteringSymbol(row) else {
                infeasibleRows.removeAll()
                return false
            }
            setRow(nil, of: leaving)
            row.solve(for: leaving, entering)
            substitute(entering, with: row)
            setRow(row, of: entering)
        }
        return true
    }

    private func dualEnteringSymbol(_ row: Row) -> Symbol? {
        var ratio = Double.greatestFiniteMagnitude
        var entering: Symbol?
        for cell in row.cells where cell.coefficient > 0 && cell.symbol.kind != .dummy {
            let symbol = cell.symbol
            let candidate = objective.coefficient(for: symbol) / cell.coefficient
            if candidate < ratio {
                ratio = candidate
                entering = symbol
            }
        }
        return entering
    }

    /// The row to pivot `marker` into before its constraint's row is dropped: the restricted row that
    /// bounds it first, else one that it bounds, else an unrestricted one (kiwi's order).
    func markerLeavingRow(_ marker: Symbol) -> Symbol? {
        var firstRatio = Double.greatestFiniteMagnitude
        var secondRatio = Double.greatestFiniteMagnitude
        var first: Int?
        var second: Int?
        var third: Int?
        for id in tableau.indices {
            guard let coefficient = tableau[id]?.coefficient(for: marker), coefficient != 0 else { continue }
            let constant = tableau[id]!.constant
            if kinds[id] == .external {
                third = id
            } else if coefficient < 0 {
                let ratio = -constant / coefficient
                if ratio < firstRatio {
                    firstRatio = ratio
                    first = id
                }
            } else {
                let ratio = constant / coefficient
                if ratio < secondRatio {
                    secondRatio = ratio
                    second = id
                }
            }
        }
        return (first ?? second ?? third).map { Symbol(id: $0, kind: kinds[$0]) }
    }

    /// Takes an optional constraint's error out of the objective.
    func removeEffects(of error: Symbol, weight: Double) {
        guard error.kind == .error else { return }
        if let row = tableau[error.id] {
            objective.insert(row, -weight)
        } else {
            objective.insert(error, -weight)
        }
    }

    /// Moves a constraint's constant by `delta` in the tableau (see `setConstant`) and re-solves with the
    /// dual simplex. False if a required constraint no longer holds.
    func shift(_ tag: Tag, by delta: Double, checkingEveryRow: Bool = false) throws(SolverError) -> Bool {
        // The constraint's equation `expression + c + m * marker + o * other = 0` with c + delta holds for
        // marker' = marker - delta / m: the rows in terms of marker move by their coefficient times delta / m.
        var feasible = true
        let marker = tag.marker
        if tableau[marker.id] != nil {
            tableau[marker.id]!.constant -= delta / tag.markerCoefficient
            let constant = tableau[marker.id]!.constant
            if marker.kind == .dummy {
                feasible = isNearZero(constant)
            } else if constant < 0 {
                infeasibleRows.append(marker)
            }
        } else if let other = tag.other, tableau[other.id] != nil {
            tableau[other.id]!.constant -= delta / tag.otherCoefficient
            if tableau[other.id]!.constant < 0 { infeasibleRows.append(other) }
        } else {
            let step = delta / tag.markerCoefficient
            var infeasible: [Symbol] = []
            tableau.withUnsafeMutableBufferPointer { rows in
                kinds.withUnsafeBufferPointer { kinds in
                    for id in rows.indices {
                        guard let coefficient = rows[id]?.coefficient(for: marker), coefficient != 0 else { continue }
                        rows[id]!.constant += coefficient * step
                        let constant = rows[id]!.constant
                        switch kinds[id] {
                        case .external: break
                        case .dummy: if !isNearZero(constant) { feasible = false }
                        case .slack, .error: if constant < 0 { infeasible.append(Symbol(id: id, kind: kinds[id])) }
                        }
                    }
                }
            }
            infeasibleRows += infeasible
        }
        if checkingEveryRow {
            for id in tableau.indices where kinds[id] == .slack || kinds[id] == .error {
                if let row = tableau[id], row.constant < 0 { infeasibleRows.append(Symbol(id: id, kind: kinds[id])) }
            }
        }
        guard feasible else { return false }
        return try dualOptimize()
    }
}
