import Glibc
import Logging

/// The running app (as `UIApplication`): its screens, its windows back to front, the key window, and the
/// routing of events to windows.
///
/// `Application.shared` is the one instance; tests replace it with one that posts to a private
/// `NotificationCenter`.
@MainActor
public final class Application: Responder {
    public static var shared = Application()

    /// Where screen and window notifications are posted.
    public let notificationCenter: NotificationHub

    /// Where the toolkit posts what happens (frames, paints, animations, gestures, edits, scrolls, input
    /// activity, deliveries) for any number of listeners: the runtime's trace and power manager, tests.
    public let instrumentation: Instrumentation

    public init(notificationCenter: NotificationHub = .default) {
        self.notificationCenter = notificationCenter
        let instrumentation = Instrumentation()
        self.instrumentation = instrumentation
        gestures = GestureArena(instrumentation: instrumentation)
        placeholderScreen = Screen(name: "", driver: nil, registered: false)
        super.init()
        _ = Self.fontSubstitutionsAreLogged
    }

    /// A family the app names that no font has is logged once, with the family drawn instead (set once per
    /// process: tests make many applications).
    private static let fontSubstitutionsAreLogged: Void = {
        FontSubstitution.handler = { requested, used in
            Log.app.warning(
                "font family \"\(requested)\" is neither installed nor registered (Font.register(fileAt:)): drawn in \"\(used)\"")
        }
    }()

    /// How large text in a text style is drawn (as `UIApplication.preferredContentSizeCategory`; the config's
    /// `text-size`). A change gives every label and text field that adjusts for it
    /// (`adjustsFontForContentSizeCategory`) its style's new size, then posts
    /// `contentSizeCategoryDidChangeNotification`.
    public var preferredContentSizeCategory: ContentSizeCategory = .large {
        didSet { if preferredContentSizeCategory != oldValue { contentSizeCategoryDidChange() } }
    }

    /// The end of the responder chain.
    override public var next: Responder? { nil }

    /// Told about every change that needs a repaint; set by the compositor. Not instrumentation: the one
    /// compositor of the application is how a change reaches the screen, and it answers (a frame is asked for).
    weak var changeObserver: (any WindowChangeObserver)?

    // MARK: Time and animation

    /// The clock animations and display links run on (CLOCK_MONOTONIC); tests set a `ManualClock` before
    /// they make the compositor.
    public var clock: any FrameClock = MonotonicClock()

    /// Runs the view animations of this application.
    private(set) lazy var animator = Animator(application: self)

    /// Whether any view animation is in flight.
    public var isAnimating: Bool { animator.isAnimating }

    /// Runs `action` once no view animation is in flight (on the next turn of the run loop if none is), or
    /// after `limit` seconds at the latest: for work that would stall the frames of an animation.
    public func whenAnimationsEnd(within limit: TimeInterval, _ action: @escaping @MainActor () -> Void) {
        animator.whenSettled(within: limit, action)
    }

    /// Delivers touches to gesture recognizers and carries out their state changes.
    let gestures: GestureArena

    /// Display links added and not invalidated, in the order added.
    var displayLinks: [DisplayLink] = []

    /// The session's idle timer (`sessionIdleTimeout`, Application+Session.swift).
    private(set) lazy var session = SessionIdleTimer(application: self)

    // MARK: Screens

    private var registeredScreens: [Screen] = []
    private let placeholderScreen: Screen
    private var lastMainScreen: Screen?

    /// The connector name of the screen that should be main whenever it is connected (the config's `primary`).
    public var preferredMainScreenName: String? {
        didSet { updateMainScreen() }
    }

    /// The screens, main first, then the other connected ones in registration order. As UIKit's
    /// `UIScreen.screens`, it always holds at least the main screen: while no display is connected that is
    /// the last main screen (or the placeholder), with `isConnected == false`, so code written for UIKit
    /// that reads `screens[0]` works.
    public var screens: [Screen] {
        let connected = connectedScreens
        return connected.isEmpty ? [mainScreen] : connected
    }

    /// The connected screens, main first, then in registration order.
    public var connectedScreens: [Screen] {
        let connected = registeredScreens.filter(\.isConnected)
        let main = mainScreen
        return connected.filter { $0 === main } + connected.filter { $0 !== main }
    }

