import Dispatch
import Glibc
import KioskConfig
import KioskKit

/// The built-in demo: on the main screen a full-screen window with a title in several scripts, an image,
/// a button that counts taps and, below them, a list of 1,000 products (a `TableView`: drag and fling it;
/// a tap on a row opens its detail, whose Back button closes it); a status bar window at `.statusBar` with
/// the time and the screen's name and mode; an alert at `.alert`, shown at launch and again on a long press
/// (0.8 s, a `LongPressGestureRecognizer`) anywhere on the main window but the list, dismissed by its
/// button; it fades and scales in and out, and the button shrinks a little while pressed (`View.animate`:
/// at rest nothing animates, so an idle demo uses no CPU). Every other screen shows "<no content>" centred
/// on white, as in UIKit's external-display example.
///
/// A "Form" button beside it opens a form (name, a PIN with secure entry, a number) whose text fields
/// bring up the on-screen keyboard; a tap outside the fields ends the editing, as a UIKit app does it (a tap
/// recognizer calling `endEditing(true)`); Done closes it.
///
/// `[app-settings]`: `title` replaces the title; `list-offset` starts the list scrolled that far (points),
/// which lets a test render a scrolled list headless and compare it with a display's; `open-form = true`
/// starts with the form open and its name field being edited (the same, for the keyboard);
/// `launch-animation = false` shows the launch alert at once instead of fading it in, so that the first
/// frame is the final picture (what `Tests/System/peers` times). Another key, or a value of another type,
/// is a problem of the configuration at its line (`settings`): the kiosk does not start, and `kiosk
/// check-config` names it.
@MainActor
public final class DemoApp: ApplicationDelegate {
    private var mainWindow: Window?
    private var statusWindow: Window?
    private var alertWindow: Window?
    private var statusLabel: Label?
    private weak var counterLabel: Label?
    private var taps = 0
    private var externalWindows: [ObjectIdentifier: Window] = [:]
    private var clock: DispatchSourceTimer?
    private var modeObserver: NotificationObservation?

    /// The name `app = "demo"` uses.
    nonisolated static let name = "demo"
    /// The title over the main window: the config's `[app-settings] title`, else the demo's own.
    let title: String
    nonisolated static let defaultTitle = "Kiosk · 你好 · مرحبا"

    /// How far the list starts scrolled: `[app-settings] list-offset`.
    let listOffset: Double
    /// `[app-settings] open-form`.
    let opensForm: Bool
    /// `[app-settings] launch-animation` (default true): whether the launch alert fades in.
    let animatesLaunch: Bool
    /// `logo-on-plane`: the logo asks for an overlay plane (what a video or a static layer would do).
    let logoOnPlane: Bool
    private var detailWindow: Window?
    private var formWindow: Window?

    /// The `[app-settings]` the demo reads, declared so that the configuration checks them (a key it does
    /// not know, or a value of another type, is a problem at its line, as any of the kiosk's own keys).
    nonisolated static let settings: [AppSetting] = [
        AppSetting("title", .string, help: "The title over the main window."),
        AppSetting("list-offset", .number, help: "How far (points) the list starts scrolled."),
        AppSetting("open-form", .boolean, help: "Start with the form open."),
        AppSetting("launch-animation", .boolean, help: "Fade the welcome alert in (false: shown at once); default: true."),
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
        animatesLaunch = configuration.appSettings["launch-animation"]?.boolean ?? true
        logoOnPlane = configuration.appSettings["logo-on-plane"]?.boolean ?? false
    }

