import Testing

@testable import KioskKit

/// The instrumentation seam itself: several listeners, tokens that stop delivery when cancelled or
/// released, the listeners a delivery works on, and nothing built or called while nobody listens.
@MainActor
struct InstrumentationTests {
    let instrumentation = Instrumentation()
    let screen = Screen(name: "Virtual-1", driver: nil, registered: false)

    /// The screen name of an `activity` event (`none` for a key's), nil for any other event.
    private func activityScreen(_ event: InstrumentationEvent) -> String? {
        if case .activity(let screen) = event { return screen?.name ?? "none" }
        return nil
    }

    @Test func everyListenerHearsEachEventInTheOrderAdded() {
        var heard: [String] = []
        let first = instrumentation.observe { heard.append("first " + (activityScreen($0) ?? "?")) }
        let second = instrumentation.observe { heard.append("second " + (activityScreen($0) ?? "?")) }
        instrumentation.post(.activity(screen))
        instrumentation.post(.activity(nil))
        #expect(heard == ["first Virtual-1", "second Virtual-1", "first none", "second none"])
        withExtendedLifetime((first, second)) {}
    }

    @Test func aCancelledTokenStopsDeliveryAndTheOthersGoOn() {
        var first = 0
        var second = 0
        let a = instrumentation.observe { _ in first += 1 }
        let b = instrumentation.observe { _ in second += 1 }
        instrumentation.post(.activity(nil))
        a.cancel()
        a.cancel()
        instrumentation.post(.activity(nil))
        #expect(!a.isActive && b.isActive)
        #expect(first == 1 && second == 2)
        b.cancel()
        #expect(!instrumentation.isObserved)
    }

    @Test func aReleasedTokenStopsDelivery() {
        var heard = 0
        var token: InstrumentationToken? = instrumentation.observe { _ in heard += 1 }
        instrumentation.post(.activity(nil))
        #expect(token?.isActive == true)
        token = nil
        instrumentation.post(.activity(nil))
        #expect(heard == 1)
        #expect(!instrumentation.isObserved)
    }

    /// A listener added while an event is delivered hears the next one, not that one.
    @Test func aListenerAddedDuringDeliveryHearsTheNextEvent() {
        var late: [String] = []
        var lateToken: InstrumentationToken?
        let first = instrumentation.observe { [instrumentation] event in
            guard lateToken == nil else { return }
            lateToken = instrumentation.observe { late.append(activityScreen($0) ?? "?") }
        }
        instrumentation.post(.activity(screen))
        #expect(late.isEmpty)
        instrumentation.post(.activity(nil))
        #expect(late == ["none"])
        withExtendedLifetime((first, lateToken)) {}
    }

    /// A listener cancelled by another during a delivery is not called for that event.
    @Test func aListenerCancelledDuringDeliveryIsNotCalledAgain() {
        var second = 0
        var secondToken: InstrumentationToken?
        let first = instrumentation.observe { _ in secondToken?.cancel() }
        secondToken = instrumentation.observe { _ in second += 1 }
        instrumentation.post(.activity(nil))
        #expect(second == 0)
        #expect(secondToken?.isActive == false)
        withExtendedLifetime(first) {}
    }

    /// With no listener the event is never built: its payload (an animation's list of views) costs nothing.
    @Test func withoutListenersNothingIsBuiltOrCalled() {
        var built = 0
        func event() -> InstrumentationEvent {
            built += 1
            return .activity(nil)
        }
        #expect(!instrumentation.isObserved)
        instrumentation.post(event())
        #expect(built == 0)
        let token = instrumentation.observe { _ in }
        instrumentation.post(event())
        #expect(built == 1)
        token.cancel()
        instrumentation.post(event())
        #expect(built == 1)
    }

    /// An application's toolkit posts there: the activity of an event routed with no window to take it.
    @Test func anApplicationPostsItsEvents() {
        let application = Application(notificationCenter: NotificationHub())
        var heard: [String] = []
        let token = application.instrumentation.observe { if let name = activityScreen($0) { heard.append(name) } }
        defer { token.cancel() }
        let other = application.instrumentation.observe { if let name = activityScreen($0) { heard.append("other " + name) } }
        defer { other.cancel() }
        application.sendEvent(Event(presses: [], timestamp: 0))
        #expect(heard == ["none", "other none"])
    }
}