    var mainScreen: Screen {
        let connected = registeredScreens.filter(\.isConnected)
        let preferred = preferredMainScreenName.flatMap { name in registeredScreens.first { $0.name == name } }
        if let preferred, preferred.isConnected { return preferred }
        if let first = connected.first { return first }
        // Nothing connected: the configured primary, else the last main screen, so windows made now
        // appear when that display comes back.
        return preferred ?? lastMainScreen ?? placeholderScreen
    }

    func isPlaceholder(_ screen: Screen) -> Bool { screen === placeholderScreen }

    /// Backends' screens join in the order they are made (for DRM: the kernel's connector order).
    func register(_ screen: Screen) {
        if !registeredScreens.contains(where: { $0 === screen }) { registeredScreens.append(screen) }
    }

    private func updateMainScreen() {
        let main = mainScreen
        if main !== placeholderScreen, main.isConnected { lastMainScreen = main }
    }

    func screenDidConnect(_ screen: Screen) {
        register(screen)
        updateMainScreen()
        // Windows made before any display existed were put on the placeholder: they belong to the first
        // real main screen (app code that makes its window on `Screen.main` at launch must just work).
        if mainScreen === screen {
            for window in liveWindows where window.screen === placeholderScreen {
                window.adopt(screen: screen)
            }
        }
        resizeWindows(on: screen)
        changeObserver?.screenDidChange(screen)
        keyboard.update()
        notificationCenter.post(name: Screen.didConnectNotification, object: screen)
    }

    func screenDidDisconnect(_ screen: Screen) {
        cancelTouches(reason: "screen \(screen.name) disconnected") { $0.screen === screen || $0.window?.screen === screen }
        updateMainScreen()
        changeObserver?.screenDidChange(screen)
        keyboard.update()
        notificationCenter.post(name: Screen.didDisconnectNotification, object: screen)
    }

    func screenPowerDidChange(_ screen: Screen, reason: String) {
        if screen.powerState == .off {
            cancelTouches(reason: "screen \(screen.name) turned off") { $0.screen === screen }
        }
        changeObserver?.screenDidChange(screen)
        notificationCenter.post(name: Screen.powerStateDidChangeNotification, object: screen, userInfo: ["reason": reason])
    }

    /// Told when a touch or a key reaches a screen that is off. The event itself is swallowed (the touch
    /// that wakes a screen presses nothing); the handler decides whether to wake the screen (the runtime's
    /// power policy: yes after idle blanking, per its setting during a scheduled off).
    public var wakeHandler: ((Screen) -> Void)?

    func screenGeometryDidChange(_ screen: Screen) {
        resizeWindows(on: screen)
        keyboard.screenGeometryDidChange(screen)
        changeObserver?.screenDidChange(screen)
        notificationCenter.post(name: Screen.modeDidChangeNotification, object: screen)
    }

    private func resizeWindows(on screen: Screen) {
        for window in liveWindows where window.screen === screen && window.fillsScreen {
            window.adoptScreenBounds()
        }
    }

    // MARK: Windows

    private struct WeakWindow {
        weak var window: Window?
    }

    private var windowRefs: [WeakWindow] = []
    /// Visible windows are kept alive by the application, as UIKit does; hidden ones only by their owners.
    private var shownWindows: [ObjectIdentifier: Window] = [:]
    private var orderCounter: UInt64 = 0

    /// The key window: it receives events without a position (keys) when no first responder has them.
    /// At most one at a time.
    public private(set) weak var keyWindow: Window?

    /// The one responder, in any window, that key events and typed text reach first (a text field being
    /// edited); set by `becomeFirstResponder` and `resignFirstResponder`.
    public internal(set) weak var firstResponder: Responder? {
        didSet { if firstResponder !== oldValue { firstResponderDidChange(from: oldValue) } }
    }

    /// Told when the first responder changes (the on-screen keyboard follows it).
    var firstResponderObservers: [(Responder?, Responder?) -> Void] = []

    /// Non-zero while `becomeFirstResponder` moves the status from one responder to another.
    var firstResponderSwitches = 0

