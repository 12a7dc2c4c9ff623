/// One key: a rounded cap with its label, darker while pressed. A long press on a letter with accents
/// shows them above the key; sliding onto one and lifting types it.
@MainActor
final class KeyView: View {
    let role: KeyboardLayout.Role
    let title: String
    unowned let keyboard: OnScreenKeyboard
    let fontSize: Double
    var accents: [String] = []
    private var isPressed = false { didSet { if isPressed != oldValue { setNeedsDisplay() } } }
    private weak var touch: Touch?
    private var accentTimer: FrameTimer?
    private var popup: AccentPopup?

    /// How long a letter is held before its accents show (UIKit's long press).
    static let accentDelay: TimeInterval = 0.5

    init(role: KeyboardLayout.Role, title: String, keyboard: OnScreenKeyboard, fontSize: Double) {
        self.role = role
        self.title = title
        self.keyboard = keyboard
        self.fontSize = fontSize
        super.init(frame: .zero)
        identifier = role.identifier
    }

    private var isFunctionKey: Bool {
        switch role {
        case .character, .space: false
        default: true
        }
    }

    override func draw(_ rect: Rect) {
        guard let context = DrawingContext.current else { return }
        let face: Color =
            isFunctionKey
            ? (isPressed ? .white : Color(rgb: 0xABB0BC))
            : (isPressed ? Color(rgb: 0xBFC3CC) : .white)
        // A darker edge under the cap, as a key's shadow.
        context.fillRoundedRect(bounds, radius: 5, color: Color(rgb: 0x898A8D))
        context.fillRoundedRect(
            Rect(x: bounds.minX, y: bounds.minY, width: bounds.width, height: bounds.height - 1), radius: 5, color: face)
        let size: Double
        switch role {
        case .character: size = (fontSize * 0.45).rounded()
        case .shift, .backspace: size = (fontSize * 0.4).rounded()
        default: size = (fontSize * 0.3).rounded()
        }
        let label = TextLayout(
            text: title, font: .system(size: size), color: .black, alignment: .center, lineBreakMode: .clipping, width: nil, maxLines: 1)
        context.draw(
            label, at: Point(x: (bounds.midX - label.size.width / 2).rounded(), y: (bounds.midY - label.size.height / 2).rounded()))
    }

    override func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        guard touch == nil, let first = touches.first else { return }
        touch = first
        isPressed = true
        if role == .backspace { return keyboard.backspaceWentDown(first) }
        guard !accents.isEmpty else { return }
        let clock = Application.shared.clock
        accentTimer = clock.schedule(at: first.timestamp + Self.accentDelay) { [weak self] in self?.showAccents() }
    }

    override func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        guard let touch, touches.contains(touch), let popup else { return }
        popup.select(at: touch.location(in: popup))
    }

    override func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        guard let touch, touches.contains(touch) else { return }
        let chosen = popup?.selected
        let inside = bounds.contains(touch.location(in: self))
        finish()
        if let chosen {
            keyboard.tapped(.character(chosen))
        } else if inside, role != .backspace {
            keyboard.tapped(role)
        }
    }

    override func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        guard let touch, touches.contains(touch) else { return }
        finish()
    }

    private func finish() {
        if touch != nil, role == .backspace { keyboard.backspaceWentUp() }
        touch = nil
        isPressed = false
        accentTimer?.cancel()
        accentTimer = nil
        popup?.removeFromSuperview()
        popup = nil
    }

    private func showAccents() {
        accentTimer = nil
        guard touch != nil, let window else { return }
        let popup = AccentPopup(accents: accents, keySize: bounds.size, fontSize: fontSize)
        // Above the key, kept on the screen; it may stand above the keyboard's window (views draw outside
        // their window; the touch stays with the key).
        let keyFrame = convert(bounds, to: window)
        var x = keyFrame.minX
        x = min(max(x, 0), max(window.bounds.width - popup.bounds.width, 0))
        popup.frame = Rect(x: x, y: keyFrame.minY - popup.bounds.height - 4, width: popup.bounds.width, height: popup.bounds.height)
        window.addSubview(popup)
        self.popup = popup
        if let touch { popup.select(at: touch.location(in: popup)) }
    }
}

/// The accents of a held letter, one cell each; the one under the finger is highlighted.
@MainActor
final class AccentPopup: View {
    let accents: [String]
    let cellWidth: Double
    let fontSize: Double
    private(set) var selectedIndex: Int? { didSet { if selectedIndex != oldValue { setNeedsDisplay() } } }

    var selected: String? { selectedIndex.map { accents[$0] } }

    init(accents: [String], keySize: Size, fontSize: Double) {
        self.accents = accents
        cellWidth = keySize.width
        self.fontSize = fontSize
        super.init(frame: Rect(x: 0, y: 0, width: keySize.width * Double(accents.count) + 8, height: keySize.height + 8))
        identifier = "accents"
        isUserInteractionEnabled = false
        selectedIndex = 0
    }

    func select(at point: Point) {
        guard point.y > -bounds.height, point.y < bounds.height * 2 else {
            selectedIndex = nil
            return
        }
        let index = Int(((point.x - 4) / cellWidth).rounded(.down))
        selectedIndex = min(max(index, 0), accents.count - 1)
    }

    override func draw(_ rect: Rect) {
        guard let context = DrawingContext.current else { return }
        context.fillRoundedRect(bounds, radius: 8, color: Color(rgb: 0x898A8D))
        context.fillRoundedRect(bounds.insetBy(dx: 1, dy: 1), radius: 7, color: .white)
        for (index, accent) in accents.enumerated() {
            let cell = Rect(x: bounds.minX + 4 + Double(index) * cellWidth, y: bounds.minY + 4, width: cellWidth, height: bounds.height - 8)
            if index == selectedIndex { context.fillRoundedRect(cell, radius: 5, color: Color(red: 0, green: 122.0 / 255, blue: 1)) }
            let label = TextLayout(
                text: accent, font: .system(size: (fontSize * 0.45).rounded()), color: index == selectedIndex ? .white : .black,
                alignment: .center, lineBreakMode: .clipping, width: nil, maxLines: 1)
            context.draw(
                label, at: Point(x: (cell.midX - label.size.width / 2).rounded(), y: (cell.midY - label.size.height / 2).rounded()))
        }
    }
}
