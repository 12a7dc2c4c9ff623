/// A symbol of the tableau: an external variable, or one the solver makes for a constraint (a slack for an
/// inequality, errors for an optional constraint, a dummy marking a required equality).
struct Symbol: Hashable, Comparable {
    enum Kind: Int {
        case external, slack, error, dummy
    }

    /// The id and the kind in one word (a row's cells are then 16 bytes). Ids increase in the order the
    /// solver made them: rows keep their cells in this order, so that a pivot never depends on a hash seed
    /// (the Swift runtime's differs between runs, and layouts must not).
    private let raw: Int

    init(id: Int, kind: Kind) {
        raw = id << 2 | kind.rawValue
    }

    var id: Int { raw >> 2 }
    var kind: Kind { Kind(rawValue: raw & 3)! }

    var isPivotable: Bool { kind == .slack || kind == .error }
    var isRestricted: Bool { kind != .external }

    static func < (lhs: Symbol, rhs: Symbol) -> Bool { lhs.raw < rhs.raw }
}

/// Values this close to zero are zero: what pivots leave of cancelled terms (kiwi's tolerance).
let epsilon = 1.0e-8

@inline(__always) func isNearZero(_ value: Double) -> Bool { abs(value) < epsilon }

/// Whether `sum`, of two terms `a` and `b`, is what is left of their cancelling: near zero, or so small
/// beside them that it is their rounding (a few units in the last place of theirs). The objective's
/// coefficients are weights up to 10^9, whose cancellation leaves residues above `epsilon` (3e-8 was seen
/// from two of 5.7e6), which kiwi's absolute tolerance alone kept: such a residue on a free variable made
/// the objective "unbounded" in it, and a removal failed.
@inline(__always) func cancels(_ sum: Double, _ a: Double, _ b: Double) -> Bool {
    let size = abs(sum)
    return size < epsilon || size <= 1.0e-12 * max(abs(a), abs(b))
}

/// One term of a row.
struct Cell {
    var symbol: Symbol
    var coefficient: Double
}

/// `constant + Σ coefficient * symbol`, a row of the tableau, its cells sorted by symbol id. A sorted array,
/// as kiwi's AssocVector: rows have few cells, and adding one row to another is a merge.
struct Row {
    private(set) var cells: [Cell] = []
    var constant: Double

    init(constant: Double = 0) {
        self.constant = constant
    }

    var isEmpty: Bool { cells.isEmpty }

    private func index(of symbol: Symbol) -> (found: Bool, index: Int) {
        cells.withUnsafeBufferPointer { cells in
            var low = 0
            var high = cells.count
            while low < high {
                let middle = (low &+ high) >> 1
                let id = cells[middle].symbol.id
                if id == symbol.id { return (true, middle) }
                if id < symbol.id { low = middle &+ 1 } else { high = middle }
            }
            return (false, low)
        }
    }

    func coefficient(for symbol: Symbol) -> Double {
        let (found, index) = index(of: symbol)
        return found ? cells[index].coefficient : 0
    }

    /// Adds `coefficient * symbol`; a cell that cancels to zero is removed.
    mutating func insert(_ symbol: Symbol, _ coefficient: Double = 1) {
        let (found, index) = index(of: symbol)
        if found {
            let sum = cells[index].coefficient + coefficient
            if cancels(sum, cells[index].coefficient, coefficient) {
                cells.remove(at: index)
            } else {
                cells[index].coefficient = sum
            }
        } else if !isNearZero(coefficient) {
            cells.insert(Cell(symbol: symbol, coefficient: coefficient), at: index)
        }
    }

    /// Adds `coefficient * row`, merging the two sorted cell lists.
    mutating func insert(_ row: Row, _ coefficient: Double = 1) {
        constant += row.constant * coefficient
        if row.cells.count == 1 {
            insert(row.cells[0].symbol, row.cells[0].coefficient * coefficient)
            return
        }
        var merged: [Cell] = []
        merged.reserveCapacity(cells.count + row.cells.count)
        cells.withUnsafeBufferPointer { mine in
            row.cells.withUnsafeBufferPointer { theirs in
                var i = 0
                var j = 0
                while i < mine.count || j < theirs.count {
                    if j == theirs.count || (i < mine.count && mine[i].symbol.id < theirs[j].symbol.id) {
                        merged.append(mine[i])
                        i += 1
                    } else if i == mine.count || theirs[j].symbol.id < mine[i].symbol.id {
                        let value = theirs[j].coefficient * coefficient
                        if !isNearZero(value) { merged.append(Cell(symbol: theirs[j].symbol, coefficient: value)) }
                        j += 1
                    } else {
                        let added = theirs[j].coefficient * coefficient
                        let value = mine[i].coefficient + added
                        if !cancels(value, mine[i].coefficient, added) { merged.append(Cell(symbol: mine[i].symbol, coefficient: value)) }
                        i += 1
                        j += 1
                    }
                }
            }
        }
        cells = merged
    }

    mutating func remove(_ symbol: Symbol) {
        let (found, index) = index(of: symbol)
        if found { cells.remove(at: index) }
    }

    mutating func reverseSign() {
        constant = -constant
        for index in cells.indices { cells[index].coefficient = -cells[index].coefficient }
    }

    /// Solves `0 = row` for `symbol` (which must be in the row): the row becomes `symbol = …`, without it.
    mutating func solve(for symbol: Symbol) {
        let (_, index) = index(of: symbol)
        let factor = -1 / cells[index].coefficient
        cells.remove(at: index)
        constant *= factor
        for cell in cells.indices { cells[cell].coefficient *= factor }
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
        let coefficient = cells[index].coefficient
        cells.remove(at: index)
        insert(row, coefficient)
        return true
    }
}
