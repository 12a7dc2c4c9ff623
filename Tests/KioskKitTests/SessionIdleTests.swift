import KioskTesting
import Testing

@testable import KioskKit

/// The session's idle timer (`Application.sessionIdleTimeout`) on a manual clock: the notification, the
/// hook and the instrumentation event after N seconds without input, once per idle period, rearmed by the
/// next input, one timer while it counts and none while idle or off; and once on the real clock.
@MainActor
@Suite(.serialized)
struct SessionIdleTests {
    /// A test bed on a manual clock at 0, with what the session posts recorded as `"<what> <timeout>"` lines.
    @MainActor
    final class Session {
        let bed = TestBed()
        let clock = ManualClock(now: 0)
        private(set) var log: [String] = []
        private var observation: NotificationObservation?
        private var events: InstrumentationToken?

        init() {
            bed.app.clock = clock
            observation = bed.center.addObserver(forName: Application.sessionDidBecomeIdleNotification) { [weak self] note in
                #expect(note.object === self?.bed.app)
                self?.log.append("notification \(note.userInfo["timeout"] as? TimeInterval ?? -1)")
            }
            events = bed.app.instrumentation.observe { [weak self] event in
                if case .sessionDidBecomeIdle(let timeout) = event { self?.log.append("event \(timeout)") }
            }
            bed.app.onSessionIdle = { [weak self] in self?.log.append("hook") }
        }

        var app: Application { bed.app }

        /// A tap at `time` (the clock moved there first).
        func tap(at time: TimeInterval) {
            clock.advance(to: time)
            let touch = bed.touchDown(at: Point(x: 10, y: 10), time: time)
            bed.touch(touch, .ended, time: time)
        }

        /// The log so far, then cleared.
        func take() -> [String] {
            defer { log = [] }
            return log
        }
    }

    @Test func theSessionBecomesIdleAfterTheTimeoutWithoutInput() {
        let session = Session()
        session.app.sessionIdleTimeout = 10
        #expect(session.clock.pendingTimers.count == 1)
        session.clock.advance(to: 9.9)
        #expect(session.take().isEmpty && !session.app.isSessionIdle)
        session.clock.advance(to: 10)
        // The trace's event first, then the app's hook, then its observers.
        #expect(session.take() == ["event 10.0", "hook", "notification 10.0"])
        #expect(session.app.isSessionIdle)
        // Idle: nothing waits.
        #expect(session.clock.pendingTimers.isEmpty)
    }

    @Test func inputStartsTheIdlePeriodAgain() {
        let session = Session()
        session.app.sessionIdleTimeout = 10
        session.tap(at: 5)
        session.tap(at: 6)
        // Input notes its time; the one timer stays.
        #expect(session.clock.pendingTimers.count == 1)
        session.clock.advance(to: 15.9)
        #expect(session.take().isEmpty)
        #expect(session.clock.pendingTimers.count == 1)
        session.clock.advance(to: 16)
        #expect(session.take() == ["event 10.0", "hook", "notification 10.0"])
    }

    @Test func itPostsOncePerIdlePeriodAndTheNextInputRearmsIt() {
        let session = Session()
        session.app.sessionIdleTimeout = 10
        session.clock.advance(to: 1000)
        #expect(session.take().count == 3)
        #expect(session.clock.pendingTimers.isEmpty)
        session.tap(at: 1200)
        #expect(!session.app.isSessionIdle && session.clock.pendingTimers.count == 1)
        session.clock.advance(to: 1209.9)
        #expect(session.take().isEmpty)
        session.clock.advance(to: 1210)
        #expect(session.take() == ["event 10.0", "hook", "notification 10.0"])
    }

    @Test func aKeyAndItsRepeatsCountAsInput() {
        let session = Session()
        let window = session.bed.window("main")
        #expect(window.isKeyWindow)
        session.app.sessionIdleTimeout = 2
        let press = Press(phase: .began, keysym: 0x61, text: "a", timestamp: 1, keyCode: 30, repeats: true)
        session.clock.advance(to: 1)
        session.app.sendEvent(Event(presses: [press], timestamp: 1))
        // Held for 10 s: it repeats (600 ms, then 25 a second), and the session does not end.
        session.clock.advance(to: 11)
        #expect(session.take().isEmpty)
        session.app.sendEvent(Event(presses: [Press(phase: .ended, keysym: 0x61, text: "", timestamp: 11, keyCode: 30)], timestamp: 11))
        session.clock.advance(to: 12.9)
        #expect(session.take().isEmpty)
        session.clock.advance(to: 13.1)
        #expect(session.take().count == 3)
    }

    @Test(arguments: [nil, 0, -5, .infinity] as [TimeInterval?])
    func noTimeoutIsOff(timeout: TimeInterval?) {
        let session = Session()
        session.app.sessionIdleTimeout = timeout
        session.tap(at: 1)
        #expect(session.clock.pendingTimers.isEmpty)
        session.clock.advance(to: 1_000_000)
        #expect(session.take().isEmpty && !session.app.isSessionIdle)
    }

    @Test func turningItOffStopsTheTimerAndANewTimeoutCountsFromThen() {
        let session = Session()
        session.app.sessionIdleTimeout = 10
        session.clock.advance(to: 5)
        session.app.sessionIdleTimeout = nil
        #expect(session.clock.pendingTimers.isEmpty)
        session.clock.advance(to: 100)
        session.app.sessionIdleTimeout = 20
        session.clock.advance(to: 119.9)
        #expect(session.take().isEmpty)
        session.clock.advance(to: 120)
        #expect(session.take() == ["event 20.0", "hook", "notification 20.0"])
        // A new timeout while idle: still idle, nothing posted again until input starts a session.
        session.app.sessionIdleTimeout = 5
        session.clock.advance(to: 500)
        #expect(session.take().isEmpty && session.clock.pendingTimers.isEmpty)
        session.tap(at: 600)
        session.clock.advance(to: 605)
        #expect(session.take() == ["event 5.0", "hook", "notification 5.0"])
    }

    @Test func theRealClocksTimerFires() async throws {
        let application = Application.reset()
        var idle = 0
        application.onSessionIdle = { idle += 1 }
        application.sessionIdleTimeout = 0.05
        let start = application.clock.now
        while idle == 0 && application.clock.now < start + 5 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(idle == 1 && application.isSessionIdle)
        #expect(application.clock.now - start >= 0.05)
        // Once: idle, nothing more comes.
        try await Task.sleep(for: .milliseconds(150))
        #expect(idle == 1)
        application.sessionIdleTimeout = nil
    }
}
