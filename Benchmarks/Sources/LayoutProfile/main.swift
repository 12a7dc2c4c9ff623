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

/// Solves the system `iterations` times from scratch.
func solve<Layout: SolvedLayout>(_: Layout.Type) {
    measured { for _ in 0..<iterations { _ = Layout(system) } }
}

/// Re-solves it `iterations` times after a suggestion, alternating between two widths.
func resolve<Layout: SolvedLayout>(_: Layout.Type) {
    let layout = Layout(system)
    measured {
        for iteration in 0..<iterations {
            layout.suggest(iteration % 2 == 0 ? 100 : 120)
            layout.update()
        }
    }
}

switch scenario {
case "check":
    let layouts: [any SolvedLayout] = [ConstraintSolverLayout(system), KiwiLayout(system)]
    var worst = largestDifference(layouts[0].values(), layouts[1].values())
    for value in [100.0, 137, 20, 400, 60] {
        for layout in layouts {
            layout.suggest(value)
            layout.update()
        }
        worst = max(worst, largestDifference(layouts[0].values(), layouts[1].values()))
    }
    print(
        "ConstraintSolver vs kiwi, \(system.variableCount) variables, \(system.constraints.count) constraints and an"
            + " edit variable, solved and after 5 suggestions: values differ by at most \(worst)")
    if worst > 1e-6 { exit(1) }
case "solve": solve(ConstraintSolverLayout.self)
case "kiwi-solve": solve(KiwiLayout.self)
case "resolve": resolve(ConstraintSolverLayout.self)
case "kiwi-resolve": resolve(KiwiLayout.self)
default:
    print("LayoutProfile: unknown scenario \(scenario); check, solve, kiwi-solve, resolve, kiwi-resolve")
    exit(2)
}
