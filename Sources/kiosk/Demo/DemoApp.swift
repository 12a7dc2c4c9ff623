import Dispatch
import Glibc
import KioskConfig
import KioskKit
import Logging

/// The built-in demo, built as a UIKit app builds its screens (constraints and stack views, no frame
/// arithmetic): on the main screen a navigation controller whose first screen has a title in several
/// scripts, an image, a button that counts taps and, below them, a list of 1,000 products (a `TableView`:
/// drag and fling it; a tap on a row pushes its detail, with a navigation bar whose back button, or a swipe
/// from the leading edge, comes back); a status bar window at `.statusBar` with the time and the screen's
/// name and mode, which the main window's safe area leaves out; a welcome alert (an `AlertController`, in a
/// window of its own at `.alert`), presented at launch and again on a long press (0.8 s, a
/// `LongPressGestureRecognizer`) anywhere on the main screen but the list, dismissed by its OK. The button
/// shrinks a little while pressed (`View.animate`: at rest nothing animates, so an idle demo uses no CPU).
/// Every other screen shows "<no content>" centred on white, as in UIKit's external-display example.
///
/// A "Form" button beside it presents a form (DemoFormController.swift) whose text fields bring up the
/// on-screen keyboard; a product's detail has "Reserve", an alert with a text field (DemoDetailController.swift).
///
/// `[app-settings]`: `title` replaces the title; `list-offset` starts the list scrolled that far (points),
/// which lets a test render a scrolled list headless and compare it with a display's; `open-form = true`
/// starts with the form open and its name field being edited, instead of the welcome alert (the same, for
/// the keyboard);
/// `open-product = N` starts with product N's detail pushed, and `open-reserve = true` with its Reserve alert
/// up too, instead of the welcome alert; `welcome = false` starts without the welcome alert (the main screen in reach at once, as a test of its
/// controls wants it); `launch-animation = false` shows the launch alert at once instead of bringing it in, so that the first
/// frame is the final picture (what `Tests/System/peers` times). Another key, or a value of another type,
/// is a problem of the configuration at its line (`settings`): the kiosk does not start, and `kiosk
/// check-config` names it.
@MainActor
public final class DemoApp: ApplicationDelegate {
    private var mainWindow: Window?
    private var navigation: NavigationController?
    private var statusWindow: Window?
    private var statusLabel: Label?
    private weak var counterLabel: Label?
    private var taps = 0
    private var externalWindows: [ObjectIdentifier: Window] = [:]
    private var clock: DispatchSourceTimer?
    private var modeObserver: NotificationObservation?
    /// The time the status bar shows, `HH:mm` now: a test sets a fixed one, for golden images.
    var statusTime: () -> String = { DemoApp.localTime(time(nil)) }

    /// The name `app = "demo"` uses.
    nonisolated static let name = "demo"
    /// The title over the main window: the config's `[app-settings] title`, else the demo's own.
    let title: String
    nonisolated static let defaultTitle = "Kiosk · 你好 · مرحبا"

    /// How far the list starts scrolled: `[app-settings] list-offset`.
    let listOffset: Double
    /// `[app-settings] open-form`.
    let opensForm: Bool
    /// `[app-settings] open-product`: the product whose detail is pushed at launch (1 to `DemoProducts.count`).
    let openProduct: Double?
    /// `[app-settings] open-reserve`: with `open-product`, its Reserve alert up at launch.
    let opensReserve: Bool
    /// `[app-settings] open-settings`: start with the settings pushed.
    let opensSettings: Bool
    /// `[app-settings] settings-volume` (0 to 1) and `settings-language` (a row): where the settings'
    /// slider and language picker start.
    let settingsVolume: Float
    let settingsLanguage: Int
    /// `[app-settings] welcome` (default true): whether the welcome alert is presented at launch.
    let welcomes: Bool
    /// `[app-settings] launch-animation` (default true): whether the launch alert comes in animated.
    let animatesLaunch: Bool
    /// `logo-on-plane`: the logo asks for an overlay plane (what a video or a static layer would do).
    let logoOnPlane: Bool

    /// The `[app-settings]` the demo reads, declared so that the configuration checks them (a key it does
    /// not know, or a value of another type, is a problem at its line, as any of the kiosk's own keys).
    nonisolated static let settings: [AppSetting] = [
        AppSetting("title", .string, help: "The title over the main window."),
        AppSetting("list-offset", .number, help: "How far (points) the list starts scrolled."),
        AppSetting("open-form", .boolean, help: "Start with the form open."),
        AppSetting("open-product", .number, help: "Start with this product's detail pushed (1 to 1000)."),
        AppSetting("open-reserve", .boolean, help: "With open-product, start with its Reserve alert up; default: false."),
        AppSetting("open-settings", .boolean, help: "Start with the settings pushed; default: false."),
        AppSetting("settings-volume", .number, help: "The settings' volume slider at the start, 0 to 1; default: 0.5."),
        AppSetting("settings-language", .number, help: "The settings' language picker's row at the start; default: 0."),
        AppSetting("welcome", .boolean, help: "Present the welcome alert at launch; default: true."),
        AppSetting("launch-animation", .boolean, help: "Bring the welcome alert in animated (false: shown at once); default: true."),
        AppSetting(
            "logo-on-plane", .boolean,
            help: "Show the logo on an overlay plane where the display has one (View.planePreference); default: false."),
    ]

