import Foundation
import KioskConfig
import KioskKit
import KioskTesting
import Testing

@testable import KioskRuntime

/// The session's idle timer beside display power, and `session-timeout` as the runtime reports a change of it.
@MainActor
@Suite(.serialized)
struct SessionIdleRuntimeTests {
    /// Display power counts the same input and is not moved by the session: the session ends at 10 s with
    /// the screen on, the screen turns off at 30 s, and a touch that wakes it starts a new session.
    @Test func displayPowerIsApartFromTheSession() {
        let application = Application.reset()
        let clock = ManualClock(now: 100)
        application.clock = clock
        let backend = InMemoryDisplayBackend()
        let screen = backend.connect("HDMI-A-1", modes: [Screen.Mode(width: 1280, height: 720, refreshRate: 60)])
        let power = PowerManager(application: application, idleTimeout: 30)
        defer { power.stop() }
        var idle = 0
        application.onSessionIdle = { idle += 1 }
        application.sessionIdleTimeout = 10
        PowerManagerTests.tap(application, on: screen, at: 105, clock: clock)
        clock.advance(to: 115)
        #expect(idle == 1 && screen.powerState == .on)
        clock.advance(to: 135.1)
        #expect(idle == 1 && screen.powerState == .off && backend.powerLog == ["HDMI-A-1 off"])
        // The session's end set no timer of its own; the screen off, nothing waits.
        #expect(clock.pendingTimers.isEmpty)
        PowerManagerTests.tap(application, on: screen, at: 200, clock: clock)
        #expect(screen.powerState == .on && !application.isSessionIdle)
        clock.advance(to: 210.1)
        #expect(idle == 2 && screen.powerState == .on)
        application.sessionIdleTimeout = nil
    }

    @Test func aChangedSessionTimeoutIsReportedAsAppliedLive() {
        let old = KioskConfiguration()
        var new = old
        new.sessionTimeoutSeconds = 120
        #expect(KioskRuntime.changes(from: old, to: new).map { "\($0.key) \($0.reload)" } == ["session-timeout live"])
    }
}

/// The built `kiosk` reloading `session-timeout` (off the main actor: the test waits for its trace).
@Suite struct SessionIdleReloadTests {
    /// `kiosk run` without a session timeout, then a reload that sets one: the trace says it was applied,
    /// and a `session.idle` line follows a second later (no input reaches a headless kiosk).
    @Test func aReloadAppliesTheSessionTimeoutAndTheTraceWritesSessionIdle() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("kiosk.toml")
        try "session-timeout = 0\n".write(to: config, atomically: true, encoding: .utf8)
        let trace = folder.appendingPathComponent("trace.jsonl")
        let process = try ConfigurationModelTests.startKiosk([
            "run", "--config", config.path, "--backend", "headless", "--snapshot-dir", folder.path, "--trace", trace.path,
            "--control-socket", "off", "--exit-after", "20",
        ])
        defer { if process.isRunning { process.terminate() } }
        func events(_ name: String) -> [[String: Any]] {
            ConfigurationModelTests.trace(trace).filter { $0["event"] as? String == name }
        }
        ConfigurationModelTests.wait(for: "the first frame") { !events("frame").isEmpty }
        Thread.sleep(forTimeInterval: 1.2)
        #expect(events("session.idle").isEmpty, "no session timeout yet")
        try "session-timeout = 1\n".write(to: config, atomically: true, encoding: .utf8)
        kill(process.processIdentifier, SIGHUP)
        ConfigurationModelTests.wait(for: "the reload") { !events("config.reload").isEmpty }
        #expect(events("config.reload").last?["applied"] as? [String] == ["session-timeout"])
        ConfigurationModelTests.wait(for: "session.idle") { !events("session.idle").isEmpty }
        let idle = try #require(events("session.idle").first)
        #expect(idle["timeout"] as? Double == 1 && idle["at"] is Double)
        process.terminate()
        process.waitUntilExit()
        #expect(events("session.idle").count == 1, "once per idle period")
    }
}
