import Testing

@testable import KioskKit

/// KioskKit's notification hub behaves as Foundation's block-based NotificationCenter does where apps rely
/// on it (order, object filtering, removal), and stops delivery when an observation is released.
@MainActor @Suite struct NotificationHubTests {
    final class Thing {}
    static let ping = NotificationName("ping")
    static let pong = NotificationName("pong")

    @Test func deliveryInOrderByNameAndObject() {
        let hub = NotificationHub()
        let (a, b) = (Thing(), Thing())
        var heard: [String] = []
        let all = hub.addObserver(forName: nil) { heard.append("all \($0.name)") }
        let pings = hub.addObserver(forName: Self.ping) { _ in heard.append("ping") }
        let fromA = hub.addObserver(forName: Self.ping, object: a) { note in heard.append("ping from a \(note.object === a)") }
        hub.post(name: Self.ping, object: b)
        hub.post(name: Self.ping, object: a, userInfo: ["n": 1])
        hub.post(name: Self.pong)
        #expect(heard == ["all ping", "ping", "all ping", "ping", "ping from a true", "all pong"])
        withExtendedLifetime((all, pings, fromA)) {}
    }

    @Test func userInfoReachesTheObserver() {
        let hub = NotificationHub()
        var frame: Rect?
        let observation = hub.addObserver(forName: Self.ping) { frame = $0.userInfo["frame"] as? Rect }
        hub.post(name: Self.ping, userInfo: ["frame": Rect(x: 1, y: 2, width: 3, height: 4)])
        #expect(frame == Rect(x: 1, y: 2, width: 3, height: 4))
        withExtendedLifetime(observation) {}
    }

    /// An observer removed by an earlier handler of the same notification is not called; one added by a
    /// handler hears the next notification, not this one.
    @Test func changesDuringDelivery() {
        let hub = NotificationHub()
        var heard: [String] = []
        var second: NotificationObservation?
        var late: NotificationObservation?
        let first = hub.addObserver(forName: Self.ping) { _ in
            heard.append("first")
            second?.remove()
            if late == nil { late = hub.addObserver(forName: Self.ping) { _ in heard.append("late") } }
        }
        second = hub.addObserver(forName: Self.ping) { _ in heard.append("second") }
        hub.post(name: Self.ping)
        hub.post(name: Self.ping)
        #expect(heard == ["first", "first", "late"])
        withExtendedLifetime(first) {}
    }

    /// Releasing the observation ends delivery: an object that owns its observations needs no deinit.
    @Test func releasedObservationsStop() {
        let hub = NotificationHub()
        var count = 0
        var observation: NotificationObservation? = hub.addObserver(forName: Self.ping) { _ in count += 1 }
        hub.post(name: Self.ping)
        observation = nil
        hub.post(name: Self.ping)
        #expect(count == 1 && hub.observerCount == 0 && observation == nil)
    }

    /// An observer of one object does not keep it alive, and hears nothing once it is gone.
    @Test func observedObjectsAreNotRetained() {
        let hub = NotificationHub()
        var thing: Thing? = Thing()
        weak let weakThing = thing
        var count = 0
        let observation = hub.addObserver(forName: Self.ping, object: thing) { _ in count += 1 }
        thing = nil
        #expect(weakThing == nil)
        hub.post(name: Self.ping, object: Thing())
        #expect(count == 0)
        withExtendedLifetime(observation) {}
    }
}
