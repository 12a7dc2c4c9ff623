import Dispatch
import Foundation
import KioskKit

/// The built-in demo: on the main screen a full-screen window with a title in several scripts, an image
/// and a button that counts taps; a status bar window at `.statusBar` with the time and the screen's name
/// and mode; a welcome alert at `.alert`, dismissed by its button. Every other screen shows
/// "<no content>" centred on white, as in UIKit's external-display example.
@MainActor
public final class DemoApp: ApplicationDelegate {
    private var mainWindow: Window?
    private var statusWindow: Window?
    private var alertWindow: Window?
    private var statusLabel: Label?
    private var counterLabel: Label?
    private var taps = 0
    private var externalWindows: [ObjectIdentifier: Window] = [:]
    private var clock: DispatchSourceTimer?

    public init() {}

    public func applicationDidFinishLaunching(_ application: Application) {
        let screen = Screen.main
        let main = Window(screen: screen)
        main.identifier = "main"
        main.backgroundColor = Color(rgb: 0xF2F2F7)
        main.isOpaque = true
        let content = ViewController()
        main.rootViewController = content
        buildMainContent(in: content.view)
        main.makeKeyAndVisible()
        mainWindow = main

        let status = Window(frame: Rect(x: 0, y: 0, width: screen.bounds.width, height: 40))
        status.identifier = "status-bar"
        status.windowLevel = .statusBar
        status.backgroundColor = Color(white: 0.1, alpha: 0.85)
        let label = Label(frame: Rect(x: 16, y: 0, width: max(screen.bounds.width - 32, 0), height: 40))
        label.autoresizingMask = [.flexibleWidth]
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
        for other in Screen.screens where other !== screen { screenDidConnect(other) }
    }

    public func screenDidConnect(_ screen: Screen) {
        guard screen !== mainWindow?.screen, externalWindows[ObjectIdentifier(screen)] == nil else {
            updateStatus()
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

    private func buildMainContent(in root: View) {
        let width = root.bounds.width
        let title = Label(text: "Kiosk · 你好 · مرحبا", font: .system(size: 40, weight: .bold),
                          frame: Rect(x: 20, y: 70, width: max(width - 40, 0), height: 60))
        title.textAlignment = .center
        title.autoresizingMask = [.flexibleWidth]
        title.identifier = "title"
        root.addSubview(title)

        let subtitle = Label(text: "A UIKit-style window model on DRM/KMS, drawn in software. Touch the button.",
                             font: .system(size: 20), frame: Rect(x: 40, y: 135, width: max(width - 80, 0), height: 60))
        subtitle.numberOfLines = 0
        subtitle.textAlignment = .center
        subtitle.textColor = .darkGray
        subtitle.autoresizingMask = [.flexibleWidth]
        root.addSubview(subtitle)

        let logo = ImageView(image: Self.logo)
        logo.frame = Rect(x: width / 2 - 48, y: 210, width: 96, height: 96)
        logo.autoresizingMask = [.flexibleLeftMargin, .flexibleRightMargin]
        logo.identifier = "logo"
        root.addSubview(logo)

        let button = Button(title: "Tap me", frame: Rect(x: width / 2 - 110, y: 330, width: 220, height: 64))
        button.identifier = "tap-button"
        button.backgroundColor = Color(rgb: 0x3366CC)
        button.titleColor = .white
        button.cornerRadius = 14
        button.autoresizingMask = [.flexibleLeftMargin, .flexibleRightMargin]
        button.addAction(for: .touchUpInside) { [weak self] _ in self?.countTap() }
        root.addSubview(button)

        let counter = Label(text: "Not tapped yet", font: .system(size: 20), frame: Rect(x: 20, y: 410, width: max(width - 40, 0), height: 30))
        counter.textAlignment = .center
        counter.autoresizingMask = [.flexibleWidth]
        counter.identifier = "counter"
        root.addSubview(counter)
        counterLabel = counter
    }

    private func countTap() {
        taps += 1
        counterLabel?.text = taps == 1 ? "Tapped once" : "Tapped \(taps) times"
    }

    private func showAlert(on screen: Screen) {
        let size = Size(width: min(420, screen.bounds.width - 40), height: 200)
        // Below the main content (which ends near y = 440), so the button stays visible and touchable.
        let top = max(min(460, screen.bounds.height - size.height - 20), 50)
        let alert = Window(frame: Rect(x: (screen.bounds.width - size.width) / 2, y: top, width: size.width, height: size.height))
        alert.identifier = "welcome-alert"
        alert.windowLevel = .alert
        alert.backgroundColor = .white
        alert.cornerRadius = 16
        alert.borderWidth = 1
        alert.borderColor = Color(white: 0.8)
        let message = Label(text: "Welcome. This alert sits at the .alert level, above the status bar.",
                            font: .system(size: 18), frame: Rect(x: 20, y: 20, width: size.width - 40, height: 90))
        message.numberOfLines = 0
        message.textAlignment = .center
        alert.addSubview(message)
        let ok = Button(title: "OK", frame: Rect(x: size.width / 2 - 70, y: 125, width: 140, height: 50))
        ok.identifier = "alert-ok"
        ok.backgroundColor = Color(rgb: 0xE5E5EA)
        ok.cornerRadius = 10
        ok.addAction(for: .touchUpInside) { [weak alert] _ in alert?.isHidden = true }
        alert.addSubview(ok)
        alert.makeKeyAndVisible()
        alertWindow = alert
    }

    private func updateStatus() {
        guard let statusLabel, let screen = mainWindow?.screen else { return }
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm"
        let mode = screen.currentMode.map { "\($0.width)x\($0.height)@\(String(format: "%.2f", $0.refreshRate))" } ?? "off"
        statusLabel.text = "\(formatter.string(from: Date()))   \(screen.name)   \(mode)"
    }

    /// The clock shows minutes, so it wakes once a minute, on the minute: an idle kiosk stays idle.
    private func startClock() {
        let timer = DispatchSource.makeTimerSource(queue: .main)
        let now = Date().timeIntervalSince1970
        let nextMinute = (now / 60).rounded(.down) * 60 + 60
        timer.schedule(deadline: .now() + (nextMinute - now), repeating: 60, leeway: .seconds(1))
        timer.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.updateStatus() } }
        timer.resume()
        clock = timer
    }

    /// The demo's logo, a PNG shipped with the runtime.
    static let logo: Bitmap? = {
        guard let url = Bundle.module.url(forResource: "logo", withExtension: "png") else { return nil }
        return try? Bitmap(contentsOfPNGFile: url.path)
    }()
}