    /// Where keys go: the first responder's window, whatever window it is (a text field of a window that
    /// is not key still takes the keys; a view controller's is its view's), else the key window.
    var focusedWindow: Window? { firstResponder?.firstResponderWindow ?? keyWindow }

    /// True while `takeFirstResponderStatus` makes the first responder resign without asking it.
    var isTakingFirstResponder = false

    /// How held keys repeat (the runtime sets the configuration's `keyboard-repeat-delay-ms` and
    /// `keyboard-repeat-rate`); a change stops a repeat under way.
    public var keyRepeat = KeyRepeat.standard {
        didSet { if keyRepeat != oldValue { releaseHeldKeys() } }
    }
    /// Which responder each held key's press went to.
    var pressPairing = PressPairing()
    /// The hardware key held down whose repeat runs.
    var heldKey: Press?
    let heldKeyRepeat = KeyRepeatTimer()

    private func firstResponderDidChange(from old: Responder?) {
        for observer in firstResponderObservers { observer(old, firstResponder) }
        if firstResponderSwitches == 0 { keyboard.update() }
    }

    /// The on-screen keyboard: it follows the first responder (its mode, layout and whether a hardware
    /// keyboard is attached are the runtime's to set).
    public private(set) lazy var keyboard = OnScreenKeyboard(application: self)

    /// Whether a touch that begins outside any text field, and off the on-screen keyboard, ends the editing;
    /// false by default, as in UIKit, where editing ends only when the app asks (`resignFirstResponder()`,
    /// `endEditing(_:)`), which is why UIKit apps dismiss the keyboard on a tap themselves (a tap recognizer
    /// calling `endEditing(true)`). True is a kiosk's convenience instead of that code: as the touch goes
    /// down, before any recognizer or view sees it, the text field being edited is asked to resign
    /// (`endEditing(false)`: its delegate's `textFieldShouldEndEditing` may refuse) and the keyboard goes;
    /// the touch then goes on to the view it landed on. A touch on another text field leaves it to that field.
    public var endsEditingOnTouchOutside = false

    /// The sorted window list, kept until the stacking changes (hit testing reads it for every touch).
    private var sortedWindows: [WeakWindow]?

    /// Every window that exists, visible or hidden, back to front (as `UIApplication.windows`): by level,
    /// then in the order shown, so the keyboard's window (`Window.Level.keyboard`) is last while it exists.
    /// The runtime's overlays (`Window.isSystemOverlay`: the mouse cursor) are not among them.
    public var windows: [Window] {
        if let sortedWindows {
            let windows = sortedWindows.compactMap(\.window)
            if windows.count == sortedWindows.count { return windows }
        }
        let windows = Self.stacked(liveWindows.filter { !$0.isSystemOverlay })
        sortedWindows = windows.map { WeakWindow(window: $0) }
        return windows
    }

    private static func stacked(_ windows: [Window]) -> [Window] {
        windows.sorted { ($0.windowLevel, $0.showOrder) < ($1.windowLevel, $1.showOrder) }
    }

    /// The visible windows on `screen`, back to front.
    public func visibleWindows(on screen: Screen) -> [Window] {
        windows.filter { !$0.isHidden && $0.screen === screen }
    }

    /// What the compositor draws on `screen`, back to front: its visible windows, then the runtime's
    /// visible overlays over them.
    func composedWindows(on screen: Screen) -> [Window] {
        let overlays = liveWindows.filter { $0.isSystemOverlay && !$0.isHidden && $0.screen === screen }
        return visibleWindows(on: screen) + Self.stacked(overlays)
    }

    /// A window's level, order or visibility changed, or a window came or went: sort again when next asked.
    func stackingDidChange() {
        sortedWindows = nil
        hitTestingDidChange()
    }

    /// The windows a touch on each screen may reach, front to back (`hitTest(_:on:with:)`), made at the
    /// screen's first touch. Here rather than on the screens: a screen holding its windows, which hold their
    /// screen, would never be freed.
    var hitTestLists: [(screen: Screen, windows: HitTestWindows)] = []

    /// Which windows a touch may reach changed (stacking, visibility, a window's screen, interaction or
    /// alpha): each screen's list is made again at its next touch. Dropped now, not then: the lists hold their
    /// windows strongly, and a hidden window must go when its owner lets it go.
    func hitTestingDidChange() {
        if !hitTestLists.isEmpty { hitTestLists.removeAll() }
    }

