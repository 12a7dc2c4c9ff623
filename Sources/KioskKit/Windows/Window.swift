import Glibc

/// The root of a view tree shown on a screen, stacked with other windows by level (as `UIWindow`).
///
/// Windows start hidden. `makeKeyAndVisible()` shows a window, brings it to the front of its level and
/// makes it the key window, which receives events without a position (keys). A window of a higher level is
/// always in front of a lower one; within a level the window shown last is in front. The on-screen
/// keyboard's window has the highest level, `.keyboard`, which no app window reaches (`windowLevel`).
@MainActor
open class Window: View {
    /// Counts the frames that walked this window: a view told it was composed on screen at serial N is
    /// still shown while no later frame has walked the window without telling it so (`View.observesComposition`).
    var compositionSerial: UInt64 = 0
    /// A window's stacking level (as `UIWindow.Level`); any value is allowed, with arithmetic, but an app
    /// window takes only levels below `.keyboard` (`Window.windowLevel`).
    public struct Level: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
        public var rawValue: Double
        public init(rawValue: Double) { self.rawValue = rawValue }
        public init(_ rawValue: Double) { self.rawValue = rawValue }

        public static let normal = Level(0)
        public static let statusBar = Level(1000)
        public static let alert = Level(2000)
        /// The on-screen keyboard's window: UIKit's (`UIRemoteKeyboardWindow`) reports this level, above every
        /// window of the app whatever level it sets (reference 002), but UIKit names no constant for it; this
        /// one is ours. An app window never reaches it (`Window.windowLevel`).
        public static let keyboard = Level(10_000_000)
        /// The highest level an app window takes: the greatest one below the keyboard's.
        static let highestBelowKeyboard = Level(keyboard.rawValue.nextDown)

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
        public static func + (lhs: Level, rhs: Double) -> Level { Level(lhs.rawValue + rhs) }
        public static func - (lhs: Level, rhs: Double) -> Level { Level(lhs.rawValue - rhs) }

