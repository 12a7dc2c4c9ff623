import Geometry
import Glibc

/// A responder that takes typed text (as `UIKeyInput`): the on-screen keyboard and hardware keyboards send
/// the first responder text through it when it conforms.
@MainActor
public protocol KeyInput: AnyObject {
    var hasText: Bool { get }
    /// Inserts `text` at the insertion point ("\n" is the Return key).
    func insertText(_ text: String)
    /// Deletes the character (grapheme cluster) before the insertion point.
    func deleteBackward()
}

/// The keyboard a text field asks for (as `UIKeyboardType`). Every one has Return and a hide-keyboard key
/// (`KeyboardLayout`), the number and decimal pads too, as on iPad: the iPhone's pads have neither (its
/// apps add a Done bar above them, an `inputAccessoryView`, which KioskKit has not).
public enum KeyboardType: Sendable {
    case `default`, numberPad, decimalPad, emailAddress
}

/// What the keyboard's Return key says and does (as `UIReturnKeyType`): `.next` moves to the next text
/// field of the window; the others end editing.
public enum ReturnKeyType: Sendable {
    case `default`, go, next, done, search, send
}

/// When the keyboard starts with a capital letter (as `UITextAutocapitalizationType`).
public enum TextAutocapitalizationType: Sendable {
    case none, words, sentences, allCharacters
}

/// What a text field tells and asks its delegate (as `UITextFieldDelegate`); every method is optional.
@MainActor
public protocol TextFieldDelegate: AnyObject {
    func textFieldShouldBeginEditing(_ textField: TextField) -> Bool
    func textFieldDidBeginEditing(_ textField: TextField)
    func textFieldShouldEndEditing(_ textField: TextField) -> Bool
    func textFieldDidEndEditing(_ textField: TextField)
    /// Whether `string` may replace the characters in `range` of the text (an insertion has an empty
    /// range, a deletion an empty string).
    func textField(_ textField: TextField, shouldChangeCharactersIn range: Range<String.Index>, replacementString string: String) -> Bool
    /// The Return key was pressed: true lets the field end editing (or move to the next field).
    func textFieldShouldReturn(_ textField: TextField) -> Bool
    func textFieldShouldClear(_ textField: TextField) -> Bool
}

extension TextFieldDelegate {
    public func textFieldShouldBeginEditing(_ textField: TextField) -> Bool { true }
    public func textFieldDidBeginEditing(_ textField: TextField) {}
    public func textFieldShouldEndEditing(_ textField: TextField) -> Bool { true }
    public func textFieldDidEndEditing(_ textField: TextField) {}
    public func textField(_ textField: TextField, shouldChangeCharactersIn range: Range<String.Index>, replacementString string: String)
        -> Bool
    {
        true
    }
    public func textFieldShouldReturn(_ textField: TextField) -> Bool { true }
    public func textFieldShouldClear(_ textField: TextField) -> Bool { true }
}

extension Control.Events {
    public static let editingDidBegin = Control.Events(rawValue: 1 << 16)
    public static let editingChanged = Control.Events(rawValue: 1 << 17)
    public static let editingDidEnd = Control.Events(rawValue: 1 << 18)
    /// Return ended the editing.
    public static let editingDidEndOnExit = Control.Events(rawValue: 1 << 19)
}

/// One line of editable text (as `UITextField`), in any script pango lays out (combining marks, Arabic
/// right to left, CJK). A tap makes it first responder, in whatever window, key or not, and puts the
/// caret where the finger was; typed text goes in at the caret, Backspace and Delete take whole grapheme
/// clusters, the arrow keys (and Home, End) move the caret. The caret blinks while editing only: no timer
/// runs otherwise, and blinking repaints the caret's few pixels, never the text.
@MainActor
open class TextField: Control, KeyInput {
    /// The borders a text field draws (as `UITextField.BorderStyle`).
    public enum BorderStyle: Sendable {
        case none, line, roundedRect
    }

