import Glibc

/// Where touches meet gesture recognizers (UIKit's gesture environment): it gives each new touch the
/// recognizers of its view and that view's ancestors, delivers every touch to them before its view, holds
/// back what they ask to delay, and carries out their state changes with UIKit's rules: waiting for the
/// recognizers they require to fail, making the others of the same touches fail, cancelling the views'
/// touches, and resetting them once their gesture is over.
@MainActor
final class GestureArena {
    /// Recognizers that have seen a touch since they were last reset.
    private var active: [GestureRecognizer] = []
    /// Touches delivered or waiting to be, until their view has their end (or they were claimed).
    private var liveTouches: [Touch] = []
    /// Nesting of touch delivery: state changes during it flush delayed touches at its end.
    private var deliveryDepth = 0

    /// Told about every state change but to `.possible` (`gestureChanged`: the runtime's trace).
    private let instrumentation: Instrumentation

    init(instrumentation: Instrumentation) { self.instrumentation = instrumentation }

    // MARK: New touches

    /// The enabled recognizers of `view` and its ancestors up to the window, deepest first, that accept
    /// `touch` (their delegate's `shouldReceive`).
    func recognizers(for touch: Touch, hitView view: View) -> [GestureRecognizer] {
        var found: [GestureRecognizer] = []
        var current: View? = view
        while let candidate = current {
            for recognizer in candidate.attachedRecognizers
            where recognizer.isEnabled && recognizer.delegate?.gestureRecognizer(recognizer, shouldReceive: touch) != false {
                found.append(recognizer)
            }
            if candidate is Window { break }
            current = candidate.superview
        }
        return found
    }

    // MARK: Delivery

    /// Delivers the touches of `event` that belong to `window`: first to their recognizers, then, as the
    /// recognizers allow, to their views.
    func deliver(_ event: Event, in window: Window) {
        let mine = event.allTouches.filter { $0.window === window && $0.view != nil }.sorted { $0.sequence < $1.sequence }
        guard !mine.isEmpty else { return }
        deliveryDepth += 1
        for touch in mine where !liveTouches.contains(touch) { liveTouches.append(touch) }
        deliverToRecognizers(mine, event: event)
        deliverToViews(mine, event: event)
        deliveryDepth -= 1
        if deliveryDepth == 0 { settle(event: event) }
    }

    private func deliverToRecognizers(_ touches: [Touch], event: Event) {
        var order: [GestureRecognizer] = []
        for touch in touches {
            for recognizer in touch.gestureRecognizers where !order.contains(where: { $0 === recognizer }) {
                order.append(recognizer)
            }
        }
        for recognizer in order {
            let theirs = touches.filter { touch in
                touch.gestureRecognizers.contains { $0 === recognizer } && !recognizer.ignoredTouches.contains(touch)
                    // Only the touches it saw begin since its reset: a finger that landed while it was done
                    // is not its to end (as UIKit, which ignores the touches still down at a reset). Sent
                    // that finger's end, a reset tap failed outside `active` and was never reset again.
                    && (touch.phase == .began || recognizer.touches.contains(touch))
            }
            for phase in [Touch.Phase.began, .moved, .ended, .cancelled] {
                // A recognizer that is done (recognized, cancelled, failed) or disabled sees nothing more.
                guard recognizer.isEnabled, !recognizer.state.isFinished, recognizer.view != nil else { break }
                // A finger that did not move is no move: another finger's frame gives no `.changed`.
                let touches = Set(theirs.filter { $0.phase == phase })
                guard !touches.isEmpty else { continue }
                if phase == .began {
                    // A discrete gesture already complete, waiting only for a recognizer it requires to fail
                    // (the single tap waiting out the double tap), takes no new finger: recognizing must not
                    // cancel a touch that is no part of it, nor leave that touch's view without it.
                    if recognizer.pendingState == .ended { continue }
                    if !active.contains(where: { $0 === recognizer }) { active.append(recognizer) }
                    for touch in touches.sorted(by: { $0.sequence < $1.sequence }) { recognizer.track(touch) }
                }
                switch phase {
                case .began: recognizer.touchesBegan(touches, with: event)
                case .moved, .stationary: recognizer.touchesMoved(touches, with: event)
                case .ended: recognizer.touchesEnded(touches, with: event)
                case .cancelled: recognizer.touchesCancelled(touches, with: event)
                }
                // A finger that joins a gesture under way is part of it: its view never gets it (as
                // `cancelsTouchesInView`: "the touches of that gesture that are pending aren't delivered").
                if phase == .began, recognizer.state.isRecognizing, recognizer.cancelsTouchesInView { claimTouches(of: recognizer) }
            }
        }
    }

