import Testing

@testable import ConstraintSolver

/// Systems solved by hand: each expected value follows from the constraints alone.
@Suite struct SolverTests {
    @Test func requiredEqualitiesSolveForEveryVariable() throws {
        let solver = Solver()
        let x = Variable("x")
        let y = Variable("y")
        try solver.add(Constraint(Expression(x), .equal, Expression(constant: 20)))
        try solver.add(Constraint(x + 2, .equal, y + 10))
        solver.updateVariables()
        #expect(x.value == 20)
        #expect(y.value == 12)
    }

    @Test func anOptionalConstraintGoesAsFarAsTheRequiredOnesAllow() throws {
        let solver = Solver()
        let x = Variable("x")
        try solver.add(Constraint(x - 10, .greaterThanOrEqual))
        try solver.add(Constraint(x - 20, .lessThanOrEqual))
        try solver.add(Constraint(x - 30, .equal, strength: Strength(priority: 750)))
        #expect(solver.value(of: x) == 20)
        #expect(abs(solver.totalError - 10 * Strength(priority: 750).weight) < 1e-3)
    }

    @Test func theHigherPriorityWins() throws {
        let solver = Solver()
        let width = Variable("width")
        try solver.add(Constraint(width - 50, .equal, strength: Strength(priority: 250)))
        try solver.add(Constraint(width - 100, .equal, strength: Strength(priority: 750)))
        #expect(solver.value(of: width) == 100)
        // Hugging (250) against compression resistance (750): the label is not squeezed below its content.
        let label = Variable("label")
        try solver.add(Constraint(label - 80, .lessThanOrEqual, strength: Strength(priority: 250)))
        try solver.add(Constraint(label - 120, .greaterThanOrEqual, strength: Strength(priority: 750)))
        #expect(solver.value(of: label) == 120)
    }

    @Test func prioritiesAreWeightsTenfoldEvery111Points() {
        #expect(Strength(priority: 0).weight == 1)
        #expect(abs(Strength(priority: 111).weight - 10) < 1e-9)
        #expect(abs(Strength(priority: 999).weight / 1e9 - 1) < 1e-9)
        #expect(Strength(priority: 1000).isRequired)
        #expect(Strength(priority: 751) > Strength(priority: 750))
    }

    @Test func anEditVariableFollowsItsSuggestionsWithinTheRequiredConstraints() throws {
        let solver = Solver()
        let left = Variable("left")
        let width = Variable("width")
        let right = Variable("right")
        try solver.add(Constraint(Expression(left), .equal))
        try solver.add(Constraint(left + width, .equal, Expression(right)))
        try solver.add(Constraint(Expression(width), .greaterThanOrEqual))
        try solver.addEditVariable(right, strength: Strength(priority: 999))
        try solver.suggestValue(300, for: right)
        #expect(solver.value(of: width) == 300)
        try solver.suggestValue(120, for: right)
        #expect(solver.value(of: width) == 120)
        // Below the left edge, the width's required bound stops it.
        try solver.suggestValue(-10, for: right)
        #expect(solver.value(of: width) == 0)
        #expect(solver.value(of: right) == 0)
        try solver.suggestValue(40, for: right)
        #expect(solver.value(of: right) == 40)
        try solver.removeEditVariable(right)
        #expect(!solver.hasEditVariable(right))
        #expect(throws: SolverError.unknownEditVariable("\(right)")) { try solver.suggestValue(1, for: right) }
    }

    @Test func anUnsatisfiableRequiredConstraintIsRefusedAndTheSolverIsAsBefore() throws {
        let solver = Solver()
        let x = Variable("x")
        let y = Variable("y")
        try solver.add(Constraint(x - 10, .greaterThanOrEqual))
        try solver.add(Constraint(x + y - 50, .equal))
        try solver.add(Constraint(x - 15, .equal, strength: Strength(priority: 250)))
        let before = (solver.value(of: x), solver.value(of: y), solver.totalError)
        let conflicting = Constraint(x - 5, .lessThanOrEqual)
        #expect(throws: SolverError.unsatisfiable("\(conflicting)")) { try solver.add(conflicting) }
        #expect(!solver.contains(conflicting))
        #expect((solver.value(of: x), solver.value(of: y), solver.totalError) == before)
        // Two required equalities that contradict: refused without phase one.
        let fixed = Constraint(x + y - 60, .equal)
        #expect(throws: SolverError.unsatisfiable("\(fixed)")) { try solver.add(fixed) }
        // It still solves what comes next.
        try solver.add(Constraint(y - 30, .equal))
        #expect(solver.value(of: x) == 20)
    }

