/// The button of an alert action: on the card's white (a background of its own would square the card's
/// rounded corners), the title in the tint colour (red for a
/// destructive action, bold for the preferred or else the cancel action), dimmed while disabled.
@MainActor
final class AlertButton: Button {
    let action: AlertAction

    /// UIKit's system red, of destructive actions.
    static let destructiveColor = Color(rgb: 0xFF3B30)

    init(action: AlertAction, style: AlertController.Style, bold: Bool) {
        self.action = action
        super.init(frame: .zero)
        identifier = "alert.action.\(action.title ?? "")"
        title = action.title
        // UIKit's sizes: 17 points in an alert's 44-point rows, 20 in an action sheet's 57-point ones.
        font = .system(size: style == .alert ? 17 : 20, weight: bold ? .bold : .regular)
        if action.style == .destructive { titleColor = Self.destructiveColor }
        highlightedBackgroundColor = Color(white: 0.85)
        isEnabled = action.isEnabled
        translatesAutoresizingMaskIntoConstraints = false
        heightAnchor.constraint(equalToConstant: style == .alert ? 44 : 57).isActive = true
    }
}
