import Geometry
import Glibc

extension Responder {
    /// Posted before the on-screen keyboard slides in; `userInfo` has the frames and the duration.
    nonisolated public static let keyboardWillShowNotification = NotificationName("KioskKeyboardWillShowNotification")
    /// Posted once it is in place.
    nonisolated public static let keyboardDidShowNotification = NotificationName("KioskKeyboardDidShowNotification")
    nonisolated public static let keyboardWillHideNotification = NotificationName("KioskKeyboardWillHideNotification")
    nonisolated public static let keyboardDidHideNotification = NotificationName("KioskKeyboardDidHideNotification")
    /// Posted before every change of the keyboard's frame (showing, hiding, a new screen size), before
    /// `keyboardWillShow`/`WillHide`, with the same `userInfo`.
    nonisolated public static let keyboardWillChangeFrameNotification = NotificationName("KioskKeyboardWillChangeFrameNotification")
    /// Posted once the frame changed, before `keyboardDidShow`/`DidHide`.
    nonisolated public static let keyboardDidChangeFrameNotification = NotificationName("KioskKeyboardDidChangeFrameNotification")
    /// The keyboard's frame before the change (a `Rect` in screen coordinates).
    nonisolated public static let keyboardFrameBeginUserInfoKey = "KioskKeyboardFrameBeginUserInfoKey"
    /// Its frame after the change (a `Rect` in screen coordinates; below the screen when hiding).
    nonisolated public static let keyboardFrameEndUserInfoKey = "KioskKeyboardFrameEndUserInfoKey"
    /// How long it slides (a `TimeInterval`).
    nonisolated public static let keyboardAnimationDurationUserInfoKey = "KioskKeyboardAnimationDurationUserInfoKey"
}

/// The keyboard the runtime draws for the first responder (UIKit's keyboard windows): a window on the
/// first responder's screen at `Window.Level.keyboard`, the highest level, so in front of every app window
/// whatever its level and last in `Application.windows`; it never becomes key, so showing it changes no key window, and touches on it,
/// gaps between keys included, never reach the windows behind it. Its keys type into the first responder
/// (`KeyInput`).
@MainActor
public final class OnScreenKeyboard {
    unowned let application: Application

    public var mode: OnScreenKeyboardMode = .auto { didSet { if mode != oldValue { update() } } }
    public var language: KeyboardLayout.Language = .en {
        didSet { if language != oldValue, isVisible { rebuildKeys() } }
    }
    /// Set by the runtime as keyboards come and go: with one, `auto` does not show the on-screen keyboard.
    public var hasHardwareKeyboard = false { didSet { if hasHardwareKeyboard != oldValue { update() } } }

    /// The keyboard's window while it exists (shown or sliding out).
    public private(set) var window: Window?
    /// Shown or sliding in (false from the moment it starts sliding out).
    public private(set) var isVisible = false

    /// How long it slides in and out.
    public static let animationDuration: TimeInterval = 0.25

    init(application: Application) {
        self.application = application
    }

    /// The responder it types into: the first responder, if it takes text and is in a window.
    private var target: (View & KeyInput)? {
        guard let view = application.firstResponder as? (View & KeyInput), view.window != nil else { return nil }
        return view
    }

    /// Shows, re-lays or hides it after the first responder, the mode, the hardware keyboards or a screen
    /// changed. A screen that went away takes it (it comes back with the screen if the field still edits).
    func update() {
        guard let target, mode != .never, mode == .always || !hasHardwareKeyboard, let screen = target.window?.screen,
            screen.isConnected
        else {
            if isVisible { hide() }
            return
        }
        show(on: screen, for: target)
    }

    /// A screen's mode or rotation changed: a keyboard shown there takes the new width and height at once
    /// (keys laid out again, the page and capitals kept), and `keyboardWillShow`/`DidShow` give the new frame.
    func screenGeometryDidChange(_ screen: Screen) {
        guard isVisible, layoutScreen === screen, let window, let target else { return }
        let begin = window.frame
        guard begin != frame(on: screen) else { return }
        layoutScreen = nil
        View.performWithoutAnimation { show(on: screen, for: target, from: begin) }
    }

