import Benchmark
import LayoutSystems

// Issue 39's solver benchmarks: a screen of 200 views and 800 constraints solved from scratch, and re-solved
// after one constant changes (an edit variable's suggestion), by ConstraintSolver and by kiwi (the C++
// Cassowary solver, Benchmarks/scripts/fetch-kiwi.sh) on the same system in the same run. Targets: at most
// 1.5x kiwi's time for each; the re-solve under 1 % of a 60 Hz frame (167 us).

nonisolated(unsafe) private var ours: ConstraintSolverLayout?
nonisolated(unsafe) private var kiwi: KiwiLayout?
/// Counts the suggestions, which alternate between two widths: a sample is one iteration, so the
/// iteration's index would suggest the same value every time (and a solver may skip a value it has).
nonisolated(unsafe) private var suggestions = 0

private func nextWidth() -> Double {
    suggestions += 1
    return suggestions % 2 == 0 ? 100 : 120
}
private let system = LayoutSystem.grid()

private func configuration(_ iterations: Int) -> Benchmark.Configuration {
    .init(
        metrics: [.wallClock, .instructions, .mallocCountTotal], timeUnits: .microseconds, warmupIterations: 3,
        scalingFactor: .one, maxDuration: .seconds(3), maxIterations: iterations)
}

let benchmarks: @Sendable () -> Void = {
    Benchmark("Layout: solve 200 views, 800 constraints (kiwi)", configuration: configuration(2000)) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(KiwiLayout(system)) }
    }
    Benchmark("Layout: solve 200 views, 800 constraints (ConstraintSolver)", configuration: configuration(2000)) {
        benchmark in
        for _ in benchmark.scaledIterations { blackHole(ConstraintSolverLayout(system)) }
    }
    Benchmark("Layout: re-solve after one constant (kiwi)", configuration: configuration(20000)) { benchmark in
        guard let kiwi else { fatalError("no kiwi layout") }
        for _ in benchmark.scaledIterations {
            kiwi.suggest(nextWidth())
            kiwi.update()
        }
    } setup: {
        kiwi = KiwiLayout(system)
    } teardown: {
        kiwi = nil
    }
    Benchmark("Layout: re-solve after one constant (ConstraintSolver)", configuration: configuration(20000)) {
        benchmark in
        guard let ours else { fatalError("no ConstraintSolver layout") }
        for _ in benchmark.scaledIterations {
            ours.suggest(nextWidth())
            ours.update()
        }
    } setup: {
        ours = ConstraintSolverLayout(system)
    } teardown: {
        ours = nil
    }
}
