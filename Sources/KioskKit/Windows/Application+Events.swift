import Glibc
import Logging

/// Routing input events to windows: touches by hit testing, keys to the first responder's window.
extension Application {
    /// Routes an event (as `UIApplication.sendEvent`): a new touch goes to the frontmost visible window on
    /// its screen whose bounds contain it, then down that window's views by hit testing, and stays with
    /// that view; events without a position go to the key window, or are dropped with a log line.
    public func sendEvent(_ event: Event) {
        session.inputArrived()
        if instrumentation.isObserved {
            if event.hasPosition {
                var screens: [Screen] = []
                for touch in event.allTouches where !screens.contains(where: { $0 === touch.screen }) { screens.append(touch.screen) }
                for screen in screens { instrumentation.post(.activity(screen)) }
            } else {
                instrumentation.post(.activity(nil))
            }
        }
        guard event.hasPosition else {
            // A key while the screen it would act on is off wakes that screen and goes no further.
            let screenOfFocus = focusedWindow?.screen
            if let screenOfFocus, screenOfFocus.isConnected, screenOfFocus.powerState == .off {
                if event.allPresses.contains(where: { $0.phase == .began }) { wakeHandler?(screenOfFocus) }
                for press in event.allPresses { keyPressDidChange(press, delivered: false) }
                return
            }
            guard let target = focusedWindow else {
                Log.app.notice("dropped \(event.kind) event: there is no key window")
                return
            }
            target.sendEvent(event)
            for press in event.allPresses {
                instrumentation.post(.pressDelivered(press, target))
                keyPressDidChange(press, delivered: true)
            }
            return
        }
        var targets: [Window] = []
        for touch in event.allTouches.sorted(by: { $0.sequence < $1.sequence }) {
            if touch.phase == .began, !touch.isRouted {
                route(touch, event: event)
            }
            guard activeTouches.contains(where: { $0 === touch }), let window = touch.window else { continue }
            if !targets.contains(where: { $0 === window }) { targets.append(window) }
        }
        for window in targets { window.sendEvent(event) }
        for touch in event.allTouches where activeTouches.contains(where: { $0 === touch }) {
            if touch.view != nil { instrumentation.post(.touchDelivered(touch)) }
            if touch.phase == .ended || touch.phase == .cancelled { finish(touch) }
        }
    }

    /// The window and view a new touch belongs to: windows front to back on its screen, each only within
    /// its own bounds (subviews drawing outside never catch touches), then the window's hit test. A window
    /// whose hit test finds nothing (not interactive) lets the touch through to the windows behind it; the
    /// runtime's overlays (the mouse cursor) are not among the windows and never catch one.
    public func hitTest(_ point: Point, on screen: Screen, with event: Event? = nil) -> (Window, View)? {
        guard screen.isConnected else { return nil }
        // The screen's own list, kept until the windows change: building it, or loading weak references,
        // for every touch was most of a hit test's cost (Benchmarks/README.md).
        return hitTestWindows(on: screen).front?.hitTest(point, with: event)
    }

    /// The windows a touch on `screen` may reach, front to back: the visible ones on it, less those whose
    /// stock `hitTest` is sure to turn every touch down (not interactive, or alpha under 0.01). A window of a
    /// class of its own is kept whatever its flags: its `hitTest` may take touches all the same.
    private func hitTestWindows(on screen: Screen) -> HitTestWindows {
        for list in hitTestLists where list.screen === screen { return list.windows }
        var front: HitTestWindows.Link?
        for window in windows where !window.isHidden && window.screen === screen {
            if window.hitTestsWithinFrame, !window.isUserInteractionEnabled || window.alpha < 0.01 { continue }
            front = HitTestWindows.Link(window, next: front)
        }
        let found = HitTestWindows(front: front)
        hitTestLists.append((screen, found))
        return found
    }

    private func route(_ touch: Touch, event: Event) {
        touch.isRouted = true
        guard touch.screen.isConnected else {
            Log.app.debug("dropped touch on disconnected screen \(touch.screen.name)")
            return
        }
        guard touch.screen.powerState == .on else {
            // The touch that wakes a screen is swallowed whole: no window sees any of its phases.
            wakeHandler?(touch.screen)
            Log.app.info("touch on \(touch.screen.name), which is off: swallowed")
            return
        }
        guard let (window, view) = hitTest(touch.locationOnScreen, on: touch.screen, with: event) else {
            Log.app.debug("dropped touch at \(touch.locationOnScreen) on \(touch.screen.name): no window there")
            return
        }
        touch.window = window
        touch.view = view
        touch.isSecret = view.touchesAreSecret
        touch.gestureRecognizers = gestures.recognizers(for: touch, hitView: view)
        if endsEditingOnTouchOutside { endEditingOutsideTextFields(window: window, view: view) }
        if let lastTap, lastTap.screen === touch.screen,
            touch.timestamp - lastTap.timestamp <= Self.multiTapInterval,
            hypot(touch.locationOnScreen.x - lastTap.location.x, touch.locationOnScreen.y - lastTap.location.y) <= Self.multiTapDistance
        {
            touch.tapCount = lastTap.count + 1
        }
        activeTouches.append(touch)
    }

    /// `endsEditingOnTouchOutside`: a touch that begins outside any text field (and off the keyboard) ends
    /// the editing, and so hides the on-screen keyboard; one on another text field leaves it to that field.
    private func endEditingOutsideTextFields(window: Window, view: View) {
        guard let editing = firstResponder as? TextField, !(window is KeyboardWindow) else { return }
        var current: View? = view
        while let candidate = current {
            if candidate is TextField { return }
            current = candidate.superview
        }
        editing.endEditing(false)
    }

    private func finish(_ touch: Touch) {
        activeTouches.removeAll { $0 === touch }
        if touch.phase == .ended {
            lastTap = (touch.screen, touch.locationOnScreen, touch.timestamp, touch.tapCount)
        }
    }

    /// Cancels the touches in progress that match (`touchesCancelled` to their views), e.g. because their
    /// input device went away. Returns how many were cancelled. A touch whose end is being delivered is not
    /// cancelled: it ended (an alert's OK whose action hides the alert's window had been traced as cancelled).
    @discardableResult
    public func cancelTouches(reason: String, where matches: (Touch) -> Bool) -> Int {
        let cancelled = activeTouches.filter { $0.phase != .ended && matches($0) }
        guard !cancelled.isEmpty else { return 0 }
        Log.app.info("cancelled \(cancelled.count) touch(es): \(reason)")
        for touch in cancelled { touch.cancel() }
        let timestamp = cancelled.map(\.timestamp).max() ?? 0
        sendEvent(Event(touches: Set(cancelled), timestamp: timestamp))
        return cancelled.count
    }
}

/// A screen's windows for hit testing (`Application.hitTestLists`), front to back, as a chain of links that
/// never change: the search follows their `let` properties, so each window is lent to it rather than
/// retained. A window's retain and release take the slow path (its subviews' `superview` references are
/// weak), and in a loop over an array they were a fifth of a search through 100 windows.
@MainActor
final class HitTestWindows {
    @MainActor final class Link {
        let window: Window
        let next: Link?

        init(_ window: Window, next: Link?) {
            self.window = window
            self.next = next
        }

        /// This window's answer, else the next one's: one call deep per window passed through.
        func hitTest(_ point: Point, with event: Event?) -> (Window, View)? {
            if window.frame.contains(point), let view = window.hitTest(window.convertFromSuperview(point), with: event) {
                return (window, view)
            }
            return next?.hitTest(point, with: event)
        }
    }

    let front: Link?

    init(front: Link?) { self.front = front }
}