    public func applicationDidFinishLaunching(_ application: Application) {
        let screen = Screen.main
        let main = Window(screen: screen)
        main.identifier = "main"
        main.backgroundColor = Color(rgb: 0xF2F2F7)
        main.isOpaque = true
        let content = DemoContentController()
        content.titleLabel.text = title
        content.onTap = { [weak self] in self?.countTap() }
        content.onLongPress = { [weak self] in self?.presentAlert() }
        content.onSelectProduct = { [weak self] number in self?.showDetail(of: number) }
        content.onForm = { [weak self] in self?.showForm() }
        content.initialListOffset = listOffset
        if logoOnPlane {
            // On the window's colour, so the plane's buffer is opaque (an overlay without alpha blending,
            // as a video's): the same pixels as the logo composed over the window.
            content.logo.backgroundColor = main.backgroundColor
            content.logo.planePreference = .overlay
        }
        main.rootViewController = content
        counterLabel = content.counter
        main.makeKeyAndVisible()
        mainWindow = main

        let status = Window(frame: Rect(x: 0, y: 0, width: screen.bounds.width, height: Self.statusBarHeight))
        status.identifier = "status-bar"
        status.windowLevel = .statusBar
        status.backgroundColor = Color(white: 0.1, alpha: 0.85)
        let label = Label(frame: Rect(x: 16, y: 0, width: max(screen.bounds.width - 32, 0), height: Self.statusBarHeight))
        label.textColor = .white
        label.font = .system(size: 16, weight: .medium)
        label.identifier = "status-label"
        status.addSubview(label)
        status.isHidden = false
        statusWindow = status
        statusLabel = label
        updateStatus()
        startClock()

        showAlert(on: screen)
        layoutWindows()
        if opensForm {
            showForm()
            (formWindow?.subviews.first { $0.identifier == "form-name" } as? TextField)?.becomeFirstResponder()
        }
        // A mode change or rotation of the main screen moves the status bar and the alert with it.
        modeObserver = application.notificationCenter.addObserver(forName: Screen.modeDidChangeNotification) { [weak self] _ in
            self?.layoutWindows()
        }
        for other in Screen.screens where other !== screen && other.isConnected { screenDidConnect(other) }
    }

    static let statusBarHeight = 40.0
    static let alertSize = Size(width: 420, height: 200)

    /// Places the windows that do not fill the screen: the status bar across the top, the alert below the
    /// main content (near y = 440), centred. Runs at launch and whenever the main screen's size changes
    /// (it may have had no display, and so no size, at launch).
    private func layoutWindows() {
        // With no display yet there is no size to lay out for; squeezing the windows to zero would lose
        // their subviews' proportions (autoresizing cannot grow back from nothing).
        guard let screen = mainWindow?.screen, !screen.bounds.isEmpty else { return }
        let bounds = screen.bounds
        statusWindow?.frame = Rect(x: 0, y: 0, width: bounds.width, height: Self.statusBarHeight)
        statusLabel?.frame = Rect(x: 16, y: 0, width: max(bounds.width - 32, 0), height: Self.statusBarHeight)
        let size = Size(width: min(Self.alertSize.width, max(bounds.width - 40, 0)), height: Self.alertSize.height)
        let top = max(min(460, bounds.height - size.height - 20), 50)
        alertWindow?.frame = Rect(x: ((bounds.width - size.width) / 2).rounded(), y: top, width: size.width, height: size.height)
        updateStatus()
    }

    public func screenDidConnect(_ screen: Screen) {
        guard screen !== mainWindow?.screen, externalWindows[ObjectIdentifier(screen)] == nil else {
            layoutWindows()
            return
        }
        let window = Window(screen: screen)
        window.identifier = "placeholder-\(screen.name)"
        window.backgroundColor = .white
        let label = Label(text: "<no content>", font: .system(size: 24), frame: window.bounds)
        label.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        label.textAlignment = .center
        label.textColor = .darkGray
        window.addSubview(label)
        window.isHidden = false
        externalWindows[ObjectIdentifier(screen)] = window
    }

    public func screenDidDisconnect(_ screen: Screen) {
        // The placeholder goes with its screen; the main window waits for its screen to come back.
        if let window = externalWindows.removeValue(forKey: ObjectIdentifier(screen)) { window.isHidden = true }
    }

