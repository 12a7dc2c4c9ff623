import Dispatch
import Foundation

/// Runs its action once things have been quiet for `delay`: every `signal()` restarts the wait, so a burst
/// of events (a flapping HDMI link, a TV's power cycle) is acted on once, in its final state.
@MainActor
final class Debouncer {
    let delay: TimeInterval
    private let action: @MainActor () -> Void
    private var pending: DispatchWorkItem?

    init(delay: TimeInterval, action: @escaping @MainActor () -> Void) {
        self.delay = delay
        self.action = action
    }

    /// Something happened: act `delay` after the last of a burst.
    func signal() {
        pending?.cancel()
        let work = DispatchWorkItem { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                self.pending = nil
                self.action()
            }
        }
        pending = work
        DispatchQueue.main.asyncAfter(deadline: .now() + delay, execute: work)
    }

    var isPending: Bool { pending != nil }
}
