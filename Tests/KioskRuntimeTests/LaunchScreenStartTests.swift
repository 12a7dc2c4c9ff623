import Foundation
import Graphics
import Testing

/// `launch-screen` on the built binary: a file named that cannot be read stops the start (exit 3) on every
/// backend, naming the setting and the file; the headless backend, whose snapshots are the app's frames,
/// says that it shows none.
@Suite struct LaunchScreenStartTests {
    @Test func aFileThatCannotBeReadStopsTheStart() throws {
        let folder = try CommandLineTests.temporaryFolder()
        let result = try CommandLineTests.kiosk(
            ["run", "--backend", "headless", "--launch-screen", "/nonexistent/launch.png", "--exit-after", "5"], in: folder)
        #expect(result.status == 3, "\(result.stderr)")
        #expect(
            result.stderr.contains(
                "kiosk: error: cannot read the launch screen (launch-screen) /nonexistent/launch.png: No such file or directory"),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("snapshots").path))
    }

    @Test func theHeadlessBackendSaysItShowsNone() throws {
        let folder = try CommandLineTests.temporaryFolder()
        let picture = folder.appendingPathComponent("launch.png").path
        try Bitmap(width: 8, height: 8, format: .xrgb8888).writePNG(to: picture)
        let result = try CommandLineTests.kiosk(
            ["run", "--backend", "headless", "--launch-screen", picture, "--exit-after", "0.5", "--log-level", "info"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stderr.contains("launch-screen: the headless backend shows none (its snapshots are the app's frames)"),
            "\(result.stderr)")
    }
}
