/// An object that can handle events, linked into the responder chain (as `UIResponder`):
/// view → its view controller when it is a root view → superview → … → window → application.
///
/// The default implementations pass each event to `next`, so a view that does not handle touches lets
/// its superview, window or application handle them.
@MainActor
open class Responder {
    public init() {}

    /// The next responder in the chain, or nil at its end.
    open var next: Responder? { nil }

    open func touchesBegan(_ touches: Set<Touch>, with event: Event) { next?.touchesBegan(touches, with: event) }
    open func touchesMoved(_ touches: Set<Touch>, with event: Event) { next?.touchesMoved(touches, with: event) }
    open func touchesEnded(_ touches: Set<Touch>, with event: Event) { next?.touchesEnded(touches, with: event) }
    open func touchesCancelled(_ touches: Set<Touch>, with event: Event) { next?.touchesCancelled(touches, with: event) }

    /// A key went down (keyboard events go to the key window's first responder, else the key window).
    open func pressesBegan(_ presses: Set<Press>, with event: Event) { next?.pressesBegan(presses, with: event) }
    /// A key went up. It reaches the responder its press went to, whatever the first responder is now.
    open func pressesEnded(_ presses: Set<Press>, with event: Event) { next?.pressesEnded(presses, with: event) }
    /// Keys held on this responder will not come up here: it left its window (as UIKit's).
    open func pressesCancelled(_ presses: Set<Press>, with event: Event) { next?.pressesCancelled(presses, with: event) }

    /// Any other event without a position (`Event.Kind.other`).
    open func handleOther(_ event: Event) { next?.handleOther(event) }

    // MARK: First responder

    /// Whether this responder accepts keyboard focus; false by default.
    open var canBecomeFirstResponder: Bool { false }

    /// Whether it lets the focus go when asked; true by default. `resignFirstResponder()` asks it, except
    /// when the status is taken away (`endEditing(true)`, the responder leaving its window or its window
    /// hidden).
    open var canResignFirstResponder: Bool { true }

    /// The view that stands for this responder as first responder: a view itself, a controller's view.
    var firstResponderView: View? { nil }

    /// The window the first responder status puts this responder in (its view's window).
    var firstResponderWindow: Window? { firstResponderView?.window }

    /// Whether this is the application's first responder, which key events and typed text reach first.
    public var isFirstResponder: Bool { Application.shared.firstResponder === self }

    /// Makes this the application's one first responder (as UIKit): it must accept (`canBecomeFirstResponder`)
    /// and its view must take input: in a window, with neither it, a view around it nor the window hidden
    /// ("a hidden view does not receive input events", UIKit; a window on its way to the screen counts as
    /// shown, for `viewWillAppear`). The current first responder, in whatever window, must let go. The key
    /// window does not change. Subclasses that override it call `super` and act only when it returns true.
    @discardableResult
    open func becomeFirstResponder() -> Bool {
        let application = Application.shared
        if application.firstResponder === self { return true }
        guard canBecomeFirstResponder, firstResponderView?.takesInput == true else { return false }
        // From one responder to the next as one change: the keyboard stays up between two text fields.
        application.firstResponderSwitches += 1
        defer {
            application.firstResponderSwitches -= 1
            application.keyboard.update()
        }
        if let current = application.firstResponder {
            guard current.resignFirstResponder() else { return false }
            // The one who let go may have given the status to another on the way (a text field's delegate
            // moving on in `textFieldDidEndEditing`): that later request stands, and there stays one first
            // responder.
            if let taken = application.firstResponder, taken !== self { return false }
        }
        application.firstResponder = self
        return true
    }

    /// Applies a change of the first responder's keyboard type, return key or capitals to the on-screen
    /// keyboard showing for it (as `UIResponder.reloadInputViews()`: a change takes effect then).
    public func reloadInputViews() {
        guard isFirstResponder else { return }
        Application.shared.keyboard.reload()
    }

    /// Gives up the first responder status if `canResignFirstResponder` agrees (a text field asks its
    /// delegate's `textFieldShouldEndEditing`); false when it keeps it, true when it did not have it (as
    /// UIKit's default). Subclasses that override it call `super`, and act only when it returns true and
    /// they were first responder.
    @discardableResult
    open func resignFirstResponder() -> Bool {
        let application = Application.shared
        guard application.firstResponder === self else { return true }
        guard application.isTakingFirstResponder || canResignFirstResponder else { return false }
        application.firstResponder = nil
        return true
    }

    /// Takes the first responder status away whatever `canResignFirstResponder` says: its
    /// `resignFirstResponder()` runs (a text field ends its editing and tells its delegate), and a
    /// subclass that still refuses loses the status all the same.
    func takeFirstResponderStatus() {
        let application = Application.shared
        guard application.firstResponder === self else { return }
        application.isTakingFirstResponder = true
        defer { application.isTakingFirstResponder = false }
        if !resignFirstResponder() { application.firstResponder = nil }
    }
}
