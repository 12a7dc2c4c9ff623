import Benchmark
import CompositionScenes
import KioskKit

// Issue 4's benchmark: composition of a 1920x1080 scene against raw pixman and memcpy in the same run,
// a damaged update, and hit testing. Run with `swift package benchmark` in this folder (README.md).
//
// KioskKit is main-actor code. package-benchmark calls an async benchmark closure from a task off the
// main thread, so each sample hops to the main actor and starts and stops the clock there: the hop is
// not measured. Scenes are made in each benchmark's setup hook (also on the main actor), never timed.

/// The scene of the running benchmark; set by its setup hook.
@MainActor private var composition: CompositionScene?
@MainActor private var hitTesting: HitTestScene?
@MainActor private var touchDispatch: TouchDispatchScene?
@MainActor private var crossFade: CrossFadeScene?
@MainActor private var tableScroll: TableScrollScene?
nonisolated(unsafe) private var baseline: PixmanBaseline?
nonisolated(unsafe) private var frameMemcpy: FrameMemcpy?
nonisolated(unsafe) private var scaleUp: ScaleUpScene?
nonisolated(unsafe) private var scaleUpBaseline: ScaleUpBaseline?
nonisolated(unsafe) private var crossFadeBaseline: CrossFadeBaseline?
nonisolated(unsafe) private var tableScrollBaseline: TableScrollBaseline?

/// Sends the (non-Sendable) benchmark object to the main actor; package-benchmark does not touch it
/// while the closure runs.
private struct Handle: @unchecked Sendable { let benchmark: Benchmark }

/// Registers a benchmark whose body runs on the main actor, `scaledIterations` times per sample, with the
/// clock started and stopped there. `after` runs once per sample after the clock stopped (not measured).
private func mainActorBenchmark(
    _ name: String, configuration: Benchmark.Configuration,
    setup: @escaping @MainActor @Sendable () -> Void,
    body: @escaping @MainActor @Sendable () -> Void,
    after: @escaping @MainActor @Sendable () -> Void = {},
    check: @escaping @MainActor @Sendable () -> String? = { nil }
) {
    Benchmark(name, configuration: configuration) { benchmark async in
        let handle = Handle(benchmark: benchmark)
        await MainActor.run {
            let benchmark = handle.benchmark
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { body() }
            benchmark.stopMeasurement()
            after()
            if let failure = check() { benchmark.error(failure) }
        }
    } setup: {
        await MainActor.run { setup() }
    } teardown: {
        await MainActor.run {
            composition = nil
            hitTesting = nil
            touchDispatch = nil
            crossFade = nil
            tableScroll = nil
        }
    }
}

/// Wall-clock time, and mallocs per iteration (the malloc interposer counts them; with `--no-progress`
/// the harness adds none, as the memcpy baseline shows, while its progress bar adds 16-18 per sample).
/// CPU time is left out (it moves in 10 ms ticks here) and so are instructions: they need perf counters,
/// which these machines do not have (scripts/callgrind.sh counts instructions instead, see README.md).
private let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal]

/// Frames: 10 µs to 2 ms each, so 5 s give thousands of samples. `units`: the damaged updates are shown
/// in nanoseconds, so their p50 keeps three digits.
private func frameConfiguration(_ units: BenchmarkTimeUnits = .microseconds) -> Benchmark.Configuration {
    .init(
        metrics: metrics, timeUnits: units, warmupIterations: 20, scalingFactor: .one,
        maxDuration: .seconds(5), maxIterations: 20_000)
}

/// Hit tests: microseconds each; 1000 per sample keep the clock's own cost out of the figure (results
/// are per hit test, marked `*` in the output). The worst case ran one per sample while it took about a
/// millisecond; through the grids of subview frames it takes microseconds, as the others.
private func hitTestConfiguration() -> Benchmark.Configuration {
    .init(
        metrics: metrics, timeUnits: .nanoseconds, warmupIterations: 3, scalingFactor: .kilo,
        maxDuration: .seconds(5), maxIterations: 2_000)
}

