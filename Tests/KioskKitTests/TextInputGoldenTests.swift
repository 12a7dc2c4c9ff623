import Glibc
import Testing

@testable import KioskKit

@MainActor
struct TextInputGoldenTests {
    /// The screen with a text field focused and the keyboard up on `page`.
    private func keyboardImage(
        width: Int, height: Int, language: KeyboardLayout.Language, type: KeyboardType = .default, symbols: Bool = false,
        returnKey: ReturnKeyType = .default
    ) -> Bitmap {
        let text = TextBed(width: width, height: height)
        text.app.keyboard.language = language
        let window = Window(screen: Screen.main)
        window.backgroundColor = Color(rgb: 0xF2F2F7)
        window.isOpaque = true
        window.makeKeyAndVisible()
        let field = TextField(frame: Rect(x: 20, y: 20, width: 300, height: 44))
        field.keyboardType = type
        field.returnKeyType = returnKey
        field.autocapitalizationType = .none
        window.addSubview(field)
        text.tap(field)
        text.settle()
        if symbols { text.tapKeys(["key.symbols"]) }
        // Past the caret's blink: it shows (a whole number of periods since the last edit).
        text.clock.advance(by: 1)
        text.compositor.composePendingFrames()
        return text.output.lastFrame[Screen.main.name]!
    }

    @Test(arguments: [(800, 480, "landscape"), (480, 800, "portrait")])
    func keyboards(width: Int, height: Int, name: String) throws {
        try expectGolden(keyboardImage(width: width, height: height, language: .en), named: "keyboard-en-\(name)")
        try expectGolden(keyboardImage(width: width, height: height, language: .de), named: "keyboard-de-\(name)")
        try expectGolden(keyboardImage(width: width, height: height, language: .en, symbols: true), named: "keyboard-symbols-\(name)")
        try expectGolden(
            keyboardImage(width: width, height: height, language: .de, type: .decimalPad), named: "keyboard-decimalpad-\(name)")
        try expectGolden(
            keyboardImage(width: width, height: height, language: .en, type: .numberPad, returnKey: .done),
            named: "keyboard-numberpad-\(name)")
    }

    @Test func textFieldsInThreeScriptsWithTheCaret() throws {
        let text = TextBed(width: 400, height: 280)
        text.app.keyboard.mode = .never
        let window = Window(screen: Screen.main)
        window.backgroundColor = .white
        window.isOpaque = true
        window.makeKeyAndVisible()
        var fields: [TextField] = []
        for (index, value) in ["Grüße, Zoë", "你好，世界", "مرحبا بالعالم", "2468"].enumerated() {
            let field = TextField(frame: Rect(x: 20, y: 20 + Double(index) * 60, width: 360, height: 44))
            field.text = value
            field.isSecureTextEntry = index == 3
            field.borderStyle = index == 1 ? .line : .roundedRect
            field.clearButtonMode = index == 0 ? .whileEditing : .never
            window.addSubview(field)
            fields.append(field)
        }
        // The Latin field is being edited, its caret after "Grüße".
        fields[0].becomeFirstResponder()
        fields[0].caretPosition = 5
        // The Arabic text is right to left: right-aligned (its end, where the caret is after setting the
        // text, is the text's left edge, in the right half), and its start on the right.
        let end = fields[2].caretRect.minX
        fields[2].caretPosition = 0
        #expect(end > 180 && fields[2].caretRect.minX == 360 - TextField.padding)
        text.compositor.composePendingFrames()
        try expectGolden(text.output.lastFrame[Screen.main.name]!, named: "text-fields")
    }
}
