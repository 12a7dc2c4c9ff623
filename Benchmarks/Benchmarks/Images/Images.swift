import Benchmark
import ImageScenes

// Issue 40's image benchmark: a 4000x3000 JPEG shown at 1280x800, decoded by ImageDecoding (TurboJPEG at
// the DCT scale that covers the screen, into the bitmap) against libjpeg as djpeg decodes it at that
// scale (`djpeg -scale 3/8`), from the same bytes, in the same run. Goal: at most 1.1x. Peak memory is
// checked by `ImagesProfile check` (the bitmap plus at most 10 %).

nonisolated(unsafe) private var photo: PhotoScene?

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident], warmupIterations: 2, maxDuration: .seconds(10),
        maxIterations: 60)

    Benchmark("JPEG 4000x3000 shown at 1280x800: ImageDecoding", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(photo!.decode()) }
    } setup: {
        if photo == nil { photo = PhotoScene() }
    }

    Benchmark("JPEG 4000x3000 shown at 1280x800: libjpeg as djpeg -scale 3/8", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(photo!.baseline()) }
    } setup: {
        if photo == nil { photo = PhotoScene() }
    }
}
