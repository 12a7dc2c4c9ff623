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

    /// The responder chain goes from the controller to its view's superview (the window, for a root view).
    override open var next: Responder? { loadedView?.superview }

    /// A controller may become first responder (`canBecomeFirstResponder`) while its view is in a window;
    /// keys then go to it first.
    override var firstResponderWindow: Window? { loadedView?.window }

    @discardableResult
    private func installView(_ view: View) -> View {
        if let loadedView, loadedView !== view { loadedView.owningViewController = nil }
        view.owningViewController = self
        loadedView = view
        return view
    }
}