    /// `configuration` has been checked against `settings` (a value of another type never gets here: the
    /// kiosk refuses the file); one made in code without them gets the defaults for what does not fit.
    public init(configuration: KioskConfiguration = .default) {
        title = configuration.appSettings["title"]?.string ?? Self.defaultTitle
        listOffset = configuration.appSettings["list-offset"]?.number ?? 0
        opensForm = configuration.appSettings["open-form"]?.boolean ?? false
        openProduct = configuration.appSettings["open-product"]?.number
        opensReserve = configuration.appSettings["open-reserve"]?.boolean ?? false
        opensSettings = configuration.appSettings["open-settings"]?.boolean ?? false
        settingsVolume = Float(configuration.appSettings["settings-volume"]?.number ?? 0.5)
        settingsLanguage = Int(configuration.appSettings["settings-language"]?.number ?? 0)
        welcomes = configuration.appSettings["welcome"]?.boolean ?? true
        animatesLaunch = configuration.appSettings["launch-animation"]?.boolean ?? true
        logoOnPlane = configuration.appSettings["logo-on-plane"]?.boolean ?? false
    }

    public func applicationDidFinishLaunching(_ application: Application) {
        let screen = Screen.main
        let main = Window(screen: screen)
        main.identifier = "main"
        main.backgroundColor = DemoContentController.background
        main.isOpaque = true
        let content = DemoContentController()
        content.titleLabel.text = title
        content.onTap = { [weak self] in self?.countTap() }
        content.onLongPress = { [weak self] in self?.presentWelcome(animated: true) }
        content.onSelectProduct = { [weak self] number in self?.showDetail(of: number) }
        content.onForm = { [weak self] in self?.showForm(animated: true) }
        content.onSettings = { [weak self] in self?.showSettings(animated: true) }
        content.initialListOffset = listOffset
        if logoOnPlane {
            // On the window's colour, so the plane's buffer is opaque (an overlay without alpha blending,
            // as a video's): the same pixels as the logo composed over the window.
            content.logo.backgroundColor = main.backgroundColor
            content.logo.planePreference = .overlay
        }
        let navigation = NavigationController(rootViewController: content)
        main.rootViewController = navigation
        counterLabel = content.counter
        main.makeKeyAndVisible()
        mainWindow = main
        self.navigation = navigation

        showStatusBar(on: screen)
        startClock()
        // A screen asked for by name replaces the welcome (what a test renders headless to compare with a
        // display's).
        let product = openProduct.flatMap(Self.product(from:))
        if let product {
            let detail = DemoDetailController(product: product)
            navigation.pushViewController(detail, animated: false)
            if opensReserve { detail.askForName(animated: false) }
        } else if opensReserve {
            Self.log.error("app-settings: open-reserve needs open-product; ignored")
        }
        if opensSettings && product == nil { showSettings(animated: false) }
        if opensForm {
            showForm(animated: false)
            (navigation.presentedViewController as? DemoFormController)?.name.becomeFirstResponder()
        } else if welcomes && product == nil && !opensSettings {
            presentWelcome(animated: animatesLaunch)
        }
        // A mode change or rotation of the main screen takes the status bar with it.
        modeObserver = application.notificationCenter.addObserver(forName: Screen.modeDidChangeNotification) { [weak self] _ in
            self?.layoutStatusBar()
        }
        for other in Screen.screens where other !== screen && other.isConnected { screenDidConnect(other) }
    }

    static let statusBarHeight = 40.0
    static let log = Logger(label: "kiosk.app")

    /// The product `open-product` names, or nil with an error logged for a number that names none.
    static func product(from setting: Double) -> Int? {
        guard setting.rounded() == setting, setting >= 1, setting <= Double(DemoProducts.count) else {
            log.error("app-settings: open-product = \(setting) names no product (1 to \(DemoProducts.count)); ignored")
            return nil
        }
        return Int(setting)
    }

