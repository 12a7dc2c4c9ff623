/// A button of an ``AlertController`` (as `UIAlertAction`): its title, its style and what it does. The
/// handler runs once the alert is gone (UIKit runs it as the alert is dismissed: here the app's next
/// presentation from the handler never meets the alert still on its way out).
@MainActor
public final class AlertAction {
    /// How the action's button looks and where it goes (as `UIAlertAction.Style`, with its raw values).
    public enum Style: Int, Sendable {
        /// A plain button in the tint colour.
        case `default` = 0
        /// The button that leaves without doing anything: one per alert, placed apart from the others (left
        /// of a pair, last of a list, in a card of its own in an action sheet); bold unless another
        /// action is preferred.
        case cancel = 1
        /// A button that changes or deletes data, in red.
        case destructive = 2
    }

    /// The button's title (as UIKit's; nil shows an empty button).
    public let title: String?
    public let style: Style
    let handler: (@MainActor (AlertAction) -> Void)?

    /// Whether the button can be tapped (as UIKit's); a disabled one is dimmed and does nothing, Return
    /// included. A change shows at once.
    public var isEnabled = true {
        didSet { if isEnabled != oldValue { enabledDidChange?(self) } }
    }
    /// The alert's view hears of a change of `isEnabled`.
    var enabledDidChange: (@MainActor (AlertAction) -> Void)?

    /// As `UIAlertAction(title:style:handler:)`.
    public init(title: String?, style: Style, handler: (@MainActor (AlertAction) -> Void)? = nil) {
        self.title = title
        self.style = style
        self.handler = handler
    }
}
