import Foundation
import Testing

/// SIGTERM, SIGINT and SIGHUP at any moment of a start, on the built binary: none is lost, none kills the
/// kiosk before it can stop the normal way (exit 0, the last frames written), SIGHUP never ends it.
@Suite struct StopSignalTests {
    /// The delays after the program's first instruction at which a signal is sent: from the preinit array's
    /// block through the configuration, the text threads' start and the displays, to a running kiosk.
    static let delays: [Double] = [0, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.4]

    /// Starts a headless kiosk and returns it, with the pipe of its log, once its main thread blocks the
    /// three signals (the first code the program runs); nil if it never did within 10 s (a kiosk that leaves
    /// them to their default action for all of its start).
    static func startKiosk(in folder: URL) throws -> (Process, Pipe)? {
        let process = Process()
        process.executableURL = CommandLineTests.binary
        process.arguments = ["run", "--backend", "headless", "--snapshot-dir", folder.appendingPathComponent("shots").path]
        process.environment = [
            "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8", "KIOSK_CONFIG": folder.appendingPathComponent("none.toml").path,
        ]
        try "".write(to: folder.appendingPathComponent("none.toml"), atomically: true, encoding: .utf8)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let blocked = blockedSignals(of: process.processIdentifier), blocked & Self.stopMask == Self.stopMask {
                return (process, errors)
            }
        }
        process.terminate()
        process.waitUntilExit()
        return nil
    }

    /// SIGHUP, SIGINT and SIGTERM in a `SigBlk` mask (bit N-1 for signal N).
    static let stopMask: UInt64 = 1 << (UInt64(SIGHUP) - 1) | 1 << (UInt64(SIGINT) - 1) | 1 << (UInt64(SIGTERM) - 1)

    /// The main thread's blocked signals (`SigBlk` of /proc/PID/status).
    static func blockedSignals(of pid: Int32) -> UInt64? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") })
        else { return nil }
        return UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
    }

    /// Waits up to `seconds` for the process to end: its status, or nil if it still runs (then killed).
    static func exitStatus(of process: Process, within seconds: Double) -> (status: Int32, reason: Process.TerminationReason)? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return (process.terminationStatus, process.terminationReason)
    }

    @Test(arguments: delays) func aStopSignalAtAnyMomentStopsTheKiosk(delay: Double) throws {
        for signal in [SIGTERM, SIGINT] {
            let folder = try CommandLineTests.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let started = try Self.startKiosk(in: folder)
            let (process, errors) = try #require(started, "the kiosk never blocked SIGTERM, SIGINT and SIGHUP in its main thread")
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, signal)
            let ended = Self.exitStatus(of: process, within: 30)
            let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let outcome = try #require(
                ended, "signal \(signal) \(delay) s after the block was lost: the kiosk still ran 30 s later; \(log)")
            #expect(outcome.reason == .exit && outcome.status == 0, "signal \(signal) at \(delay) s: \(outcome); \(log)")
            #expect(log.contains("stopping: \(signal == SIGTERM ? "SIGTERM" : "SIGINT")"), "\(log)")
        }
    }

    /// A SIGHUP before the kiosk has read its configuration is a reload once it runs, never its end.
    @Test func aHangupDuringTheStartIsAReload() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = try Self.startKiosk(in: folder)
        let (process, errors) = try #require(started, "the kiosk never blocked SIGTERM, SIGINT and SIGHUP in its main thread")
        kill(process.processIdentifier, SIGHUP)
        // The reload is done once the kiosk runs: its snapshot exists then (the first frame is written).
        let snapshot = folder.appendingPathComponent("shots/HEADLESS-1.png").path
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning && !FileManager.default.fileExists(atPath: snapshot) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(process.isRunning, "SIGHUP ended the kiosk")
        kill(process.processIdentifier, SIGTERM)
        let ended = Self.exitStatus(of: process, within: 30)
        let log = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(ended?.reason == .exit && ended?.status == 0, "\(String(describing: ended)); \(log)")
        #expect(log.contains("SIGHUP: "), "the SIGHUP was no reload: \(log)")
    }
}
