// The app of the getting-started article (Sources/KioskKit/KioskKit.docc/GettingStarted.md), "An app of your
// own in an hour": below this comment, the file is the article's Swift listings in order, and scripts/docs
// fails when they differ, so every listing of the article compiles (with the package's warnings as errors).
//
//   swift run cafe-kiosk --backend headless --exit-after 2    # snapshots/HEADLESS-1.png shows its screen

import KioskConfig  // AppSetting, KioskConfiguration
import KioskKit
import KioskRuntime

@main
struct CafeKiosk {
    /// The keys of `[app-settings]` the app reads: the config file is checked against them.
    static let settings = [
        AppSetting("shop-name", .string, help: "The name over the menu; default: Café."),
        AppSetting("thanks-seconds", .number, help: "How long the thank-you banner stays; default: 3."),
    ]

    static func main() {
        KioskRuntime.main(version: "1.0", appSettings: settings) { configuration in
            CafeApp(configuration: configuration)
        }
    }
}

@MainActor
final class CafeApp: ApplicationDelegate {
    let shopName: String
    let thanksSeconds: Double
    let drinks = ["Espresso", "Cappuccino", "Flat white", "Tea", "Hot chocolate", "Lemonade"]
    var chosen: Int?

    var window: Window?
    let title = Label(text: "", font: .system(size: 40, weight: .bold))
    let status = Label(text: "Choose a drink", font: .system(size: 22))
    let orderButton = Button(title: "Order")
    let list = TableView()
    let nameField = TextField()
    let banner = Label(text: "", font: .system(size: 28, weight: .medium))

    init(configuration: KioskConfiguration) {
        shopName = configuration.appSettings["shop-name"]?.string ?? "Café"
        thanksSeconds = configuration.appSettings["thanks-seconds"]?.number ?? 3
    }

    func applicationDidFinishLaunching(_ application: Application) {
        // One full-screen window on the main screen: it follows the screen's mode and rotation.
        let window = Window(screen: Screen.main)
        window.backgroundColor = Color(rgb: 0xFAF7F2)
        self.window = window

        addLabelsAndButton(to: window)
        addResetGesture()
        addMenu(to: window)
        addNameField(to: window, application: application)
        addBanner(to: window)

        window.makeKeyAndVisible()
    }
}

extension CafeApp {
    func addLabelsAndButton(to window: Window) {
        title.text = shopName
        title.frame = Rect(x: 40, y: 30, width: window.bounds.width - 80, height: 60)
        title.autoresizingMask = [.flexibleWidth]
        window.addSubview(title)

        status.frame = Rect(x: 600, y: 260, width: 560, height: 40)
        status.textColor = .darkGray
        window.addSubview(status)

        orderButton.frame = Rect(x: 600, y: 180, width: 220, height: 64)
        orderButton.backgroundColor = Color(rgb: 0x6F4E37)
        orderButton.titleColor = .white
        orderButton.cornerRadius = 12
        orderButton.addTarget(self, action: CafeApp.order, for: .touchUpInside)
        window.addSubview(orderButton)
    }

    func order(_ sender: Control) {
        guard let chosen else {
            status.text = "Choose a drink first"
            return
        }
        let name = nameField.text.isEmpty ? "you" : nameField.text
        showThanks("\(drinks[chosen]) for \(name), coming up!")
        reset()
    }

    func reset() {
        chosen = nil
        nameField.text = ""
        status.text = "Choose a drink"
        list.reloadData()
    }
}

extension CafeApp {
    func addResetGesture() {
        // A label takes no touches (as UIKit's); this one does, for the staff's long press.
        title.isUserInteractionEnabled = true
        let hold = LongPressGestureRecognizer { [weak self] press in
            if press.state == .began { self?.reset() }
        }
        hold.minimumPressDuration = 1
        title.addGestureRecognizer(hold)
    }
}

extension CafeApp: TableViewDataSource, TableViewDelegate {
    func addMenu(to window: Window) {
        list.frame = Rect(x: 40, y: 110, width: 520, height: window.bounds.height - 150)
        list.autoresizingMask = [.flexibleHeight]
        list.rowHeight = 60
        list.register(TableViewCell.self, forCellReuseIdentifier: "drink")
        list.dataSource = self
        list.delegate = self
        window.addSubview(list)
    }

    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { drinks.count }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "drink", for: indexPath)
        cell.textLabel.text = drinks[indexPath.row]
        cell.accessoryType = indexPath.row == chosen ? .checkmark : .none
        return cell
    }

    func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {
        chosen = indexPath.row
        status.text = "\(drinks[indexPath.row]): tap Order"
        tableView.reloadData()
    }
}

extension CafeApp: TextFieldDelegate {
    func addNameField(to window: Window, application: Application) {
        nameField.frame = Rect(x: 600, y: 110, width: 400, height: 50)
        nameField.placeholder = "Your name"
        nameField.autocapitalizationType = .words
        nameField.returnKeyType = .done
        nameField.delegate = self
        window.addSubview(nameField)
        // A touch outside the field ends the editing, and the keyboard slides away.
        application.endsEditingOnTouchOutside = true
    }

    func textFieldShouldReturn(_ textField: TextField) -> Bool {
        textField.resignFirstResponder()
        return true
    }
}

extension CafeApp {
    func addBanner(to window: Window) {
        banner.frame = Rect(x: 0, y: window.bounds.height - 90, width: window.bounds.width, height: 90)
        banner.autoresizingMask = [.flexibleWidth, .flexibleTopMargin]
        banner.backgroundColor = Color(rgb: 0x2E7D32)
        banner.textColor = .white
        banner.textAlignment = .center
        banner.alpha = 0
        window.addSubview(banner)
    }

    func showThanks(_ text: String) {
        banner.text = text
        banner.transform = AffineTransform(translationX: 0, y: 90)
        // Springs up from below the screen's edge; once there, it stays a while and fades out.
        View.animate(
            withDuration: 0.5, delay: 0, usingSpringWithDamping: 0.7, initialSpringVelocity: 0,
            options: [.beginFromCurrentState],
            animations: {
                self.banner.alpha = 1
                self.banner.transform = .identity
            },
            completion: { finished in
                guard finished else { return }
                View.animate(withDuration: 0.3, delay: self.thanksSeconds, options: [.curveEaseIn]) {
                    self.banner.alpha = 0
                }
            })
    }
}
