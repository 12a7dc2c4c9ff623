import SeededRandom
import Testing

@testable import ConstraintSolver

/// Random systems of two variables in a box, checked against a brute-force search: the weighted errors are
/// convex and piecewise linear, so their minimum over the required constraints' polygon is at a vertex of
/// the arrangement of every constraint's line; the search tries every intersection of two lines.
@Suite struct BruteForceTests {
    struct Generated {
        var coefficients: (Double, Double)
        var constant: Double
        var relation: Relation
        var strength: Strength
    }

    static let priorities: [Float] = [100, 250, 500, 750, 999]

    /// Required constraints that hold at a random point of the box (so the system is satisfiable), and
    /// optional ones anywhere.
    static func system(seed: UInt64) -> [Generated] {
        var random = SplitMix64(seed: seed)
        let point = (Double(random.integer(in: 0...100)), Double(random.integer(in: 0...100)))
        var system: [Generated] = [
            Generated(coefficients: (1, 0), constant: 0, relation: .greaterThanOrEqual, strength: .required),
            Generated(coefficients: (1, 0), constant: -100, relation: .lessThanOrEqual, strength: .required),
            Generated(coefficients: (0, 1), constant: 0, relation: .greaterThanOrEqual, strength: .required),
            Generated(coefficients: (0, 1), constant: -100, relation: .lessThanOrEqual, strength: .required),
        ]
        let relations: [Relation] = [.lessThanOrEqual, .equal, .greaterThanOrEqual]
        for _ in 0..<random.integer(in: 0...2) {
            let a = Double(random.integer(in: -3...3))
            let b = Double(random.integer(in: -3...3))
            let relation = relations[random.integer(in: 0...2)]
            let atPoint = a * point.0 + b * point.1
            let slack = Double(random.integer(in: 0...20))
            let constant =
                switch relation {
                case .equal: -atPoint
                case .lessThanOrEqual: -atPoint - slack
                case .greaterThanOrEqual: -atPoint + slack
                }
            system.append(Generated(coefficients: (a, b), constant: constant, relation: relation, strength: .required))
        }
        for _ in 0..<random.integer(in: 1...5) {
            let a = Double(random.integer(in: -3...3))
            let b = Double(random.integer(in: -3...3))
            let priority = priorities[random.integer(in: 0...priorities.count - 1)]
            system.append(
                Generated(
                    coefficients: (a, b), constant: Double(random.integer(in: -150...150)),
                    relation: relations[random.integer(in: 0...2)], strength: Strength(priority: priority)))
        }
        return system
    }

    static func value(_ constraint: Generated, _ x: Double, _ y: Double) -> Double {
        constraint.coefficients.0 * x + constraint.coefficients.1 * y + constraint.constant
    }

    static func error(_ constraint: Generated, _ x: Double, _ y: Double) -> Double {
        let value = value(constraint, x, y)
        switch constraint.relation {
        case .equal: return abs(value)
        case .lessThanOrEqual: return max(0, value)
        case .greaterThanOrEqual: return max(0, -value)
        }
    }

    static func objective(_ system: [Generated], _ x: Double, _ y: Double) -> Double {
        system.filter { !$0.strength.isRequired }.reduce(0) { $0 + $1.strength.weight * error($1, x, y) }
    }

    /// What rounding leaves of a minimum: a millionth of it, and for the heaviest weights (10^9) the
    /// weight of an error of 10^-12 points.
    static func tolerance(_ system: [Generated], minimum: Double) -> Double {
        let weights = system.filter { !$0.strength.isRequired }.reduce(0) { $0 + $1.strength.weight }
        return 1e-6 * max(1, minimum) + 1e-12 * weights
    }

    static func holds(_ system: [Generated], _ x: Double, _ y: Double, tolerance: Double) -> Bool {
        system.filter(\.strength.isRequired).allSatisfy { error($0, x, y) <= tolerance }
    }