/// One touch-down per sample, timed alone: the touch is lifted after the clock stops (`after`), so every
/// sample's touch is new. Start and stop read the clock back to back with the body (package-benchmark), so
/// the clock adds a few tens of nanoseconds to a few microseconds.
private func touchDownConfiguration() -> Benchmark.Configuration {
    .init(
        metrics: metrics, timeUnits: .nanoseconds, warmupIterations: 20, scalingFactor: .one,
        maxDuration: .seconds(5), maxIterations: 50_000)
}

let benchmarks: @Sendable () -> Void = {
    // MARK: Baselines, in the same run

    Benchmark(
        "Baseline: raw pixman, 3 layers (SRC 1920x1080, OVER 1920x40, OVER 600x300)",
        configuration: frameConfiguration()
    ) { benchmark in
        guard let baseline else { fatalError("no baseline") }
        for _ in benchmark.scaledIterations { baseline.compositeLayers() }
    } setup: {
        baseline = PixmanBaseline()
    } teardown: {
        baseline = nil
    }

    Benchmark(
        "Baseline: raw pixman, 3 layers + SRC copy into a second buffer",
        configuration: frameConfiguration()
    ) { benchmark in
        guard let baseline else { fatalError("no baseline") }
        for _ in benchmark.scaledIterations { baseline.compositeLayersAndCopy() }
    } setup: {
        baseline = PixmanBaseline()
    } teardown: {
        baseline = nil
    }

    Benchmark("Baseline: memcpy of one 1920x1080 XRGB frame", configuration: frameConfiguration()) { benchmark in
        guard let frameMemcpy else { fatalError("no buffers") }
        for _ in benchmark.scaledIterations { frameMemcpy.copy() }
    } setup: {
        frameMemcpy = FrameMemcpy()
    } teardown: {
        frameMemcpy = nil
    }

    // MARK: A transformed composite, against raw pixman in the same run

    Benchmark(
        "Baseline: raw pixman, 600x400 scale-up, bilinear (1.0 -> 1.25, one frame)", configuration: frameConfiguration()
    ) { benchmark in
        guard let scaleUpBaseline else { fatalError("no baseline") }
        for _ in benchmark.scaledIterations { scaleUpBaseline.composeNextFrame() }
    } setup: {
        scaleUpBaseline = ScaleUpBaseline()
    } teardown: {
        scaleUpBaseline = nil
    }

    Benchmark(
        "Bitmap: 600x400 scale-up, bilinear (composite(_:transform:), 1.0 -> 1.25, one frame)",
        configuration: frameConfiguration()
    ) { benchmark in
        guard let scaleUp else { fatalError("no scene") }
        for _ in benchmark.scaledIterations { scaleUp.composeNextFrame() }
    } setup: {
        scaleUp = ScaleUpScene()
    } teardown: {
        scaleUp = nil
    }

    // MARK: A full-screen cross-fade of two windows, against raw pixman in the same run

    Benchmark(
        "Baseline: raw pixman, cross-fade (2 x OVER 1920x1080 with opacity, one frame)", configuration: frameConfiguration()
    ) { benchmark in
        guard let crossFadeBaseline else { fatalError("no baseline") }
        for _ in benchmark.scaledIterations { crossFadeBaseline.composeNextFrame() }
    } setup: {
        crossFadeBaseline = CrossFadeBaseline()
    } teardown: {
        crossFadeBaseline = nil
    }

    Benchmark(
        "Baseline: raw pixman, cross-fade frame on black (SRC fill + 2 x OVER 1920x1080 with opacity)",
        configuration: frameConfiguration()
    ) { benchmark in
        guard let crossFadeBaseline else { fatalError("no baseline") }
        for _ in benchmark.scaledIterations { crossFadeBaseline.composeNextFrameOnBlack() }
    } setup: {
        crossFadeBaseline = CrossFadeBaseline()
    } teardown: {
        crossFadeBaseline = nil
    }

    Benchmark(
        "Baseline: raw pixman, cross-fade + SRC copy into a second buffer", configuration: frameConfiguration()
    ) { benchmark in
        guard let crossFadeBaseline else { fatalError("no baseline") }
        for _ in benchmark.scaledIterations { crossFadeBaseline.composeNextFrameAndCopy() }
    } setup: {
        crossFadeBaseline = CrossFadeBaseline()
    } teardown: {
        crossFadeBaseline = nil
    }

    for scanout in [false, true] {
        mainActorBenchmark(
            scanout
                ? "Compositor: cross-fade of 2 full-screen windows, scanout output (shadow + copy, as DRM)"
                : "Compositor: cross-fade of 2 full-screen windows (painted in place, as headless)",
            configuration: frameConfiguration(),
            setup: {
                let scene = CrossFadeScene(scanoutOutput: scanout)
                scene.expectFrames(damage: Region(scene.fullScreen))
                crossFade = scene
            },
            body: { crossFade!.composeNextFrame() },
            check: {
                crossFade!.output.unexpectedFrames > 0
                    ? "a frame had unexpected damage or age"
                    : crossFade!.contentWasRedrawn ? "a window's content was redrawn during the fade" : nil
            })
    }

    // MARK: One momentum frame of a full-screen table view, against raw pixman in the same run

    Benchmark(
        "Baseline: raw pixman, table scroll frame (25 rows: fills of 1920x44 and 1904x1, OVER of the text's box)",
        configuration: frameConfiguration()
    ) { benchmark in
        guard let tableScrollBaseline else { fatalError("no baseline") }
        for _ in benchmark.scaledIterations { tableScrollBaseline.composeNextFrame() }
    } setup: {
        await MainActor.run { tableScrollBaseline = TableScrollBaseline() }
    } teardown: {
        tableScrollBaseline = nil
    }

    Benchmark(
        "Baseline: raw pixman, table scroll frame + SRC copy into a second buffer", configuration: frameConfiguration()
    ) { benchmark in
        guard let tableScrollBaseline else { fatalError("no baseline") }
        for _ in benchmark.scaledIterations { tableScrollBaseline.composeNextFrameAndCopy() }
    } setup: {
        await MainActor.run { tableScrollBaseline = TableScrollBaseline() }
    } teardown: {
        tableScrollBaseline = nil
    }

    for scanout in [false, true] {
        mainActorBenchmark(
            scanout
                ? "Compositor: table scroll frame, scanout output (shadow + copy, as DRM)"
                : "Compositor: table scroll frame, 1920x1080 list of labels (painted in place, as headless)",
            configuration: frameConfiguration(),
            setup: {
                let scene = TableScrollScene(scanoutOutput: scanout)
                scene.expectFrames(damage: Region(scene.fullScreen))
                tableScroll = scene
            },
            body: { tableScroll!.composeNextFrame() },
            check: {
                tableScroll!.output.unexpectedFrames > 0
                    ? "a frame had unexpected damage or age"
                    : tableScroll!.composeCheckedFrame() ? nil : "a cell or label was redrawn during the scroll"
            })
    }

    // MARK: The compositor

    mainActorBenchmark(
        "Compositor: full frame (painted in place, as headless)", configuration: frameConfiguration(),
        setup: {
            let scene = CompositionScene()
            scene.expectFrames(damage: Region(scene.fullScreen))
            composition = scene
        },
        body: { composition!.composeFullFrame() },
        check: { composition!.output.unexpectedFrames > 0 ? "a frame had unexpected damage or age" : nil })

    mainActorBenchmark(
        "Compositor: full frame, scanout output (shadow + copy, as DRM)", configuration: frameConfiguration(),
        setup: {
            let scene = CompositionScene(scanoutOutput: true)
            scene.expectFrames(damage: Region(scene.fullScreen))
            composition = scene
        },
        body: { composition!.composeFullFrame() },
        check: { composition!.output.unexpectedFrames > 0 ? "a frame had unexpected damage or age" : nil })

    mainActorBenchmark(
        "Compositor: copy of the whole shadow into the output (Bitmap.copy)",
        configuration: frameConfiguration(),
        setup: { composition = CompositionScene(scanoutOutput: true) },
        body: { composition!.copyShadowToOutput() })

    mainActorBenchmark(
        "Compositor: 200x200 update (setNeedsDisplay, redraw, compose, copy)",
        configuration: frameConfiguration(.nanoseconds),
        setup: {
            let scene = CompositionScene()
            scene.expectFrames(damage: scene.damagedRegion)
            composition = scene
        },
        body: { composition!.composeDamagedUpdate() },
        check: { composition!.output.unexpectedFrames > 0 ? "a frame had damage other than 200x200" : nil })

    mainActorBenchmark(
        "Compositor: 200x200 view moved by 1 px (compose 201x200, copy)",
        configuration: frameConfiguration(.nanoseconds),
        setup: {
            let scene = CompositionScene(withMovingView: true)
            scene.expectFrames(damage: scene.movedViewRegion)
            composition = scene
        },
        body: { composition!.composeMovedView() },
        check: { composition!.output.unexpectedFrames > 0 ? "a frame had damage other than 201x200" : nil })

    // MARK: Hit testing

    for kind in HitTestScene.Kind.allCases {
        mainActorBenchmark(
            "Hit test: 100 windows x 100 views, \(kind.rawValue)", configuration: hitTestConfiguration(),
            setup: { hitTesting = HitTestScene(kind: kind) },
            body: { blackHole(hitTesting!.hitTest()) },
            check: { hitTesting!.hitTest()?.1 === hitTesting!.expectedView ? nil : "wrong view hit" })
    }

    mainActorBenchmark(
        "Touch: one tap from Touch to the view (down + up, 100 windows x 100 views)",
        configuration: hitTestConfiguration(),
        setup: { touchDispatch = TouchDispatchScene() },
        body: { touchDispatch!.tap(timestamp: 1) },
        check: { touchDispatch!.delivered > 0 ? nil : "no touch reached the view" })

    mainActorBenchmark(
        "Touch: one tap with gesture recognizers (tap on each view, pan on each window; down + up)",
        configuration: hitTestConfiguration(),
        setup: { touchDispatch = TouchDispatchScene(withGestureRecognizers: true) },
        body: { touchDispatch!.tap(timestamp: 1) },
        check: {
            touchDispatch!.delivered > 0 && touchDispatch!.recognized > 0 ? nil : "no touch reached the view or its tap recognizer"
        })

    // A new touch alone (the touch-down), one per sample, with and without recognizers, landing where the
    // frontmostWindow hit test does (subview 0 of the frontmost window, behind its 99 others).
    for recognizers in [false, true] {
        mainActorBenchmark(
            recognizers
                ? "Touch: touch-down through 100 views with gesture recognizers (tap on each view, pan on each window)"
                : "Touch: touch-down through 100 views (100 windows x 100 views, as the frontmostWindow hit test)",
            configuration: touchDownConfiguration(),
            setup: { touchDispatch = TouchDispatchScene(withGestureRecognizers: recognizers, throughAllViews: true) },
            body: { touchDispatch!.touchDown(timestamp: 1) },
            after: { touchDispatch!.lift() },
            check: {
                touchDispatch!.landed == 0 || (recognizers && touchDispatch!.recognized != touchDispatch!.landed)
                    ? "a touch did not reach the view or its tap recognizer" : nil
            })
    }

    mainActorBenchmark(
        "Hit test: Window.hitTest of one window of 100 views", configuration: hitTestConfiguration(),
        setup: { hitTesting = HitTestScene(kind: .frontmostWindow) },
        body: { blackHole(hitTesting!.hitTestFrontmostWindow()) })
}
