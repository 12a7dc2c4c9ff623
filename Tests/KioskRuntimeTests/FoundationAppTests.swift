import Foundation
import Testing

/// An app that imports Foundation beside KioskKit (`foundation-kiosk`, Examples/FoundationKiosk): it compiles
/// unchanged (that it is built at all is the check on `IndexPath` and `AffineTransform`), its Timer,
/// RunLoop.main.perform and NotificationCenter work (the runtime runs CoreFoundation's main run loop), the run
/// loop sleeps when nothing happens, and SIGTERM stops it the normal way.
@Suite struct FoundationAppTests {
    static let app = CommandLineTests.binary.deletingLastPathComponent().appendingPathComponent("foundation-kiosk")

    static let fired = [
        "foundation-kiosk: index path 0,0; transform identity true", "foundation-kiosk: run loop perform",
        "foundation-kiosk: timer fired", "foundation-kiosk: notification Garden",
    ]

    @Test func foundationsTimersAndRunLoopWork() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CommandLineTests.run(
            Self.app, ["--exit-after", "1.5", "--snapshot-dir", folder.path], environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n").map(String.init) == Self.fired, "\(result.stdout)")
    }

    /// Once the timer has fired and its frame is out, nothing wakes: no thread is switched in over 6 s
    /// (dispatchMain's worker thread had woken about 5 s after the last work), no CPU is used.
    @Test func theRunLoopSleepsWhenIdle() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = Self.app
        process.arguments = ["--snapshot-dir", folder.path]
        process.environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var heard = ""
        let reader = output.fileHandleForReading
        while !heard.contains("notification Garden") {
            let data = reader.availableData
            guard !data.isEmpty else { break }
            heard += String(decoding: data, as: UTF8.self)
        }
        #expect(heard.contains("notification Garden"), "\(heard)")
        // Once the last frame is composed and its snapshot written (later on a loaded machine), 6 s pass
        // without a thread switched in or a tick of CPU: a waker every few seconds never gives them.
        let idle = Settling.quietWindow(of: process.processIdentifier, seconds: 6)
        #expect(idle.quiet, "never idle for 6 s within a minute; activity: \(idle.changes.suffix(5))")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }
}
