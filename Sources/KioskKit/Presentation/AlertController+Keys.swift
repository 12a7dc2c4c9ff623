/// Return in an alert's text field runs the alert's `returnAction` (the preferred action, else the only
/// one that is not the cancel action) when it is enabled, as UIKit's alerts do; otherwise Return does
/// nothing and the field keeps the keyboard. The delegate reads no text, so nothing typed (a secure
/// field's password) reaches a log.
@MainActor
final class AlertReturnKeyDelegate: TextFieldDelegate {
    weak var alert: AlertController?

    func textFieldShouldReturn(_ textField: TextField) -> Bool {
        guard let alert, let action = alert.returnAction, action.isEnabled else { return false }
        alert.choose(action)
        // The alert ended the editing itself as it went.
        return false
    }
}

extension AlertController {
    /// The delegate of the alert's text fields, made with the first one.
    var returnKeyDelegate: AlertReturnKeyDelegate {
        if let delegate = keyDelegate { return delegate }
        let delegate = AlertReturnKeyDelegate()
        delegate.alert = self
        keyDelegate = delegate
        return delegate
    }
}
