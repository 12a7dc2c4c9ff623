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

        let button = Button(title: "Touch me")
        button.identifier = "hello-button"
        button.backgroundColor = .white
        button.titleColor = Color(rgb: 0x1E3A5F)
        button.cornerRadius = 36
        button.addAction(for: .touchUpInside) { [weak self, weak greeting] _ in
            guard let self else { return }
            self.counter += 1
            greeting?.text = "Touched \(self.counter) time\(self.counter == 1 ? "" : "s")"
        }

        // Placed by constraints, as UIKit's: a column centred in the safe area (clear of a status bar and
        // of a television's overscan), whatever the screen's mode or rotation.
        let column = StackView(arrangedSubviews: [greeting, button])
        column.axis = .vertical
        column.alignment = .center
        column.spacing = 48
        column.translatesAutoresizingMaskIntoConstraints = false
        window.addSubview(column)
        let safe = window.safeAreaLayoutGuide
        LayoutConstraint.activate([
            column.centerXAnchor.constraint(equalTo: safe.centerXAnchor),
            column.centerYAnchor.constraint(equalTo: safe.centerYAnchor),
            column.widthAnchor.constraint(lessThanOrEqualTo: safe.widthAnchor, constant: -40),
            button.widthAnchor.constraint(equalToConstant: 240), button.heightAnchor.constraint(equalToConstant: 72),
        ])
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
        label.translatesAutoresizingMaskIntoConstraints = false
        extra.addSubview(label)
        LayoutConstraint.activate([
            label.centerXAnchor.constraint(equalTo: extra.safeAreaLayoutGuide.centerXAnchor),
            label.centerYAnchor.constraint(equalTo: extra.safeAreaLayoutGuide.centerYAnchor),
        ])
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