    /// The product's detail, in a full-screen window in front of the main one; Back closes it and takes the
    /// selection off the row.
    private func showDetail(of number: Int) {
        guard let screen = mainWindow?.screen else { return }
        let window = detailWindow ?? Window(screen: screen)
        window.identifier = "product-detail"
        window.backgroundColor = .white
        window.isOpaque = true
        for view in window.subviews { view.removeFromSuperview() }
        let width = window.bounds.width
        let name = Label(text: DemoProducts.name(number), font: .system(size: 36, weight: .bold))
        name.frame = Rect(x: 40, y: Self.statusBarHeight + 40, width: max(width - 80, 0), height: 50)
        name.identifier = "detail-name"
        let price = Label(text: DemoProducts.price(number), font: .system(size: 24))
        price.frame = Rect(x: 40, y: Self.statusBarHeight + 100, width: max(width - 80, 0), height: 34)
        price.textColor = .darkGray
        let back = Button(title: "Back", frame: Rect(x: 40, y: Self.statusBarHeight + 160, width: 160, height: 56))
        back.identifier = "detail-back"
        back.backgroundColor = Color(rgb: 0xE5E5EA)
        back.cornerRadius = 12
        back.addAction(for: .touchUpInside) { [weak self] _ in self?.closeDetail() }
        for view in [name, price, back] as [View] { window.addSubview(view) }
        window.makeKeyAndVisible()
        detailWindow = window
    }

    /// The form: three fields and Done, at the top, where the keyboard does not cover them.
    private func showForm() {
        guard let screen = mainWindow?.screen else { return }
        let window = formWindow ?? Window(screen: screen)
        formWindow = window
        window.identifier = "form"
        window.backgroundColor = Color(rgb: 0xF2F2F7)
        window.isOpaque = true
        if window.subviews.isEmpty {
            let width = min(window.bounds.width - 80, 600)
            let title = Label(text: "Your details", font: .system(size: 28, weight: .bold))
            title.frame = Rect(x: 40, y: Self.statusBarHeight + 16, width: width, height: 40)
            window.addSubview(title)
            let fields: [(String, String, KeyboardType, Bool)] = [
                ("form-name", "Name", .default, false), ("form-pin", "PIN", .numberPad, true),
                ("form-number", "Number", .decimalPad, false),
            ]
            for (index, (identifier, placeholder, type, secure)) in fields.enumerated() {
                let field = TextField(frame: Rect(x: 40, y: Self.statusBarHeight + 70 + Double(index) * 56, width: width, height: 44))
                field.identifier = identifier
                field.placeholder = placeholder
                field.keyboardType = type
                field.isSecureTextEntry = secure
                field.returnKeyType = .next
                field.clearButtonMode = .whileEditing
                window.addSubview(field)
            }
            let done = Button(title: "Done", frame: Rect(x: 40 + width - 140, y: Self.statusBarHeight + 16, width: 140, height: 44))
            done.identifier = "form-done"
            done.backgroundColor = Color(rgb: 0x3366CC)
            done.titleColor = .white
            done.cornerRadius = 10
            done.addAction(for: .touchUpInside) { [weak self] _ in
                self?.formWindow?.endEditing(true)
                self?.formWindow?.isHidden = true
            }
            window.addSubview(done)
            // A tap outside the fields sends the keyboard away: UIKit ends editing only when the app asks, so
            // UIKit apps ask on a tap of their own. The fields and Done are controls and keep their taps; the
            // touch still reaches what it landed on.
            let endEditing = TapGestureRecognizer { [weak window] _ in _ = window?.endEditing(true) }
            endEditing.name = "end-editing"
            endEditing.cancelsTouchesInView = false
            window.addGestureRecognizer(endEditing)
        }
        window.makeKeyAndVisible()
    }

    private func closeDetail() {
        detailWindow?.isHidden = true
        (mainWindow?.rootViewController as? DemoContentController)?.deselectProduct()
    }

    private func countTap() {
        taps += 1
        counterLabel?.text = taps == 1 ? "Tapped once" : "Tapped \(taps) times"
    }

    private func showAlert(on screen: Screen) {
        let size = Self.alertSize
        let alert = Window(frame: Rect(size: size))
        alert.identifier = "welcome-alert"
        alert.windowLevel = .alert
        alert.backgroundColor = .white
        alert.cornerRadius = 16
        alert.borderWidth = 1
        alert.borderColor = Color(white: 0.8)
        let message = Label(
            text: "Welcome. This alert sits at the .alert level, above the status bar.",
            font: .system(size: 18), frame: Rect(x: 20, y: 20, width: size.width - 40, height: 90))
        message.numberOfLines = 0
        message.textAlignment = .center
        message.autoresizingMask = [.flexibleWidth]
        alert.addSubview(message)
        let ok = Button(title: "OK", frame: Rect(x: size.width / 2 - 70, y: 125, width: 140, height: 50))
        ok.identifier = "alert-ok"
        ok.backgroundColor = Color(rgb: 0xE5E5EA)
        ok.cornerRadius = 10
        ok.autoresizingMask = [.flexibleLeftMargin, .flexibleRightMargin]
        ok.addAction(for: .touchUpInside) { [weak self] _ in self?.dismissAlert() }
        alert.addSubview(ok)
        alertWindow = alert
        presentAlert(animated: animatesLaunch)
    }

