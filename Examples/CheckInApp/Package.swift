// swift-tools-version: 6.2
// An app of your own in a package of its own, on the kiosk runtime (README.md beside this file).
import PackageDescription

let package = Package(
    name: "CheckInApp",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "checkin-kiosk", targets: ["CheckInApp"])
    ],
    dependencies: [
        // The kiosk runtime from this checkout, named "kiosk" whatever the clone's folder is called (SwiftPM
        // names a path dependency after its folder). An app kept elsewhere names the repository instead,
        // whose package is then named after it: .package(url: "https://example.org/you/kiosk.git", branch: "main").
        .package(name: "kiosk", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "CheckInApp",
            dependencies: [
                .product(name: "KioskKit", package: "kiosk"),
                .product(name: "KioskRuntime", package: "kiosk"),
            ],
            // Copied into CheckInApp_CheckInApp.resources beside the executable (PACKAGE_TARGET.resources);
            // scripts/install --app installs that folder beside the installed executable.
            resources: [.copy("Resources/welcome.txt")],
            swiftSettings: [.treatAllWarnings(as: .error)])
    ]
)
