// swift-tools-version: 6.2
import PackageDescription

/// Our own targets build in Swift 6 language mode (the tools-version default) with every warning an error.
let strict: [SwiftSetting] = [.treatAllWarnings(as: .error)]

/// Executables record only the libraries their code refers to: pango, cairo, libinput, xkbcommon and
/// libseat are reached through LazyLink's tables (loaded on first use), so they must not be loaded at
/// exec just because pkg-config put them on the link line.
let lazyLinking: [LinkerSetting] = [.unsafeFlags(["-Xlinker", "--as-needed"])]

let package = Package(
    name: "kiosk",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "KioskKit", targets: ["KioskKit"]),
        /// The run loop, backends and policies, for apps that bring their own `ApplicationDelegate`.
        .library(name: "KioskRuntime", targets: ["KioskRuntime"]),
        /// In-memory twins of a screen and a clock, and `KioskTester`, for unit tests of an app of your own.
        .library(name: "KioskTesting", targets: ["KioskTesting"]),
        /// The linear constraint solver under Auto Layout; a product for the benchmarks against kiwi.
        .library(name: "ConstraintSolver", targets: ["ConstraintSolver"]),
        /// The image decoders under `Image`; a product for the benchmarks against libjpeg.
        .library(name: "ImageDecoding", targets: ["ImageDecoding"]),
        .executable(name: "kiosk", targets: ["kiosk"]),
        .executable(name: "hello-kiosk", targets: ["HelloKiosk"]),
        .executable(name: "foundation-kiosk", targets: ["FoundationKiosk"]),
        .executable(name: "cafe-kiosk", targets: ["CafeKioskExample"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // `swift package generate-documentation` (scripts/docs): a command plugin, built only when it runs; a
        // package that depends on this one does not even fetch it (no target of ours uses it).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // Layer 1: C libraries, reached only through the wrappers above them.
        .systemLibrary(
            name: "CPixman", pkgConfig: "pixman-1",
            providers: [.apt(["libpixman-1-dev"])]),
        .systemLibrary(
            name: "CPangoCairo", pkgConfig: "pangocairo",
            providers: [.apt(["libcairo2-dev", "libpango1.0-dev"])]),
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(name: "CFBDev"),
        // The kernel's HDMI-CEC API (linux/cec.h): ioctls only, no library to link.
        .systemLibrary(name: "CCEC"),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        .systemLibrary(name: "CLibSeat", pkgConfig: "libseat", providers: [.apt(["libseat-dev"])]),
        // C libraries loaded on first use (LazyLink): a pointer per function, of the function's own type.
        .target(name: "CLazyLink"),
        .target(name: "CLazyLibSeat", dependencies: ["CLibSeat", "CLazyLink"]),
        .target(name: "CLazyLibInput", dependencies: ["CLibInput", "CLazyLink"]),
        .target(name: "CLazyXKBCommon", dependencies: ["CXKBCommon", "CLazyLink"]),
        .target(name: "CLazyPangoCairo", dependencies: ["CPangoCairo", "CLazyLink"]),
        .target(name: "CLazyPNG", dependencies: ["CPNG", "CLazyLink"]),
        .systemLibrary(name: "CPNG", pkgConfig: "libpng16", providers: [.apt(["libpng-dev"])]),
        // The image decoders (ImageDecoding), each loaded when its first image is decoded.
        .systemLibrary(name: "CJPEG", pkgConfig: "libturbojpeg", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebpdemux", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CGIF", providers: [.apt(["libgif-dev"])]),
        .systemLibrary(name: "CRSVG", pkgConfig: "librsvg-2.0", providers: [.apt(["librsvg2-dev"])]),
        .target(name: "CLazyJPEG", dependencies: ["CJPEG", "CLazyLink"]),
        .target(name: "CLazyWebP", dependencies: ["CWebP", "CLazyLink"]),
        .target(name: "CLazyGIF", dependencies: ["CGIF", "CLazyLink"]),
        .target(name: "CLazyRSVG", dependencies: ["CRSVG", "CLazyLink"]),
        .systemLibrary(name: "CLibInput", pkgConfig: "libinput", providers: [.apt(["libinput-dev"])]),
        .systemLibrary(name: "CXKBCommon", pkgConfig: "xkbcommon", providers: [.apt(["libxkbcommon-dev"])]),
        // libdispatch's main-queue interface for an event loop of our own (KioskRuntime's MainLoop).
        .systemLibrary(name: "CDispatchMainQueue"),
        // prctl(2), variadic in C, as one inline function per use.
        .systemLibrary(name: "CProcessControl"),
        // timerfd(2), not in Glibc's Swift module.
        .systemLibrary(name: "CTimerFD"),
        // SIGTERM, SIGINT and SIGHUP blocked from exec (a constructor) and read from a signalfd(2).
        .target(name: "CStopSignals"),
        // The build's configuration (debug or release) in an ELF note of every program on the runtime, which
        // scripts/install reads to refuse a debug build.
        .target(name: "CBuildNote"),

        // Layer 2: thin wrappers; no kiosk knowledge, no C types in their public API.
        .target(name: "Geometry", swiftSettings: strict),
        .target(
            name: "Graphics", dependencies: ["Geometry", "CPixman", "CPangoCairo", "CLazyPangoCairo", "LazyLink", "KioskTypes"],
            swiftSettings: strict),
        .target(name: "DRM", dependencies: ["CDRM", "Geometry"], swiftSettings: strict),
        .target(name: "Udev", dependencies: ["CUdev"], swiftSettings: strict),
        .target(name: "CEC", dependencies: ["CCEC"], swiftSettings: strict),
        .target(name: "LazyLink", dependencies: ["CLazyLink"], swiftSettings: strict),
        .target(name: "Seat", dependencies: ["CLibSeat", "CLazyLibSeat", "LazyLink"], swiftSettings: strict),
        // PNG files through libpng's simplified API, loaded on first use (the launch screen).
        .target(name: "PNG", dependencies: ["CPNG", "CLazyPNG", "LazyLink"], swiftSettings: strict),
        // Image files decoded into bitmaps: JPEG (libjpeg-turbo), WebP and GIF with their animations (libwebp,
        // giflib), SVG drawn at the size it is shown at (librsvg); each library loaded on first use.
        .target(
            name: "ImageDecoding",
            dependencies: ["Graphics", "LazyLink", "CLazyJPEG", "CLazyWebP", "CLazyGIF", "CLazyRSVG"],
            swiftSettings: strict),
        // The kernel's backlight class through sysfs (no C library): devices, levels; an in-memory twin.
        .target(name: "Backlight", swiftSettings: strict),
        // sd_notify(3) in pure Swift (no libsystemd): READY/WATCHDOG/STOPPING for the systemd unit.
        .target(name: "SystemdNotify", swiftSettings: strict),
        .target(name: "LibInput", dependencies: ["CLibInput", "CLazyLibInput", "LazyLink"], swiftSettings: strict),
        .target(name: "XKB", dependencies: ["CXKBCommon", "CLazyXKBCommon", "LazyLink"], swiftSettings: strict),

        // The linear constraint solver under Auto Layout (an incremental Cassowary simplex, as kiwi's).
        .target(name: "ConstraintSolver", swiftSettings: strict),

        // Dates in the proleptic Gregorian calendar and time zones from the system's tz database (TZif files
        // and their POSIX rules), without Foundation or ICU: the date picker's calendar.
        .target(name: "CivilTime", swiftSettings: strict),

        // The names of KioskKit's API that Foundation has too (IndexPath), for KioskKit's scoped re-export.
        .target(name: "KioskTypes", swiftSettings: strict),

        // Layer 4: the UIKit-style window model, pure Swift on the main actor.
        .target(
            name: "KioskKit",
            dependencies: [
                "CivilTime", "ConstraintSolver", "Graphics", "ImageDecoding", "KioskTypes",
                .product(name: "Logging", package: "swift-log"),
            ], swiftSettings: strict),
        // In-memory twins of a screen (InMemoryDisplayBackend) and a clock (ManualClock), and KioskTester,
        // which drives an app in a unit test: for this package's tests and for apps' own.
        .target(name: "KioskTesting", dependencies: ["KioskKit"], swiftSettings: strict),

        // The backend protocols (display, input, the seat session) and what every backend shares: the input
        // router, the touch mapping policy, the cursor, the debouncer, the in-memory input twin.
        .target(
            name: "KioskBackend",
            dependencies: [
                "KioskKit", "KioskConfig", "PNG",
                .product(name: "Logging", package: "swift-log"),
            ], swiftSettings: strict),

        // The seat session through libseat (or devices opened directly), shared by the hardware backends.
        .target(
            name: "SeatSession",
            dependencies: [
                "KioskBackend", "Seat",
                .product(name: "Logging", package: "swift-log"),
            ], swiftSettings: strict),

        // The libinput input backend: devices of the seat, keys through xkbcommon.
        .target(
            name: "LibInputBackend",
            dependencies: [
                "KioskBackend", "KioskConfig", "LibInput", "XKB",
                .product(name: "Logging", package: "swift-log"),
            ], swiftSettings: strict),

        // Layer 3: display backends.
        .target(
            name: "HeadlessDisplay",
            dependencies: [
                "KioskKit", "KioskBackend", "KioskConfig",
                .product(name: "Logging", package: "swift-log"),
            ], swiftSettings: strict),

        .target(
            name: "DRMDisplay",
            dependencies: [
                "KioskKit", "KioskBackend", "KioskConfig", "DRM", "Udev", "Backlight",
                .product(name: "Logging", package: "swift-log"),
            ], swiftSettings: strict),

        // HDMI-CEC: the screens' TVs follow their power (standby, wake); opens /dev/cecN itself.
        .target(
            name: "CECControl",
            dependencies: [
                "KioskKit", "KioskBackend", "KioskConfig", "CEC",
                .product(name: "Logging", package: "swift-log"),
            ], swiftSettings: strict),

        .target(
            name: "FBDevDisplay",
            dependencies: [
                "KioskKit", "KioskBackend", "KioskConfig", "CFBDev",
                .product(name: "Logging", package: "swift-log"),
            ], swiftSettings: strict),

        // Layer 5: the config file (TOML) and the runtime: run loop, backend choice, trace, the demo app.
        .target(
            name: "KioskConfig", dependencies: ["Geometry", "KioskTypes"], swiftSettings: strict),
        .target(
            name: "KioskRuntime",
            dependencies: [
                "KioskKit", "KioskConfig", "KioskBackend", "HeadlessDisplay", "DRMDisplay", "FBDevDisplay", "LibInputBackend",
                "SeatSession", "SystemdNotify", "CDispatchMainQueue", "CProcessControl", "CTimerFD", "CStopSignals", "CBuildNote",
                "CECControl",
                .product(name: "Logging", package: "swift-log"),
            ], swiftSettings: strict),

        // Layer 6: the executable.
        .executableTarget(
            name: "kiosk",
            dependencies: [
                "KioskKit", "KioskRuntime", "KioskConfig", "KioskBackend", "DRMDisplay", "LibInputBackend", "Udev", "CECControl",
                .product(name: "Logging", package: "swift-log"),
            ], swiftSettings: strict, linkerSettings: lazyLinking),

        // The documented example app (Examples/HelloKiosk): KioskKit with your own delegate.
        .executableTarget(
            name: "HelloKiosk", dependencies: ["KioskKit", "KioskConfig", "KioskRuntime"], path: "Examples/HelloKiosk",
            swiftSettings: strict, linkerSettings: lazyLinking),

        // An app of your own that imports Foundation (Examples/FoundationKiosk): compiles unchanged beside
        // KioskKit, its Timers and RunLoop.main work (the tests run it).
        .executableTarget(
            name: "FoundationKiosk", dependencies: ["KioskKit", "KioskRuntime"], path: "Examples/FoundationKiosk",
            swiftSettings: strict),

        // The getting-started article's app (Examples/CafeKiosk): built with the rest, so its listings compile.
        .executableTarget(
            name: "CafeKioskExample", dependencies: ["KioskKit", "KioskConfig", "KioskRuntime"], path: "Examples/CafeKiosk",
            swiftSettings: strict, linkerSettings: lazyLinking),

        .testTarget(name: "DRMTests", dependencies: ["DRM"], swiftSettings: strict),
        .testTarget(name: "ConstraintSolverTests", dependencies: ["ConstraintSolver", "SeededRandom"], swiftSettings: strict),
        .testTarget(name: "CivilTimeTests", dependencies: ["CivilTime"], swiftSettings: strict),
        .testTarget(name: "UdevTests", dependencies: ["Udev"], swiftSettings: strict),
        .testTarget(name: "CECTests", dependencies: ["CEC"], swiftSettings: strict),
        .testTarget(name: "BacklightTests", dependencies: ["Backlight"], swiftSettings: strict),
        .testTarget(name: "SeatTests", dependencies: ["Seat"], swiftSettings: strict),
        .testTarget(
            name: "CommandsTests",
            dependencies: [
                "KioskRuntime", "SeededRandom", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strict),
        .testTarget(
            name: "LazyLinkTests", dependencies: ["CLazyLink", "LazyLink", "Graphics", "LibInput", "XKB", "Seat"],
            swiftSettings: strict),
        .testTarget(name: "SystemdNotifyTests", dependencies: ["SystemdNotify"], swiftSettings: strict),
        .testTarget(name: "LibInputTests", dependencies: ["LibInput"], swiftSettings: strict),
        .testTarget(name: "XKBTests", dependencies: ["XKB"], swiftSettings: strict),
        .testTarget(name: "GeometryTests", dependencies: ["Geometry"], swiftSettings: strict),
        // Golden-image comparison shared by the test targets that keep goldens in their source tree.
        .target(name: "GoldenImages", dependencies: ["Graphics"], path: "Tests/GoldenImages", swiftSettings: strict),
        // The tests' seeded random numbers (SplitMix64), one generator for every suite that makes inputs.
        .target(name: "SeededRandom", path: "Tests/SeededRandom", swiftSettings: strict),
        .testTarget(
            name: "GraphicsTests", dependencies: ["Graphics", "GoldenImages", "SeededRandom"],
            resources: [.copy("Fixtures")], swiftSettings: strict),
        // The golden images are read from the source tree (#filePath), where failures write theirs beside them.
        .testTarget(
            name: "KioskKitTests", dependencies: ["KioskKit", "KioskTesting", "GoldenImages", "SeededRandom", "ImageDecoding"],
            exclude: ["Golden"], swiftSettings: strict),
        .testTarget(
            name: "KioskConfigTests", dependencies: ["KioskConfig", "SeededRandom", .product(name: "TOMLKit", package: "TOMLKit")],
            swiftSettings: strict),
        .testTarget(name: "KioskBackendTests", dependencies: ["KioskBackend", "KioskTesting", "XKB", "PNG"], swiftSettings: strict),
        .testTarget(
            name: "CECControlTests", dependencies: ["CECControl", "CEC", "KioskKit", "KioskTesting", "KioskConfig"], swiftSettings: strict),
        .testTarget(
            name: "DRMDisplayTests",
            dependencies: [
                "DRMDisplay", "DRM", "KioskConfig", "Backlight", "KioskKit", "KioskTesting",
                .product(name: "Logging", package: "swift-log"),
            ], swiftSettings: strict),
        // The test bundle gives back the signals CStopSignals blocks in every program that links the runtime.
        .target(name: "CTestProcessSignals", dependencies: ["CStopSignals"], path: "Tests/CTestProcessSignals"),
        .testTarget(
            name: "KioskRuntimeTests",
            dependencies: [
                "KioskRuntime", "KioskTesting", "HeadlessDisplay", "kiosk", "DRMDisplay", "CECControl", "CEC", "CTestProcessSignals",
                "GoldenImages",
            ],
            exclude: ["Golden"], swiftSettings: strict),
        .testTarget(
            name: "ImageDecodingTests", dependencies: ["ImageDecoding", "Graphics", "SeededRandom"],
            resources: [.copy("Fixtures")], swiftSettings: strict),
        .testTarget(name: "KioskTestingTests", dependencies: ["KioskKit", "KioskTesting"], swiftSettings: strict),
        // The getting-started app's tests, the testing article's example (Examples/CafeKioskTests).
        .testTarget(
            name: "CafeKioskTests", dependencies: ["CafeKioskExample", "KioskConfig", "KioskKit", "KioskTesting"],
            path: "Examples/CafeKioskTests", swiftSettings: strict),
    ]
)
