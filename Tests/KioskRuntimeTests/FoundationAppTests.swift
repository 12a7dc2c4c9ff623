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

    /// Once the timer has fired, nothing wakes: no thread is switched in over 6 s (dispatchMain's worker thread
    /// had woken about 5 s after the last work), no CPU is used.
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
        // The snapshot of the last frame is written: nothing is left to do.
        Thread.sleep(forTimeInterval: 1)
        let before = Self.activity(of: process.processIdentifier)
        Thread.sleep(forTimeInterval: 6)
        let after = Self.activity(of: process.processIdentifier)
        #expect(before.switches == after.switches && before.cpuTicks == after.cpuTicks, "idle: \(before) then \(after)")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
    }

    /// Every thread's context switches, and the process's CPU time (ticks), from /proc.
    static func activity(of pid: Int32) -> (switches: Int, cpuTicks: Int) {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var switches = 0
        for task in tasks {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
            for line in status.split(separator: "\n") where line.contains("ctxt_switches:") {
                switches += Int(line.split(separator: "\t").last ?? "") ?? 0
            }
        }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // After the command's ")" : state is field 3, utime 14 and stime 15.
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        let ticks = fields.count > 13 ? (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) : 0
        return (switches, ticks)
    }
}
