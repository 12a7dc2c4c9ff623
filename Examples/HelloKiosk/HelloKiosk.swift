// A complete kiosk app on KioskKit: what `kiosk run` does with its demo, with your own app instead.
//
//   swift run hello-kiosk                      # headless here (PNG in ./snapshots), DRM/KMS on a board
//   swift run hello-kiosk -- --exit-after 2    # stop after two seconds
//   swift run hello-kiosk -- --help            # every setting: the same file, variables and flags as `kiosk run`
//
// The app implements `ApplicationDelegate`: the runtime calls `applicationDidFinishLaunching` once the
// displays are up (there may be none yet: windows made on `Screen.main` then appear on the first display
// that connects), and `screenDidConnect`/`screenDidDisconnect` as displays come and go.

import KioskConfig
import KioskKit
import KioskRuntime

@MainActor
final class HelloApp: ApplicationDelegate {
    private let greeting: String
    private var window: Window?
    private var counter = 0
    private var extraWindows: [ObjectIdentifier: Window] = [:]

    init(greeting: String) {
        self.greeting = greeting
    }

    func applicationDidFinishLaunching(_ application: Application) {
        // One full-screen window on the main screen; it follows the screen's mode and rotation.
        let window = Window(screen: Screen.main)
        window.identifier = "hello"
        window.backgroundColor = Color(rgb: 0x1E3A5F)

        let greeting = Label(text: self.greeting, font: .system(size: 48, weight: .bold))
        greeting.textColor = .white
        greeting.textAlignment = .center
        greeting.frame = Rect(x: 0, y: 120, width: window.bounds.width, height: 70)
        greeting.autoresizingMask = [.flexibleWidth]
        window.addSubview(greeting)

        let button = Button(title: "Touch me", frame: Rect(x: window.bounds.midX - 120, y: 260, width: 240, height: 72))
        button.identifier = "hello-button"
        button.backgroundColor = .white
        button.titleColor = Color(rgb: 0x1E3A5F)
        button.cornerRadius = 36
        button.autoresizingMask = [.flexibleLeftMargin, .flexibleRightMargin]
        button.addAction(for: .touchUpInside) { [weak self, weak greeting] _ in
            guard let self else { return }
            self.counter += 1
            greeting?.text = "Touched \(self.counter) time\(self.counter == 1 ? "" : "s")"
        }
        window.addSubview(button)
        window.makeKeyAndVisible()
        self.window = window
    }

    /// Every other display shows the screen's name.
    func screenDidConnect(_ screen: Screen) {
        guard screen !== window?.screen else { return }
        let extra = Window(screen: screen)
        extra.backgroundColor = .black
        let label = Label(text: screen.name, font: .system(size: 36))
        label.textColor = .white
        label.textAlignment = .center
        label.frame = extra.bounds
        label.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        extra.addSubview(label)
        extra.isHidden = false
        extraWindows[ObjectIdentifier(screen)] = extra
    }

    func screenDidDisconnect(_ screen: Screen) {
        extraWindows.removeValue(forKey: ObjectIdentifier(screen))?.isHidden = true
    }
}

/// `KioskRuntime.main` reads the configuration as `kiosk run` does: `/etc/kiosk/kiosk.toml` (or `--config FILE`,
/// `KIOSK_CONFIG`), the `KIOSK_*` variables and the same flags (`hello-kiosk --help` lists them), and reads
/// it again on SIGHUP. The closure makes the app; it reads the configuration's `[app-settings]`, whose keys are
/// declared here so that the file is checked against them (at start, on a reload, and by
/// `hello-kiosk check-config`). `hello-kiosk --version` prints the version.
@main
struct HelloKiosk {
    static let settings = [AppSetting("greeting", .string, help: "The text on the screen; default: Hello from KioskKit.")]

    static func main() {
        KioskRuntime.main(version: "1.0", appSettings: settings) { configuration in
            HelloApp(greeting: configuration.appSettings["greeting"]?.string ?? "Hello from KioskKit")
        }
    }
}
