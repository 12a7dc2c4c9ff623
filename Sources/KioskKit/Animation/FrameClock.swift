import Dispatch
import Glibc

/// The time animations and display links run on, and the one timer they use when a display gives no
/// vblank events: `CLOCK_MONOTONIC` seconds, the clock of DRM's page-flip timestamps, in the kiosk; a
/// clock the test moves by hand in tests (`ManualClock`, in KioskTesting).
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
