/// Presenting a controller over another (as `UIViewController.present(_:animated:completion:)` and
/// `dismiss(animated:completion:)`): in the presenter's window, over its views, by `modalPresentationStyle`
/// and `modalTransitionStyle`; an alert in a window of its own at the alert level, which takes the key
/// status and gives it back. The appearance calls come in UIKit's order for a transition: the one going
/// `viewWillDisappear`, the one coming `viewWillAppear`, then after the animation `viewDidDisappear` and
/// `viewDidAppear`; a presenter that stays in sight (a form sheet, `overFullScreen`, an alert) gets none.
extension ViewController {
    /// The controller this one presents (as UIKit's).
    public var presentedViewController: ViewController? { presentationLinks.presented }
    /// The controller presenting this one, or presenting an ancestor of it (as UIKit's).
    public var presentingViewController: ViewController? {
        var controller: ViewController? = self
        while let current = controller {
            if let presenting = current.presentationLinks.presenting { return presenting }
            controller = current.parent
        }
        return nil
    }
    /// Whether it is on its way in, or out, of a presentation (as UIKit's).
    public var isBeingPresented: Bool { presentationLinks.isBeingPresented }
    public var isBeingDismissed: Bool { presentationLinks.isBeingDismissed }

    /// How long a presentation comes in or goes when animated (UIKit's sheets take about as long).
    public static let presentationDuration: TimeInterval = 0.3

    /// Presents `controller` over this controller's views. The presenting controller is the outermost
    /// container of this one (as UIKit's "nearest full-screen ancestor"); one that presents already, a
    /// controller presented or in a container already, or a presenter that is not in a visible window is
    /// refused, and logged. `completion` runs once it is in.
    public func present(_ controller: ViewController, animated: Bool, completion: (@MainActor () -> Void)? = nil) {
        let presenter = presentationAncestor
        if let problem = presenter.presentationProblem(with: controller) {
            Log.app.error("cannot present \(controller.presentationName) from \(presenter.presentationName): \(problem)")
            return
        }
        guard let window = presenter.view.window else { return }
        presenter.presentationLinks.presented = controller
        controller.presentationLinks.presenting = presenter
        controller.presentationLinks.isBeingPresented = true
        let done: @MainActor () -> Void = {
            controller.presentationLinks.isBeingPresented = false
            completion?()
        }
        if let level = controller.ownPresentationWindowLevel {
            presentInOwnWindow(controller, level: level, over: window, animated: animated, then: done)
        } else {
            presenter.presentInWindow(controller, window, animated: animated, then: done)
        }
    }

    /// Dismisses what this controller presents, with all it presents in turn; on a presented controller
    /// that presents nothing, itself (as UIKit's). `completion` runs once it is gone; nothing to dismiss is
    /// logged, and `completion` runs at once.
    public func dismiss(animated: Bool, completion: (@MainActor () -> Void)? = nil) {
        let target: ViewController
        if let presented = presentationAncestor.presentedViewController {
            target = presented
        } else if presentingViewController != nil {
            target = presentationAncestor
        } else {
            Log.app.info("dismiss: \(presentationName) presents nothing and is not presented")
            completion?()
            return
        }
        guard !target.isBeingDismissed, !target.isBeingPresented, let presenter = target.presentationLinks.presenting else {
            Log.app.error("dismiss: \(target.presentationName) is on its way in or out already")
            return
        }
        // What the target presents goes with it, at once: only the target is seen going.
        var above: [ViewController] = []
        var next = target.presentedViewController
        while let current = next {
            above.append(current)
            next = current.presentedViewController
        }
        for controller in above.reversed() {
            controller.tearDownPresentation(animated: false)
            controller.presentationLinks.presenting?.presentationLinks.presented = nil
            controller.presentationLinks.presenting = nil
        }
        target.presentationLinks.isBeingDismissed = true
        target.tearDownPresentation(animated: animated) {
            target.presentationLinks.isBeingDismissed = false
            presenter.presentationLinks.presented = nil
            target.presentationLinks.presenting = nil
            completion?()
        }
    }

