/// A symbol of the tableau: an external variable, or one the solver makes for a constraint (a slack for an
/// inequality, errors for an optional constraint, a dummy marking a required equality).
struct Symbol: Hashable, Comparable {
    enum Kind: UInt8 {
        case external, slack, error, dummy
    }

    /// Increasing in the order the solver made them: rows keep their cells in this order, so that a pivot
    /// never depends on a hash seed (the Swift runtime's differs between runs, and layouts must not).
    let id: Int
    let kind: Kind

    var isPivotable: Bool { kind == .slack || kind == .error }
    var isRestricted: Bool { kind != .external }

    static func < (lhs: Symbol, rhs: Symbol) -> Bool { lhs.id < rhs.id }
}

/// Values this close to zero are zero: what pivots leave of cancelled terms (kiwi's tolerance).
let epsilon = 1.0e-8

@inline(__always) func isNearZero(_ value: Double) -> Bool { abs(value) < epsilon }

/// `constant + Σ coefficient * symbol`, a row of the tableau, its cells sorted by symbol. Sorted arrays, as
/// kiwi's AssocVector: rows have few cells, and adding one row to another is a merge.
struct Row {
    private(set) var symbols: [Symbol] = []
    private(set) var coefficients: [Double] = []
    var constant: Double

    init(constant: Double = 0) {
        self.constant = constant
    }

    var isEmpty: Bool { symbols.isEmpty }

    private func index(of symbol: Symbol) -> (found: Bool, index: Int) {
        var low = 0
        var high = symbols.count
        while low < high {
            let middle = (low + high) / 2
            let id = symbols[middle].id
            if id == symbol.id { return (true, middle) }
            if id < symbol.id { low = middle + 1 } else { high = middle }
        }
        return (false, low)
    }

    func coefficient(for symbol: Symbol) -> Double {
        let (found, index) = index(of: symbol)
        return found ? coefficients[index] : 0
    }

    /// Adds `coefficient * symbol`; a cell that cancels to zero is removed.
    mutating func insert(_ symbol: Symbol, _ coefficient: Double = 1) {
        let (found, index) = index(of: symbol)
        if found {
            let sum = coefficients[index] + coefficient
            if isNearZero(sum) {
                symbols.remove(at: index)
                coefficients.remove(at: index)
            } else {
                coefficients[index] = sum
            }
        } else if !isNearZero(coefficient) {
            symbols.insert(symbol, at: index)
            coefficients.insert(coefficient, at: index)
        }
    }

    /// Adds `coefficient * row`, merging the two sorted cell lists.
    mutating func insert(_ row: Row, _ coefficient: Double = 1) {
        constant += row.constant * coefficient
        if row.symbols.count == 1 {
            insert(row.symbols[0], row.coefficients[0] * coefficient)
            return
        }
        var mergedSymbols: [Symbol] = []
        var mergedCoefficients: [Double] = []
        mergedSymbols.reserveCapacity(symbols.count + row.symbols.count)
        mergedCoefficients.reserveCapacity(symbols.count + row.symbols.count)
        var mine = 0
        var theirs = 0
        while mine < symbols.count || theirs < row.symbols.count {
            if theirs == row.symbols.count || (mine < symbols.count && symbols[mine].id < row.symbols[theirs].id) {
                mergedSymbols.append(symbols[mine])
                mergedCoefficients.append(coefficients[mine])
                mine += 1
            } else if mine == symbols.count || row.symbols[theirs].id < symbols[mine].id {
                let value = row.coefficients[theirs] * coefficient
                if !isNearZero(value) {
                    mergedSymbols.append(row.symbols[theirs])
                    mergedCoefficients.append(value)
                }
                theirs += 1
            } else {
                let value = coefficients[mine] + row.coefficients[theirs] * coefficient
                if !isNearZero(value) {
                    mergedSymbols.append(symbols[mine])
                    mergedCoefficients.append(value)
                }
                mine += 1
                theirs += 1
            }
        }
        symbols = mergedSymbols
        coefficients = mergedCoefficients
    }

    mutating func remove(_ symbol: Symbol) {
        let (found, index) = index(of: symbol)
        if found {
            symbols.remove(at: index)
            coefficients.remove(at: index)
        }
    }

    mutating func reverseSign() {
        constant = -constant
        for index in coefficients.indices { coefficients[index] = -coefficients[index] }
    }

    /// Solves `0 = row` for `symbol` (which must be in the row): the row becomes `symbol = …`, without it.
    mutating func solve(for symbol: Symbol) {
        let (_, index) = index(of: symbol)
        let factor = -1 / coefficients[index]
        symbols.remove(at: index)
        coefficients.remove(at: index)
        constant *= factor
        for cell in coefficients.indices { coefficients[cell] *= factor }
    }

    /// Solves `lhs = row` for `rhs`: the row of `lhs` becomes the row of `rhs`.
    mutating func solve(for lhs: Symbol, _ rhs: Symbol) {
        insert(lhs, -1)
        solve(for: rhs)
    }

    /// Replaces `symbol` by `row` wherever it appears. Whether it appeared.
    @discardableResult
    mutating func substitute(_ symbol: Symbol, with row: Row) -> Bool {
        let (found, index) = index(of: symbol)
        guard found else { return false }
        let coefficient = coefficients[index]
        symbols.remove(at: index)
        coefficients.remove(at: index)
        insert(row, coefficient)
        return true
    }

    /// The cells in the symbols' order.
    var cells: Zip2Sequence<[Symbol], [Double]> { zip(symbols, coefficients) }
}
