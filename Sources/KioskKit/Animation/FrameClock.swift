import Dispatch
import Glibc

/// The time animations and display links run on, and the one timer they use when a display gives no
/// vblank events: `CLOCK_MONOTONIC` seconds, the clock of DRM's page-flip timestamps, in the kiosk; a
/// clock the test moves by hand in tests (`ManualClock`).
@MainActor
public protocol FrameClock: AnyObject {
    /// Now, in seconds (CLOCK_MONOTONIC in the kiosk).
    var now: TimeInterval { get }
    /// Runs `action` on the main actor once `deadline` (same clock) has come; cancelling the returned
    /// timer before then means it never runs. At most a handful exist at once, and none when nothing
    /// animates.
    func schedule(at deadline: TimeInterval, _ action: @escaping @MainActor () -> Void) -> FrameTimer
}

/// A timer made by a `FrameClock`.
@MainActor
public final class FrameTimer {
    public let deadline: TimeInterval
    public private(set) var isCancelled = false
    private let onCancel: () -> Void

    public init(deadline: TimeInterval, onCancel: @escaping () -> Void = {}) {
        self.deadline = deadline
        self.onCancel = onCancel
    }

    public func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        onCancel()
    }
}

/// CLOCK_MONOTONIC and the main dispatch queue: what the kiosk runs on.
@MainActor
public final class MonotonicClock: FrameClock {
    public init() {}

    /// Calls `clock_gettime(CLOCK_MONOTONIC)`.
    public var now: TimeInterval {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return TimeInterval(spec.tv_sec) + TimeInterval(spec.tv_nsec) / 1e9
    }

    public func schedule(at deadline: TimeInterval, _ action: @escaping @MainActor () -> Void) -> FrameTimer {
        // A timer source, which `cancel()` really removes. A cancelled `asyncAfter` work item does not run,
        // but dispatch still wakes the process at its deadline to find that out: measured, 50 control socket
        // clients that came and went (an idle timer each, cancelled) woke an idle kiosk 28 times.
        let source = DispatchSource.makeTimerSource(queue: .main)
        // DispatchTime counts CLOCK_MONOTONIC nanoseconds on Linux, the same clock as `now`.
        let delay = max(deadline - now, 0)
        source.schedule(deadline: .now() + .nanoseconds(Int(delay * 1e9)))
        source.setEventHandler {
            // One shot; cancelling also releases this handler, and with it the source.
            source.cancel()
            MainActor.assumeIsolated { action() }
        }
        source.resume()
        return FrameTimer(deadline: deadline) { source.cancel() }
    }
}

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
