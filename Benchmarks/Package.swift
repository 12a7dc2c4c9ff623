// swift-tools-version: 6.2
import PackageDescription

// A package of its own, so that the kiosk's build and `swift test` never compile package-benchmark.
// It depends on the kiosk package by path. SwiftPM names a path dependency after its folder (this
// checkout's folder, whatever it is called), so that identity is derived from where this manifest lives.
let kioskPackage = Context.packageDirectory.split(separator: "/").dropLast().last.map { String($0).lowercased() } ?? "main"

let package = Package(
    name: "KioskBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        // Naming the traits keeps MallocInterposer and drops the default RuntimeInterposer trait, whose
        // package (swift-runtime-interposer) is not among the offline packages here.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // pixman itself, for the raw baseline (the kiosk's own CPixman is not a product).
        .systemLibrary(
            name: "CPixmanBaseline", path: "Sources/CPixmanBaseline", pkgConfig: "pixman-1",
            providers: [.apt(["libpixman-1-dev"])]),

        // The scenes and baselines, shared by the benchmarks and the profiling driver.
        .target(
            name: "CompositionScenes",
            dependencies: [
                .product(name: "KioskKit", package: kioskPackage),
                .product(name: "KioskTesting", package: kioskPackage),
                "CPixmanBaseline",
            ]),

        // libjpeg-turbo's libjpeg API as djpeg calls it, the image benchmarks' baseline (and their JPEG's maker).
        .target(name: "CJPEGBaseline", linkerSettings: [.linkedLibrary("jpeg")]),

        // A photo decoded at the size it is shown at, by ImageDecoding and by libjpeg as djpeg decodes it.
        .target(
            name: "ImageScenes",
            dependencies: [.product(name: "ImageDecoding", package: kioskPackage), "CJPEGBaseline"]),

        // kiwi behind a C interface, the layout benchmarks' baseline (headers from scripts/fetch-kiwi.sh).
        .target(name: "CKiwiBaseline", cxxSettings: [.headerSearchPath(".")]),

        // The layout systems (a screen of views and constraints), solved by ConstraintSolver and by kiwi.
        .target(
            name: "LayoutSystems",
            dependencies: [.product(name: "ConstraintSolver", package: kioskPackage), "CKiwiBaseline"]),

        // `swift package benchmark` runs these.
        .executableTarget(
            name: "Composition",
            dependencies: [
                "CompositionScenes",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Composition",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),

        .executableTarget(
            name: "Layout",
            dependencies: [
                "LayoutSystems",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Layout",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),

        .executableTarget(
            name: "Images",
            dependencies: [
                "ImageScenes",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/Images",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),

        // The photo's decode in a plain loop (callgrind) and `check` (same pixels as libjpeg's, peak memory).
        .executableTarget(name: "ImagesProfile", dependencies: ["ImageScenes"]),

        // The layout systems in a plain loop for callgrind, and `check`: both solvers find the same values.
        .executableTarget(name: "LayoutProfile", dependencies: ["LayoutSystems"]),

        // The same scenarios in a plain loop, for `valgrind --tool=callgrind` (perf counters are not
        // available on these machines; callgrind's instruction counts are repeatable).
        .executableTarget(name: "CompositionProfile", dependencies: ["CompositionScenes"]),
    ],
    cxxLanguageStandard: .cxx17
)
