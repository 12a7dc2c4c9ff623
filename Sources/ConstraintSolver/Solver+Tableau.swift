// The tableau's bookkeeping: symbols, a constraint's row, substitution, and undoing a refused addition.

extension Solver {
    func newSymbol(_ kind: Symbol.Kind) -> Symbol {
        if let id = freeIDs.popLast() {
            kinds[id] = kind
            return Symbol(id: id, kind: kind)
        }
        kinds.append(kind)
        tableau.append(nil)
        variables.append(nil)
        return Symbol(id: kinds.count - 1, kind: kind)
    }

    func freeID(_ symbol: Symbol) {
        tableau[symbol.id] = nil
        variables[symbol.id] = nil
        freeIDs.append(symbol.id)
    }

    /// Whether no row and not the objective mention `symbol`, and it has no row of its own.
    func isUnused(_ symbol: Symbol) -> Bool {
        guard tableau[symbol.id] == nil, objective.coefficient(for: symbol) == 0 else { return false }
        return !tableau.contains { $0.map { $0.coefficient(for: symbol) != 0 } ?? false }
    }

    func symbol(for variable: Variable) -> Symbol {
        if let external = externals[variable] { return external.symbol }
        let symbol = newSymbol(.external)
        externals[variable] = (symbol, 0)
        variables[symbol.id] = variable
        return symbol
    }

    /// The row of `constraint`'s equation in terms of the parametric symbols (basic ones replaced by their
    /// rows), with the slack, error or dummy symbols it adds, and the objective given its errors.
    func row(for constraint: Constraint) -> (Row, Tag) {
        let expression = constraint.expression
        var row = Row(constant: expression.constant)
        for term in expression.terms where !isNearZero(term.coefficient) {
            let symbol = symbol(for: term.variable)
            if let basic = tableau[symbol.id] {
                row.insert(basic, term.coefficient)
            } else {
                row.insert(symbol, term.coefficient)
            }
        }
        let strength = constraint.strength
        var tag: Tag
        switch constraint.relation {
        case .lessThanOrEqual, .greaterThanOrEqual:
            // expression + slack = 0 with slack >= 0 says expression <= 0; minus the slack, >= 0.
            let sign: Double = constraint.relation == .lessThanOrEqual ? 1 : -1
            let slack = newSymbol(.slack)
            tag = Tag(marker: slack, markerCoefficient: sign)
            row.insert(slack, sign)
            if !strength.isRequired {
                let error = newSymbol(.error)
                tag.other = error
                tag.otherCoefficient = -sign
                row.insert(error, -sign)
                objective.insert(error, strength.weight)
            }
        case .equal:
            if strength.isRequired {
                let dummy = newSymbol(.dummy)
                tag = Tag(marker: dummy, markerCoefficient: 1)
                row.insert(dummy)
            } else {
                let plus = newSymbol(.error)
                let minus = newSymbol(.error)
                tag = Tag(marker: plus, markerCoefficient: -1, other: minus, otherCoefficient: 1)
                row.insert(plus, -1)
                row.insert(minus, 1)
                objective.insert(plus, strength.weight)
                objective.insert(minus, strength.weight)
            }
        }
        if row.constant < 0 { row.reverseSign() }
        return (row, tag)
    }

    /// The symbol a new row is solved for: an external variable if it has one, else its slack or error
    /// symbol when that can enter with a negative coefficient (so the row stays feasible); else none, and
    /// the row needs phase one.
    func chooseSubject(_ row: Row, _ tag: Tag) -> Symbol? {
        for cell in row.cells where cell.symbol.kind == .external { return cell.symbol }
        if tag.marker.isPivotable, row.coefficient(for: tag.marker) < 0 { return tag.marker }
        if let other = tag.other, other.isPivotable, row.coefficient(for: other) < 0 { return other }
        return nil
    }

    /// Forgets the symbols of a constraint that was refused, and the variables only it named.
    func release(_ tag: Tag) {
        if let other = tag.other {
            objective.remove(other)
            objective.remove(tag.marker)
            freeID(other)
        }
        freeID(tag.marker)
        for (variable, external) in externals where external.uses == 0 {
            externals[variable] = nil
            freeID(external.symbol)
        }
    }

    func retainVariables(of constraint: Constraint) {
        for term in constraint.expression.terms where !isNearZero(term.coefficient) {
            externals[term.variable]?.uses += 1
        }
    }

    func releaseVariables(of constraint: Constraint) {
        for term in constraint.expression.terms where !isNearZero(term.coefficient) {
            guard var external = externals[term.variable] else { continue }
            external.uses -= 1
            guard external.uses == 0 else {
                externals[term.variable] = external
                continue
            }
            // No constraint names it: its row (if basic) defines it alone, and no other row has it.
            externals[term.variable] = nil
            if tableau[external.symbol.id] == nil {
                for id in tableau.indices where tableau[id] != nil { tableau[id]!.remove(external.symbol) }
            }
            freeID(external.symbol)
        }
    }

    /// Sets (or with nil removes) the row of basic `symbol`, recording the old one while undoing is on.
    func setRow(_ row: Row?, of symbol: Symbol) {
        undoLog?.append((symbol.id, tableau[symbol.id]))
        tableau[symbol.id] = row
    }

    /// Replaces `symbol` by `row` in every row, the objective and phase one's objective; rows of
    /// restricted symbols that become negative are infeasible, for the dual simplex.
    func substitute(_ symbol: Symbol, with row: Row) {
        // The undo log and the infeasible rows are taken into locals for the loop: appending to a class's
        // stored property in it would be a dynamic exclusivity check for every row changed.
        var log = undoLog
        undoLog = nil
        var infeasible: [Symbol] = []
        tableau.withUnsafeMutableBufferPointer { rows in
            kinds.withUnsafeBufferPointer { kinds in
                for id in rows.indices {
                    guard let coefficient = rows[id]?.coefficient(for: symbol), coefficient != 0 else { continue }
                    log?.append((id, rows[id]))
                    rows[id]!.substitute(symbol, with: row)
                    if kinds[id] != .external, rows[id]!.constant < 0 {
                        infeasible.append(Symbol(id: id, kind: kinds[id]))
                    }
                }
            }
        }
        undoLog = log
        infeasibleRows += infeasible
        objective.substitute(symbol, with: row)
        artificial?.substitute(symbol, with: row)
    }

    /// Puts the rows back as they were when the undo log began, and the objective.
    func restore(objective before: Row) {
        guard let log = undoLog else { return }
        for entry in log.reversed() { tableau[entry.id] = entry.row }
        objective = before
        artificial = nil
        infeasibleRows.removeAll()
        undoLog = nil
    }
}
