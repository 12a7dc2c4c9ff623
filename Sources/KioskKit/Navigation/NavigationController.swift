/// Told when a navigation controller shows another view controller (as `UINavigationControllerDelegate`'s
/// `willShow` and `didShow`). Both methods are optional.
@MainActor
public protocol NavigationControllerDelegate: AnyObject {
    /// `viewController` is about to be shown: after its `viewWillAppear`, before the slide (and when the
    /// navigation controller itself is about to appear, for its top controller). An interactive pop calls
    /// it as the finger starts, and a cancelled one calls no `didShow`.
    func navigationController(_ navigationController: NavigationController, willShow viewController: ViewController, animated: Bool)
    /// `viewController` is shown: after its `viewDidAppear` and `didMove(toParent:)`.
    func navigationController(_ navigationController: NavigationController, didShow viewController: ViewController, animated: Bool)
}

extension NavigationControllerDelegate {
    public func navigationController(
        _ navigationController: NavigationController, willShow viewController: ViewController, animated: Bool
    ) {}
    public func navigationController(
        _ navigationController: NavigationController, didShow viewController: ViewController, animated: Bool
    ) {}
}

/// A stack of view controllers of which the top one is shown, under a navigation bar (as
/// `UINavigationController`): push a controller to go deeper, pop to come back, by the bar's back button or
/// by a swipe from the leading edge.
///
/// The stack's controllers are its children (UIKit's containment: `addChild` and `willMove(toParent:)` when
/// one joins, `didMove(toParent:)` once it is shown or at once; `willMove(toParent: nil)` when one leaves,
/// `removeFromParent` and `didMove(toParent: nil)` after), and only the top one's view is in the
/// navigation controller's. While the navigation controller is on screen, a change of the top one makes
/// UIKit's appearance calls, animated or not: the disappearing controller's `viewWillDisappear`, the
/// appearing one's `viewWillAppear`, then after the slide `viewDidDisappear` and `viewDidAppear`. The slide is
/// UIKit's (0.35 s, paced by the frame clock as every `View.animate`); touches are ignored while it runs.
///
/// Bad input is logged and changes nothing where UIKit throws or leaves it undefined: a controller pushed
/// twice, a navigation controller pushed, an ancestor of this one pushed, a stack with a controller twice.
/// Popping the root does nothing, as UIKit documents (and is logged). A change asked for during a
/// transition first ends that transition where it was heading (logged), so the stack is always what the
/// app last asked for.
@MainActor
open class NavigationController: ViewController {
    /// The stack, root first, top last (the interactive pop takes its top off once the finger lets go).
    var stack: [ViewController] = []
    /// The bar at the top of the view (as `UINavigationController.navigationBar`).
    public let navigationBar = NavigationBar()
    /// Where the top controller's view goes: everything below the bar (UIKit's transition view).
    let containerView = View()
    /// The change of the top controller on screen now, if any.
    var transition: NavigationTransition?
    /// Told of each controller shown (held weakly, as UIKit's).
    public weak var delegate: (any NavigationControllerDelegate)?

    /// The bar at the top of the safe area, and the bar above the view's top edge when it is hidden; the
    /// content is below the bar either way, so hiding the bar gives its room to the content.
    private var barShown: LayoutConstraint?
    private var barHidden: LayoutConstraint?
    private var barIsHidden = false
    /// The interactive pop's recognizer, on the view once it is loaded.
    let popRecognizer = InteractivePopGestureRecognizer()

    /// A navigation controller whose stack holds `rootViewController` (as
    /// `UINavigationController(rootViewController:)`).
    public init(rootViewController: ViewController) {
        super.init()
        configure()
        setViewControllers([rootViewController], animated: false)
    }

    /// A navigation controller with an empty stack; `setViewControllers` or `pushViewController` fills it.
    override public init() {
        super.init()
        configure()
    }

    private func configure() {
        navigationBar.backAction = { [weak self] in _ = self?.popViewController(animated: true) }
        popRecognizer.navigationController = self
        popRecognizer.addAction { [weak self] recognizer in self?.interactivePopDidChange(recognizer) }
    }

    // MARK: The stack

    /// The controllers on the stack, root first (as `UINavigationController.viewControllers`); setting it
    /// is `setViewControllers(_:animated: false)`.
    public var viewControllers: [ViewController] {
        get { stack }
        set { setViewControllers(newValue, animated: false) }
    }

    /// The controller on top of the stack, whose view is shown.
    public var topViewController: ViewController? { stack.last }

    /// The controller whose view is visible in the navigation interface (as `UINavigationController.
    /// visibleViewController`): a controller presented over it when there is one (the top of a chain of
    /// presentations), else the top one.
    public var visibleViewController: ViewController? {
        var presented = presentationAncestor.presentedViewController
        while let next = presented?.presentedViewController { presented = next }
        return presented ?? topViewController
    }