    /// When the clear button shows (as `UITextField.ViewMode`).
    public enum ViewMode: Sendable {
        case never, whileEditing, unlessEditing, always
    }

    open var text: String = "" {
        didSet {
            guard text != oldValue else { return }
            // As UIKit: setting the text puts the caret at its end (an edit then puts it after the edit).
            caretPosition = text.count
            textDidChange()
            Application.shared.keyboard.textInputDidChange(self)
        }
    }
    open var placeholder: String? {
        didSet {
            guard placeholder != oldValue else { return }
            setNeedsDisplay()
            invalidateIntrinsicContentSize()
        }
    }
    open var font: Font = .system(size: 18) { didSet { if font != oldValue { textDidChange() } } }
    /// Whether a font of a text style takes the style's new size when the kiosk's text size changes (as
    /// UIKit's; false).
    open var adjustsFontForContentSizeCategory = false
    open var textColor: Color = .black { didSet { if textColor != oldValue { setNeedsDisplay() } } }
    open var textAlignment: TextAlignment = .natural { didSet { if textAlignment != oldValue { textDidChange() } } }
    open var borderStyle: BorderStyle = .roundedRect { didSet { if borderStyle != oldValue { setNeedsDisplay() } } }
    /// Shows a dot for each character (a PIN, a password); the text itself never reaches a log or trace.
    open var isSecureTextEntry = false { didSet { if isSecureTextEntry != oldValue { textDidChange() } } }
    /// The on-screen keyboard's keys for this field; a change while editing takes effect on
    /// `reloadInputViews()` (as UIKit).
    open var keyboardType: KeyboardType = .default
    /// The return key's title (and `.next`'s move to the next field); changed while editing, as
    /// `keyboardType`.
    open var returnKeyType: ReturnKeyType = .default
    open var autocapitalizationType: TextAutocapitalizationType = .sentences
    open var clearButtonMode: ViewMode = .never {
        didSet {
            guard clearButtonMode != oldValue else { return }
            setNeedsDisplay()
            invalidateIntrinsicContentSize()
        }
    }
    /// Editing begins with the old text cleared, if the delegate's `textFieldShouldClear` agrees.
    open var clearsOnBeginEditing = false
    /// While editing, the next text typed replaces the whole text (Backspace removes it all), and this goes
    /// back to false. A secure field sets it whenever its editing begins with text in it, as UIKit's do: a
    /// PIN typed again replaces the one whose dots are showing.
    open var clearsOnInsertion = false
    public weak var delegate: (any TextFieldDelegate)?

    /// Whether it is being edited (it is the first responder).
    public private(set) var isEditing = false

    /// Where typed text goes: the number of characters (grapheme clusters) before the caret.
    public var caretPosition = 0 {
        didSet {
            caretPosition = min(max(caretPosition, 0), text.count)
            guard caretPosition != oldValue else { return }
            placeCaret(restartBlink: true)
            Application.shared.keyboard.textInputDidChange(self)
        }
    }

    private let caret = View()
    /// The text's horizontal scroll, so that the caret stays in view in a long text.
    private var scrollX = 0.0

    override public init(frame: Rect = .zero) {
        super.init(frame: frame)
        backgroundColor = .white
        caret.isHidden = true
        caret.isUserInteractionEnabled = false
        caret.identifier = "caret"
        caret.backgroundColor = Color(red: 0, green: 122.0 / 255, blue: 1)
        addSubview(caret)
    }

    // MARK: Text as shown

    /// What is drawn: the text, or a dot per character for secure entry. A field is one line: a line break
    /// in a text set from code shows as a space (pango would start a second line, below the field).
    private var displayedText: String {
        if isSecureTextEntry { return String(repeating: "•", count: text.count) }
        guard text.contains(where: \.isNewline) else { return text }
        return String(text.map { $0.isNewline ? " " : $0 })
    }

