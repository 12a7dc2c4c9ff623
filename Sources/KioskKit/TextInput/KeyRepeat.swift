/// How a held key repeats: after `delay`, `rate` times a second; a rate of 0 never repeats. It applies to
/// hardware keys whose keymap says they repeat and to the on-screen keyboard's Backspace.
public struct KeyRepeat: Equatable, Sendable {
    /// Seconds from the press to the first repeat.
    public var delay: TimeInterval
    /// Repeats a second; 0: none.
    public var rate: Double

    public init(delay: TimeInterval, rate: Double) {
        self.delay = delay
        self.rate = rate
    }

    /// Cage's and wlroots' defaults: the first repeat after 600 ms, then 25 a second.
    public static let standard = KeyRepeat(delay: 0.6, rate: 25)

    /// The time between repeats; nil when keys do not repeat.
    var interval: TimeInterval? { rate > 0 ? 1 / rate : nil }
}

/// Runs an action again and again while a key is held: after the delay, then at the rate, until `stop()`.
/// One timer at a time on the application's clock; nothing runs when no key is held.
@MainActor
final class KeyRepeatTimer {
    private var timer: FrameTimer?

    var isRunning: Bool { timer != nil }

    func start(_ settings: KeyRepeat, clock: any FrameClock, action: @escaping @MainActor () -> Void) {
        stop()
        guard let interval = settings.interval else { return }
        schedule(at: clock.now + settings.delay, interval: interval, clock: clock, action: action)
    }

    private func schedule(at due: TimeInterval, interval: TimeInterval, clock: any FrameClock, action: @escaping @MainActor () -> Void) {
        timer = clock.schedule(at: due) { [weak self] in
            guard let self else { return }
            // The next one first (the action may stop it); after a stall it comes at once, not in a burst.
            self.schedule(at: max(due + interval, clock.now), interval: interval, clock: clock, action: action)
            action()
        }
    }

    func stop() {
        timer?.cancel()
        timer = nil
    }
}

extension Application {
    /// A hardware key went down or up (after the event was delivered, or swallowed by a screen that is
    /// off): a press of a repeating key starts its repeat, which its release, another repeating key or
    /// `releaseHeldKeys()` ends.
    func keyPressDidChange(_ press: Press, delivered: Bool) {
        switch press.phase {
        case .began:
            guard delivered, press.repeats else { return }
            heldKey = press
            heldKeyRepeat.start(keyRepeat, clock: clock) { [weak self, weak press] in
                guard let self, let press else { return }
                self.repeatHeldKey(press)
            }
        case .ended:
            guard let held = heldKey, held.keyCode == press.keyCode else { return }
            releaseHeldKeys()
        }
    }

    /// Stops a held key's repeat (its keyboard went away, the session was switched out).
    public func releaseHeldKeys() {
        heldKey = nil
        heldKeyRepeat.stop()
    }

    /// One repeat of a held key. As UIKit's text system, it reaches the first responder's text input (a
    /// text field edits again: the character, Backspace, Delete, the arrows); `pressesBegan` is not sent
    /// again, and a responder that takes no text gets nothing.
    private func repeatHeldKey(_ press: Press) {
        session.inputArrived()
        instrumentation.post(.activity(nil))
        if let screenOfFocus = focusedWindow?.screen, screenOfFocus.powerState == .off { return releaseHeldKeys() }
        if let field = firstResponder as? TextField {
            field.repeatKey(press)
        } else if let input = firstResponder as? any KeyInput {
            if press.keysym == KeySym.backSpace {
                input.deleteBackward()
            } else if !press.text.isEmpty {
                input.insertText(press.text)
            }
        }
    }
}
