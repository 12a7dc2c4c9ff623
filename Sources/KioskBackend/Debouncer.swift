import Dispatch
import Geometry
import KioskKit

/// Runs its action once things have been quiet for `delay`: every `signal()` restarts the wait, so a burst
/// of events (a flapping HDMI link, a TV's power cycle) is acted on once, in its final state.
@MainActor
public final class Debouncer {
    /// Runs `work` after a delay unless cancelled: the main queue in the kiosk, a hand-turned clock in tests.
    public typealias Schedule = @MainActor (_ delay: TimeInterval, _ work: @escaping @MainActor () -> Void) -> (@MainActor () -> Void)

    public var delay: TimeInterval
    private let action: @MainActor () -> Void
    private let schedule: Schedule
    private var cancelPending: (@MainActor () -> Void)?

    public init(delay: TimeInterval, schedule: @escaping Schedule = Debouncer.onMainQueue, action: @escaping @MainActor () -> Void) {
        self.delay = delay
        self.schedule = schedule
        self.action = action
    }

    /// Something happened: act `delay` after the last of a burst.
    public func signal() {
        cancelPending?()
        cancelPending = schedule(delay) { [weak self] in
            guard let self else { return }
            self.cancelPending = nil
            self.action()
        }
    }

    public var isPending: Bool { cancelPending != nil }

    /// A timer on the main queue (`MonotonicClock`'s dispatch timer source), which cancelling really removes:
    /// a cancelled `asyncAfter` work item still wakes the process at its deadline, once for every motion
    /// that restarted the cursor's wait.
    public static func onMainQueue(_ delay: TimeInterval, _ work: @escaping @MainActor () -> Void) -> (@MainActor () -> Void) {
        let clock = MonotonicClock()
        let timer = clock.schedule(at: clock.now + delay, work)
        return { timer.cancel() }
    }
}