    /// Padding inside the border.
    static let padding = 8.0
    static let clearButtonSize = 22.0

    private var showsClearButton: Bool {
        guard !text.isEmpty else { return false }
        switch clearButtonMode {
        case .never: return false
        case .always: return true
        case .whileEditing: return isEditing
        case .unlessEditing: return !isEditing
        }
    }

    /// The area the text is drawn in.
    public var textRect: Rect {
        let right = Self.padding + (showsClearButton ? Self.clearButtonSize + 4 : 0)
        return Rect(
            x: bounds.minX + Self.padding, y: bounds.minY, width: max(bounds.width - Self.padding - right, 0), height: bounds.height)
    }

    private var clearButtonRect: Rect {
        let size = Self.clearButtonSize
        return Rect(x: bounds.maxX - Self.padding - size, y: bounds.midY - size / 2, width: size, height: size)
    }

    private func layout() -> TextLayout {
        TextLayout(
            text: displayedText, font: font, color: textColor, alignment: .natural, lineBreakMode: .clipping, width: nil,
            maxLines: 1)
    }

    /// Where the layout's origin goes in the view: aligned in the text rect, scrolled to keep the caret in
    /// view when the text is longer than the field.
    private func textOrigin(for layout: TextLayout) -> Point {
        let area = textRect
        let y = (area.midY - max(layout.size.height, font.size * 1.2) / 2).rounded()
        let width = layout.size.width
        // Scrolled while editing, to keep the caret in view; otherwise the text shows from its start.
        if width > area.width { return Point(x: area.minX - (isEditing ? scrollX : 0), y: y) }
        let alignment: TextAlignment = textAlignment == .natural ? (layout.isRightToLeft ? .right : .left) : textAlignment
        switch alignment {
        case .center: return Point(x: (area.midX - width / 2).rounded(), y: y)
        case .right: return Point(x: area.maxX - width, y: y)
        default: return Point(x: area.minX, y: y)
        }
    }

    private func textDidChange() {
        setNeedsDisplay()
        placeCaret(restartBlink: true)
        invalidateIntrinsicContentSize()
    }

    /// A line of the font with the padding around it, as wide as the text (or the placeholder when there is
    /// none) and the clear button (as `UITextField`'s, which grows as it is typed in).
    override open var intrinsicContentSize: Size {
        let shown = text.isEmpty ? (placeholder ?? "") : displayedText
        let line = TextLayout(text: shown.isEmpty ? " " : shown, font: font, lineBreakMode: .clipping, maxLines: 1).size
        let clear = clearButtonMode == .never ? 0 : Self.clearButtonSize + 4
        let width = shown.isEmpty ? 0 : line.width.rounded(.up)
        return Size(width: width + 2 * Self.padding + clear, height: line.height.rounded(.up) + 2 * Self.padding)
    }

    // MARK: Drawing

    override open func draw(_ rect: Rect) {
        guard let context = DrawingContext.current else { return }
        switch borderStyle {
        case .none: break
        case .line: context.strokeRoundedRect(bounds, radius: 0, lineWidth: 1, color: Color(white: 0.2))
        case .roundedRect: context.strokeRoundedRect(bounds, radius: 6, lineWidth: 1, color: Color(rgb: 0xC7C7CC))
        }
        let area = textRect
        context.save()
        context.clip(to: area)
        if text.isEmpty {
            if let placeholder, !placeholder.isEmpty {
                let layout = TextLayout(
                    text: placeholder, font: font, color: Color(rgb: 0xC4C4C6), alignment: .natural, lineBreakMode: .clipping,
                    width: nil, maxLines: 1)
                context.draw(layout, at: textOrigin(for: layout))
            }
        } else {
            let layout = layout()
            context.draw(layout, at: textOrigin(for: layout))
        }
        context.restore()
        if showsClearButton {
            let button = clearButtonRect
            context.fillEllipse(in: button, color: Color(rgb: 0xB4B4B8))
            let cross = TextLayout(
                text: "×", font: .system(size: 16, weight: .bold), color: .white, alignment: .center, lineBreakMode: .clipping,
                width: nil, maxLines: 1)
            context.draw(
                cross, at: Point(x: (button.midX - cross.size.width / 2).rounded(), y: (button.midY - cross.size.height / 2).rounded()))
        }
    }

