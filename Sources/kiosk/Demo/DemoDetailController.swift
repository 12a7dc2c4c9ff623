import KioskKit

/// A product's detail, pushed by the navigation controller when its row is tapped: its name and price,
/// and "Reserve", which asks for a name in an alert with a text field (the on-screen keyboard comes up
/// with it, and the alert moves above it). The navigation bar's back button, or a swipe from the leading
/// edge, goes back to the list.
@MainActor
final class DemoDetailController: ViewController {
    let product: Int
    let name = Label(text: "", font: .system(size: 36, weight: .bold))
    let price = Label(text: "", font: .system(size: 24))
    let reserve = Button(title: "Reserve")
    /// "Reserved" once a name was given (never the name: it is what someone typed).
    let status = Label(text: "", font: .system(size: 20))

    init(product: Int) {
        self.product = product
        super.init()
        title = DemoProducts.name(product)
    }

    override func loadView() {
        let root = View()
        root.identifier = "product-detail"
        root.backgroundColor = .white
        root.isOpaque = true
        name.text = DemoProducts.name(product)
        name.identifier = "detail-name"
        price.text = DemoProducts.price(product)
        price.textColor = .darkGray
        reserve.identifier = "detail-reserve"
        reserve.backgroundColor = Color(rgb: 0x3366CC)
        reserve.titleColor = .white
        reserve.cornerRadius = 12
        reserve.addAction(for: .touchUpInside) { [weak self] _ in self?.askForName(animated: true) }
        status.identifier = "detail-status"
        status.textColor = Color(rgb: 0x2E7D32)

        let column = StackView(arrangedSubviews: [name, price, reserve, status])
        column.axis = .vertical
        column.alignment = .leading
        column.spacing = 16
        column.setCustomSpacing(26, after: price)
        column.translatesAutoresizingMaskIntoConstraints = false
        root.addSubview(column)
        let safe = root.safeAreaLayoutGuide
        LayoutConstraint.activate([
            column.topAnchor.constraint(equalTo: safe.topAnchor, constant: 40),
            column.leadingAnchor.constraint(equalTo: safe.leadingAnchor, constant: 40),
            column.trailingAnchor.constraint(lessThanOrEqualTo: safe.trailingAnchor, constant: -40),
            reserve.widthAnchor.constraint(equalToConstant: 160),
            reserve.heightAnchor.constraint(equalToConstant: 56),
        ])
        view = root
    }

    /// The bar the list hides comes back for the detail, with its back button.
    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        navigationController?.setNavigationBarHidden(false, animated: animated)
    }

    /// The alert with a text field: Reserve (the preferred action, what Return does) is enabled only
    /// once a name is typed; Cancel leaves everything as it was.
    func askForName(animated: Bool) {
        let alert = AlertController(
            title: "Reserve \(DemoProducts.name(product))", message: "Whose name should it be kept under?", preferredStyle: .alert)
        let confirm = AlertAction(title: "Reserve", style: .default) { [weak self, weak alert] _ in
            guard let self, let field = alert?.textFields?.first, !field.text.isEmpty else { return }
            self.status.text = "Reserved"
        }
        confirm.isEnabled = false
        alert.addTextField { field in
            field.identifier = "reserve-name"
            field.placeholder = "Name"
            field.autocapitalizationType = .words
            field.addAction(for: .editingChanged) { [weak confirm] control in
                confirm?.isEnabled = (control as? TextField)?.text.isEmpty == false
            }
        }
        alert.addAction(AlertAction(title: "Cancel", style: .cancel))
        alert.addAction(confirm)
        alert.preferredAction = confirm
        present(alert, animated: animated)
    }
}