    // MARK: Presenting

    /// The outermost container of this controller: the one that presents for it.
    var presentationAncestor: ViewController {
        var controller = self
        while let parent = controller.parent { controller = parent }
        return controller
    }

    var presentationName: String { String(describing: type(of: self)) }

    private func presentationProblem(with controller: ViewController) -> String? {
        if let presented = presentedViewController { return "it presents \(presented.presentationName) already" }
        if isBeingPresented || isBeingDismissed { return "it is on its way in or out" }
        if controller === self || controller.presentationLinks.presenting != nil { return "that controller is presented already" }
        if controller.parent != nil { return "that controller is a child of \(controller.parent!.presentationName)" }
        if controller.isViewLoaded, controller.view.window?.rootViewController === controller {
            return "that controller is a window's root view controller"
        }
        guard isViewLoaded, let window = view.window, !window.isHidden else { return "its view is not in a visible window" }
        return nil
    }

    /// In the presenter's window, over everything there.
    private func presentInWindow(_ controller: ViewController, _ window: Window, animated: Bool, then done: @escaping @MainActor () -> Void)
    {
        let style = controller.modalPresentationStyle.resolved
        let container = PresentationContainer(
            presenting: controller.view, style: style, preferredSize: controller.preferredContentSize, in: window)
        controller.presentationLinks.container = container
        let covers = style.coversPresenter
        if covers { beginAppearanceTransition(false, animated: animated) }
        controller.beginAppearanceTransition(true, animated: animated)
        container.isUserInteractionEnabled = false
        // The first responder under a full-screen presentation gives way (its view will be hidden).
        if covers { presentationView?.takeFirstResponderStatusInside() }
        View.performWithoutAnimation {
            window.addSubview(container)
            if animated { container.showOutside(controller.modalTransitionStyle) }
        }
        let finish: @MainActor (Bool) -> Void = { [weak self] _ in
            container.isUserInteractionEnabled = true
            if covers { self?.presentationView?.isHidden = true }
            if covers { self?.endAppearanceTransition() }
            controller.endAppearanceTransition()
            done()
        }
        guard animated else { return finish(true) }
        View.animate(
            withDuration: Self.presentationDuration, options: controller.modalTransitionStyle == .coverVertical ? .curveEaseOut : [],
            animations: { container.showInPlace() }, completion: finish)
    }

    /// The view a full-screen presentation over this controller hides: its presentation's container, else
    /// its own view.
    var presentationView: View? {
        presentationLinks.container ?? (isViewLoaded ? view : nil)
    }

    /// Takes this presented controller's views away (animated as it came), with the appearance calls, then
    /// `done`.
    func tearDownPresentation(animated: Bool, then done: (@MainActor () -> Void)? = nil) {
        guard let presenter = presentationLinks.presenting else { return }
        if ownPresentationWindowLevel != nil {
            dismissOwnWindow(animated: animated, then: done)
            return
        }
        guard let container = presentationLinks.container else { return }
        let covers = container.style.coversPresenter
        beginAppearanceTransition(false, animated: animated)
        if covers {
            presenter.presentationView?.isHidden = false
            presenter.beginAppearanceTransition(true, animated: animated)
        }
        container.isUserInteractionEnabled = false
        let finish: @MainActor (Bool) -> Void = { [weak self] _ in
            container.removeFromSuperview()
            self?.presentationLinks.container = nil
            self?.endAppearanceTransition()
            if covers { presenter.endAppearanceTransition() }
            done?()
        }
        guard animated else { return finish(true) }
        View.animate(
            withDuration: Self.presentationDuration, options: modalTransitionStyle == .coverVertical ? .curveEaseIn : [],
            animations: { container.showOutside(self.modalTransitionStyle) }, completion: finish)
    }
}