    // MARK: The caret

    /// The caret's rectangle in the view (2 points wide, as tall as a line of the font).
    public var caretRect: Rect {
        let layout = layout()
        let displayed = displayedText
        let offset = displayed.prefix(caretPosition).utf8.count
        var origin = textOrigin(for: layout)
        var local = layout.caretRect(atUTF8Offset: offset)
        if displayed.isEmpty {
            // An empty field: the caret stands where the text would begin.
            local = Rect(x: 0, y: 0, width: 0, height: (font.size * 1.2).rounded())
            let alignment = textAlignment == .natural ? TextAlignment.left : textAlignment
            let area = textRect
            origin.x = alignment == .center ? area.midX.rounded() : alignment == .right ? area.maxX - 2 : area.minX
        }
        return Rect(x: (origin.x + local.minX).rounded(), y: (origin.y + local.minY).rounded(), width: 2, height: local.height.rounded())
    }

    private var blinkTimer: FrameTimer?
    /// The caret shows and hides every half second while editing.
    static let blinkInterval: TimeInterval = 0.5

    /// Puts the caret where `caretPosition` is (scrolling a long text so it stays in view) and, when
    /// asked, shows it and starts its blink again (typing keeps it steady).
    private func placeCaret(restartBlink: Bool) {
        guard isEditing else {
            caret.isHidden = true
            return
        }
        var rect = caretRect
        let area = textRect
        if rect.maxX > area.maxX || rect.minX < area.minX {
            let layout = layout()
            if layout.size.width > area.width {
                scrollX = max(
                    0,
                    min(
                        scrollX + (rect.maxX > area.maxX ? rect.maxX - area.maxX : rect.minX - area.minX),
                        layout.size.width - area.width + 2))
                setNeedsDisplay()
                rect = caretRect
            }
        } else if layout().size.width <= area.width, scrollX != 0 {
            scrollX = 0
            setNeedsDisplay()
            rect = caretRect
        }
        caret.frame = rect
        if restartBlink {
            caret.isHidden = false
            scheduleBlink()
        }
    }

    private func scheduleBlink() {
        blinkTimer?.cancel()
        let clock = Application.shared.clock
        blinkTimer = clock.schedule(at: clock.now + Self.blinkInterval) { [weak self] in
            guard let self, self.isEditing else { return }
            self.caret.isHidden.toggle()
            self.scheduleBlink()
        }
    }

    override open func layoutSubviews() {
        super.layoutSubviews()
        placeCaret(restartBlink: false)
    }

    // MARK: Editing

    override open var canBecomeFirstResponder: Bool { isEnabled }

    /// A field disabled while it is edited ends its editing: a disabled control takes no input (an app
    /// that locks a PIN field after failed tries gets no more digits in it).
    override open var isEnabled: Bool {
        didSet { if !isEnabled, isFirstResponder { takeFirstResponderStatus() } }
    }

    override open var canResignFirstResponder: Bool { delegate?.textFieldShouldEndEditing(self) ?? true }

    @discardableResult
    override open func becomeFirstResponder() -> Bool {
        if isFirstResponder { return true }
        guard isEnabled, delegate?.textFieldShouldBeginEditing(self) ?? true, super.becomeFirstResponder() else { return false }
        isEditing = true
        if clearsOnBeginEditing, hasText, delegate?.textFieldShouldClear(self) ?? true { replace(0..<text.count, with: "") }
        if isSecureTextEntry, hasText { clearsOnInsertion = true }
        setNeedsDisplay()
        placeCaret(restartBlink: true)
        sendActions(for: .editingDidBegin)
        delegate?.textFieldDidBeginEditing(self)
        return true
    }