    /// The alert comes in as UIKit's do: from 85 % of its size and transparent, 0.25 s, easing out. Taps
    /// reach it on the way in (a kiosk's users do not wait for an animation). Not animated, it is shown as is.
    private func presentAlert(animated: Bool = true) {
        guard let alert = alertWindow else { return }
        guard animated else {
            alert.makeKeyAndVisible()
            return
        }
        if alert.isHidden {
            alert.alpha = 0
            alert.transform = AffineTransform(scaleX: 0.85, y: 0.85)
        }
        alert.makeKeyAndVisible()
        View.animate(withDuration: 0.25, options: [.curveEaseOut, .allowUserInteraction, .beginFromCurrentState]) {
            alert.alpha = 1
            alert.transform = .identity
        }
    }

    /// And goes out the other way, then hides (unless it was shown again meanwhile).
    private func dismissAlert() {
        guard let alert = alertWindow else { return }
        View.animate(
            withDuration: 0.2, options: [.curveEaseIn, .beginFromCurrentState],
            animations: {
                alert.alpha = 0
                alert.transform = AffineTransform(scaleX: 0.9, y: 0.9)
            },
            completion: { finished in
                guard finished else { return }
                alert.isHidden = true
                alert.alpha = 1
                alert.transform = .identity
            })
    }

    private func updateStatus() {
        guard let statusLabel, let screen = mainWindow?.screen else { return }
        let mode = screen.currentMode.map { "\($0.width)x\($0.height)@\($0.refreshRate.formatted(places: 2))" } ?? "off"
        statusLabel.text = "\(Self.localTime())   \(screen.name)   \(mode)"
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

    /// `HH:mm` in the system's time zone (`localtime_r`, which reads TZ and /etc/localtime).
    static func localTime() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(parts.tm_hour)):\(two(parts.tm_min))"
    }

    /// The demo's logo, a PNG compiled into the runtime.
    static let logo: Bitmap? = try? Bitmap(pngData: DemoLogo.png)
}

/// The demo's main content, laid out from its bounds whenever they change (a display that appears late,
/// a mode change, a rotation), as a UIKit view controller's view would.
@MainActor
final class DemoContentController: ViewController, TableViewDataSource, TableViewDelegate, GestureRecognizerDelegate {
    var onTap: () -> Void = {}
    var onLongPress: () -> Void = {}
    var onSelectProduct: (Int) -> Void = { _ in }
    var onForm: () -> Void = {}
    let formButton = Button(title: "Form")
    var initialListOffset = 0.0
    let list = TableView()
    /// 0.8 s rather than UIKit's 0.5: a kiosk's users are slower to let go of a tap.
    let longPress = LongPressGestureRecognizer()
    let titleLabel = Label(text: DemoApp.defaultTitle, font: .system(size: 40, weight: .bold))
    let subtitle = Label(text: "A UIKit-style window model on DRM/KMS, drawn in software. Touch the button.", font: .system(size: 20))
    let logo = ImageView(image: DemoApp.logo)
    let button = Button(title: "Tap me")
    let counter = Label(text: "Not tapped yet", font: .system(size: 20))