        /// `normal`, `statusBar`, `alert`, or the number (`2001`), for logs and traces.
        public var description: String {
            switch self {
            case .normal: "normal"
            case .statusBar: "statusBar"
            case .alert: "alert"
            case .keyboard: "keyboard"
            default: Int(exactly: rawValue).map { String($0) } ?? String(rawValue)
            }
        }
    }

    @exclusivity(unchecked) private var assignedScreen: Screen
    /// Whether the window follows its screen's bounds (made with `init(screen:)`): a mode change or a
    /// rotation resizes it. Setting `frame` stops that.
    public private(set) var fillsScreen: Bool
    /// Stacking order within a level: bumped every time the window is shown or brought to the front.
    var showOrder: UInt64 = 0
    /// A window of the runtime's own drawn over every window of `Application.windows`, the keyboard's too,
    /// and not one of them: the mouse cursor. UIKit's `windows` holds no system window (reference 002: the
    /// status bar's is not in it; iPadOS draws its pointer outside the app), so an app's `windows.last` is
    /// the keyboard's while it exists, as in UIKit. Overlays stack among themselves by level, then order
    /// shown; hit testing passes them by, so a touch reaches what is under one.
    @_spi(KioskRuntime) public var isSystemOverlay = false {
        didSet {
            guard isSystemOverlay != oldValue else { return }
            Application.shared.stackingDidChange()
            subtreeDidChange(self)
        }
    }
    /// The key window this one took the key status from; it gets it back when this one hides.
    weak var previousKeyWindow: Window?

    /// A window with the given frame in screen coordinates, on the main screen, hidden. A frame that is the
    /// main screen's bounds (UIKit's `UIWindow(frame: UIScreen.main.bounds)`) makes a window that follows
    /// the screen as `init(screen:)` does: made before any display is connected, it gets the size of the
    /// first one.
    override public init(frame: Rect) {
        assignedScreen = Screen.main
        fillsScreen = frame == Screen.main.bounds
        super.init(frame: frame, hidden: true)
        Application.shared.register(self)
    }

    /// A window covering `screen` and following its size, hidden.
    public init(screen: Screen) {
        assignedScreen = screen
        fillsScreen = true
        super.init(frame: screen.bounds, hidden: true)
        Application.shared.register(self)
    }

    /// A full-screen window on the main screen.
    public convenience init() {
        self.init(screen: Screen.main)
    }

    /// The screen the window is shown on (the main screen by default). Setting it moves the window there;
    /// touches in progress in the window are cancelled.
    public var screen: Screen {
        get { assignedScreen }
        set {
            guard newValue !== assignedScreen else { return }
            Application.shared.windowWillMove(self)
            subtreeWillLeave(self)
            assignedScreen = newValue
            Application.shared.hitTestingDidChange()
            if fillsScreen { adoptScreenBounds() }
            subtreeDidChange(self)
            // The on-screen keyboard follows a first responder in this window to its new screen.
            if Application.shared.firstResponder?.firstResponderWindow === self { Application.shared.keyboard.update() }
        }
    }

    /// Moves a window off the placeholder screen onto the first real one, without cancelling anything.
    func adopt(screen: Screen) {
        assignedScreen = screen
        Application.shared.hitTestingDidChange()
        if fillsScreen { adoptScreenBounds() }
        subtreeDidChange(self)
    }

    override open var frame: Rect {
        get { super.frame }
        set {
            fillsScreen = false
            super.frame = newValue
        }
    }

    func adoptScreenBounds() {
        let wasFilling = fillsScreen
        super.frame = assignedScreen.bounds
        fillsScreen = wasFilling
    }

    /// The window's level (as `UIWindow.windowLevel`; `.normal` by default). A level below `.keyboard` is
    /// kept as set. One at or above it is not: UIKit's keyboard stays in front of every app window whatever
    /// level the app sets (reference 002), so such a level is taken as the highest below the keyboard's
    /// (`Level(Level.keyboard.rawValue.nextDown)`, which this then reports): the window is in front of every
    /// lower level and behind the keyboard, and `Application.windows` stays in level order with the
    /// keyboard's window last. NaN, which has no place in an order, is taken as `.normal`. The keyboard's own
    /// window stays at `.keyboard` whatever it is set to.
    public var windowLevel: Level {
        get { level }
        set {
            let accepted: Level
            if self is KeyboardWindow {
                accepted = .keyboard
            } else if newValue.rawValue.isNaN {
                accepted = .normal
            } else {
                accepted = min(newValue, .highestBelowKeyboard)
            }
            guard accepted != level else { return }
            level = accepted
            Application.shared.stackingDidChange()
            subtreeDidChange(self)
        }
    }
    private var level = Level.normal

    /// True while the window is being shown, until it is (its root controller's `viewWillAppear` runs
    /// then): a text field may become first responder there.
    private(set) var isAppearing = false

    /// Set while a presentation shows or hides this window (an alert's own window): whether that is
    /// animated, which its root's appearance calls say; the presentation ends them once its animation is
    /// over (UIKit's `viewDidAppear(true)` comes once the alert is in). Nil: the window is shown or hidden
    /// at once, and its root's calls end with it.
    var presentationAnimates: Bool?

    override open var isHidden: Bool {
        willSet {
            guard newValue != isHidden else { return }
            isAppearing = !newValue
            rootViewController?.beginAppearanceTransition(!newValue, animated: presentationAnimates ?? false)
        }
        didSet {
            isAppearing = false
            guard isHidden != oldValue else { return }
            if isHidden { Application.shared.windowDidHide(self) } else { Application.shared.windowDidShow(self) }
            guard let root = rootViewController, presentationAnimates == nil else { return }
            root.endAppearanceTransition()
        }
    }

    override open var window: Window? { self }

    // A window that takes no touches is left out of its screen's list for hit testing: these change it.
    override open var isUserInteractionEnabled: Bool {
        didSet { if isUserInteractionEnabled != oldValue { Application.shared.hitTestingDidChange() } }
    }

    override open var alpha: Double {
        didSet { if alpha != oldValue { Application.shared.hitTestingDidChange() } }
    }

    override open var next: Responder? { Application.shared }

    /// Whether the window is visible on a display now: not hidden and on a connected screen.
    public var isOnDisplay: Bool { !isHidden && assignedScreen.isConnected }

    // MARK: Key window

    public var isKeyWindow: Bool { Application.shared.keyWindow === self }

    /// Makes this the key window without changing whether it is shown.
    public func makeKey() {
        guard canBecomeKey else { return }
        Application.shared.makeKey(self)
    }

    /// Shows the window in front of the others of its level and makes it the key window.
    public func makeKeyAndVisible() {
        if isHidden {
            isHidden = false
        } else {
            Application.shared.bringToFront(self)
        }
        makeKey()
    }

    /// Whether the window may be the key window (as `UIWindow.canBecomeKey`); false for windows such as a
    /// mouse cursor, which the key status never falls back to.
    open var canBecomeKey: Bool { true }

    /// Called when the window became the key window; override to react (call super).
    open func becomeKey() {}

    /// Called when the window stopped being the key window; override to react (call super).
    open func resignKey() {}

    // MARK: Root view controller

    /// The controller whose view fills the window; setting it installs that view as the window's root view.
    /// On a visible window the old controller's view disappears and the new one's appears (their
    /// `viewWillDisappear`/`viewWillAppear`, then `viewDidDisappear`/`viewDidAppear`).
    public var rootViewController: ViewController? {
        didSet {
            guard rootViewController !== oldValue else { return }
            let shown = !isHidden
            // Loaded first: its `viewDidLoad` comes before its `viewWillAppear` (UIKit: the appearance
            // calls are made for a view that exists).
            rootViewController?.loadViewIfNeeded()
            if shown {
                oldValue?.beginAppearanceTransition(false, animated: false)
                rootViewController?.beginAppearanceTransition(true, animated: false)
            }
            // "If the window has an existing view hierarchy, the old views are removed before the new ones
            // are installed" (UIKit).
            for view in subviews { view.removeFromSuperview() }
            if let controller = rootViewController {
                let root = controller.view
                root.frame = bounds
                root.autoresizingMask = [.flexibleWidth, .flexibleHeight]
                addSubview(root)
            }
            if shown {
                oldValue?.endAppearanceTransition()
                rootViewController?.endAppearanceTransition()
            }
        }
    }

    // MARK: Events

    /// Delivers an event the application routed here: each touch to its gesture recognizers, then to the
    /// view it belongs to, by phase; presses and other events to the first responder when it is in this
    /// window, else the window.
    open func sendEvent(_ event: Event) {
        switch event.kind {
        case .touches:
            // Recognizers first, then the views, as they allow (`GestureArena`).
            Application.shared.gestures.deliver(event, in: self)
        case .presses:
            let target = focusedResponder ?? self
            let application = Application.shared
            let began = event.allPresses.filter { $0.phase == .began }
            for press in began { application.pressPairing.began(press, by: target) }
            if !began.isEmpty { target.pressesBegan(began, with: event) }
            // Each release to the responder its press went to (the first responder may have changed since).
            let releases = event.allPresses.filter { $0.phase == .ended }.compactMap { press in
                application.pressPairing.responder(forRelease: press, fallback: target).map { ($0, press) }
            }
            for (responder, presses) in PressPairing.grouped(releases) { responder.pressesEnded(presses, with: event) }
        case .other:
            (focusedResponder ?? self).handleOther(event)
        }
    }

    /// The application's first responder when it is in this window (or is this window).
    private var focusedResponder: Responder? {
        guard let responder = Application.shared.firstResponder else { return nil }
        return responder.firstResponderWindow === self ? responder : nil
    }

    // MARK: Coordinates between windows

    /// Converts `point` from this window's coordinates to `window`'s; nil means screen coordinates.
    public func convert(_ point: Point, to window: Window?) -> Point {
        let onScreen = point.applying(transformToSuperview)
        guard let window else { return onScreen }
        return onScreen.applying(window.transformToSuperview.inverted())
    }

    /// Converts `point` from `window`'s coordinates (nil: screen coordinates) to this window's.
    public func convert(_ point: Point, from window: Window?) -> Point {
        convertFromSuperview(window?.convert(point, to: nil) ?? point)
    }

    /// The box around `rect` converted (exact without transforms), as UIKit's `convert(_:to:)`.
    public func convert(_ rect: Rect, to window: Window?) -> Rect {
        guard !rect.isNull else { return rect }
        var map = transformToSuperview
        if let window { map = map.concatenating(window.transformToSuperview.inverted()) }
        return rect.applying(map)
    }

    public func convert(_ rect: Rect, from window: Window?) -> Rect {
        guard !rect.isNull else { return rect }
        var map = transformToSuperview.inverted()
        if let window { map = window.transformToSuperview.concatenating(map) }
        return rect.applying(map)
    }

    // MARK: Change tracking (what the compositor needs to know)

    func subtreeDidChange(_ view: View) {
        Application.shared.changeObserver?.subtreeDidChange(view, in: self)
    }

    func subtreeWillLeave(_ view: View) {
        Application.shared.changeObserver?.subtreeWillLeave(view, in: self)
    }

    func contentDidChange(in view: View, rect: Rect) {
        Application.shared.changeObserver?.contentDidChange(in: view, rect: rect, window: self)
    }

    func requestFrame() {
        Application.shared.changeObserver?.frameRequested(by: self)
    }
}

