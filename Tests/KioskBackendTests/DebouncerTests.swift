import KioskTesting
import Testing

@testable import KioskBackend

/// A clock the test turns by hand: timing is not what is tested, coalescing is.
@MainActor
final class ManualClock {
    private(set) var now = 0.0
    private var items: [(due: Double, id: Int, work: @MainActor () -> Void)] = []
    private var nextID = 0

    func schedule(_ delay: Double, _ work: @escaping @MainActor () -> Void) -> (@MainActor () -> Void) {
        nextID += 1
        let id = nextID
        items.append((now + delay, id, work))
        return { [weak self] in self?.items.removeAll { $0.id == id } }
    }

    func advance(by seconds: Double) {
        now += seconds
        let due = items.filter { $0.due <= now }
        items.removeAll { $0.due <= now }
        for item in due { item.work() }
    }
}

@MainActor @Suite struct DebouncerTests {
    @Test func aBurstActsOnceAfterItEnds() {
        let clock = ManualClock()
        var runs = 0
        let debouncer = Debouncer(delay: 0.3, schedule: clock.schedule) { runs += 1 }
        // Five events 100 ms apart (a flapping link): each restarts the wait.
        for _ in 0..<5 {
            debouncer.signal()
            clock.advance(by: 0.1)
        }
        #expect(runs == 0 && debouncer.isPending)
        clock.advance(by: 0.2)
        #expect(runs == 1 && !debouncer.isPending)
        clock.advance(by: 5)
        #expect(runs == 1)
    }

    @Test func eventsFarApartEachAct() {
        let clock = ManualClock()
        var runs = 0
        let debouncer = Debouncer(delay: 0.3, schedule: clock.schedule) { runs += 1 }
        debouncer.signal()
        clock.advance(by: 0.5)
        debouncer.signal()
        clock.advance(by: 0.5)
        #expect(runs == 2)
    }

    /// The real scheduler acts too (no timing asserted: only that it runs once the main queue gets to it).
    @Test func theMainQueueSchedulerRuns() async {
        var runs = 0
        let debouncer = Debouncer(delay: 0) { runs += 1 }
        debouncer.signal()
        debouncer.signal()
        while debouncer.isPending { await Task.yield() }
        #expect(runs == 1)
    }
}