    /// The first responder's text or caret changed by other means than the keyboard's keys (the app, the
    /// clear button, a tap in the text): the capitals follow what is before the caret.
    func textInputDidChange(_ field: TextField) {
        guard isVisible, field === target else { return }
        autoCapitalize()
    }

    /// The first responder asks for its keyboard type, return key and capitals again (`reloadInputViews`).
    func reload() {
        guard isVisible, let target else { return }
        shownTarget = nil
        if let screen = layoutScreen { show(on: screen, for: target) }
    }

    // MARK: Showing and hiding

    private var layoutScreen: Screen?
    /// The responder the keys were last set up for: the page and the capitals start afresh for another.
    private weak var shownTarget: (View & KeyInput)?

    private func frame(on screen: Screen) -> Rect {
        let metrics = KeyboardLayout.Metrics(screen: screen.bounds.size)
        return Rect(x: 0, y: screen.bounds.height - metrics.height, width: screen.bounds.width, height: metrics.height)
    }

    private func show(on screen: Screen, for target: View & KeyInput, from start: Rect? = nil) {
        let window = window ?? makeWindow()
        let end = frame(on: screen)
        let keysAreSetUp = isVisible && shownTarget === target
        if !keysAreSetUp {
            // Another field (or none before): its keyboard type and return key, the first page, its capitals.
            shownTarget = target
            keyboardType = (target as? TextField)?.keyboardType ?? .default
            returnKeyType = (target as? TextField)?.returnKeyType ?? .default
            shift = .off
            // Capitals only where the first page has letters (number pads ignore them, as UIKit's).
            if case .letters = KeyboardLayout.firstPage(for: keyboardType, shifted: false), capitalsWanted() == true { shift = .once }
            page = KeyboardLayout.firstPage(for: keyboardType, shifted: shift != .off)
        }
        if isVisible, layoutScreen === screen, window.frame == end {
            // In place already: new keys for another field, else nothing changes (a refused switch).
            guard !keysAreSetUp else { return }
            rebuildKeys()
            // "If the keyboard is already visible, the system posts keyboardWillChangeFrameNotification and
            // keyboardDidChangeFrameNotification instead" (UIKit): an app scrolls the new field above it then.
            let info: [String: any Sendable] = [
                Responder.keyboardFrameBeginUserInfoKey: end, Responder.keyboardFrameEndUserInfoKey: end,
                Responder.keyboardAnimationDurationUserInfoKey: 0.0,
            ]
            for name in [Responder.keyboardWillChangeFrameNotification, Responder.keyboardDidChangeFrameNotification] {
                application.notificationCenter.post(name: name, object: screen, userInfo: info)
            }
            return
        }
        let begin = start ?? (isVisible && layoutScreen === screen ? window.frame : end.offsetBy(dx: 0, dy: end.height))
        layoutScreen = screen
        if window.screen !== screen { window.screen = screen }
        let info: [String: any Sendable] = [
            Responder.keyboardFrameBeginUserInfoKey: begin, Responder.keyboardFrameEndUserInfoKey: end,
            Responder.keyboardAnimationDurationUserInfoKey: Self.animationDuration,
        ]
        isVisible = true
        post(Responder.keyboardWillChangeFrameNotification, Responder.keyboardWillShowNotification, on: screen, info)
        View.performWithoutAnimation { window.frame = begin }
        rebuildKeys()
        window.isHidden = false
        View.animate(
            withDuration: Self.animationDuration, options: [.curveEaseOut, .allowUserInteraction, .beginFromCurrentState],
            animations: { [application] in
                window.frame = end
                // Keyboard layout guides slide with it, in the same animation.
                application.keyboardDidMove(on: screen)
            },
            completion: { [weak self] finished in
                guard let self, finished, self.isVisible else { return }
                self.post(Responder.keyboardDidChangeFrameNotification, Responder.keyboardDidShowNotification, on: screen, info)
            })
    }