extension Window {
    /// Posted when a window is shown (`isHidden` became false); `object` is the window.
    nonisolated public static let didBecomeVisibleNotification = NotificationName("KioskWindowDidBecomeVisibleNotification")
    /// Posted when a window is hidden; `object` is the window.
    nonisolated public static let didBecomeHiddenNotification = NotificationName("KioskWindowDidBecomeHiddenNotification")
    /// Posted when a window became the key window; `object` is the window.
    nonisolated public static let didBecomeKeyNotification = NotificationName("KioskWindowDidBecomeKeyNotification")
    /// Posted when a window stopped being the key window; `object` is the window.
    nonisolated public static let didResignKeyNotification = NotificationName("KioskWindowDidResignKeyNotification")
}

/// What the compositor is told about changes to windows and views. Internal: the compositor lives in this module.
@MainActor
protocol WindowChangeObserver: AnyObject {
    func subtreeDidChange(_ view: View, in window: Window)
    func subtreeWillLeave(_ view: View, in window: Window)
    func contentDidChange(in view: View, rect: Rect, window: Window)
    func frameRequested(by window: Window)
    func screenDidChange(_ screen: Screen)
    /// An animation or a display link started: the screens that show one need a frame per refresh.
    func framesRequested()
    /// What `view` and its subviews show on screen now, within its bounds, as a bitmap of the bounds' size
    /// (nil: nothing): a view transition's old rendering.
    func snapshot(of view: View) -> Bitmap?
}