    @discardableResult
    override open func resignFirstResponder() -> Bool {
        guard isFirstResponder else { return super.resignFirstResponder() }
        guard super.resignFirstResponder() else { return false }
        isEditing = false
        scrollX = 0
        blinkTimer?.cancel()
        blinkTimer = nil
        caret.isHidden = true
        setNeedsDisplay()
        sendActions(for: .editingDidEnd)
        delegate?.textFieldDidEndEditing(self)
        return true
    }

    public var hasText: Bool { !text.isEmpty }

    /// Replaces the characters `range` (grapheme offsets) by `string` if the delegate agrees; the caret
    /// goes after the new text. Returns whether the text changed.
    @discardableResult
    func replace(_ range: Range<Int>, with string: String) -> Bool {
        let start = text.index(text.startIndex, offsetBy: range.lowerBound)
        let end = text.index(start, offsetBy: range.count)
        guard delegate?.textField(self, shouldChangeCharactersIn: start..<end, replacementString: string) ?? true else { return false }
        // An edit the delegate let happen is the insertion `clearsOnInsertion` waited for.
        clearsOnInsertion = false
        let before = String(text[..<start]) + string
        text = before + text[end...]
        // Counted on the joined text: a combining mark typed after a letter joins its cluster.
        caretPosition = min(before.count, text.count)
        placeCaret(restartBlink: true)
        sendActions(for: .editingChanged)
        Application.shared.instrumentation.post(.textEdited(self))
        return true
    }

    public func insertText(_ string: String) {
        if string == "\n" || string == "\r" { return pressReturn() }
        // Control characters (C0, DEL, C1) and the line and paragraph separators: a field is one line.
        let clean = String(
            string.unicodeScalars.filter { !(0..<0x20 ~= $0.value || 0x7F...0x9F ~= $0.value || 0x2028...0x2029 ~= $0.value) })
        guard !clean.isEmpty else { return }
        replace(wholeTextIfClearing ?? caretPosition..<caretPosition, with: clean)
    }

    public func deleteBackward() {
        if let whole = wholeTextIfClearing { return _ = replace(whole, with: "") }
        guard caretPosition > 0 else { return }
        replace(caretPosition - 1..<caretPosition, with: "")
    }

    /// Deletes the character after the caret (the Delete key).
    public func deleteForward() {
        if let whole = wholeTextIfClearing { return _ = replace(whole, with: "") }
        guard caretPosition < text.count else { return }
        replace(caretPosition..<caretPosition + 1, with: "")
    }

    /// The whole text, when `clearsOnInsertion` says the next edit replaces it (`replace` resets it once
    /// the delegate let an edit happen: a refused one leaves the text to be replaced still).
    private var wholeTextIfClearing: Range<Int>? { clearsOnInsertion && isEditing ? 0..<text.count : nil }

    /// Return: the delegate decides; then `.next` moves to the next text field of the window (left to
    /// right, top to bottom), anything else ends editing (and hides the keyboard) if the delegate's
    /// `textFieldShouldEndEditing` agrees. A delegate that moved the focus itself (or ended the editing)
    /// in `textFieldShouldReturn` keeps its choice.
    func pressReturn() {
        guard delegate?.textFieldShouldReturn(self) ?? true else { return }
        sendActions(for: [.editingDidEndOnExit, .primaryActionTriggered])
        guard isFirstResponder else { return }
        if returnKeyType == .next, let next = nextTextField(), next.becomeFirstResponder() { return }
        resignFirstResponder()
    }