    @Test func aRemovedConstraintLeavesTheSolutionOfTheOthers() throws {
        let solver = Solver()
        let x = Variable("x")
        try solver.add(Constraint(x - 100, .equal, strength: Strength(priority: 250)))
        let bound = Constraint(x - 40, .lessThanOrEqual)
        try solver.add(bound)
        #expect(solver.value(of: x) == 40)
        try solver.remove(bound)
        #expect(solver.value(of: x) == 100)
        #expect(throws: SolverError.unknownConstraint("\(bound)")) { try solver.remove(bound) }
    }

    @Test func aChangedConstantReSolvesAndARequiredOneThatCannotHoldKeepsItsOld() throws {
        let solver = Solver()
        let x = Variable("x")
        let y = Variable("y")
        let position = Constraint(x - 10, .equal)
        try solver.add(position)
        try solver.add(Constraint(y - x - 5, .equal))
        try solver.add(Constraint(x - 20, .lessThanOrEqual))
        try solver.setConstant(of: position, to: -18)
        #expect(solver.value(of: y) == 23)
        #expect(throws: SolverError.unsatisfiable("\(position)")) { try solver.setConstant(of: position, to: -30) }
        #expect(position.expression.constant == -18)
        #expect(solver.value(of: x) == 18)
        // An optional one moves as far as it can.
        let wish = Constraint(x - 5, .equal, strength: Strength(priority: 500))
        try solver.remove(position)
        try solver.add(wish)
        try solver.setConstant(of: wish, to: -40)
        #expect(solver.value(of: x) == 20)
        try solver.setConstant(of: wish, to: -12)
        #expect(solver.value(of: x) == 12)
    }

    @Test func badInputIsRefusedByName() throws {
        let solver = Solver()
        let x = Variable("x")
        let constraint = Constraint(x - 1, .equal)
        try solver.add(constraint)
        #expect(throws: SolverError.duplicateConstraint("\(constraint)")) { try solver.add(constraint) }
        let notANumber = Constraint(x - .nan, .equal)
        #expect(throws: SolverError.notFinite("\(notANumber)")) { try solver.add(notANumber) }
        let infinite = Constraint(Expression([Double.infinity * x]), .lessThanOrEqual)
        #expect(throws: SolverError.notFinite("\(infinite)")) { try solver.add(infinite) }
        #expect(throws: SolverError.notFinite("\(constraint)")) { try solver.setConstant(of: constraint, to: .infinity) }
        #expect(throws: SolverError.requiredEditVariable("\(x)")) { try solver.addEditVariable(x, strength: .required) }
        try solver.addEditVariable(x, strength: Strength(priority: 500))
        #expect(throws: SolverError.duplicateEditVariable("\(x)")) {
            try solver.addEditVariable(x, strength: Strength(priority: 500))
        }
        #expect(throws: SolverError.notFiniteSuggestion("x", .nan)) { try solver.suggestValue(.nan, for: x) }
    }

    @Test func addingAndRemovingInALoopDoesNotGrowTheTableau() throws {
        let solver = Solver()
        let left = Variable("left")
        let width = Variable("width")
        try solver.add(Constraint(Expression(left), .equal))
        try solver.add(Constraint(width - 10, .greaterThanOrEqual))
        for _ in 0..<3 {
            let wish = Constraint(width - 50, .equal, strength: Strength(priority: 250))
            try solver.add(wish)
            try solver.remove(wish)
        }
        let size = solver.tableau.count
        for round in 0..<500 {
            let wish = Constraint(width - Double(round), .equal, strength: Strength(priority: 250))
            let bound = Constraint(left + width - 400, .lessThanOrEqual)
            let temporary = Variable("temporary")
            let tie = Constraint(temporary - width, .equal)
            try solver.add(wish)
            try solver.add(bound)
            try solver.add(tie)
            #expect(solver.value(of: temporary) == Double(min(400, max(10, round))))
            try solver.remove(tie)
            try solver.remove(bound)
            try solver.remove(wish)
        }
        #expect(solver.tableau.count <= size + 6)
        #expect(solver.value(of: width) == 10)
        #expect(solver.externals.count == 2)
    }

    @Test func resetForgetsEverything() throws {
        let solver = Solver()
        let x = Variable("x")
        try solver.add(Constraint(x - 3, .equal))
        solver.reset()
        #expect(solver.constraintCount == 0)
        #expect(solver.value(of: x) == 0)
        try solver.add(Constraint(x - 4, .equal))
        #expect(solver.value(of: x) == 4)
    }
}