    /// Puts `viewController` on top (as `UINavigationController.pushViewController(_:animated:)`); it slides
    /// in from the trailing edge when `animated` and the navigation controller is on screen.
    open func pushViewController(_ viewController: ViewController, animated: Bool) {
        guard accepts(viewController, for: "pushViewController") else { return }
        replaceStack(with: stack + [viewController], animated: animated, style: .push, for: "pushViewController")
    }

    /// Takes the top controller off and returns it (as `UINavigationController.popViewController(animated:)`);
    /// with only the root left it does nothing and returns nil, as UIKit documents.
    @discardableResult
    open func popViewController(animated: Bool) -> ViewController? {
        guard stack.count > 1, let top = stack.last else {
            Log.app.notice("NavigationController.popViewController: the root view controller is not popped")
            return nil
        }
        replaceStack(with: Array(stack.dropLast()), animated: animated, style: .pop, for: "popViewController")
        return top
    }

    /// Pops every controller above the root and returns them, bottom first (as `UINavigationController.
    /// popToRootViewController(animated:)`): one transition, from the top to the root.
    @discardableResult
    open func popToRootViewController(animated: Bool) -> [ViewController]? {
        guard let root = stack.first else { return nil }
        return popToViewController(root, animated: animated)
    }

    /// Pops the controllers above `viewController` and returns them, bottom first (as
    /// `UINavigationController.popToViewController(_:animated:)`); nil, and logged, when it is not on the stack.
    @discardableResult
    open func popToViewController(_ viewController: ViewController, animated: Bool) -> [ViewController]? {
        guard let index = stack.firstIndex(where: { $0 === viewController }) else {
            Log.app.warning(
                "NavigationController.popToViewController: \(Self.name(viewController)) is not on the stack; nothing is popped")
            return nil
        }
        let popped = Array(stack[(index + 1)...])
        if !popped.isEmpty {
            replaceStack(with: Array(stack[...index]), animated: animated, style: .pop, for: "popToViewController")
        }
        return popped
    }

    /// Makes `viewControllers` the stack (as `UINavigationController.setViewControllers(_:animated:)`): one
    /// transition to the new top, a pop when it was on the stack already, else a push, none when it is the
    /// top now. A list with a controller twice, or one that cannot be pushed, is logged and changes nothing.
    open func setViewControllers(_ viewControllers: [ViewController], animated: Bool) {
        for (index, controller) in viewControllers.enumerated() {
            if viewControllers[..<index].contains(where: { $0 === controller }) {
                Log.app.warning(
                    "NavigationController.setViewControllers: \(Self.name(controller)) is in the list twice; the stack is left as it was")
                return
            }
            guard stack.contains(where: { $0 === controller }) || accepts(controller, for: "setViewControllers") else { return }
        }
        let top = viewControllers.last
        let style: NavigationTransition.Style = stack.dropLast().contains { $0 === top } ? .pop : .push
        replaceStack(with: viewControllers, animated: animated, style: style, for: "setViewControllers")
    }

    /// Whether `controller` may join the stack; what UIKit throws for, or cannot do, is logged.
    private func accepts(_ controller: ViewController, for call: String) -> Bool {
        let refusal: String?
        if stack.contains(where: { $0 === controller }) {
            refusal = "\(Self.name(controller)) is on the stack already (UIKit throws)"
        } else if controller is NavigationController {
            refusal = "a navigation controller cannot be pushed (UIKit throws)"
        } else if isDescendantOrSelf(of: controller) {
            refusal = "\(Self.name(controller)) contains this navigation controller"
        } else if controller.isViewLoaded, let window = controller.view.superview as? Window, window.rootViewController === controller {
            refusal = "\(Self.name(controller)) is the root view controller of a window"
        } else {
            refusal = nil
        }
        guard let refusal else { return true }
        Log.app.warning("NavigationController.\(call): \(refusal); ignored")
        return false
    }

    private func isDescendantOrSelf(of controller: ViewController) -> Bool {
        var current: ViewController? = self
        while let candidate = current {
            if candidate === controller { return true }
            current = candidate.parent
        }
        return false
    }

