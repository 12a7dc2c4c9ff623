import Testing

@testable import ConstraintSolver

/// Rounding in the objective. Weights reach 10^9, so terms that cancel leave residues above the 10^-8
/// tolerance (kiwi's); on a symbol nothing bounds, such a residue made the objective look unbounded and a
/// removal failed (`internalError`), after which the engine could lay out nothing more. Both sequences were
/// recorded from the demo's form (its fields' constraints, a heading, the keyboard guide's, at UIKit's
/// priorities) as the form was dismissed with the keyboard going: `A solver constraint relation weight
/// constant variable:coefficient,...` adds (numbers as their IEEE 754 bits, to replay them exactly), `R
/// solver constraint` removes.
struct SolverRoundingTests {
    /// Replays `operations`; the first error that is the solver's own, or nil. Refused constraints are
    /// the input's and are let be.
    static func replay(_ operations: [String]) -> String? {
        let solver = Solver()
        var variables: [String: Variable] = [:]
        var constraints: [String: Constraint] = [:]
        func number(_ bits: Substring) -> Double { Double(bitPattern: UInt64(bits)!) }
        for (index, operation) in operations.enumerated() {
            let fields = operation.split(separator: " ")
            do {
                if fields[0] == "A" {
                    let terms = fields[6].split(separator: ",").map { term in
                        let parts = term.split(separator: ":")
                        let name = String(parts[0])
                        let variable = variables[name] ?? Variable("v" + name)
                        variables[name] = variable
                        return Term(variable, number(parts[1]))
                    }
                    let relation: Relation = fields[3] == "eq" ? .equal : fields[3] == "le" ? .lessThanOrEqual : .greaterThanOrEqual
                    let weight = number(fields[4])
                    let constraint = Constraint(
                        Expression(terms, constant: number(fields[5])), relation,
                        strength: weight.isInfinite ? .required : Strength(weight: weight))
                    constraints[String(fields[2])] = constraint
                    try solver.add(constraint)
                } else {
                    try solver.remove(constraints[String(fields[2])]!)
                }
            } catch {
                if case .internalError = error { return "operation \(index) (\(operation)): \(error)" }
            }
        }
        return nil
    }

    /// A heading's height, the fields' preferred place below it (priority 750) and then their required
    /// least distance from it removed: the 750 weight's two error terms cancelled to 3e-8, left on a slack.
    @Test func aResidueOfACancelledWeightIsNotAnUnboundedObjective() {
        #expect(Self.replay(Self.removingTheFieldsPlace) == nil)
    }

    /// The fields' heights and spacing removed one by one: two objective coefficients of 178.75 that
    /// stood for the same term, 4e-8 apart after the 10^9 weights' arithmetic they came through.
    @Test func aResidueInheritedFromHeavyWeightsIsNotAnUnboundedObjective() {
        #expect(Self.replay(Self.removingTheFieldsHeights) == nil)
    }

    static let removingTheFieldsPlace = [
        "A 1 262 eq 9218868437227405312 13848568854164275200 261:4607182418800017408,223:13830554455654793216",
        "A 1 270 eq 4707890780257755038 13847442954257432576 269:4607182418800017408,261:13830554455654793216,218:13830554455654793216",
        "A 1 272 le 4741671816366391296 4625196817309499392 269:4607182418800017408,271:4607182418800017408,231:13830554455654793216",
        "A 1 273 ge 9218868437227405312 13839561654909534208 269:4607182418800017408,261:13830554455654793216,218:13830554455654793216",
        "A 1 279 eq 9218868437227405312 13854198353698488320 218:4607182418800017408",
        "A 1 287 eq 9218868437227405312 0 286:4607182418800017408,269:13830554455654793216",
        "A 1 289 eq 9218868437227405312 0 288:4607182418800017408,258:4607182418800017408,269:13830554455654793216,271:13830554455654793216",
        "A 1 290 ge 9218868437227405312 0 246:4607182418800017408",
        "A 1 291 ge 9218868437227405312 0 252:4607182418800017408",
        "A 1 292 ge 9218868437227405312 0 258:4607182418800017408",
        "A 1 294 eq 9218868437227405312 13846317054350589952 293:4607182418800017408,286:13830554455654793216,246:13830554455654793216",
        "A 1 295 eq 9218868437227405312 13846317054350589952 288:4607182418800017408,293:13830554455654793216,252:13830554455654793216",
        "A 1 214 eq 9218868437227405312 9223372036854775808 223:4607182418800017408,211:13830554455654793216",
        "A 1 315 eq 9218868437227405312 9223372036854775808 231:4607182418800017408,211:13830554455654793216",
        "R 1 279",
        "R 1 270",
        "R 1 273",
    ]

    static let removingTheFieldsHeights = [
        "A 1 253 le 4640493312886410356 13853916878721777664 252:4607182418800017408",
        "A 1 254 ge 4707890780257755038 13853916878721777664 252:4607182418800017408",
        "A 1 262 eq 9218868437227405312 13848568854164275200 261:4607182418800017408,223:13830554455654793216",
        "A 1 272 le 4741671816366391296 4625196817309499392 269:4607182418800017408,271:4607182418800017408,231:13830554455654793216",
        "A 1 273 ge 9218868437227405312 13839561654909534208 269:4607182418800017408,261:13830554455654793216,218:13830554455654793216",
        "A 1 279 eq 9218868437227405312 13854198353698488320 218:4607182418800017408",
        "A 1 282 eq 9218868437227405312 13854761303651909632 252:4607182418800017408",
        "A 1 287 eq 9218868437227405312 0 286:4607182418800017408,269:13830554455654793216",
        "A 1 289 eq 9218868437227405312 0 288:4607182418800017408,258:4607182418800017408,269:13830554455654793216,271:13830554455654793216",
        "A 1 290 ge 9218868437227405312 0 246:4607182418800017408",
        "A 1 292 ge 9218868437227405312 0 258:4607182418800017408",
        "A 1 294 eq 9218868437227405312 13846317054350589952 293:4607182418800017408,286:13830554455654793216,246:13830554455654793216",
        "A 1 295 eq 9218868437227405312 13846317054350589952 288:4607182418800017408,293:13830554455654793216,252:13830554455654793216",
        "A 1 214 eq 9218868437227405312 9223372036854775808 223:4607182418800017408,211:13830554455654793216",
        "A 1 212 eq 9218868437227405312 9223372036854775808 231:4607182418800017408,211:13830554455654793216",
        "R 1 282",
        "R 1 295",
        "R 1 254",
    ]
}
