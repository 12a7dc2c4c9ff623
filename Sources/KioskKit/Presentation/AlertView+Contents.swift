/// What an alert's cards hold, made by stack views: a column of the header (title, message, text fields)
/// and the buttons, separated by 1-point hairlines. Only the card paints a background, so its rounded
/// corners show (a view clips its subviews to its rectangle, not to its rounded corners). An alert puts two actions side by side, the cancel action on the left, and more one per row,
/// the cancel action last (UIKit's placement); an action sheet lists its actions one per row and puts the
/// cancel action in its own card.
@MainActor
struct AlertContents {
    let controller: AlertController
    private(set) var buttons: [AlertButton] = []
    private(set) var cancelButtons: [AlertButton] = []

    static let separatorColor = Color(rgb: 0xDBDBDF)
    /// Within an alert's header: 20 points above and below, 16 at the sides (UIKit's).
    static let headerMargins = DirectionalEdgeInsets(top: 20, leading: 16, bottom: 20, trailing: 16)

    init(controller: AlertController) {
        self.controller = controller
        let style = controller.preferredStyle
        // The preferred action is bold; without one, the cancel action.
        let bold = controller.preferredAction ?? controller.cancelAction
        let make = { (action: AlertAction) in AlertButton(action: action, style: style, bold: action === bold) }
        let others = controller.actions.filter { $0.style != .cancel }.map(make)
        let cancel = controller.cancelAction.map(make)
        switch style {
        case .alert:
            buttons = controller.actions.count == 2 ? [cancel].compactMap { $0 } + others : others + [cancel].compactMap { $0 }
        case .actionSheet:
            buttons = others
            cancelButtons = [cancel].compactMap { $0 }
        }
    }

    /// The main card's column, pinned to `card`; nil when it would hold nothing (a sheet of a cancel
    /// action alone).
    func column(in card: View) -> StackView? {
        var rows: [View] = []
        if let header = header() { rows.append(header) }
        if !buttons.isEmpty {
            if !rows.isEmpty { rows.append(Self.separator(along: .horizontal)) }
            rows.append(buttonRows())
        }
        guard !rows.isEmpty else { return nil }
        return pin(StackView(arrangedSubviews: rows), identifier: "alert.column", in: card)
    }

    /// The cancel card's column of an action sheet.
    func cancelColumn(in card: View) -> StackView? {
        guard !cancelButtons.isEmpty else { return nil }
        return pin(StackView(arrangedSubviews: cancelButtons), identifier: "alert.cancelColumn", in: card)
    }

    /// A hairline across (`.horizontal`) or down a stack.
    static func separator(along axis: StackView.Axis) -> View {
        let line = View()
        line.identifier = "alert.separator"
        line.backgroundColor = separatorColor
        line.translatesAutoresizingMaskIntoConstraints = false
        (axis == .horizontal ? line.heightAnchor : line.widthAnchor).constraint(equalToConstant: 1).isActive = true
        return line
    }

    private func pin(_ column: StackView, identifier: String, in card: View) -> StackView {
        column.identifier = identifier
        column.axis = .vertical
        column.translatesAutoresizingMaskIntoConstraints = false
        card.addSubview(column)
        LayoutConstraint.activate([
            column.leadingAnchor.constraint(equalTo: card.leadingAnchor), column.trailingAnchor.constraint(equalTo: card.trailingAnchor),
            column.topAnchor.constraint(equalTo: card.topAnchor), column.bottomAnchor.constraint(equalTo: card.bottomAnchor),
        ])
        return column
    }

    /// Two side by side in an alert, of one width, else one per row; hairlines between them.
    private func buttonRows() -> StackView {
        let sideBySide = controller.preferredStyle == .alert && buttons.count == 2
        var views: [View] = []
        for button in buttons {
            if !views.isEmpty { views.append(Self.separator(along: sideBySide ? .vertical : .horizontal)) }
            views.append(button)
        }
        let rows = StackView(arrangedSubviews: views)
        rows.identifier = "alert.buttons"
        rows.axis = sideBySide ? .horizontal : .vertical
        if sideBySide { buttons[1].widthAnchor.constraint(equalTo: buttons[0].widthAnchor).isActive = true }
        return rows
    }

    /// The title, the message and the text fields on white, or nil when there are none.
    private func header() -> View? {
        let alert = controller.preferredStyle == .alert
        var views: [View] = []
        let title = controller.title ?? ""
        let message = controller.message ?? ""
        // An action sheet's title and message are smaller and grey (UIKit's), an alert's black.
        if !title.isEmpty { views.append(label(title, identifier: "alert.title", font: .system(size: alert ? 17 : 13, weight: .bold))) }
        if !message.isEmpty { views.append(label(message, identifier: "alert.message", font: .system(size: 13))) }
        views += controller.fields as [View]
        guard !views.isEmpty else { return nil }
        let header = StackView(arrangedSubviews: views)
        header.identifier = "alert.header"
        header.axis = .vertical
        header.spacing = 4
        header.isLayoutMarginsRelativeArrangement = true
        header.directionalLayoutMargins =
            alert ? Self.headerMargins : DirectionalEdgeInsets(top: 14, leading: 16, bottom: 14, trailing: 16)
        // The fields stand apart from the text above them, and a little apart from each other.
        if let first = controller.fields.first, let index = views.firstIndex(where: { $0 === first }), index > 0 {
            header.setCustomSpacing(16, after: views[index - 1])
        }
        for field in controller.fields.dropLast() { header.setCustomSpacing(8, after: field) }
        return header
    }

    private func label(_ text: String, identifier: String, font: Font) -> Label {
        let label = Label(text: text, font: font)
        label.identifier = identifier
        label.numberOfLines = 0
        label.textAlignment = .center
        label.textColor = controller.preferredStyle == .alert ? .black : Color(white: 0.56)
        if controller.preferredStyle == .alert {
            label.preferredMaxLayoutWidth = AlertView.alertWidth - Self.headerMargins.leading - Self.headerMargins.trailing
        }
        return label
    }
}
