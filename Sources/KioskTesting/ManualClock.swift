import KioskKit

/// A clock that moves only when told (`advance(to:)`, `advance(by:)`), running the timers that come due
/// in deadline order: for tests of animations and frame pacing without waiting.
@MainActor
public final class ManualClock: FrameClock {
    public private(set) var now: TimeInterval
    private var timers: [(timer: FrameTimer, action: @MainActor () -> Void)] = []

    public init(now: TimeInterval = 0) {
        self.now = now
    }

    public func schedule(at deadline: TimeInterval, _ action: @escaping @MainActor () -> Void) -> FrameTimer {
        let timer = FrameTimer(deadline: deadline)
        timers.append((timer, action))
        return timer
    }

    /// Timers not yet run or cancelled.
    public var pendingTimers: [FrameTimer] {
        timers.map(\.timer).filter { !$0.isCancelled }
    }

    /// Moves to `time`, running each timer due by then at its own deadline, earliest first (timers the
    /// actions schedule included).
    public func advance(to time: TimeInterval) {
        while true {
            timers.removeAll { $0.timer.isCancelled }
            guard
                let next = timers.enumerated().filter({ $0.element.timer.deadline <= time })
                    .min(by: { $0.element.timer.deadline < $1.element.timer.deadline })
            else { break }
            timers.remove(at: next.offset)
            now = max(now, next.element.timer.deadline)
            next.element.action()
        }
        now = max(now, time)
    }

    public func advance(by seconds: TimeInterval) { advance(to: now + seconds) }

    /// Moves to `time` without running the timers due by then, as a main thread held by other work (a
    /// loaded machine) sees the clock move on: they run at the next `advance`.
    public func stall(until time: TimeInterval) { now = max(now, time) }
}
