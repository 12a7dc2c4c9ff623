import Benchmark
import LayoutSystems

// Issue 39's solver benchmarks: a screen of 200 views and 800 constraints solved from scratch, and re-solved
// after one constant changes (an edit variable's suggestion), by ConstraintSolver and by kiwi (the C++
// Cassowary solver, Benchmarks/scripts/fetch-kiwi.sh) on the same system in the same run. Targets: at most
// 1.5x kiwi's time for each; the re-solve under 1 % of a 60 Hz frame (167 us).

/// The layout the running re-solve benchmark suggests to; made in its setup hook, never timed.
nonisolated(unsafe) private var layout: (any SolvedLayout)?
/// Counts the suggestions, which alternate between two widths: a sample is one iteration, so the
/// iteration's index would suggest the same value every time (and a solver may skip a value it has).
nonisolated(unsafe) private var suggestions = 0
private let system = LayoutSystem.grid()

private func nextWidth() -> Double {
    suggestions += 1
    return suggestions % 2 == 0 ? 100 : 120
}

private func configuration(_ iterations: Int) -> Benchmark.Configuration {
    .init(
        metrics: [.wallClock, .instructions, .mallocCountTotal], timeUnits: .microseconds, warmupIterations: 3,
        scalingFactor: .one, maxDuration: .seconds(3), maxIterations: iterations)
}

/// The two benchmarks of one solver, named after it.
private func layoutBenchmarks<Layout: SolvedLayout>(_: Layout.Type, named name: String) {
    Benchmark("Layout: solve 200 views, 800 constraints (\(name))", configuration: configuration(2000)) {
        benchmark in
        for _ in benchmark.scaledIterations { blackHole(Layout(system)) }
    }
    Benchmark("Layout: re-solve after one constant (\(name))", configuration: configuration(20000)) { benchmark in
        guard let layout else { fatalError("no \(name) layout") }
        for _ in benchmark.scaledIterations {
            layout.suggest(nextWidth())
            layout.update()
        }
    } setup: {
        layout = Layout(system)
    } teardown: {
        layout = nil
    }
}

let benchmarks: @Sendable () -> Void = {
    layoutBenchmarks(KiwiLayout.self, named: "kiwi")
    layoutBenchmarks(ConstraintSolverLayout.self, named: "ConstraintSolver")
}
