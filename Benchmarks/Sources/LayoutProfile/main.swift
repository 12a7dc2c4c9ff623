import Glibc
import LayoutSystems

// The layout systems in a plain loop, for `valgrind --tool=callgrind` (scripts/callgrind.sh's way: count
// the `measured` function only), and `check`: ConstraintSolver and kiwi find the same values.
//
//   .build/release/LayoutProfile check
//   .build/release/LayoutProfile solve|kiwi-solve|resolve|kiwi-resolve [iterations]

let arguments = CommandLine.arguments
let scenario = arguments.count > 1 ? arguments[1] : "check"
let iterations = arguments.count > 2 ? Int(arguments[2]) ?? 10 : 10
let system = LayoutSystem.grid()

func largestDifference(_ a: [Double], _ b: [Double]) -> Double {
    zip(a, b).map { abs($0 - $1) }.max() ?? 0
}

@inline(never) func measured(_ body: () -> Void) { body() }

switch scenario {
case "check":
    let ours = ConstraintSolverLayout(system)
    let kiwi = KiwiLayout(system)
    var worst = largestDifference(ours.values(), kiwi.values())
    for value in [100.0, 137, 20, 400, 60] {
        ours.suggest(value)
        ours.update()
        kiwi.suggest(value)
        kiwi.update()
        worst = max(worst, largestDifference(ours.values(), kiwi.values()))
    }
    print(
        "ConstraintSolver vs kiwi, \(system.variableCount) variables, \(system.constraints.count) constraints and an"
            + " edit variable, solved and after 5 suggestions: values differ by at most \(worst)")
    if worst > 1e-6 { exit(1) }
case "solve":
    measured { for _ in 0..<iterations { _ = ConstraintSolverLayout(system) } }
case "kiwi-solve":
    measured { for _ in 0..<iterations { _ = KiwiLayout(system) } }
case "resolve":
    let ours = ConstraintSolverLayout(system)
    measured {
        for iteration in 0..<iterations {
            ours.suggest(iteration % 2 == 0 ? 100 : 120)
            ours.update()
        }
    }
case "kiwi-resolve":
    let kiwi = KiwiLayout(system)
    measured {
        for iteration in 0..<iterations {
            kiwi.suggest(iteration % 2 == 0 ? 100 : 120)
            kiwi.update()
        }
    }
default:
    print("LayoutProfile: unknown scenario \(scenario); check, solve, kiwi-solve, resolve, kiwi-resolve")
    exit(2)
}