    private func hide() {
        guard let window, let screen = layoutScreen else { return }
        isVisible = false
        let begin = window.frame
        let end = begin.offsetBy(dx: 0, dy: begin.height)
        let info: [String: any Sendable] = [
            Responder.keyboardFrameBeginUserInfoKey: begin, Responder.keyboardFrameEndUserInfoKey: end,
            Responder.keyboardAnimationDurationUserInfoKey: Self.animationDuration,
        ]
        post(Responder.keyboardWillChangeFrameNotification, Responder.keyboardWillHideNotification, on: screen, info)
        View.animate(
            withDuration: Self.animationDuration, options: [.curveEaseIn, .beginFromCurrentState],
            animations: { [application] in
                window.frame = end
                application.keyboardDidMove(on: screen)
            },
            completion: { [weak self] finished in
                guard let self, finished, !self.isVisible else { return }
                window.isHidden = true
                self.post(Responder.keyboardDidChangeFrameNotification, Responder.keyboardDidHideNotification, on: screen, info)
            })
    }

    /// Posts the frame change, then the show or hide it is (UIKit's order), with the same `userInfo`.
    private func post(_ frameChange: NotificationName, _ showOrHide: NotificationName, on screen: Screen, _ info: [String: any Sendable]) {
        application.notificationCenter.post(name: frameChange, object: screen, userInfo: info)
        application.notificationCenter.post(name: showOrHide, object: screen, userInfo: info)
    }

    private func makeWindow() -> Window {
        let window = KeyboardWindow(frame: Rect(x: 0, y: 0, width: 1, height: 1))
        window.identifier = "keyboard"
        self.window = window
        return window
    }

    // MARK: Pages, shift and keys

    enum Shift { case off, once, locked }

    private(set) var page: KeyboardLayout.Page = .letters(shifted: false)
    private(set) var shift = Shift.off
    private var lastShiftTap: TimeInterval = -.infinity

    /// The field's traits as they were when its keys were set up (UIKit applies changes on
    /// `reloadInputViews()`, not halfway at the next page).
    private var keyboardType = KeyboardType.default
    private var returnKeyType = ReturnKeyType.default

    private var returnTitle: String {
        switch returnKeyType {
        case .default: language == .de ? "Eingabe" : "return"
        case .go: "Go"
        case .next: language == .de ? "Weiter" : "Next"
        case .done: language == .de ? "Fertig" : "Done"
        case .search: language == .de ? "Suchen" : "Search"
        case .send: language == .de ? "Senden" : "Send"
        }
    }

    /// The key views for the current page, laid out for the window's screen.
    func rebuildKeys() {
        guard let window, let screen = layoutScreen else { return }
        for view in window.subviews { view.removeFromSuperview() }
        let layout = KeyboardLayout(language: language)
        let metrics = KeyboardLayout.Metrics(screen: screen.bounds.size)
        for (key, frame) in layout.frames(of: page, for: keyboardType, width: screen.bounds.width, metrics: metrics) {
            guard key.role != .gap else { continue }
            let view = KeyView(role: key.role, title: title(of: key.role), keyboard: self, fontSize: metrics.keyHeight)
            view.frame = frame
            view.accents = {
                if case .character(let text) = key.role { return layout.accents(for: text) }
                return []
            }()
            window.addSubview(view)
        }
    }

    private func title(of role: KeyboardLayout.Role) -> String {
        switch role {
        case .character(let text): text
        case .shift: shift == .locked ? "⇪" : "⇧"
        case .backspace: "⌫"
        case .returnKey: returnTitle
        case .hideKeyboard: "⌨▾"
        case .space: language == .de ? "Leerzeichen" : "space"
        case .symbols: "123"
        case .letters: "ABC"
        case .moreSymbols: "#+="
        case .gap: ""
        }
    }

    /// The finger on Backspace, whose repeat runs while it stays down.
    private weak var backspaceTouch: Touch?
    private let backspaceRepeat = KeyRepeatTimer()

