import CKiwiBaseline
import ConstraintSolver

/// A system of linear constraints as plain numbers, so that ConstraintSolver and kiwi solve the same one.
public struct LayoutSystem: Sendable {
    public struct Term: Sendable {
        public var variable: Int
        public var coefficient: Double
    }

    public struct Entry: Sendable {
        public var terms: [Term]
        public var constant: Double
        public var relation: Relation
        /// UIKit's priority; 1000 is required.
        public var priority: Float
    }

    public var variableCount: Int
    public var constraints: [Entry]
    /// A variable whose value `suggest` changes (a constant changed by the app), at priority 750.
    public var editVariable: Int
    public static let editPriority: Float = 750

    /// A screen of `views` views in rows of ten, as an app's constraints place them: each view's left edge
    /// after the previous one's right edge (8 points apart), its top under the view above it, its width and
    /// height its content's (optional, 750 and 500), the row's last view filling the row to the right margin
    /// of a 1280-point screen and as tall as the one before it. Four constraints a view: 200 views, 800
    /// (the first view's width is the edit variable instead of a constraint).
    public static func grid(views: Int = 200) -> LayoutSystem {
        var constraints: [Entry] = []
        constraints.reserveCapacity(views * 4)
        func left(_ view: Int) -> Int { 4 * view }
        func top(_ view: Int) -> Int { 4 * view + 1 }
        func width(_ view: Int) -> Int { 4 * view + 2 }
        func height(_ view: Int) -> Int { 4 * view + 3 }
        func add(_ terms: [(Int, Double)], _ constant: Double, _ relation: Relation = .equal, _ priority: Float = 1000) {
            constraints.append(
                Entry(
                    terms: terms.map { Term(variable: $0.0, coefficient: $0.1) }, constant: constant,
                    relation: relation, priority: priority))
        }
        for view in 0..<views {
            let column = view % 10
            if column == 0 {
                add([(left(view), 1)], -8)
            } else {
                add([(left(view), 1), (left(view - 1), -1), (width(view - 1), -1)], -8)
            }
            if view < 10 {
                add([(top(view), 1)], -8)
            } else {
                add([(top(view), 1), (top(view - 10), -1), (height(view - 10), -1)], -8)
            }
            if column == 9 {
                add([(left(view), 1), (width(view), 1)], -1272)
                add([(height(view), 1), (height(view - 1), -1)], 0)
            } else {
                if view != 0 { add([(width(view), 1)], -Double(60 + (view * 37) % 80), .equal, 750) }
                add([(height(view), 1)], -Double(30 + (view * 13) % 30), .equal, 500)
            }
        }
        return LayoutSystem(variableCount: views * 4, constraints: constraints, editVariable: width(0))
    }
}

/// A layout system as one solver holds it, so the benchmarks and the profiler run either the same way.
public protocol SolvedLayout: AnyObject {
    /// Adds the system's constraints and its edit variable, and solves.
    init(_ system: LayoutSystem)
    /// Suggests a value for the edit variable (the solver re-solves).
    func suggest(_ value: Double)
    /// Writes the solution into the variables.
    func update()
    func values() -> [Double]
}

/// The system in ConstraintSolver.
public final class ConstraintSolverLayout: SolvedLayout {
    public let solver = Solver()
    public let variables: [Variable]
    let edit: Variable

    public required init(_ system: LayoutSystem) {
        variables = (0..<system.variableCount).map { Variable("v\($0)") }
        edit = variables[system.editVariable]
        do {
            try solver.addEditVariable(edit, strength: Strength(priority: LayoutSystem.editPriority))
            for entry in system.constraints {
                let terms = entry.terms.map { ConstraintSolver.Term(variables[$0.variable], $0.coefficient) }
                try solver.add(
                    Constraint(
                        Expression(terms, constant: entry.constant), entry.relation,
                        strength: Strength(priority: entry.priority)))
            }
        } catch {
            fatalError("ConstraintSolver refused the layout system: \(error)")
        }
        solver.updateVariables()
    }

    public func suggest(_ value: Double) {
        do { try solver.suggestValue(value, for: edit) } catch { fatalError("\(error)") }
    }

    public func update() { solver.updateVariables() }

    public func values() -> [Double] { variables.map(\.value) }
}

/// The same system in kiwi.
public final class KiwiLayout: SolvedLayout {
    let system: OpaquePointer
    let variableCount: Int

    public required init(_ layout: LayoutSystem) {
        var counts: [Int32] = []
        var variables: [Int32] = []
        var coefficients: [Double] = []
        var constants: [Double] = []
        var relations: [Int32] = []
        var strengths: [Double] = []
        for entry in layout.constraints {
            counts.append(Int32(entry.terms.count))
            for term in entry.terms {
                variables.append(Int32(term.variable))
                coefficients.append(term.coefficient)
            }
            constants.append(entry.constant)
            let relation: Int32 =
                switch entry.relation {
                case .lessThanOrEqual: Int32(KIWI_BASELINE_LE)
                case .equal: Int32(KIWI_BASELINE_EQ)
                case .greaterThanOrEqual: Int32(KIWI_BASELINE_GE)
                }
            relations.append(relation)
            let strength = Strength(priority: entry.priority)
            strengths.append(strength.isRequired ? -1 : strength.weight)
        }
        guard
            let made = kiwi_baseline_build(
                Int32(layout.variableCount), Int32(layout.constraints.count), counts, variables, coefficients,
                constants, relations, strengths, Int32(layout.editVariable),
                Strength(priority: LayoutSystem.editPriority).weight)
        else { fatalError("kiwi refused the layout system") }
        system = made
        kiwi_baseline_update(system)
        variableCount = layout.variableCount
    }

    deinit { kiwi_baseline_free(system) }

    public func suggest(_ value: Double) { kiwi_baseline_suggest(system, value) }
    public func update() { kiwi_baseline_update(system) }
    public func values() -> [Double] { (0..<variableCount).map { kiwi_baseline_value(system, Int32($0)) } }
}