    /// The minimum over every feasible intersection of two of the constraints' lines.
    static func bruteForceMinimum(_ system: [Generated]) -> Double {
        var best = Double.infinity
        let lines = system.filter { $0.coefficients != (0, 0) }
        for i in lines.indices {
            for j in lines.indices where j > i {
                let (a1, b1) = lines[i].coefficients
                let (a2, b2) = lines[j].coefficients
                let determinant = a1 * b2 - a2 * b1
                guard determinant != 0 else { continue }
                let (c1, c2) = (-lines[i].constant, -lines[j].constant)
                let x = (c1 * b2 - c2 * b1) / determinant
                let y = (a1 * c2 - a2 * c1) / determinant
                guard holds(system, x, y, tolerance: 1e-9) else { continue }
                best = min(best, objective(system, x, y))
            }
        }
        return best
    }

    static func solve(_ system: [Generated]) throws -> (x: Double, y: Double, solver: Solver) {
        let solver = Solver()
        let x = Variable("x")
        let y = Variable("y")
        for constraint in system {
            let expression = Expression(
                [Term(x, constraint.coefficients.0), Term(y, constraint.coefficients.1)],
                constant: constraint.constant)
            try solver.add(Constraint(expression, constraint.relation, strength: constraint.strength))
        }
        return (solver.value(of: x), solver.value(of: y), solver)
    }

    @Test(arguments: 0..<2000)
    func theSolutionIsTheBruteForceMinimum(seed: UInt64) throws {
        let system = Self.system(seed: seed)
        let (x, y, solver) = try Self.solve(system)
        #expect(Self.holds(system, x, y, tolerance: 1e-6), "seed \(seed): (\(x), \(y)) breaks a required constraint")
        let found = Self.objective(system, x, y)
        let minimum = Self.bruteForceMinimum(system)
        let tolerance = Self.tolerance(system, minimum: minimum)
        #expect(found <= minimum + tolerance, "seed \(seed): \(found) > brute force \(minimum)")
        #expect(abs(solver.totalError - found) <= tolerance, "seed \(seed): objective \(solver.totalError) vs \(found)")
    }

    /// The same system reached incrementally (constants changed one by one after the first solve) has the
    /// minimum of the system built from scratch.
    @Test(arguments: 0..<1000)
    func changedConstantsReachTheMinimumOfTheSystemMadeFromScratch(seed: UInt64) throws {
        var system = Self.system(seed: seed)
        let solver = Solver()
        let x = Variable("x")
        let y = Variable("y")
        var added: [Constraint] = []
        for constraint in system {
            let expression = Expression(
                [Term(x, constraint.coefficients.0), Term(y, constraint.coefficients.1)],
                constant: constraint.constant)
            let made = Constraint(expression, constraint.relation, strength: constraint.strength)
            try solver.add(made)
            added.append(made)
        }
        var random = SplitMix64(seed: seed &+ 7)
        for _ in 0..<4 {
            let index = random.integer(in: 4...system.count - 1)
            let constant = system[index].constant + Double(random.integer(in: -40...40))
            let outcome = Result { () throws(SolverError) in try solver.setConstant(of: added[index], to: constant) }
            switch outcome {
            case .success:
                system[index].constant = constant
            case .failure(let error):
                #expect(error == .unsatisfiable("\(added[index])"))
                // Only a required one may be refused, and only if no point of the box satisfies it.
                #expect(system[index].strength.isRequired)
                var trial = system
                trial[index].constant = constant
                #expect(Self.bruteForceMinimum(trial) == .infinity, "seed \(seed): refused a satisfiable constant")
            }
        }
        let found = Self.objective(system, solver.value(of: x), solver.value(of: y))
        #expect(Self.holds(system, solver.value(of: x), solver.value(of: y), tolerance: 1e-6), "seed \(seed)")
        let minimum = Self.bruteForceMinimum(system)
        #expect(found <= minimum + Self.tolerance(system, minimum: minimum), "seed \(seed): \(found) > brute force \(minimum)")
    }
}