    private func deliverToViews(_ touches: [Touch], event: Event) {
        for touch in touches where !touch.isClaimedByGesture {
            if touch.phase == .cancelled {
                // The view sees the cancel only of a touch it saw begin.
                touch.delayedPhases.removeAll()
                if touch.viewSawBegin, !touch.viewSawEnd { touch.pendingViewPhases.append(.cancelled) }
                continue
            }
            if !touch.delayedPhases.isEmpty || isDelayed(touch, phase: touch.phase) {
                touch.delayedPhases.append(touch.phase)
            } else {
                touch.pendingViewPhases.append(touch.phase)
            }
        }
        sendPendingPhases(of: touches, event: event)
    }

    /// Whether a recognizer of `touch` still deciding asks to hold back `phase` from the view.
    private func isDelayed(_ touch: Touch, phase: Touch.Phase) -> Bool {
        touch.gestureRecognizers.contains { recognizer in
            // Only a recognizer deciding on this very touch holds it back: not one that was reset since (or
            // never took it), which would hold it until some later gesture of its own.
            guard recognizer.isEnabled, recognizer.state == .possible, recognizer.touchesSinceReset.contains(touch),
                !recognizer.ignoredTouches.contains(touch)
            else { return false }
            switch phase {
            case .began: return recognizer.delaysTouchesBegan
            case .ended: return recognizer.delaysTouchesEnded
            default: return false
            }
        }
    }

    /// Sends the phases waiting for each touch's view, grouped per view and phase as `Window.sendEvent`
    /// always did: began, moved, ended, cancelled.
    private func sendPendingPhases(of touches: [Touch], event: Event) {
        var views: [View] = []
        for touch in touches where !touch.pendingViewPhases.isEmpty {
            if let view = touch.view, !views.contains(where: { $0 === view }) { views.append(view) }
        }
        for view in views {
            let theirs = touches.filter { $0.view === view }
            for phase in [Touch.Phase.began, .moved, .ended, .cancelled] {
                let set = Set(theirs.filter { $0.pendingViewPhases.contains(phase) })
                guard !set.isEmpty else { continue }
                for touch in set {
                    if phase == .began { touch.viewSawBegin = true }
                    if phase == .ended || phase == .cancelled { touch.viewSawEnd = true }
                }
                switch phase {
                case .began: view.touchesBegan(set, with: event)
                case .moved, .stationary: view.touchesMoved(set, with: event)
                case .ended: view.touchesEnded(set, with: event)
                case .cancelled: view.touchesCancelled(set, with: event)
                }
            }
        }
        for touch in touches { touch.pendingViewPhases.removeAll() }
    }

    /// Runs a timer's state changes as delivery does, then settles.
    func runOutsideDelivery(_ body: () -> Void) {
        deliveryDepth += 1
        body()
        deliveryDepth -= 1
        if deliveryDepth == 0 { settle(event: nil) }
    }

    /// After an event or a timer: delayed phases no recognizer holds back any more go to their views,
    /// finished recognizers whose touches are gone are reset, ended touches leave their recognizers.
    private func settle(event: Event?) {
        flushDelayedTouches(event: event)
        for recognizer in active {
            for touch in recognizer.touches where touch.phase == .ended || touch.phase == .cancelled {
                recognizer.forget(touch)
            }
        }
        let finished = active.filter { ($0.state.isFinished || $0.view == nil) && $0.touches.isEmpty }
        active.removeAll { recognizer in finished.contains { $0 === recognizer } }
        for recognizer in finished { reset(recognizer) }
        liveTouches.removeAll { touch in
            (touch.phase == .ended || touch.phase == .cancelled) && touch.delayedPhases.isEmpty
        }
    }

    private func reset(_ recognizer: GestureRecognizer) {
        recognizer.pendingState = nil
        recognizer.touches.removeAll()
        recognizer.touchesSinceReset.removeAll()
        recognizer.ignoredTouches.removeAll()
        recognizer.commit(.possible)
        recognizer.reset()
    }

