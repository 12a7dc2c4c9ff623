import Glibc
import Testing

@testable import KioskKit

/// The keys that finish: every page has a Return key labelled by the field's `returnKeyType` (the number
/// and decimal pads too, which had none, so a kiosk without a hardware keyboard could not leave them) and a
/// hide-keyboard key, as iPad keyboards have, at the bottom right.
@MainActor
struct KeyboardFinishingKeysTests {
    /// What a field's delegate is asked and its control events, in one log.
    final class Recorder: TextFieldDelegate {
        var log: [String] = []
        var allowsEnd = true

        func watch(_ field: TextField) {
            field.delegate = self
            for (event, name) in [
                (Control.Events.editingDidEndOnExit, "editingDidEndOnExit"), (.editingDidEnd, "editingDidEnd"),
            ] {
                field.addAction(for: event) { [weak self] _ in self?.log.append(name) }
            }
        }
        func textFieldShouldEndEditing(_ textField: TextField) -> Bool {
            log.append("shouldEnd")
            return allowsEnd
        }
        func textFieldDidEndEditing(_ textField: TextField) { log.append("didEnd") }
        func textFieldShouldReturn(_ textField: TextField) -> Bool {
            log.append("shouldReturn")
            return true
        }
    }

    /// A full-screen window with a field of each `types`, 60 points apart; the first focused.
    private func fields(_ text: TextBed, _ types: [KeyboardType], returnKey: ReturnKeyType = .default) -> [TextField] {
        let window = Window(screen: Screen.main)
        window.makeKeyAndVisible()
        let fields = types.enumerated().map { index, type in
            let field = TextField(frame: Rect(x: 20, y: 20 + 60 * Double(index), width: 280, height: 44))
            field.keyboardType = type
            field.returnKeyType = returnKey
            window.addSubview(field)
            return field
        }
        text.focus(fields[0])
        _ = text.takeNotes()
        return fields
    }

    private func title(_ text: TextBed, _ identifier: String) -> String? { (text.key(identifier) as? KeyView)?.title }

    /// The pads' Return is the letters' Return: the same label for each return key type, and a tap on it
    /// asks `textFieldShouldReturn`, sends `.editingDidEndOnExit` and ends the editing as theirs does, the
    /// keyboard going with it.
    @Test(arguments: [KeyboardType.numberPad, .decimalPad])
    func thePadsReturnIsTheLettersReturn(pad: KeyboardType) throws {
        for (returnKey, label) in [(ReturnKeyType.default, "return"), (.done, "Done"), (.go, "Go"), (.send, "Send")] {
            var logs: [[String]] = []
            for type in [KeyboardType.default, pad] {
                let text = TextBed()
                let field = fields(text, [type], returnKey: returnKey)[0]
                let recorder = Recorder()
                recorder.watch(field)
                #expect(title(text, "key.return") == label, "\(type) \(returnKey)")
                text.tapKeys(["key.return"])
                text.settle()
                #expect(!field.isFirstResponder && !text.app.keyboard.isVisible)
                #expect(text.takeNotes().map { $0.prefix { $0 != " " } } == ["WillHideNotification", "DidHideNotification"])
                logs.append(recorder.log)
            }
            #expect(logs[0] == ["shouldReturn", "editingDidEndOnExit", "shouldEnd", "editingDidEnd", "didEnd"])
            #expect(logs[1] == logs[0], "\(pad) \(returnKey)")
        }
    }

    /// `.next` on a pad moves to the next field as on the letters, the keyboard staying up and taking that
    /// field's keys.
    @Test func thePadsNextMovesToTheNextField() {
        let text = TextBed()
        let fields = fields(text, [.numberPad, .default], returnKey: .next)
        #expect(title(text, "key.return") == "Next" && text.key("key.space") == nil)
        text.tapKeys(["key.4", "key.return"])
        #expect(fields[1].isFirstResponder && fields[0].text == "4")
        text.settle()
        #expect(text.app.keyboard.isVisible && text.key("key.space") != nil && text.takeNotes().isEmpty)
    }

    /// The hide key, on every page of every keyboard type, asks the field to resign as the app's
    /// `resignFirstResponder()` does (the delegate may keep it, and the keyboard with it): no
    /// `textFieldShouldReturn`, no `.editingDidEndOnExit`, no move to the next field.
    @Test(arguments: [KeyboardType.default, .emailAddress, .numberPad, .decimalPad])
    func theHideKeyEndsTheEditing(type: KeyboardType) throws {
        for page in type == .numberPad || type == .decimalPad ? [nil] : [nil, "key.symbols", "key.symbols key.moreSymbols"] {
            let text = TextBed()
            let fields = fields(text, [type, .default], returnKey: .next)
            let recorder = Recorder()
            recorder.watch(fields[0])
            if let page { text.tapKeys(page.split(separator: " ").map(String.init)) }
            recorder.allowsEnd = false
            text.tapKeys(["key.hideKeyboard"])
            text.settle()
            #expect(fields[0].isFirstResponder && text.app.keyboard.isVisible && text.takeNotes().isEmpty)
            recorder.allowsEnd = true
            text.tapKeys(["key.hideKeyboard"])
            #expect(text.app.firstResponder == nil)
            text.settle()
            #expect(!text.app.keyboard.isVisible)
            #expect(text.takeNotes().map { $0.prefix { $0 != " " } } == ["WillHideNotification", "DidHideNotification"])
            #expect(recorder.log == ["shouldEnd", "shouldEnd", "editingDidEnd", "didEnd"], "\(type) \(page ?? "")")
        }
    }

    /// Return and the hide key at the bottom right of each page, the hide key in the corner (where iPad
    /// keyboards have it); the pads' Return three rows tall beside the digits, as a keypad's Enter.
    @Test func theyAreAtTheBottomRight() throws {
        let metrics = KeyboardLayout.Metrics(screen: Size(width: 800, height: 480))
        let layout = KeyboardLayout(language: .en)
        for (page, type) in [
            (KeyboardLayout.Page.letters(shifted: false), KeyboardType.default), (.letters(shifted: true), .emailAddress),
            (.symbols, .default), (.moreSymbols, .default), (.numberPad, .numberPad), (.decimalPad, .decimalPad),
        ] {
            let frames = layout.frames(of: page, for: type, width: 800, metrics: metrics).filter { $0.key.role != .gap }
            let hide = try #require(frames.first { $0.key.role == .hideKeyboard }?.frame)
            let enter = try #require(frames.first { $0.key.role == .returnKey }?.frame)
            // Last in the bottom row (rows are centred, so not always the rightmost of all).
            let inItsPlace = frames.allSatisfy {
                $0.frame.maxY <= hide.maxY && ($0.frame.maxY < hide.minY || $0.frame.maxX <= hide.maxX)
            }
            #expect(inItsPlace, "\(page)")
            #expect(enter.maxX < hide.minX || enter.maxY < hide.minY, "\(page)")
            let isPad = page == .numberPad || page == .decimalPad
            #expect((enter.height == 3 * metrics.keyHeight + 2 * metrics.gap) == isPad, "\(page)")
        }
    }
}
