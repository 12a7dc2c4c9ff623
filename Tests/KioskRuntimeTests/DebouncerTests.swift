@testable import KioskRuntime
import Testing

@MainActor @Suite struct DebouncerTests {
    @Test func aBurstActsOnceAfterItEnds() async throws {
        var runs = 0
        // A wide margin between the events' spacing (20 ms) and the delay (500 ms): a loaded machine may
        // sleep long, and the check is about coalescing, not timing.
        let debouncer = Debouncer(delay: 0.5) { runs += 1 }
        for _ in 0..<5 {
            debouncer.signal()
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(runs == 0 && debouncer.isPending)
        try await Task.sleep(for: .milliseconds(1200))
        #expect(runs == 1 && !debouncer.isPending)
    }

    @Test func eventsFarApartEachAct() async throws {
        var runs = 0
        let debouncer = Debouncer(delay: 0.05) { runs += 1 }
        debouncer.signal()
        try await Task.sleep(for: .milliseconds(300))
        debouncer.signal()
        try await Task.sleep(for: .milliseconds(300))
        #expect(runs == 2)
    }
}
