import KioskKit
import KioskRuntime

/// One full-screen window: the welcome text (a resource: its first line is the title), the site, and a button
/// that counts the visitors checked in.
@MainActor
final class CheckInApp: ApplicationDelegate {
    private let site: String
    private let welcome: Result<String, ResourceError>
    private var window: Window?
    private var visitors = 0

    init(site: String, welcome: Result<String, ResourceError>) {
        self.site = site
        self.welcome = welcome
    }

    func applicationDidFinishLaunching(_ application: Application) {
        let window = Window(screen: Screen.main)
        window.identifier = "check-in"
        window.backgroundColor = Color(rgb: 0x0F4C3A)
        let width = window.bounds.width

        // A missing resource is said on the screen and in the log, and the kiosk goes on: a person at the
        // desk sees what is wrong, and a check-in still works.
        let lines: [String]
        switch welcome {
        case .success(let text):
            lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            // The tests look for this line (Tests/System/scenarios/test_build_scripts.py).
            say("checkin-kiosk: welcome text from \(Resources.path("welcome.txt"))")
        case .failure(let error):
            lines = ["Welcome", "\(error)"]
            say("checkin-kiosk: \(error)", to: 2)
        }

        let title = Label(text: "\(lines.first ?? "Welcome") to \(site)", font: .system(size: 44, weight: .bold))
        title.textColor = .white
        title.textAlignment = .center
        title.frame = Rect(x: 20, y: 100, width: width - 40, height: 64)
        title.autoresizingMask = [.flexibleWidth]
        window.addSubview(title)

        let message = Label(text: lines.dropFirst().joined(separator: "\n"), font: .system(size: 26))
        message.textColor = .white
        message.textAlignment = .center
        message.numberOfLines = 0
        message.frame = Rect(x: 40, y: 180, width: width - 80, height: 100)
        message.autoresizingMask = [.flexibleWidth]
        window.addSubview(message)

        let count = Label(text: "", font: .system(size: 24))
        count.textColor = .white
        count.textAlignment = .center
        count.frame = Rect(x: 20, y: 420, width: width - 40, height: 40)
        count.autoresizingMask = [.flexibleWidth]
        window.addSubview(count)

        let button = Button(title: "Check in", frame: Rect(x: window.bounds.midX - 130, y: 310, width: 260, height: 80))
        button.identifier = "check-in-button"
        button.backgroundColor = .white
        button.titleColor = Color(rgb: 0x0F4C3A)
        button.cornerRadius = 40
        button.autoresizingMask = [.flexibleLeftMargin, .flexibleRightMargin]
        button.addAction(for: .touchUpInside) { [weak self, weak count] _ in
            guard let self else { return }
            self.visitors += 1
            count?.text = "\(self.visitors) visitor\(self.visitors == 1 ? "" : "s") checked in"
        }
        window.addSubview(button)
        window.makeKeyAndVisible()
        self.window = window
    }
}