    override func loadView() {
        let root = LayoutView { [weak self] bounds in self?.layout(in: bounds) }
        root.identifier = "content"
        longPress.minimumPressDuration = 0.8
        longPress.name = "show-alert"
        longPress.delegate = self
        longPress.addAction { [weak self] press in if press.state == .began { self?.onLongPress() } }
        root.addGestureRecognizer(longPress)
        list.identifier = "product-list"
        list.dataSource = self
        list.delegate = self
        // No border: a scroll view whose own layer is one colour has its scrolls copied, not composited.
        titleLabel.textAlignment = .center
        titleLabel.identifier = "title"
        subtitle.numberOfLines = 0
        subtitle.textAlignment = .center
        subtitle.textColor = .darkGray
        logo.identifier = "logo"
        button.identifier = "tap-button"
        button.backgroundColor = Color(rgb: 0x3366CC)
        button.titleColor = .white
        button.cornerRadius = 14
        button.addAction(for: .touchUpInside) { [weak self] _ in self?.onTap() }
        // The press shows: the button shrinks to 94 % while the finger is on it and comes back on release.
        let button = button
        button.addAction(for: .touchDown) { _ in
            View.animate(withDuration: 0.1, options: [.curveEaseOut, .allowUserInteraction, .beginFromCurrentState]) {
                button.transform = AffineTransform(scaleX: 0.94, y: 0.94)
            }
        }
        button.addAction(for: [.touchUpInside, .touchUpOutside, .touchCancel]) { _ in
            View.animate(withDuration: 0.15, options: [.curveEaseOut, .allowUserInteraction, .beginFromCurrentState]) {
                button.transform = .identity
            }
        }
        counter.textAlignment = .center
        counter.identifier = "counter"
        formButton.identifier = "form-button"
        formButton.backgroundColor = Color(rgb: 0xE5E5EA)
        formButton.cornerRadius = 14
        formButton.addAction(for: .touchUpInside) { [weak self] _ in self?.onForm() }
        for view in [titleLabel, subtitle, logo, button, formButton, counter, list] as [View] { root.addSubview(view) }
        view = root
    }

    // MARK: The product list

    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { DemoProducts.count }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "product") ?? TableViewCell(style: .value1, reuseIdentifier: "product")
        let number = indexPath.row + 1
        cell.textLabel.text = DemoProducts.name(number)
        cell.detailTextLabel?.text = DemoProducts.price(number)
        cell.accessoryType = .disclosureIndicator
        return cell
    }

    func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) { onSelectProduct(indexPath.row + 1) }

    func deselectProduct() {
        if let selected = list.indexPathForSelectedRow { list.deselectRow(at: selected, animated: false) }
    }

    /// The long press is for the background: a finger held on the list is choosing a product.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool {
        guard let view = touch.view else { return true }
        return !view.isDescendant(of: list)
    }

    private func layout(in bounds: Rect) {
        let width = bounds.width
        titleLabel.frame = Rect(x: 20, y: 70, width: max(width - 40, 0), height: 60)
        subtitle.frame = Rect(x: 40, y: 135, width: max(width - 80, 0), height: 60)
        logo.frame = Rect(x: (width / 2 - 48).rounded(), y: 210, width: 96, height: 96)
        button.frame = Rect(x: (width / 2 - 110).rounded(), y: 330, width: 220, height: 64)
        formButton.frame = Rect(x: (width / 2 + 130).rounded(), y: 330, width: 120, height: 64)
        counter.frame = Rect(x: 20, y: 410, width: max(width - 40, 0), height: 30)
        let listFrame = Rect(x: 20, y: 450, width: max(width - 40, 0), height: max(bounds.height - 460, 0))
        if list.frame != listFrame {
            list.frame = listFrame
            if initialListOffset != 0 {
                list.layoutIfNeeded()
                list.contentOffset = Point(x: 0, y: min(max(initialListOffset, 0), list.maximumContentOffset.y))
                initialListOffset = 0
            }
        }
    }
}

/// A view that hands its layout to a closure.
@MainActor
final class LayoutView: View {
    let layout: (Rect) -> Void

    init(layout: @escaping (Rect) -> Void) {
        self.layout = layout
        super.init(frame: .zero)
    }

    override func layoutSubviews() { layout(bounds) }
}

/// The demo's products: names and prices made from the row number, the same on every run.
enum DemoProducts {
    static let count = 1000

    static func name(_ number: Int) -> String { "Product \(number)" }

    /// Between 1.00 and 100.90, spread over the list.
    static func price(_ number: Int) -> String {
        let cents = 100 + (number * 3_701) % 9_990
        let fraction = cents % 100
        return "€ \(cents / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
