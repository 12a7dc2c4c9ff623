/// One change of a navigation controller's top view controller on the screen: UIKit's slide, in which the
/// new view comes in from the trailing edge over the old one while the old one moves a third of the
/// width toward the leading edge (a push), or the reverse (a pop); the bar's content cross-fades.
@MainActor
final class NavigationTransition {
    enum Style { case push, pop }

    /// Where it is: sliding (or made at once), following a finger (the interactive pop), or sliding back
    /// after the finger let go short of popping.
    enum Phase { case running, dragging, cancelling }

    /// How the navigation controller's view is placed when the transition starts, which decides the
    /// appearance calls: none off screen; UIKit's full pairs on screen; the appearing controller joining
    /// the container's own appearance while that is under way.
    enum Presence { case offScreen, appearing, onScreen }

    let style: Style
    let from: ViewController?
    let to: ViewController?
    let presence: Presence
    let animated: Bool
    var phase = Phase.running
    /// Set once it has ended, so that a late animation completion does not end it again.
    var hasEnded = false
    /// The controllers leaving the stack and those joining it, whose containment ends with the transition
    /// (an interactive pop's is known when the finger lets go).
    var removed: [ViewController]
    var added: [ViewController]
    /// Whether the container's and the bar's views took touches before, given back at the end.
    private var containerTookTouches = true
    private var barTookTouches = true

    init(
        style: Style, from: ViewController?, to: ViewController?, presence: Presence, animated: Bool,
        removed: [ViewController], added: [ViewController]
    ) {
        self.style = style
        self.from = from
        self.to = to
        self.presence = presence
        self.animated = animated
        self.removed = removed
        self.added = added
    }

    /// UIKit's duration for the navigation slide.
    static let duration = 0.35

    /// Takes touches from the content and the bar while the views move (UIKit ignores them then).
    func holdTouches(in navigation: NavigationController) {
        containerTookTouches = navigation.containerView.isUserInteractionEnabled
        barTookTouches = navigation.navigationBar.isUserInteractionEnabled
        navigation.containerView.isUserInteractionEnabled = false
        navigation.navigationBar.isUserInteractionEnabled = false
    }

    func releaseTouches(in navigation: NavigationController) {
        navigation.containerView.isUserInteractionEnabled = containerTookTouches
        navigation.navigationBar.isUserInteractionEnabled = barTookTouches
    }
}

extension NavigationController {
    /// Shows `transition.to` in place of `transition.from`: its view joins the container, the appearance
    /// calls begin (UIKit's order: the disappearing controller's `viewWillDisappear`, the appearing one's
    /// `viewWillAppear`, then the delegate's `willShow`), and the slide runs, or the change is made at once.
    func run(_ transition: NavigationTransition) {
        // An interactive pop changes the stack only if the finger lets go far enough: the bar shows the
        // items below the top meanwhile.
        let stack = transition.phase == .dragging ? Array(viewControllers.dropLast()) : viewControllers
        let items = stack.map(\.navigationItem)
        guard isViewLoaded else {
            navigationBar.show(items)
            return finish(transition)
        }
        self.transition = transition
        if transition.animated { view.layoutIfNeeded() }
        if let to = transition.to {
            insertWithoutAppearanceCalls(to, above: transition.style == .push)
        }
        beginAppearance(of: transition)
        guard transition.animated else {
            navigationBar.show(items)
            return finish(transition)
        }
        transition.holdTouches(in: self)
        navigationBar.beginTransition(to: items)
        place(transition, at: 0)
        guard transition.phase == .running else { return }
        slide(transition, to: 1, duration: NavigationTransition.duration) { [weak self] in self?.finish(transition) }
    }

    /// The views and the bar where they are `progress` of the way through (0: the start, 1: the end).
    func place(_ transition: NavigationTransition, at progress: Double) {
        let bounds = containerView.bounds
        let width = bounds.width, middle = Point(x: bounds.midX, y: bounds.midY)
        let underneath = middle.x - width / 3
        switch transition.style {
        case .push:
            transition.to?.view.center = Point(x: middle.x + width * (1 - progress), y: middle.y)
            transition.from?.view.center = Point(x: middle.x + (underneath - middle.x) * progress, y: middle.y)
        case .pop:
            transition.from?.view.center = Point(x: middle.x + width * progress, y: middle.y)
            transition.to?.view.center = Point(x: underneath + (middle.x - underneath) * progress, y: middle.y)
        }
        navigationBar.setTransitionFraction(progress)
    }

