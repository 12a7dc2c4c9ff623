/// How a view that animates itself (an animated image, an activity indicator) costs nothing while nobody
/// sees it: each drawn step schedules one timer, at the time the next step is due. When it fires, the view
/// draws the step due then only if the last frame composed of its window had it on screen
/// (`View.willBeComposed(onScreen:)`, with `observesComposition`); otherwise it stops there, with no timer.
/// Hidden, transparent, in no window or scrolled away, it is not composed on screen, so nothing runs; when
/// a frame composes it on screen again, it draws the step due then, in that frame.
@MainActor
struct SeenPacing {
    /// The timer for the next step, made when a step is drawn.
    private var timer: FrameTimer?
    /// The window's composition serial when the view was last composed on screen.
    private var shownSerial: UInt64 = 0
    /// The timer came while the view was not on screen: the next frame that composes it there goes on.
    private(set) var waitsToBeShown = false

    /// A step was drawn: `fire` runs at `due`, unless a timer is set already.
    mutating func schedule(at due: TimeInterval, _ fire: @escaping @MainActor () -> Void) {
        guard timer == nil else { return }
        timer = Application.shared.clock.schedule(at: due, fire)
    }

    /// No step is due any more (stopped, restarted): the timer goes, and no waiting.
    mutating func cancel() {
        timer?.cancel()
        timer = nil
        waitsToBeShown = false
    }

    /// The timer fired: true when the view, in `window`, was on screen at that window's last composition
    /// (it should draw the step due now); false when it now waits to be shown.
    mutating func timerFired(in window: Window?) -> Bool {
        timer = nil
        guard let window, shownSerial == window.compositionSerial, !window.isHidden else {
            waitsToBeShown = true
            return false
        }
        return true
    }

    /// The view was composed on screen in `window`: true when it had been waiting (it should draw the step
    /// due now, in this frame: `View.markForDrawingInThisFrame()`).
    mutating func composedOnScreen(in window: Window?) -> Bool {
        shownSerial = window?.compositionSerial ?? 0
        guard waitsToBeShown else { return false }
        waitsToBeShown = false
        return true
    }

    /// The view is back in a window while animating: the step due is drawn when it is next composed.
    mutating func waitToBeShown() { waitsToBeShown = true }
}