    private func flushDelayedTouches(event: Event?) {
        let waiting = liveTouches.filter { !$0.delayedPhases.isEmpty }
        guard !waiting.isEmpty else { return }
        var released: [Touch] = []
        for touch in waiting {
            if touch.isClaimedByGesture {
                touch.delayedPhases.removeAll()
                continue
            }
            while let phase = touch.delayedPhases.first, !isDelayed(touch, phase: phase) {
                touch.delayedPhases.removeFirst()
                if !touch.pendingViewPhases.contains(phase) { touch.pendingViewPhases.append(phase) }
            }
            if !touch.pendingViewPhases.isEmpty { released.append(touch) }
        }
        guard !released.isEmpty else { return }
        let timestamp = released.map(\.timestamp).max() ?? 0
        sendPendingPhases(of: released, event: event ?? Event(touches: Set(released), timestamp: timestamp))
        liveTouches.removeAll { touch in
            (touch.phase == .ended || touch.phase == .cancelled) && touch.delayedPhases.isEmpty
        }
    }

    // MARK: State changes

    /// A recognizer asks for `state`: checked and carried out with UIKit's rules.
    func request(_ state: GestureRecognizer.State, for recognizer: GestureRecognizer) {
        deliveryDepth += 1
        transition(recognizer, to: state)
        deliveryDepth -= 1
        if deliveryDepth == 0 { settle(event: nil) }
    }

    private func transition(_ recognizer: GestureRecognizer, to state: GestureRecognizer.State) {
        let current = recognizer.state
        switch (current, state) {
        case (.possible, .began), (.possible, .ended):
            begin(recognizer, as: state)
        case (.possible, .failed), (.possible, .cancelled):
            recognizer.pendingState = nil
            recognizer.commit(.failed)
            instrumentation.post(.gestureChanged(recognizer))
            didFail(recognizer)
        case (.began, .changed), (.changed, .changed), (.began, .ended), (.changed, .ended), (.began, .cancelled),
            (.changed, .cancelled):
            recognizer.commit(state)
            recognizer.sendActions()
            instrumentation.post(.gestureChanged(recognizer))
        case (.began, .failed), (.changed, .failed):
            // A gesture under way cannot fail any more; it is cancelled.
            recognizer.commit(.cancelled)
            recognizer.sendActions()
            instrumentation.post(.gestureChanged(recognizer))
        default:
            // Anything else (`.changed` before `.began`, any change after the end) is not a transition.
            return
        }
    }

    /// The recognizer wants to leave `.possible` for `.began` or `.recognized`.
    private func begin(_ recognizer: GestureRecognizer, as state: GestureRecognizer.State) {
        let others = competitors(of: recognizer)
        // It waits while a recognizer it requires to fail is still deciding, and fails if one recognized.
        let required = others.filter { recognizer.requiresFailure(of: $0) } + explicitRequirements(of: recognizer)
        if required.contains(where: { $0.state.isRecognizing || $0.state == .ended }) {
            return transition(recognizer, to: .failed)
        }
        if required.contains(where: { $0.state == .possible }) {
            recognizer.pendingState = state
            return
        }
        recognizer.pendingState = nil
        // A gesture already under way that may not recognize with it keeps it from beginning.
        if others.contains(where: { $0.state.isRecognizing && prevents($0, recognizer) }) {
            return transition(recognizer, to: .failed)
        }
        guard shouldBegin(recognizer) else { return transition(recognizer, to: .failed) }
        recognizer.commit(state)
        // The others of its touches that are still deciding fail.
        for other in others where other.state == .possible && prevents(recognizer, other) {
            transition(other, to: .failed)
        }
        if recognizer.cancelsTouchesInView { claimTouches(of: recognizer) }
        recognizer.sendActions()
        instrumentation.post(.gestureChanged(recognizer))
        // Those that waited for it to fail fail now.
        for waiting in active where waiting.state == .possible && waiting.pendingState != nil && waiting.requiresFailure(of: recognizer) {
            transition(waiting, to: .failed)
        }
    }