    /// Animates the views to `progress` over `duration` with UIKit's default curve (ease in, ease out; the
    /// spring iOS's own push follows is not published), then runs `done`, whether the animation ran to its
    /// end or was cut short (the views left their window): the transition ends either way.
    func slide(_ transition: NavigationTransition, to progress: Double, duration: Double, done: @escaping @MainActor () -> Void) {
        View.animate(withDuration: duration, options: .curveEaseInOut) {
            self.place(transition, at: progress)
        } completion: { _ in
            done()
        }
    }

    /// Ends `transition` (once): the old view leaves the container, the appearance calls end
    /// (`viewDidDisappear`, `viewDidAppear`), the stack's leavers and joiners finish their moves
    /// (`didMove(toParent:)`), then the delegate's `didShow`.
    func finish(_ transition: NavigationTransition) {
        guard !transition.hasEnded else { return }
        transition.hasEnded = true
        let wasRunning = self.transition === transition
        if wasRunning { self.transition = nil }
        if wasRunning, transition.animated {
            navigationBar.endTransition(completed: true)
            transition.releaseTouches(in: self)
        }
        if let from = transition.from, from !== transition.to, from.isViewLoaded, from.view.superview === containerView {
            // Its removal ends its disappearance (`viewDidDisappear`), as its view leaves the window.
            from.view.removeFromSuperview()
            from.view.frame = containerView.bounds
        }
        if let to = transition.to, to.isViewLoaded, to.view.superview === containerView { to.view.frame = containerView.bounds }
        if transition.presence == .onScreen { transition.to?.endAppearanceTransition() }
        transition.from?.endAppearanceTransition()
        for controller in transition.removed where controller.parent === self { controller.removeFromParent() }
        for controller in transition.added where controller.parent === self { controller.didMove(toParent: self) }
        if transition.presence == .onScreen, let to = transition.to {
            delegate?.navigationController(self, didShow: to, animated: transition.animated)
        }
    }

    /// Ends the transition under way at once, in its end state (a change asked for while one runs).
    func finishTransitionNow() {
        guard let transition else { return }
        // A finger still dragging the top view: the pop does not happen (the finger's further moves are ignored).
        if transition.phase == .dragging { beginCancelling(transition) }
        // Its animations stop where they are heading (the moving views' own with them, as when a view
        // leaves its window); their completion, later, finds it ended.
        let animator = Application.shared.animator
        for controller in [transition.from, transition.to].compactMap({ $0 }) where controller.isViewLoaded {
            animator.removeAnimations(inside: controller.view)
        }
        animator.removeAnimations(inside: navigationBar)
        if transition.phase == .cancelling { finishCancelling(transition) } else { finish(transition) }
    }

    private func beginAppearance(of transition: NavigationTransition) {
        switch transition.presence {
        case .offScreen:
            return
        case .appearing:
            // The container is appearing: the new top joins that (the container's end ends it); the old one goes.
            transition.from?.beginAppearanceTransition(false, animated: false)
            transition.to?.beginAppearanceTransition(true, animated: false)
        case .onScreen:
            transition.from?.beginAppearanceTransition(false, animated: transition.animated)
            transition.to?.beginAppearanceTransition(true, animated: transition.animated)
            if let to = transition.to { delegate?.navigationController(self, willShow: to, animated: transition.animated) }
        }
    }

    /// Puts `child`'s view into the container, filling it (above the others for a push, below for a pop),
    /// without the calls `insertSubview` makes for a child whose view joins a shown window: those are
    /// `animated: false` and end at once, where the navigation controller's begin with the slide and end
    /// after it (`beginAppearance(of:)`, `finish(_:)`). The view's controller is hidden from that walk for
    /// the one call; the children inside it still hear their container, which has not begun to appear.
    func insertWithoutAppearanceCalls(_ child: ViewController, above: Bool) {
        let root = child.view
        root.frame = containerView.bounds
        root.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        let owner = root.owningViewController
        root.owningViewController = nil
        containerView.insertSubview(root, at: above ? containerView.subviews.count : 0)
        root.owningViewController = owner
    }

    /// Where the navigation controller is in its own appearance, for a transition starting now.
    var presence: NavigationTransition.Presence {
        switch appearance {
        case .appeared: .onScreen
        case .appearing: .appearing
        case .disappeared, .disappearing: .offScreen
        }
    }
}
