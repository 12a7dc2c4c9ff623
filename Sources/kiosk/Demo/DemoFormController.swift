import KioskKit

/// The demo's form, presented full screen over the main one: a name, a PIN with secure entry and a
/// number, whose fields bring up the on-screen keyboard and stay above it (the keyboard layout guide lifts
/// them where the screen is short), and Done at the top. A tap outside the fields ends the editing, as a
/// UIKit app does it (a tap recognizer calling `endEditing(true)`); Done ends it and dismisses the form.
@MainActor
final class DemoFormController: ViewController {
    let name = DemoFormController.field("form-name", "Name", .default)
    let pin = DemoFormController.field("form-pin", "PIN", .numberPad, secure: true)
    let number = DemoFormController.field("form-number", "Number", .decimalPad)
    let done = Button(title: "Done")

    override init() {
        super.init()
        title = "Your details"
        modalPresentationStyle = .fullScreen
    }

    override func loadView() {
        let root = View()
        root.identifier = "form"
        root.backgroundColor = Color(rgb: 0xF2F2F7)
        root.isOpaque = true
        let heading = Label(text: title ?? "", font: .system(size: 28, weight: .bold))
        heading.identifier = "form-title"
        let fields = StackView(arrangedSubviews: [name, pin, number])
        fields.axis = .vertical
        fields.spacing = 12
        done.identifier = "form-done"
        done.backgroundColor = Color(rgb: 0x3366CC)
        done.titleColor = .white
        done.cornerRadius = 10
        done.addAction(for: .touchUpInside) { [weak self] _ in
            self?.view.endEditing(true)
            self?.dismiss(animated: true)
        }
        for view in [heading, fields, done] as [View] {
            view.translatesAutoresizingMaskIntoConstraints = false
            root.addSubview(view)
        }
        let safe = root.safeAreaLayoutGuide
        // As wide as the screen allows up to 600 points.
        let wide = fields.widthAnchor.constraint(equalToConstant: 600)
        wide.priority = .defaultHigh
        // Below the heading where there is room; lifted toward it by the keyboard where there is not (a
        // short landscape panel), so that the field being edited stays in sight above the keyboard.
        let belowHeading = fields.topAnchor.constraint(equalTo: heading.bottomAnchor, constant: 14)
        belowHeading.priority = .defaultHigh
        let aboveKeyboard = fields.bottomAnchor.constraint(lessThanOrEqualTo: root.keyboardLayoutGuide.topAnchor, constant: -16)
        aboveKeyboard.priority = LayoutPriority(999)
        LayoutConstraint.activate([
            heading.topAnchor.constraint(equalTo: safe.topAnchor, constant: 16),
            heading.leadingAnchor.constraint(equalTo: fields.leadingAnchor),
            heading.heightAnchor.constraint(equalToConstant: 40),
            fields.leadingAnchor.constraint(equalTo: safe.leadingAnchor, constant: 40),
            fields.trailingAnchor.constraint(lessThanOrEqualTo: safe.trailingAnchor, constant: -40),
            wide, belowHeading, aboveKeyboard,
            fields.topAnchor.constraint(greaterThanOrEqualTo: heading.bottomAnchor, constant: 4),
            name.heightAnchor.constraint(equalToConstant: 44),
            pin.heightAnchor.constraint(equalToConstant: 44),
            number.heightAnchor.constraint(equalToConstant: 44),
            // Done where a form's bar has it: at the top, on the fields' trailing side, always in reach.
            done.topAnchor.constraint(equalTo: heading.topAnchor),
            done.trailingAnchor.constraint(equalTo: fields.trailingAnchor),
            done.leadingAnchor.constraint(greaterThanOrEqualTo: heading.trailingAnchor, constant: 12),
            done.widthAnchor.constraint(equalToConstant: 140),
            done.heightAnchor.constraint(equalToConstant: 44),
        ])
        // A tap outside the fields sends the keyboard away: UIKit ends editing only when the app asks, so
        // UIKit apps ask on a tap of their own. The fields and Done are controls and keep their taps; the
        // touch still reaches what it landed on.
        let endEditing = TapGestureRecognizer { [weak root] _ in _ = root?.endEditing(true) }
        endEditing.name = "end-editing"
        endEditing.cancelsTouchesInView = false
        root.addGestureRecognizer(endEditing)
        view = root
    }

    private static func field(_ identifier: String, _ placeholder: String, _ type: KeyboardType, secure: Bool = false) -> TextField {
        let field = TextField()
        field.identifier = identifier
        field.placeholder = placeholder
        field.keyboardType = type
        field.isSecureTextEntry = secure
        field.returnKeyType = .next
        field.clearButtonMode = .whileEditing
        return field
    }
}
