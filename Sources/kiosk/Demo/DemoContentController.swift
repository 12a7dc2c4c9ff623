import KioskKit

/// The demo's main screen, the root of its navigation controller: the title, the subtitle, the logo, "Tap
/// me" and "Form", the counter, and the list of products below them. Placed by constraints in the safe area
/// (below the status bar window, inside a television's overscan): a column of stack views, the list taking
/// the height that is left, whatever the screen's mode or rotation.
@MainActor
final class DemoContentController: ViewController, TableViewDataSource, TableViewDelegate, GestureRecognizerDelegate {
    var onTap: () -> Void = {}
    var onLongPress: () -> Void = {}
    var onSelectProduct: (Int) -> Void = { _ in }
    var onForm: () -> Void = {}
    var onSettings: () -> Void = {}
    var initialListOffset = 0.0
    let list = TableView()
    /// 0.8 s rather than UIKit's 0.5: a kiosk's users are slower to let go of a tap.
    let longPress = LongPressGestureRecognizer()
    let titleLabel = Label(text: DemoApp.defaultTitle, font: .system(size: 40, weight: .bold))
    let subtitle = Label(text: "A UIKit-style window model on DRM/KMS, drawn in software. Touch the button.", font: .system(size: 20))
    let logo = ImageView(image: DemoApp.logo)
    let button = Button(title: "Tap me")
    let formButton = Button(title: "Form")
    let settingsButton = Button(title: "Settings")
    let counter = Label(text: "Not tapped yet", font: .system(size: 20))

    override init() {
        super.init()
        title = "Products"
    }

    override func loadView() {
        let root = DemoContentView()
        root.identifier = "content"
        root.backgroundColor = DemoContentController.background
        root.isOpaque = true
        root.didLayout = { [weak self] in
            self?.adaptToHeight()
            self?.applyInitialListOffset()
        }
        longPress.minimumPressDuration = 0.8
        longPress.name = "show-alert"
        longPress.delegate = self
        longPress.addAction { [weak self] press in if press.state == .began { self?.onLongPress() } }
        root.addGestureRecognizer(longPress)
        configureViews()

        let buttons = StackView(arrangedSubviews: [button, formButton])
        buttons.spacing = 20
        let column = StackView(arrangedSubviews: [titleLabel, subtitle, logo, buttons, counter])
        column.axis = .vertical
        column.alignment = .center
        column.setCustomSpacing(5, after: titleLabel)
        column.setCustomSpacing(15, after: subtitle)
        column.setCustomSpacing(24, after: logo)
        column.setCustomSpacing(16, after: buttons)
        for view in [column, list, settingsButton] as [View] {
            view.translatesAutoresizingMaskIntoConstraints = false
            root.addSubview(view)
        }
        let safe = root.safeAreaLayoutGuide
        LayoutConstraint.activate([
            column.topAnchor.constraint(equalTo: safe.topAnchor, constant: 30),
            column.leadingAnchor.constraint(equalTo: safe.leadingAnchor, constant: 20),
            column.trailingAnchor.constraint(equalTo: safe.trailingAnchor, constant: -20),
            titleLabel.widthAnchor.constraint(equalTo: column.widthAnchor),
            titleLabel.heightAnchor.constraint(equalToConstant: 60),
            subtitle.widthAnchor.constraint(equalTo: column.widthAnchor, constant: -40),
            subtitle.heightAnchor.constraint(equalToConstant: 60),
            logo.widthAnchor.constraint(equalToConstant: 96),
            logo.heightAnchor.constraint(equalToConstant: 96),
            button.widthAnchor.constraint(equalToConstant: 220),
            formButton.widthAnchor.constraint(equalToConstant: 120),
            buttons.heightAnchor.constraint(equalToConstant: 64),
            counter.widthAnchor.constraint(equalTo: column.widthAnchor),
            counter.heightAnchor.constraint(equalToConstant: 30),
            list.topAnchor.constraint(equalTo: column.bottomAnchor, constant: 10),
            list.leadingAnchor.constraint(equalTo: column.leadingAnchor),
            list.trailingAnchor.constraint(equalTo: column.trailingAnchor),
            list.bottomAnchor.constraint(equalTo: safe.bottomAnchor, constant: -10),
            // In the top corner, over the title's line: nothing else moves for it.
            settingsButton.topAnchor.constraint(equalTo: safe.topAnchor, constant: 12),
            settingsButton.trailingAnchor.constraint(equalTo: safe.trailingAnchor, constant: -16),
            settingsButton.widthAnchor.constraint(equalToConstant: 110),
            settingsButton.heightAnchor.constraint(equalToConstant: 44),
        ])
        view = root
    }

    private func configureViews() {
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
        settingsButton.identifier = "settings-button"
        settingsButton.backgroundColor = Color(rgb: 0xE5E5EA)
        settingsButton.cornerRadius = 12
        settingsButton.addAction(for: .touchUpInside) { [weak self] _ in self?.onSettings() }
    }

    /// The main screen has no navigation bar (its title is its own); the detail pushed over it has one.
    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        navigationController?.setNavigationBarHidden(true, animated: animated)
        // Back from a product's detail: the row is no longer chosen (as UITableViewController's
        // clearsSelectionOnViewWillAppear).
        if let selected = list.indexPathForSelectedRow { list.deselectRow(at: selected, animated: animated) }
    }

    /// On a short screen (a 7-inch 800x480 panel in landscape) the logo gives its room to the list, so
    /// that a few rows show: the column's stack view closes up around it.
    private func adaptToHeight() {
        let safe = view.safeAreaLayoutGuide.layoutFrame.height
        let short = safe > 0 && safe < Self.shortHeight
        if logo.isHidden != short { logo.isHidden = short }
    }

    /// The main screen's light grey (the navigation controller's own view is white, as UIKit's).
    static let background = Color(rgb: 0xF2F2F7)

    /// Below this safe-area height (points) the screen is short.
    static let shortHeight = 500.0

    /// `[app-settings] list-offset`, once the list has its first height to scroll in.
    private func applyInitialListOffset() {
        guard initialListOffset != 0, list.bounds.height > 0 else { return }
        list.layoutIfNeeded()
        list.contentOffset = Point(x: 0, y: min(max(initialListOffset, 0), list.maximumContentOffset.y))
        initialListOffset = 0
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

    /// The long press is for the background: a finger held on the list is choosing a product.
    func gestureRecognizer(_ recognizer: GestureRecognizer, shouldReceive touch: Touch) -> Bool {
        guard let view = touch.view else { return true }
        return !view.isDescendant(of: list)
    }
}

/// The main screen's root view: after each layout it tells the controller, which scrolls the list to its
/// first offset once the list has a height.
@MainActor
final class DemoContentView: View {
    var didLayout: () -> Void = {}

    override func layoutSubviews() {
        super.layoutSubviews()
        didLayout()
    }
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
