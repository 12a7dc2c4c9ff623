/// A quantity the solver chooses: a view's left edge, its width. Its identity is the object's; `value` is
/// what the last `Solver.updateVariables()` found (0 before).
public final class Variable {
    /// For logs and descriptions only.
    public let name: String
    /// Written through a pointer, not a stored property: `updateVariables` writes every variable's value,
    /// and each write to a class's stored property is a dynamic exclusivity check (about 80 instructions,
    /// twice the rest of the update, as callgrind counts it).
    private let storage: UnsafeMutablePointer<Double>

    public internal(set) var value: Double {
        get { storage.pointee }
        set { storage.pointee = newValue }
    }

    public init(_ name: String = "") {
        self.name = name
        storage = .allocate(capacity: 1)
        storage.initialize(to: 0)
    }

    deinit { storage.deallocate() }
}

extension Variable: Hashable {
    public static func == (lhs: Variable, rhs: Variable) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension Variable: CustomStringConvertible {
    public var description: String { name.isEmpty ? "v\(UInt(bitPattern: ObjectIdentifier(self).hashValue))" : name }
}

/// `coefficient * variable`.
public struct Term {
    public var variable: Variable
    public var coefficient: Double

    public init(_ variable: Variable, _ coefficient: Double = 1) {
        self.variable = variable
        self.coefficient = coefficient
    }
}

/// A linear expression: the sum of its terms and its constant. A variable may appear in several terms (the
/// solver adds their coefficients).
public struct Expression {
    public var terms: [Term]
    public var constant: Double

    public init(_ terms: [Term] = [], constant: Double = 0) {
        self.terms = terms
        self.constant = constant
    }

    public init(_ variable: Variable) {
        self.init([Term(variable)])
    }

    /// Whether every coefficient and the constant are finite numbers (NaN or an infinity would poison
    /// every row the expression is substituted into).
    var isFinite: Bool {
        constant.isFinite && terms.allSatisfy { $0.coefficient.isFinite }
    }
}

// The operators build expressions as kiwi's and Cassowary's do: `left + width == right`, `2 * x <= y + 10`.

public func * (variable: Variable, coefficient: Double) -> Term { Term(variable, coefficient) }
public func * (coefficient: Double, variable: Variable) -> Term { Term(variable, coefficient) }
public func * (expression: Expression, factor: Double) -> Expression {
    Expression(
        expression.terms.map { Term($0.variable, $0.coefficient * factor) }, constant: expression.constant * factor)
}
public func * (factor: Double, expression: Expression) -> Expression { expression * factor }
public prefix func - (variable: Variable) -> Term { Term(variable, -1) }
public prefix func - (expression: Expression) -> Expression { expression * -1 }

public func + (lhs: Expression, rhs: Expression) -> Expression {
    Expression(lhs.terms + rhs.terms, constant: lhs.constant + rhs.constant)
}
public func + (lhs: Expression, rhs: Double) -> Expression { Expression(lhs.terms, constant: lhs.constant + rhs) }
public func + (lhs: Expression, rhs: Variable) -> Expression { lhs + Expression(rhs) }
public func + (lhs: Expression, rhs: Term) -> Expression { lhs + Expression([rhs]) }
public func + (lhs: Variable, rhs: Variable) -> Expression { Expression(lhs) + Expression(rhs) }
public func + (lhs: Variable, rhs: Double) -> Expression { Expression(lhs) + rhs }
public func + (lhs: Variable, rhs: Term) -> Expression { Expression(lhs) + rhs }
public func + (lhs: Term, rhs: Variable) -> Expression { Expression([lhs]) + rhs }
public func + (lhs: Term, rhs: Term) -> Expression { Expression([lhs, rhs]) }
public func + (lhs: Term, rhs: Double) -> Expression { Expression([lhs], constant: rhs) }
public func - (lhs: Expression, rhs: Expression) -> Expression { lhs + -rhs }
public func - (lhs: Expression, rhs: Double) -> Expression { lhs + -rhs }
public func - (lhs: Expression, rhs: Variable) -> Expression { lhs + -rhs }
public func - (lhs: Variable, rhs: Variable) -> Expression { Expression(lhs) + -rhs }
public func - (lhs: Variable, rhs: Double) -> Expression { Expression(lhs) + -rhs }
public func - (lhs: Term, rhs: Variable) -> Expression { Expression([lhs]) + -rhs }
public func - (lhs: Variable, rhs: Term) -> Expression { Expression(lhs) + Term(rhs.variable, -rhs.coefficient) }
