import Foundation
import KioskRuntime
import Testing

/// The start-up timeline, and an idle kiosk that does nothing at all.
@Suite struct StartupTests {
    /// Every phase of a start is in the trace, in order, in milliseconds since exec.
    @Test func theTraceHasTheTimeline() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("trace.jsonl")
        let result = try CommandLineTests.kiosk([
            "run", "--backend", "headless", "--snapshot-dir", folder.path, "--exit-after", "0.5", "--trace", trace.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let startup = ConfigurationModelTests.trace(trace).filter { $0["event"] as? String == "startup" }
        let phases = startup.compactMap { $0["phase"] as? String }
        // Headless has no input devices: the timeline ends at the first flip.
        #expect(phases == ["main", "configuration", "backend", "displays", "fonts", "launched", "first-frame", "first-flip"])
        let times = startup.compactMap { ($0["ms"] as? NSNumber)?.doubleValue }
        #expect(times.count == phases.count && zip(times, times.dropFirst()).allSatisfy { $0 <= $1 } && times[0] > 0, "\(times)")
    }

    /// The demo's alert comes in animated: `animation.begin` and `animation.end` lines name its views (the
    /// dimmed backdrop and the card), their properties and the presentation's duration, and frame lines carry when each was shown (headless has no vblank: when
    /// the output showed it), a refresh period or more apart while it animates.
    @Test func theTraceHasTheAnimationsAndTheFlipTimes() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("trace.jsonl")
        let result = try CommandLineTests.kiosk([
            // Time for the alert's 0.3 s entrance on a loaded machine.
            "run", "--backend", "headless", "--snapshot-dir", folder.path, "--exit-after", "3", "--trace", trace.path,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = ConfigurationModelTests.trace(trace)
        let begin = lines.first { $0["event"] as? String == "animation.begin" }
        let end = lines.first { $0["event"] as? String == "animation.end" }
        #expect(begin?["views"] as? [String] == ["alert.backdrop", "alert.card"])
        #expect(begin?["properties"] as? [String] == ["alert.backdrop.alpha", "alert.card.alpha", "alert.card.transform"])
        #expect((begin?["duration"] as? NSNumber)?.doubleValue == 0.3)  // ViewController.presentationDuration
        #expect(end?["finished"] as? Bool == true)
        let frames = lines.filter { $0["event"] as? String == "frame" }
        let flips = frames.compactMap { ($0["flip"] as? NSNumber)?.doubleValue }
        // How many frames the 0.3 s entrance gets depends on the machine's load (five or more on a quiet one,
        // two under three parallel builds): at least the first and the end state.
        #expect(flips.count == frames.count && frames.count >= 2, "\(frames)")
        #expect(frames.allSatisfy { $0["vblank"] as? Bool == false })
        // 60 Hz: never two frames within a period (less a little for the clock's rounding).
        #expect(zip(flips, flips.dropFirst()).allSatisfy { $1 - $0 >= 1.0 / 60 - 0.001 }, "\(flips)")
    }

    @Test func processStartIsBeforeNow() {
        let start = StartupTimeline.processStart()
        let now = StartupTimeline.now()
        #expect(start <= now && now - start < 3600)
    }

    /// Between events an idle kiosk's threads do not run at all: no thread wakes (the main thread sleeps in
    /// poll on the main queue, libdispatch's manager in epoll) and no CPU time is added.
    @Test func anIdleKioskDoesNothing() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // (The demo's clock wakes once a minute, on the minute: a window it falls in starts again after it.)
        let process = Process()
        process.executableURL = CommandLineTests.binary
        process.arguments = ["run", "--backend", "headless", "--snapshot-dir", folder.path, "--exit-after", "70"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // After the launch (its alert's entrance, its snapshots; later on a loaded machine): 3 s quiet.
        let idle = Settling.quietWindow(of: process.processIdentifier, seconds: 3)
        #expect(idle.quiet, "threads came, went or woke, or CPU time went up, all the time: \(idle.changes.suffix(5))")
    }
}