    /// The status bar: a window across the top at `.statusBar`, its label placed by constraints. The main
    /// window's safe area leaves it out, so the content below starts under it.
    private func showStatusBar(on screen: Screen) {
        let status = Window(screen: screen)
        status.identifier = "status-bar"
        status.windowLevel = .statusBar
        status.backgroundColor = Color(white: 0.1, alpha: 0.85)
        let label = Label(text: "", font: .system(size: 16, weight: .medium))
        label.textColor = .white
        label.identifier = "status-label"
        label.translatesAutoresizingMaskIntoConstraints = false
        status.addSubview(label)
        LayoutConstraint.activate([
            label.leadingAnchor.constraint(equalTo: status.leadingAnchor, constant: 16),
            label.trailingAnchor.constraint(equalTo: status.trailingAnchor, constant: -16),
            label.topAnchor.constraint(equalTo: status.topAnchor),
            label.bottomAnchor.constraint(equalTo: status.bottomAnchor),
        ])
        statusWindow = status
        statusLabel = label
        layoutStatusBar()
        status.isHidden = false
    }

    /// A window's frame is the app's to set (as UIKit's): the status bar is the screen's width and 40
    /// points high, again whenever the main screen's size changes (it may have had no display, and so no
    /// size, at launch).
    private func layoutStatusBar() {
        guard let screen = mainWindow?.screen else { return }
        statusWindow?.frame = Rect(x: 0, y: 0, width: screen.bounds.width, height: Self.statusBarHeight)
        updateStatus()
    }

    public func screenDidConnect(_ screen: Screen) {
        guard screen !== mainWindow?.screen, externalWindows[ObjectIdentifier(screen)] == nil else {
            layoutStatusBar()
            return
        }
        let window = Window(screen: screen)
        window.identifier = "placeholder-\(screen.name)"
        window.backgroundColor = .white
        let label = Label(text: "<no content>", font: .system(size: 24))
        label.textColor = .darkGray
        label.translatesAutoresizingMaskIntoConstraints = false
        window.addSubview(label)
        LayoutConstraint.activate([
            label.centerXAnchor.constraint(equalTo: window.safeAreaLayoutGuide.centerXAnchor),
            label.centerYAnchor.constraint(equalTo: window.safeAreaLayoutGuide.centerYAnchor),
        ])
        window.isHidden = false
        externalWindows[ObjectIdentifier(screen)] = window
    }

    public func screenDidDisconnect(_ screen: Screen) {
        // The placeholder goes with its screen; the main window waits for its screen to come back.
        if let window = externalWindows.removeValue(forKey: ObjectIdentifier(screen)) { window.isHidden = true }
    }

    /// The product's detail, pushed with UIKit's slide.
    private func showDetail(of number: Int) {
        navigation?.pushViewController(DemoDetailController(product: number), animated: true)
    }

    /// The settings, pushed with UIKit's slide.
    private func showSettings(animated: Bool) {
        navigation?.pushViewController(DemoSettingsController(volume: settingsVolume, language: settingsLanguage), animated: animated)
    }

    private func showForm(animated: Bool) {
        guard let navigation else { return }
        if let shown = navigation.presentedViewController {
            // Only `open-form` with `open-reserve` gets here: the Form button is under what is presented.
            return Self.log.error("the form: \(type(of: shown)) is presented already; not shown")
        }
        navigation.present(DemoFormController(), animated: animated)
    }

    private func countTap() {
        taps += 1
        counterLabel?.text = taps == 1 ? "Tapped once" : "Tapped \(taps) times"
    }

    /// The welcome alert; a long press while it is up (or while anything else is presented) does nothing.
    private func presentWelcome(animated: Bool) {
        guard let navigation, navigation.presentedViewController == nil else { return }
        let alert = AlertController(
            title: "Welcome", message: "This alert sits at the .alert level, above the status bar.", preferredStyle: .alert)
        alert.addAction(AlertAction(title: "OK", style: .default))
        navigation.present(alert, animated: animated)
    }

    private func updateStatus() {
        guard let statusLabel, let screen = mainWindow?.screen else { return }
        let mode = screen.currentMode.map { "\($0.width)x\($0.height)@\($0.refreshRate.formatted(places: 2))" } ?? "off"
        statusLabel.text = "\(statusTime())   \(screen.name)   \(mode)"
    }

    /// The clock shows minutes, so it wakes once a minute, on the minute: an idle kiosk stays idle.
    private func startClock() {
        let timer = DispatchSource.makeTimerSource(queue: .main)
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        let now = Double(wall.tv_sec) + Double(wall.tv_nsec) / 1e9
        let nextMinute = (now / 60).rounded(.down) * 60 + 60
        timer.schedule(deadline: .now() + (nextMinute - now), repeating: 60, leeway: .seconds(1))
        timer.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.updateStatus() } }
        timer.resume()
        clock = timer
    }

    /// `HH:mm` of `now` in the system's time zone (`localtime_r`, which reads TZ and /etc/localtime).
    static func localTime(_ now: time_t) -> String {
        var now = now
        var parts = tm()
        localtime_r(&now, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(parts.tm_hour)):\(two(parts.tm_min))"
    }

    /// The demo's logo, a PNG compiled into the runtime.
    static let logo: Image? = (try? Bitmap(pngData: DemoLogo.png)).map { Image(bitmap: $0) }
}
