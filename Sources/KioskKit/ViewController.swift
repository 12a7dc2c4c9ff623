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
