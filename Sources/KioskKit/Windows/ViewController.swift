/// Manages a view tree (as `UIViewController`): its `view` is made on first use by `loadView()`,
/// then `viewDidLoad()` runs.
@MainActor
open class ViewController: Responder {
    private var loadedView: View?

    override public init() {
        super.init()
    }

    /// The root view, loaded on first access.
    public var view: View {
        get {
            if let loadedView { return loadedView }
            loadView()
            let view = loadedView ?? installView(View())
            viewDidLoad()
            return view
        }
        set { installView(newValue) }
    }

    public var isViewLoaded: Bool { loadedView != nil }

    /// Insets added to the root view's safe area (as UIKit's): room for bars of the controller's own, which
    /// the views inside keep clear of through `safeAreaLayoutGuide`.
    public var additionalSafeAreaInsets = EdgeInsets.zero {
        didSet {
            // The next pass finds the guides' new insets (LayoutEngine.checkSystemGuides).
            guard additionalSafeAreaInsets != oldValue, let loadedView else { return }
            loadedView.setNeedsLayout()
        }
    }

    // MARK: Presentation (ViewController+Presentation.swift)

    /// How the controller is shown when presented (as UIKit's; `automatic` is `fullScreen` here).
    public var modalPresentationStyle = ModalPresentationStyle.automatic
    /// How it comes in and goes when presented (as UIKit's: `coverVertical` by default).
    public var modalTransitionStyle = ModalTransitionStyle.coverVertical
    /// The size a `formSheet` card would like (as UIKit's); zero: the default card.
    public var preferredContentSize = Size.zero {
        didSet { presentationLinks.container?.preferredSize = preferredContentSize }
    }
    /// Who presents whom, and the presentation's views.
    var presentationLinks = PresentationLinks()
    /// The level of the window of its own the controller is presented in (an alert's); nil: it is presented
    /// in the presenter's window (ViewController+OwnWindow.swift).
    var ownPresentationWindowLevel: Window.Level? { nil }
    /// How the controller's views look before they come into a window of their own (and after they go), and
    /// at rest; the change between the two is animated.
    func setPresentationAppearance(shown: Bool) { view.alpha = shown ? 1 : 0 }

    /// Called when the root view's safe area changed (as `UIViewController.viewSafeAreaInsetsDidChange()`),
    /// at the layout pass that takes the change in, where constraints use the root view's
    /// `safeAreaLayoutGuide`.
    open func viewSafeAreaInsetsDidChange() {}

    /// Loads the view if it is not loaded yet (`loadView()`, then `viewDidLoad()`), as UIKit's.
    public func loadViewIfNeeded() { _ = view }

    /// Makes the root view; override to build your own and assign it to `view`. The default makes a plain `View`.
    open func loadView() {
        installView(View())
    }

    /// Called once after the view was made.
    open func viewDidLoad() {}

    /// The view is about to be shown: the controller's window is about to become visible, or the controller
    /// is about to become the root of a visible window (as UIKit; `animated` is false: a window appears at
    /// once). Overrides call `super`.
    open func viewWillAppear(_ animated: Bool) {}
    /// The view is shown (its window visible, the controller its root).
    open func viewDidAppear(_ animated: Bool) {}
    /// The view is about to go: its window is about to be hidden, or another controller is about to take
    /// its place as the root.
    open func viewWillDisappear(_ animated: Bool) {}
    /// The view is gone from the screen.
    open func viewDidDisappear(_ animated: Bool) {}

    // MARK: Appearance

    /// Where the view is in its appearance calls.
    enum Appearance { case disappeared, appearing, appeared, disappearing }
    private(set) var appearance = Appearance.disappeared
    private var transitionIsAnimated = false

    /// Whether the controller passes its appearance calls on to the children whose views are in its own
    /// (as UIKit's, true); a container that says false calls their `beginAppearanceTransition` itself.
    open var shouldAutomaticallyForwardAppearanceMethods: Bool { true }

    /// Starts the view's appearance (`viewWillAppear`) or disappearance (`viewWillDisappear`), as
    /// `UIViewController.beginAppearanceTransition(_:animated:)`, for containers that forward these calls
    /// themselves. A call that changes nothing (appearing while it appears or has appeared) is ignored, so
    /// the calls stay balanced.
    public func beginAppearanceTransition(_ isAppearing: Bool, animated: Bool) {
        switch (appearance, isAppearing) {
        case (.appearing, true), (.appeared, true), (.disappearing, false), (.disappeared, false): return
        default: break
        }
        appearance = isAppearing ? .appearing : .disappearing
        transitionIsAnimated = animated
        if isAppearing { viewWillAppear(animated) } else { viewWillDisappear(animated) }
        guard shouldAutomaticallyForwardAppearanceMethods, let loadedView else { return }
        for child in children where child.isViewLoaded && child.view.isDescendant(of: loadedView) {
            child.beginAppearanceTransition(isAppearing, animated: animated)
        }
    }