    private var liveWindows: [Window] {
        windowRefs.removeAll { $0.window == nil }
        return windowRefs.compactMap(\.window)
    }

    func register(_ window: Window) {
        orderCounter += 1
        window.showOrder = orderCounter
        windowRefs.append(WeakWindow(window: window))
        stackingDidChange()
    }

    func bringToFront(_ window: Window) {
        orderCounter += 1
        window.showOrder = orderCounter
        stackingDidChange()
        window.subtreeDidChange(window)
    }

    func windowDidShow(_ window: Window) {
        shownWindows[ObjectIdentifier(window)] = window
        bringToFront(window)
        notificationCenter.post(name: Window.didBecomeVisibleNotification, object: window)
    }

    func windowDidHide(_ window: Window) {
        // Keep the window alive until its notifications are out, even if nobody else holds it.
        withExtendedLifetime(window) {
            shownWindows[ObjectIdentifier(window)] = nil
            stackingDidChange()
            cancelTouches(reason: "window \(window.displayName) hidden") { $0.window === window }
            window.subtreeWillLeave(window)
            // A hidden window takes no input: the text field being edited in it ends its editing (and
            // the keyboard goes), rather than typing on into a window nobody sees.
            if let responder = firstResponder, responder.firstResponderWindow === window { responder.takeFirstResponderStatus() }
            if keyWindow === window {
                resignKey(window)
                // The key status goes back to the window that had it before, if it is still visible,
                // else to the frontmost visible window (observed with UIKit's action sheets, reference 002).
                let previous = window.previousKeyWindow.flatMap { $0.isHidden ? nil : $0 }
                if let next = previous ?? windows.last(where: { !$0.isHidden && $0.canBecomeKey }) {
                    becomeKey(next, after: window)
                }
            }
            notificationCenter.post(name: Window.didBecomeHiddenNotification, object: window)
        }
    }

    func windowWillMove(_ window: Window) {
        cancelTouches(reason: "window \(window.displayName) moved to another screen") { $0.window === window }
    }

    func makeKey(_ window: Window) {
        guard keyWindow !== window else { return }
        let old = keyWindow
        if let old { resignKey(old) }
        becomeKey(window, after: old)
    }

    private func resignKey(_ window: Window) {
        keyWindow = nil
        window.resignKey()
        notificationCenter.post(name: Window.didResignKeyNotification, object: window)
    }

    private func becomeKey(_ window: Window, after previous: Window?) {
        window.previousKeyWindow = previous
        keyWindow = window
        window.becomeKey()
        notificationCenter.post(name: Window.didBecomeKeyNotification, object: window)
    }

    // MARK: Events

    /// Touches that are down and were delivered to a window, until they end or are cancelled.
    var activeTouches: [Touch] = []
    var lastTap: (screen: Screen, location: Point, timestamp: TimeInterval, count: Int)?

    /// Taps closer than this in time (seconds) and space (points) count as one multi-tap, as UIKit's defaults.
    static let multiTapInterval: TimeInterval = 0.35
    static let multiTapDistance: Double = 25
}

extension Application {
    /// Replaces the shared application with a fresh one, for tests and for the runtime's start.
    @discardableResult
    public static func reset(notificationCenter: NotificationHub = NotificationHub()) -> Application {
        shared = Application(notificationCenter: notificationCenter)
        return shared
    }
}

extension Application {
    /// Every screen and window notification with the short event name traces and logs use for it
    /// (`screen.connect`, `window.resign-key`, ...).
    nonisolated public static let modelNotifications: [(name: NotificationName, event: String)] = [
        (Screen.didConnectNotification, "screen.connect"),
        (Screen.didDisconnectNotification, "screen.disconnect"),
        (Screen.modeDidChangeNotification, "screen.mode"),
        (Window.didBecomeVisibleNotification, "window.visible"),
        (Window.didBecomeHiddenNotification, "window.hidden"),
        (Window.didBecomeKeyNotification, "window.key"),
        (Window.didResignKeyNotification, "window.resign-key"),
    ]
}