    /// Makes `new` the stack: leavers hear `willMove(toParent: nil)` and joiners are added now, the top's
    /// view changes (`NavigationTransition`), and their moves end with it.
    private func replaceStack(with new: [ViewController], animated: Bool, style: NavigationTransition.Style, for call: String) {
        if transition != nil {
            Log.app.notice("NavigationController.\(call) during a transition: the transition is ended first")
            finishTransitionNow()
        }
        let old = stack
        let removed = old.filter { leaving in !new.contains { $0 === leaving } }
        let added = new.filter { joining in !old.contains { $0 === joining } }
        for controller in added { addChild(controller) }
        for controller in removed { controller.willMove(toParent: nil) }
        stack = new
        let from = old.last, to = new.last
        let presence = self.presence
        let change = NavigationTransition(
            style: style, from: from === to ? nil : from, to: from === to ? nil : to, presence: presence,
            animated: animated && presence == .onScreen && from !== to, removed: removed, added: added)
        if from === to {
            navigationBar.show(stack.map(\.navigationItem))
            return finish(change)
        }
        run(change)
    }

    static func name(_ controller: ViewController) -> String {
        controller.title.map { "\(type(of: controller)) \"\($0)\"" } ?? "\(type(of: controller))"
    }

    // MARK: The view

    /// The bar at the top of the safe area (a status bar's window pushes it down), the top controller's view
    /// below it; the interactive pop's recognizer on the view. Not to be overridden: UIKit's is not either.
    override public final func loadView() {
        let root = View()
        root.backgroundColor = .white
        view = root
        containerView.clipsToBounds = true
        containerView.identifier = "navigation-content"
        for part in [containerView, navigationBar] {
            part.translatesAutoresizingMaskIntoConstraints = false
            root.addSubview(part)
        }
        let shown = navigationBar.topAnchor.constraint(equalTo: root.safeAreaLayoutGuide.topAnchor)
        let hidden = navigationBar.bottomAnchor.constraint(equalTo: root.topAnchor)
        barShown = shown
        barHidden = hidden
        LayoutConstraint.activate([
            barIsHidden ? hidden : shown,
            navigationBar.leadingAnchor.constraint(equalTo: root.leadingAnchor),
            navigationBar.trailingAnchor.constraint(equalTo: root.trailingAnchor),
            navigationBar.heightAnchor.constraint(equalToConstant: NavigationBar.height),
            containerView.topAnchor.constraint(equalTo: navigationBar.bottomAnchor),
            containerView.leadingAnchor.constraint(equalTo: root.leadingAnchor),
            containerView.trailingAnchor.constraint(equalTo: root.trailingAnchor),
            containerView.bottomAnchor.constraint(equalTo: root.bottomAnchor),
        ])
        navigationBar.isHidden = barIsHidden
        navigationBar.show(stack.map(\.navigationItem))
        if let top = stack.last { insertWithoutAppearanceCalls(top, above: true) }
        root.addGestureRecognizer(popRecognizer)
    }

    /// The navigation controller's own appearance tells the delegate of its top controller, as UIKit's.
    override open func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        if let top = topViewController { delegate?.navigationController(self, willShow: top, animated: animated) }
    }

    override open func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        if let top = topViewController { delegate?.navigationController(self, didShow: top, animated: animated) }
    }

    // MARK: The bar

    /// Whether the bar is hidden (as `UINavigationController.isNavigationBarHidden`); setting it is
    /// `setNavigationBarHidden(_:animated: false)`.
    public var isNavigationBarHidden: Bool {
        get { barIsHidden }
        set { setNavigationBarHidden(newValue, animated: false) }
    }

    /// Hides or shows the bar (as `UINavigationController.setNavigationBarHidden(_:animated:)`): it slides up
    /// past the view's top edge and the content takes its room, or the reverse, over 0.2 s (the value of
    /// UIKit's `hideShowBarDuration`) when `animated` and on screen.
    open func setNavigationBarHidden(_ hidden: Bool, animated: Bool) {
        guard hidden != barIsHidden else { return }
        barIsHidden = hidden
        guard isViewLoaded, let barShown, let barHidden else { return }
        navigationBar.isHidden = false
        let move = {
            // The one going first, so that the two never hold together.
            (hidden ? barShown : barHidden).isActive = false
            (hidden ? barHidden : barShown).isActive = true
            self.view.layoutIfNeeded()
        }
        guard animated, presence == .onScreen else {
            move()
            navigationBar.isHidden = hidden
            return
        }
        view.layoutIfNeeded()
        View.animate(withDuration: Self.hideShowBarDuration, animations: move) { [weak self] _ in
            guard let self, self.barIsHidden == hidden else { return }
            self.navigationBar.isHidden = hidden
        }
    }

    /// How long the bar takes to slide in or out (as `UINavigationController.hideShowBarDuration`).
    public static let hideShowBarDuration = 0.2

    /// The recognizer of the interactive pop, a pan from the leading edge (as `UINavigationController.
    /// interactivePopGestureRecognizer`); disable it to turn the swipe off.
    public var interactivePopGestureRecognizer: GestureRecognizer? { popRecognizer }
}