    private func nextTextField() -> TextField? {
        guard let window else { return nil }
        var fields: [TextField] = []
        func collect(_ view: View) {
            if let field = view as? TextField, !field.isHidden, field.isEnabled { fields.append(field) }
            for subview in view.subviews where !subview.isHidden { collect(subview) }
        }
        collect(window)
        func place(_ field: TextField) -> Point { field.convert(Point.zero, to: window) }
        let ordered = fields.sorted { (place($0).y, place($0).x) < (place($1).y, place($1).x) }
        guard let index = ordered.firstIndex(where: { $0 === self }), index + 1 < ordered.count else { return nil }
        return ordered[index + 1]
    }

    /// Hardware keys: editing keys act here; text goes in at the caret; anything else goes up the chain.
    override open func pressesBegan(_ presses: Set<Press>, with event: Event) {
        let unhandled = presses.filter { !edit(with: $0) }
        if !unhandled.isEmpty { super.pressesBegan(unhandled, with: event) }
    }

    /// A held key's repeat (`Application.keyRepeat`): the same edit again; Return does not repeat.
    func repeatKey(_ press: Press) {
        guard press.keysym != KeySym.returnKey, press.keysym != KeySym.keypadEnter else { return }
        edit(with: press)
    }

    /// What a key does to the text or the caret; false for a key that does nothing here.
    @discardableResult
    private func edit(with press: Press) -> Bool {
        switch press.keysym {
        case KeySym.backSpace: deleteBackward()
        case KeySym.delete, KeySym.keypadDelete: deleteForward()
        case KeySym.left, KeySym.keypadLeft: caretPosition -= 1
        case KeySym.right, KeySym.keypadRight: caretPosition += 1
        case KeySym.home, KeySym.keypadHome: caretPosition = 0
        case KeySym.end, KeySym.keypadEnd: caretPosition = text.count
        case KeySym.returnKey, KeySym.keypadEnter: pressReturn()
        default:
            guard !press.text.isEmpty else { return false }
            insertText(press.text)
        }
        return true
    }

    // MARK: Touches

    override open func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        let touch = touches.first
        let wasTracking = isTracking
        super.touchesEnded(touches, with: event)
        guard wasTracking, let touch, bounds.contains(touch.location(in: self)) else { return }
        let point = touch.location(in: self)
        if showsClearButton, clearButtonRect.insetBy(dx: -6, dy: -6).contains(point) {
            if delegate?.textFieldShouldClear(self) ?? true {
                if !isEditing { becomeFirstResponder() }
                if isEditing { replace(0..<text.count, with: "") }
            }
            return
        }
        guard isEditing || becomeFirstResponder() else { return }
        caretPosition = position(nearest: point)
        placeCaret(restartBlink: true)
    }

    /// The caret position nearest `point` (the view's coordinates).
    public func position(nearest point: Point) -> Int {
        guard !text.isEmpty else { return 0 }
        let layout = layout()
        let origin = textOrigin(for: layout)
        let offset = layout.utf8Offset(nearest: Point(x: point.x - origin.x, y: max(point.y - origin.y, 0)))
        let displayed = displayedText
        let utf8 = Array(displayed.utf8)
        return String(decoding: utf8[..<min(offset, utf8.count)], as: UTF8.self).count
    }
}

/// The keysyms the text field acts on (xkbcommon's values).
enum KeySym {
    static let backSpace: UInt32 = 0xff08
    static let tab: UInt32 = 0xff09
    static let returnKey: UInt32 = 0xff0d
    static let delete: UInt32 = 0xffff
    static let home: UInt32 = 0xff50
    static let left: UInt32 = 0xff51
    static let right: UInt32 = 0xff53
    static let end: UInt32 = 0xff57
    static let keypadEnter: UInt32 = 0xff8d
    static let keypadHome: UInt32 = 0xff95
    static let keypadLeft: UInt32 = 0xff96
    static let keypadRight: UInt32 = 0xff98
    static let keypadEnd: UInt32 = 0xff9c
    static let keypadDelete: UInt32 = 0xff9f
}
