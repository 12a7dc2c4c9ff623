/// The interactive pop (UIKit's swipe back): a finger that goes down within 20 points of the navigation
/// controller's leading edge and moves toward the trailing edge drags the top view with it, the view below
/// following a third as fast, as in the pop's slide. Letting go past half the width, or moving toward the
/// trailing edge fast enough, completes the pop over the rest of the slide's time; otherwise the views slide
/// back and the pop does not happen. There is nothing to pop from the root, so the swipe is off there.
///
/// The appearance calls are UIKit's: as the drag starts the top controller hears `viewWillDisappear` and the
/// one below `viewWillAppear`; a completed pop then ends them as any pop does, and a cancelled one turns
/// them back (the one below `viewWillDisappear`, the top `viewWillAppear`, then `viewDidDisappear` and
/// `viewDidAppear`), so the top controller hears `viewWillAppear` and `viewDidAppear` again. The stack, and
/// the top controller's `willMove(toParent: nil)`, change only once the finger has let go far enough.
extension NavigationController {
    /// The speed toward the trailing edge (points a second) at which letting go completes the pop wherever
    /// the finger is: UIKit's is not published; this is a quick flick.
    static let popVelocity = 300.0

    /// Whether a swipe may start a pop now: something to pop, on screen, and no transition under way.
    var canPopInteractively: Bool { viewControllers.count > 1 && transition == nil && presence == .onScreen }

    func interactivePopDidChange(_ recognizer: InteractivePopGestureRecognizer) {
        switch recognizer.state {
        case .began:
            beginInteractivePop()
        case .changed:
            guard let transition, transition.phase == .dragging else { return }
            place(transition, at: progress(of: recognizer))
        case .ended:
            let progress = progress(of: recognizer)
            let velocity = recognizer.velocity(in: view).x
            let completes = velocity >= Self.popVelocity || (progress > 0.5 && velocity > -Self.popVelocity)
            endInteractivePop(completing: completes, at: progress)
        case .cancelled:
            endInteractivePop(completing: false, at: progress(of: recognizer))
        case .possible, .failed:
            return
        }
    }

    /// How far the finger has dragged the top view, as a fraction of the width.
    private func progress(of recognizer: InteractivePopGestureRecognizer) -> Double {
        let width = containerView.bounds.width
        guard width > 0 else { return 0 }
        return min(max(recognizer.translation(in: view).x / width, 0), 1)
    }

    private func beginInteractivePop() {
        // Checked when the finger went down; the stack may have changed since.
        guard canPopInteractively else { return }
        let stack = viewControllers
        let change = NavigationTransition(
            style: .pop, from: stack[stack.count - 1], to: stack[stack.count - 2], presence: .onScreen, animated: true,
            removed: [], added: [])
        change.phase = .dragging
        run(change)
    }

    private func endInteractivePop(completing: Bool, at progress: Double) {
        guard let transition, transition.phase == .dragging, let top = transition.from else { return }
        guard completing else {
            beginCancelling(transition)
            slide(transition, to: 0, duration: NavigationTransition.duration * progress) { [weak self] in
                self?.finishCancelling(transition)
            }
            return
        }
        // The pop is decided: the stack changes now, as popViewController's does at its start.
        transition.phase = .running
        top.willMove(toParent: nil)
        transition.removed = [top]
        stack.removeLast()
        slide(transition, to: 1, duration: NavigationTransition.duration * (1 - progress)) { [weak self] in
            self?.finish(transition)
        }
    }

    /// The pop will not happen: the appearance calls turn back, animated as the views slide back.
    func beginCancelling(_ transition: NavigationTransition) {
        transition.phase = .cancelling
        transition.to?.beginAppearanceTransition(false, animated: true)
        transition.from?.beginAppearanceTransition(true, animated: true)
    }

    /// The views are back: the one below leaves the container (its `viewDidDisappear`), the top one's
    /// `viewDidAppear`, and the bar shows the top item again. No delegate call: nothing new is shown.
    func finishCancelling(_ transition: NavigationTransition) {
        guard !transition.hasEnded else { return }
        transition.hasEnded = true
        if self.transition === transition { self.transition = nil }
        navigationBar.endTransition(completed: false)
        transition.releaseTouches(in: self)
        if let below = transition.to, below.view.superview === containerView {
            below.view.removeFromSuperview()
            below.view.frame = containerView.bounds
        }
        transition.from?.view.frame = containerView.bounds
        transition.to?.endAppearanceTransition()
        transition.from?.endAppearanceTransition()
    }
}

/// The interactive pop's recognizer (UIKit's is a screen-edge pan): one finger that goes down within
/// `edgeWidth` points of the navigation controller's leading edge and moves toward the trailing edge more
/// than sideways. It fails at once where there is nothing to pop.
@MainActor
final class InteractivePopGestureRecognizer: PanGestureRecognizer {
    /// How near the leading edge the finger must go down (points).
    static let edgeWidth = 20.0

    weak var navigationController: NavigationController?
    /// Where the finger went down, in the navigation controller's view.
    private var start: Point?

    required init() {
        super.init()
        maximumNumberOfTouches = 1
    }

    override var kind: String { "interactive-pop" }

    override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        super.touchesBegan(touches, with: event)
        guard state == .possible, start == nil, let touch = touches.first else { return }
        let point = touch.location(in: view)
        start = point
        if point.x > Self.edgeWidth || navigationController?.canPopInteractively != true { state = .failed }
    }

    override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        if state == .possible, let start {
            let point = location(in: view)
            let dx = point.x - start.x, dy = point.y - start.y
            let towardTrailingEdge = dx > 0 && dx >= abs(dy)
            if (dx * dx + dy * dy).squareRoot() >= hysteresis, !towardTrailingEdge {
                state = .failed
                return
            }
        }
        super.touchesMoved(touches, with: event)
    }

    override func reset() {
        super.reset()
        start = nil
    }
}