    /// Backspace deletes as it goes down, then again and again while held (`Application.keyRepeat`). The
    /// repeat belongs to the keyboard, not the key's view: a deletion that turns the capitals on or off
    /// builds the keys anew, and the finger stays on the old view.
    func backspaceWentDown(_ touch: Touch) {
        tapped(.backspace)
        backspaceTouch = touch
        backspaceRepeat.start(application.keyRepeat, clock: application.clock) { [weak self] in
            guard let self else { return }
            guard let touch = self.backspaceTouch, touch.phase != .ended, touch.phase != .cancelled else { return self.backspaceWentUp() }
            self.tapped(.backspace)
        }
    }

    func backspaceWentUp() {
        backspaceTouch = nil
        backspaceRepeat.stop()
    }

    /// A key was tapped (or an accent chosen): type into the first responder or change the page.
    func tapped(_ role: KeyboardLayout.Role) {
        switch role {
        case .character(let text):
            target?.insertText(text)
            if shift == .once { setShift(.off) }
            autoCapitalize()
        case .space:
            target?.insertText(" ")
            autoCapitalize()
        case .backspace:
            target?.deleteBackward()
            autoCapitalize()
        case .returnKey:
            target?.insertText("\n")
        case .hideKeyboard:
            // As iPad's key: the responder is asked to resign, as by the app's `resignFirstResponder()` (a
            // text field's delegate may keep it, and the keyboard with it); unlike Return, no
            // `textFieldShouldReturn`, no `.editingDidEndOnExit`, no next field.
            target?.resignFirstResponder()
        case .shift:
            let now = application.clock.now
            // A second tap within the multi-tap interval locks the capitals, as UIKit's caps lock, from
            // capitals the field turned on by itself too; the tap that unlocks starts no double tap.
            if shift == .locked {
                setShift(.off)
                lastShiftTap = -.infinity
            } else {
                setShift(now - lastShiftTap <= Application.multiTapInterval ? .locked : shift == .off ? .once : .off)
                lastShiftTap = now
            }
        case .symbols:
            page = .symbols
            rebuildKeys()
        case .moreSymbols:
            page = .moreSymbols
            rebuildKeys()
        case .letters:
            // What was typed on the other pages decides the capitals.
            if let wanted = capitalsWanted() { shift = wanted ? .once : .off }
            page = .letters(shifted: shift != .off)
            rebuildKeys()
        case .gap:
            break
        }
    }

    private func setShift(_ value: Shift) {
        let changed = value != shift
        shift = value
        if case .letters(let shifted) = page, shifted != (value != .off) || changed {
            page = .letters(shifted: value != .off)
            rebuildKeys()
        }
    }

    /// Capitals where the field wants them: at the start, after a sentence's end (`.sentences`), after a
    /// space (`.words`), always (`.allCharacters`).
    private func autoCapitalize() {
        guard case .letters = page, let wanted = capitalsWanted() else { return }
        setShift(wanted ? .once : .off)
    }

    /// Whether the text before the caret wants a capital next; nil under caps lock or without a text field.
    private func capitalsWanted() -> Bool? {
        guard shift != .locked, let field = target as? TextField else { return nil }
        let before = field.text.prefix(field.caretPosition)
        switch field.autocapitalizationType {
        case .none: return false
        case .allCharacters: return true
        case .words: return before.isEmpty || before.last == " "
        case .sentences:
            let trimmed = before.reversed().drop { $0 == " " }
            return trimmed.isEmpty || (before.last == " " && [".", "!", "?"].contains(trimmed.first!))
        }
    }
}

/// The keyboard's window: at `.keyboard`, the highest level, in front of every app window; never key.
@MainActor
final class KeyboardWindow: Window {
    override init(frame: Rect) {
        super.init(frame: frame)
        windowLevel = .keyboard
        // Which key a touch landed on spells what is typed.
        keepsTouchesSecret = true
        backgroundColor = Color(rgb: 0xD1D3D9)
        isOpaque = true
    }

    override var canBecomeKey: Bool { false }
}