    /// `recognizer` failed: those waiting only for it (and others now done) may go ahead.
    private func didFail(_ recognizer: GestureRecognizer) {
        for waiting in active where waiting !== recognizer && waiting.state == .possible {
            guard let pending = waiting.pendingState, waiting.requiresFailure(of: recognizer) else { continue }
            waiting.pendingState = nil
            begin(waiting, as: pending)
        }
    }

    /// Recognizers it competes with: those active that shared a touch with it, or that it requires to
    /// fail (a double tap's second touch is not the single tap's).
    private func competitors(of recognizer: GestureRecognizer) -> [GestureRecognizer] {
        active.filter { other in
            other !== recognizer && other.view != nil
                && (other.touchesSinceReset.contains { touch in touch.gestureRecognizers.contains { $0 === recognizer } }
                    || recognizer.touchesSinceReset.contains { touch in touch.gestureRecognizers.contains { $0 === other } }
                    || recognizer.requiresFailure(of: other))
        }
    }

    /// Recognizers it must wait for that are deciding on a gesture, whichever touches it is made of (the
    /// double tap waiting for its second tap); one that saw no touch since its reset counts as failed.
    private func explicitRequirements(of recognizer: GestureRecognizer) -> [GestureRecognizer] {
        active.filter { $0 !== recognizer && $0.state == .possible && recognizer.requiresFailure(of: $0) }
    }

    /// Whether `winner`, recognizing, makes `loser` fail (or keeps it from beginning).
    private func prevents(_ winner: GestureRecognizer, _ loser: GestureRecognizer) -> Bool {
        winner.canPrevent(loser) && loser.canBePrevented(by: winner) && !winner.recognizesSimultaneously(with: loser)
    }

    /// The delegate and the views involved agree that it may begin: the delegate's
    /// `gestureRecognizerShouldBegin`, then each view its touches were hit-tested to and its own view
    /// (`View.gestureRecognizerShouldBegin`, with which a control keeps a superview's single tap from
    /// taking its own).
    private func shouldBegin(_ recognizer: GestureRecognizer) -> Bool {
        if recognizer.delegate?.gestureRecognizerShouldBegin(recognizer) == false { return false }
        var asked: [View] = []
        // Every touch of its gesture, ended ones too: a single tap that waited for a double tap to fail
        // begins after its touch ended and left it, and the button under that touch still refuses it.
        for view in recognizer.touchesSinceReset.compactMap(\.view) + [recognizer.view].compactMap({ $0 })
        where !asked.contains(where: { $0 === view }) {
            asked.append(view)
            if !view.gestureRecognizerShouldBegin(recognizer) { return false }
        }
        return true
    }

    /// The recognizer took its touches: their views get `touchesCancelled` (those that saw them begin)
    /// and nothing more; phases held back are dropped.
    private func claimTouches(of recognizer: GestureRecognizer) {
        var cancelled: [Touch] = []
        // Ignored touches stay with their views ("does not cancel ignored touches on the associated view").
        for touch in recognizer.touchesSinceReset
        where !touch.isClaimedByGesture && !touch.viewSawEnd && !recognizer.ignoredTouches.contains(touch) {
            touch.isClaimedByGesture = true
            touch.delayedPhases.removeAll()
            if touch.viewSawBegin, !touch.viewSawEnd {
                touch.pendingViewPhases = [.cancelled]
                cancelled.append(touch)
            }
        }
        guard !cancelled.isEmpty else { return }
        let timestamp = cancelled.map(\.timestamp).max() ?? 0
        sendPendingPhases(of: cancelled, event: Event(touches: Set(cancelled), timestamp: timestamp))
    }

    /// The recognizer was disabled or removed: a gesture under way is cancelled, one deciding fails, and
    /// it lets go of its touches.
    func abandon(_ recognizer: GestureRecognizer) {
        guard active.contains(where: { $0 === recognizer }) else { return }
        deliveryDepth += 1
        if recognizer.state.isRecognizing {
            transition(recognizer, to: .cancelled)
        } else if recognizer.state == .possible {
            transition(recognizer, to: .failed)
        }
        deliveryDepth -= 1
        for touch in recognizer.touches { touch.gestureRecognizers.removeAll { $0 === recognizer } }
        recognizer.touches.removeAll()
        active.removeAll { $0 === recognizer }
        reset(recognizer)
        if deliveryDepth == 0 { flushDelayedTouches(event: nil) }
    }
}
