/// A message with buttons over everything else (as `UIAlertController`): an alert, a card in the middle
/// of the screen, or an action sheet, a list of choices at the bottom. Present it with
/// `present(_:animated:completion:)` from any controller: it comes in a window of its own on the
/// presenter's screen, at the alert level (an action sheet one above, as UIKit's levels in reference
/// 002), which becomes the key window and gives the key status back when the alert goes. Tapping an
/// action's button dismisses the alert, then runs the action's handler.
///
/// What UIKit refuses by raising is logged here and changes nothing: a second cancel action, an action
/// added twice, a preferred action that is not among `actions`, a text field in an action sheet.
@MainActor
public final class AlertController: ViewController {
    /// Where the alert shows and how (as `UIAlertController.Style`, with its raw values).
    public enum Style: Int, Sendable {
        /// A card at the bottom of the screen, the cancel action in a card of its own below.
        case actionSheet = 0
        /// A 270-point card in the middle of the screen.
        case alert = 1
    }

    /// The style given at creation (as UIKit's, fixed).
    public let preferredStyle: Style

    /// The bold line at the top (as UIKit's, the controller's title); a change shows at once.
    override public var title: String? {
        didSet { if title != oldValue { alertView?.textDidChange() } }
    }
    /// The text below the title (as UIKit's); a change shows at once.
    public var message: String? {
        didSet { if message != oldValue { alertView?.textDidChange() } }
    }

    /// The actions, in the order added (as UIKit's); their buttons are placed by `preferredStyle`.
    public private(set) var actions: [AlertAction] = []

    /// The action Return runs from a text field, its title in bold (as UIKit's). It must be one of
    /// `actions`: another is refused and logged (UIKit raises). Without one, the cancel action is bold.
    public var preferredAction: AlertAction? {
        get { preferred }
        set {
            if let newValue, !actions.contains(where: { $0 === newValue }) {
                Log.app.error("AlertController: the preferred action \(newValue.logName) is not one of the alert's actions; ignored")
                return
            }
            preferred = newValue
            alertView?.actionsDidChange()
        }
    }
    private var preferred: AlertAction?

    /// The text fields added with `addTextField(configurationHandler:)`, in order (as UIKit's: nil while
    /// there are none).
    public var textFields: [TextField]? { fields.isEmpty ? nil : fields }
    private(set) var fields: [TextField] = []

    /// The text fields' delegate (AlertController+Keys.swift), held here: a field holds its delegate weakly.
    var keyDelegate: AlertReturnKeyDelegate?

    /// The action being run: the alert is on its way out for it, and takes no other.
    private var chosenAction: AlertAction?

    /// As `UIAlertController(title:message:preferredStyle:)`.
    public init(title: String?, message: String?, preferredStyle: Style) {
        self.preferredStyle = preferredStyle
        self.message = message
        super.init()
        self.title = title
        // The alert is presented over the window's content, never in place of it.
        modalPresentationStyle = .overFullScreen
    }

    /// Adds a button for `action` (as UIKit's). A second `.cancel` action, or an action added already, is
    /// refused and logged (UIKit raises).
    public func addAction(_ action: AlertAction) {
        if actions.contains(where: { $0 === action }) {
            Log.app.error("AlertController: the action \(action.logName) was added already; ignored")
            return
        }
        if action.style == .cancel, let cancel = cancelAction {
            Log.app.error(
                "AlertController: a second cancel action \(action.logName) (there is \(cancel.logName)); an alert has one at most, ignored")
            return
        }
        actions.append(action)
        action.enabledDidChange = { [weak self] action in self?.alertView?.enabledDidChange(of: action) }
        alertView?.actionsDidChange()
    }

    /// Adds a text field below the message (as UIKit's), configured by `configurationHandler` before the
    /// alert shows it. An action sheet has none: there it is refused and logged (UIKit raises). The alert
    /// is the field's delegate, for Return; an app that sets its own takes Return over.
    public func addTextField(configurationHandler: (@MainActor (TextField) -> Void)? = nil) {
        guard preferredStyle == .alert else {
            Log.app.error("AlertController: an action sheet has no text fields; addTextField ignored")
            return
        }
        let field = TextField()
        field.identifier = "alert.field.\(fields.count)"
        field.font = .system(size: 13)
        field.borderStyle = .line
        field.delegate = returnKeyDelegate
        fields.append(field)
        configurationHandler?(field)
        alertView?.fieldsDidChange()
    }

    /// The cancel action, if there is one.
    var cancelAction: AlertAction? { actions.first { $0.style == .cancel } }

    // MARK: Views

    var alertView: AlertView? { isViewLoaded ? view as? AlertView : nil }

    override public func loadView() {
        view = AlertView(controller: self)
    }

    /// The first text field takes the keyboard as the alert comes in (UIKit's keyboard comes up with the
    /// alert); the alert's card moves above it.
    override public func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        fields.first?.becomeFirstResponder()
    }

    // MARK: Presentation

    /// An alert's window at the alert level, an action sheet's one above (UIKit's levels are 1996 and
    /// 2001; what matters is the order, over the app's windows and a status bar).
    override var ownPresentationWindowLevel: Window.Level? { preferredStyle == .alert ? .alert : .alert + 1 }

    override func setPresentationAppearance(shown: Bool) {
        alertView?.setAppearance(shown: shown, dismissing: isBeingDismissed)
    }

    // MARK: Choosing

    /// A tap on `action`'s button (or Return for it): the alert goes, animated, and once it is gone the
    /// handler runs, once. A disabled action, or a tap while the alert comes or goes, does nothing.
    func choose(_ action: AlertAction) {
        guard action.isEnabled, chosenAction == nil, !isBeingPresented, !isBeingDismissed, presentingViewController != nil else {
            return
        }
        chosenAction = action
        // The keyboard goes with the alert rather than after it.
        for field in fields where field.isFirstResponder { field.resignFirstResponder() }
        dismiss(animated: true) { [weak self] in
            self?.chosenAction = nil
            action.handler?(action)
        }
    }

    /// The action Return runs: the preferred one, else the only one that is not the cancel action.
    var returnAction: AlertAction? {
        if let preferred { return preferred }
        let others = actions.filter { $0.style != .cancel }
        return others.count == 1 ? others[0] : nil
    }
}

extension AlertAction {
    /// The action in a log line: its title, never anything typed.
    var logName: String { "\"\(title ?? "")\" (\(style))" }
}