    /// Ends what `beginAppearanceTransition` started (`viewDidAppear` or `viewDidDisappear`), as
    /// `UIViewController.endAppearanceTransition()`; nothing when no transition is under way.
    public func endAppearanceTransition() {
        switch appearance {
        case .appearing:
            appearance = .appeared
            viewDidAppear(transitionIsAnimated)
            Application.shared.instrumentation.post(.appearanceChanged(self, appeared: true, animated: transitionIsAnimated))
        case .disappearing:
            appearance = .disappeared
            viewDidDisappear(transitionIsAnimated)
            Application.shared.instrumentation.post(.appearanceChanged(self, appeared: false, animated: transitionIsAnimated))
        case .appeared, .disappeared:
            return
        }
        guard shouldAutomaticallyForwardAppearanceMethods else { return }
        for child in children where child.appearance == .appearing || child.appearance == .disappearing {
            child.endAppearanceTransition()
        }
    }

    // MARK: Containment

    /// The controllers added with `addChild(_:)`, in that order (as `UIViewController.children`).
    public private(set) var children: [ViewController] = []
    /// The container this controller is a child of.
    public private(set) weak var parent: ViewController?
    /// Whether any controller was ever made a child: until then a view that moves looks for none below it.
    private(set) static var containmentInUse = false

    /// Makes `child` a child of this controller (as `UIViewController.addChild(_:)`): `addChild` calls its
    /// `willMove(toParent:)`, first taking it out of the container it was in. Then add its view to this
    /// controller's views and call its `didMove(toParent:)`. A child appears when its view enters a shown
    /// window while this controller has appeared, and with this controller otherwise.
    public func addChild(_ child: ViewController) {
        var ancestor: ViewController? = self
        while let candidate = ancestor {
            precondition(candidate !== child, "ViewController.addChild: a controller cannot be a child of itself or of its own children")
            ancestor = candidate.parent
        }
        guard child.parent !== self else { return }
        if child.parent != nil {
            child.willMove(toParent: nil)
            child.removeFromParent()
        }
        child.willMove(toParent: self)
        children.append(child)
        child.parent = self
        Self.containmentInUse = true
    }

    /// Takes the controller out of its container (as `UIViewController.removeFromParent()`), then calls its
    /// `didMove(toParent: nil)`. Call `willMove(toParent: nil)` before, and take its view out of the
    /// container's views yourself.
    public func removeFromParent() {
        guard let parent else { return }
        parent.children.removeAll { $0 === self }
        self.parent = nil
        didMove(toParent: nil)
    }

    /// Called before the controller is added to a container (`parent`) or removed from one (nil).
    open func willMove(toParent parent: ViewController?) {}
    /// Called after the controller was added to a container (`parent`) or removed from one (nil).
    open func didMove(toParent parent: ViewController?) {}

    /// The view of a child is about to join `window` (nil: leave its window): it appears when that window
    /// is shown and its container has appeared, and disappears otherwise (nothing when that is no change).
    /// A container that forwards appearance itself (`shouldAutomaticallyForwardAppearanceMethods` false)
    /// gets no calls for its children here, as in UIKit: it calls their `beginAppearanceTransition`.
    func viewWillMove(toWindow window: Window?) {
        if let parent, !parent.shouldAutomaticallyForwardAppearanceMethods { return }
        let container = parent?.appearance
        let shown = window.map { !$0.isHidden } == true && (container == .appeared || container == .appearing)
        beginAppearanceTransition(shown, animated: false)
    }

    // MARK: Navigation

    /// The controller's title (as `UIViewController.title`): setting it sets `navigationItem.title`, which a
    /// navigation bar shows while the controller is on top and on its back button over the next one.
    open var title: String? {
        didSet { if title != oldValue { navigationItem.title = title } }
    }
    /// What a navigation bar shows for this controller (as `UIViewController.navigationItem`), made on first use.
    public private(set) lazy var navigationItem = NavigationItem(title: title)
    /// The nearest container above this controller that is a navigation controller (as
    /// `UIViewController.navigationController`); nil when there is none.
    public var navigationController: NavigationController? {
        var ancestor = parent
        while let candidate = ancestor {
            if let navigation = candidate as? NavigationController { return navigation }
            ancestor = candidate.parent
        }
        return nil
    }

    /// The responder chain goes from the controller to its view's superview (the window, for a root view).
    override open var next: Responder? { loadedView?.superview }

    /// A controller may become first responder (`canBecomeFirstResponder`) while its view is in a window;
    /// keys then go to it first.
    override var firstResponderView: View? { loadedView }

    @discardableResult
    private func installView(_ view: View) -> View {
        if let loadedView, loadedView !== view { loadedView.owningViewController = nil }
        view.owningViewController = self
        loadedView = view
        return view
    }
}
