/// A controller presented in a window of its own (an alert, an action sheet): the window at its level on
/// the presenter's screen, the controller its root. As in reference 002's experiment, the window is shown,
/// then becomes key (the one key before resigning); dismissed, it resigns the key status to the window that
/// had it before, which becomes key, and only then is hidden. Its appearance calls are the presentation's
/// (animated when it is), the "did" ones once the animation is over, as UIKit's.
extension ViewController {
    func presentInOwnWindow(
        _ controller: ViewController, level: Window.Level, over presenterWindow: Window, animated: Bool,
        then done: @escaping @MainActor () -> Void
    ) {
        let window = Window(screen: presenterWindow.screen)
        window.identifier = "\(controller.presentationName).window"
        window.windowLevel = level
        window.rootViewController = controller
        controller.presentationLinks.ownWindow = window
        controller.view.isUserInteractionEnabled = false
        View.performWithoutAnimation { controller.setPresentationAppearance(shown: !animated) }
        // viewWillAppear(animated) as the window shows, viewDidAppear(animated) once the controller is in.
        window.presentationAnimates = animated
        window.makeKeyAndVisible()
        let finish: @MainActor (Bool) -> Void = { _ in
            controller.view.isUserInteractionEnabled = true
            window.presentationAnimates = nil
            controller.endAppearanceTransition()
            done()
        }
        guard animated else { return finish(true) }
        View.animate(
            withDuration: ViewController.presentationDuration, options: .curveEaseOut,
            animations: { controller.setPresentationAppearance(shown: true) }, completion: finish)
    }

    func dismissOwnWindow(animated: Bool, then done: (@MainActor () -> Void)?) {
        guard let window = presentationLinks.ownWindow else { return }
        if window.isKeyWindow {
            let previous = window.previousKeyWindow.flatMap { $0.isHidden ? nil : $0 }
            (previous ?? presentationLinks.presenting?.view.window)?.makeKey()
        }
        view.isUserInteractionEnabled = false
        // viewWillDisappear(animated) now, viewDidDisappear(animated) once it is gone and its window hidden.
        window.presentationAnimates = animated
        beginAppearanceTransition(false, animated: animated)
        let finish: @MainActor (Bool) -> Void = { [weak self] _ in
            window.isHidden = true
            window.presentationAnimates = nil
            self?.endAppearanceTransition()
            window.rootViewController = nil
            self?.presentationLinks.ownWindow = nil
            self?.view.isUserInteractionEnabled = true
            done?()
        }
        guard animated else { return finish(true) }
        View.animate(
            withDuration: ViewController.presentationDuration, options: .curveEaseIn,
            animations: { self.setPresentationAppearance(shown: false) }, completion: finish)
    }
}
