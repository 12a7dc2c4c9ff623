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
    /// A key went up.
    open func pressesEnded(_ presses: Set<Press>, with event: Event) { next?.pressesEnded(presses, with: event) }

    /// Any other event without a position (`Event.Kind.other`).
    open func handleOther(_ event: Event) { next?.handleOther(event) }

    // MARK: First responder

    /// Whether this responder accepts keyboard focus; false by default.
    open var canBecomeFirstResponder: Bool { false }

    /// The window whose first responder this can become; views answer their window.
    var firstResponderWindow: Window? { nil }

    public var isFirstResponder: Bool { firstResponderWindow?.firstResponder === self }

    /// Makes this the first responder of its window, so key events reach it first.
    @discardableResult
    open func becomeFirstResponder() -> Bool {
        guard canBecomeFirstResponder, let window = firstResponderWindow else { return false }
        window.firstResponder = self
        return true
    }

    @discardableResult
    open func resignFirstResponder() -> Bool {
        guard let window = firstResponderWindow, window.firstResponder === self else { return false }
        window.firstResponder = nil
        return true
    }
}
