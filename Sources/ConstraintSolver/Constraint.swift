import Glibc

/// How a constraint's expression relates to zero.
public enum Relation: Sendable {
    case lessThanOrEqual
    case equal
    case greaterThanOrEqual
}

/// How much the solver cares about a constraint: `required` ones hold or are refused; optional ones are
/// errors in one weighted objective the solver minimises (as kiwi's strengths).
public struct Strength: Sendable, Hashable, Comparable {
    /// The weight of the constraint's error in the objective; `required` is not in the objective at all.
    public let weight: Double

    public static let required = Strength(weight: .infinity)

    public init(weight: Double) {
        self.weight = weight
    }

    /// UIKit's layout priority (1-1000; 1000 is required) as a weight. UIKit satisfies a higher priority
    /// before a lower one; one weighted objective can only approximate that, so the weight grows tenfold
    /// every 111 points (1 at priority 0, 10^9 at 999: kiwi's range, which its tolerances are made for).
    /// The standard levels (250 low, 500, 750 high, 999) are then 10^2.25 apart or more: a 250 constraint
    /// would be broken by over 170 points before a 750 one by one point.
    public init(priority: Float) {
        if priority >= 1000 {
            self = .required
        } else {
            let clamped = Double(max(0, priority))
            self.init(weight: Strength.weight(ofPriority: clamped))
        }
    }

    static func weight(ofPriority priority: Double) -> Double { pow(10, priority / 111) }

    public var isRequired: Bool { weight == .infinity }

    public static func < (lhs: Strength, rhs: Strength) -> Bool { lhs.weight < rhs.weight }
}

/// `expression relation 0`, at a strength. Its identity is the object's: the same constraint is added and
/// removed, and two equal-looking ones are two constraints.
public final class Constraint {
    /// Its constant changes through `Solver.setConstant(of:to:)` while it is added; the rest is fixed.
    public internal(set) var expression: Expression
    public let relation: Relation
    public let strength: Strength
    /// For logs: what the constraint came from (a layout constraint's identifier and items).
    public let name: String

    public init(_ expression: Expression, _ relation: Relation, strength: Strength = .required, name: String = "") {
        self.expression = expression
        self.relation = relation
        self.strength = strength
        self.name = name
    }

    /// `lhs relation rhs` as `lhs - rhs relation 0`.
    public convenience init(
        _ lhs: Expression, _ relation: Relation, _ rhs: Expression, strength: Strength = .required, name: String = ""
    ) {
        self.init(lhs - rhs, relation, strength: strength, name: name)
    }
}

extension Constraint: Hashable {
    public static func == (lhs: Constraint, rhs: Constraint) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension Constraint: CustomStringConvertible {
    public var description: String {
        if !name.isEmpty { return name }
        let terms = expression.terms.map { "\($0.coefficient) * \($0.variable)" }.joined(separator: " + ")
        let relation =
            switch relation {
            case .lessThanOrEqual: "<="
            case .equal: "=="
            case .greaterThanOrEqual: ">="
            }
        return "\(terms) + \(expression.constant) \(relation) 0"
    }
}

/// Why the solver refused a call. Each names the constraint or variable by its description (errors are
/// sendable, the solver's objects are not).
public enum SolverError: Error, Equatable, CustomStringConvertible {
    /// The required constraint cannot hold together with the required ones already added.
    case unsatisfiable(String)
    case duplicateConstraint(String)
    case unknownConstraint(String)
    /// A coefficient or the constant is NaN or infinite.
    case notFinite(String)
    case duplicateEditVariable(String)
    case unknownEditVariable(String)
    /// An edit variable must be optional: a required one could not be moved by a suggestion.
    case requiredEditVariable(String)
    /// A suggested value that is NaN or infinite.
    case notFiniteSuggestion(String, Double)
    /// The simplex found the objective unbounded or no pivot: a bug of the solver's, never the input's.
    case internalError(String)

    public var description: String {
        switch self {
        case .unsatisfiable(let constraint): "unsatisfiable required constraint: \(constraint)"
        case .duplicateConstraint(let constraint): "constraint already added: \(constraint)"
        case .unknownConstraint(let constraint): "constraint not added: \(constraint)"
        case .notFinite(let constraint): "constraint with a NaN or infinite number: \(constraint)"
        case .duplicateEditVariable(let variable): "edit variable already added: \(variable)"
        case .unknownEditVariable(let variable): "not an edit variable: \(variable)"
        case .requiredEditVariable(let variable): "an edit variable cannot be required: \(variable)"
        case .notFiniteSuggestion(let variable, let value): "suggested \(value) for \(variable)"
        case .internalError(let what): "constraint solver: \(what)"
        }
    }

    public static func == (lhs: SolverError, rhs: SolverError) -> Bool { lhs.description == rhs.description }
}
