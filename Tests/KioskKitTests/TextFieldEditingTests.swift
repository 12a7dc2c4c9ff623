import Glibc
import Testing

@testable import KioskKit

/// Editing a text field: what typing, Backspace and taps do to the text and the caret, and what the
/// delegate and the control events hear.
@MainActor
struct TextFieldEditingTests {
    @Test func theSameThroughAHardwareKeyboard() {
        let text = TextBed()
        text.app.keyboard.hasHardwareKeyboard = true
        let field = text.field()
        text.focus(field)
        // auto: with a hardware keyboard the on-screen one does not show.
        #expect(text.keyboardWindow == nil && text.takeNotes().isEmpty)
        for (keysym, typed) in [
            (0x47, "G"), (0x72, "r"), (0xfc, "ü"), (0xdf, "ß"), (0x65, "e"), (0x20, " "), (0x31, "1"), (0x32, "2"), (0x33, "3"),
        ] {
            text.press(UInt32(keysym), typed)
        }
        #expect(field.text == "Grüße 123")
        // Arrows, Home, End and Delete move and edit by character.
        text.press(KeySym.home)
        text.press(KeySym.right)
        text.press(KeySym.delete)
        #expect(field.text == "Güße 123" && field.caretPosition == 1)
        text.press(KeySym.end)
        text.press(KeySym.backSpace)
        #expect(field.text == "Güße 12" && field.caretPosition == 7)
        // A key with no text and no editing role goes up the responder chain (nothing typed).
        text.press(0xffbe)
        #expect(field.text == "Güße 12")
    }

    @Test func backspaceTakesAWholeGraphemeCluster() {
        let text = TextBed()
        let field = text.field()
        #expect(field.becomeFirstResponder())
        // e + combining acute: one character, the caret after it.
        field.insertText("Cafe")
        field.insertText("\u{301}")
        #expect(field.text == "Cafe\u{301}" && field.text.count == 4 && field.caretPosition == 4)
        field.deleteBackward()
        #expect(field.text == "Caf")
        // A flag (two regional indicators) and a family emoji (a ZWJ sequence) are one character each.
        field.insertText("🇩🇪👨‍👩‍👧")
        #expect(field.caretPosition == 5)
        field.deleteBackward()
        #expect(field.text == "Caf🇩🇪")
        field.deleteBackward()
        #expect(field.text == "Caf")
    }

    @Test func theDelegateAndTheControlEventsSeeEveryEdit() {
        final class Delegate: TextFieldDelegate {
            var log: [String] = []
            func textFieldShouldBeginEditing(_ textField: TextField) -> Bool {
                log.append("shouldBegin")
                return true
            }
            func textFieldDidBeginEditing(_ textField: TextField) { log.append("didBegin") }
            func textFieldDidEndEditing(_ textField: TextField) { log.append("didEnd") }
            func textField(_ textField: TextField, shouldChangeCharactersIn range: Range<String.Index>, replacementString string: String)
                -> Bool
            {
                let offset = textField.text.distance(from: textField.text.startIndex, to: range.lowerBound)
                log.append("change \(offset)+\(textField.text[range].count) \"\(string)\"")
                // Digits only.
                return string.allSatisfy(\.isNumber)
            }
            func textFieldShouldReturn(_ textField: TextField) -> Bool {
                log.append("return")
                return true
            }
        }
        let text = TextBed()
        let window = Window(screen: Screen.main)
        window.makeKeyAndVisible()
        let field = TextField(frame: Rect(x: 20, y: 20, width: 280, height: 44))
        field.keyboardType = .numberPad
        let delegate = Delegate()
        field.delegate = delegate
        var events: [String] = []
        field.addAction(for: .editingDidBegin) { _ in events.append("editingDidBegin") }
        field.addAction(for: .editingChanged) { _ in events.append("editingChanged") }
        field.addAction(for: .editingDidEnd) { _ in events.append("editingDidEnd") }
        field.addAction(for: .editingDidEndOnExit) { _ in events.append("editingDidEndOnExit") }
        window.addSubview(field)
        text.tap(field)
        text.settle()
        // The number pad: digits, Backspace, Return and the hide key; no letters.
        #expect(text.key("key.7") != nil && text.key("key.a") == nil && text.key("key.return") != nil)
        text.tapKeys(["key.4", "key.2"])
        text.press(0x78, "x")
        text.press(KeySym.returnKey)
        #expect(field.text == "42")
        #expect(
            delegate.log == ["shouldBegin", "didBegin", "change 0+0 \"4\"", "change 1+0 \"2\"", "change 2+0 \"x\"", "return", "didEnd"])
        #expect(events == ["editingDidBegin", "editingChanged", "editingChanged", "editingDidEndOnExit", "editingDidEnd"])
        #expect(!field.isFirstResponder)
    }

    /// A secure field's PIN typed again replaces the old one (UIKit's secure fields set
    /// `clearsOnInsertion` when their editing begins with text); Backspace then clears it all.
    @Test func aSecureFieldTypedAgainStartsOver() {
        let text = TextBed()
        let field = text.field()
        field.isSecureTextEntry = true
        field.keyboardType = .numberPad
        text.focus(field)
        text.tapKeys(["key.1", "key.2", "key.3", "key.4"])
        #expect(field.text == "1234" && !field.clearsOnInsertion)
        field.resignFirstResponder()
        text.focus(field)
        #expect(field.clearsOnInsertion)
        text.tapKeys(["key.5", "key.6"])
        #expect(field.text == "56")
        field.resignFirstResponder()
        text.focus(field)
        text.tapKeys(["key.backspace"])
        #expect(field.text == "" && !field.clearsOnInsertion)
        // A plain field appends, and `clearsOnBeginEditing` empties it as editing begins.
        let plain = text.field(Rect(x: 20, y: 80, width: 280, height: 44))
        plain.text = "ab"
        plain.becomeFirstResponder()
        plain.caretPosition = 2
        plain.insertText("c")
        #expect(plain.text == "abc")
        plain.resignFirstResponder()
        let delegate = EndingDelegate()
        delegate.allowsEnd = true
        plain.delegate = delegate
        plain.clearsOnBeginEditing = true
        plain.becomeFirstResponder()
        #expect(plain.text == "" && delegate.log == ["shouldClear"])
    }

    /// A secure PIN field typed again with a delegate that takes digits only: a refused letter inserts
    /// nothing, so the PIN showing is still replaced by the next digit (UIKit: inserting new text clears
    /// the contents and sets `clearsOnInsertion` back to false; it was reset by the refused edit).
    @Test func aRefusedEditLeavesTheTextToBeReplaced() {
        final class DigitsOnly: TextFieldDelegate {
            func textField(_ textField: TextField, shouldChangeCharactersIn range: Range<String.Index>, replacementString string: String)
                -> Bool
            { string.allSatisfy(\.isNumber) }
        }
        let text = TextBed()
        let field = text.field()
        field.isSecureTextEntry = true
        let delegate = DigitsOnly()
        field.delegate = delegate
        field.text = "1234"
        field.becomeFirstResponder()
        #expect(field.clearsOnInsertion)
        field.insertText("x")
        #expect(field.text == "1234" && field.clearsOnInsertion)
        field.insertText("5")
        #expect(field.text == "5" && !field.clearsOnInsertion)
    }

    /// A field is one line: line breaks typed (U+2028, U+2029, NEL) are left out like other control
    /// characters, and one in a text set from code shows as a space, the caret on the line (pango had
    /// started a second line below the field, the caret and all that followed out of sight).
    @Test func aFieldStaysOneLine() {
        let text = TextBed()
        let field = text.field()
        field.becomeFirstResponder()
        field.insertText("a\u{2028}b\u{2029}c\u{85}d\u{9B}e")
        #expect(field.text == "abcde")
        let oneLine = field.caretRect
        field.text = "ab\ncd\r\nef"
        #expect(field.caretPosition == 8)  // "\r\n" is one character
        let caret = field.caretRect
        #expect(caret.minY == oneLine.minY && caret.maxY <= field.bounds.maxY)
        #expect(caret.minX > oneLine.minX)
    }

    /// A long text scrolled to its end while edited shows from its start once the editing ends, and a text
    /// set from code then shows too (it was drawn at the old scroll, left of the field, out of sight).
    @Test func aFieldNotEditedShowsItsTextFromTheStart() {
        let text = TextBed()
        let field = text.field()
        field.becomeFirstResponder()
        field.insertText(String(repeating: "m", count: 100))
        #expect(field.caretRect.maxX <= field.textRect.maxX)
        field.resignFirstResponder()
        field.text = String(repeating: "m", count: 25)
        field.caretPosition = 0
        #expect(field.caretRect.minX == field.textRect.minX)
        field.becomeFirstResponder()
        field.caretPosition = 0
        #expect(field.caretRect.minX >= field.textRect.minX && field.caretRect.maxX <= field.textRect.maxX)
    }

    @Test func theCaretBlinksOnlyWhileEditing() {
        let text = TextBed()
        let field = text.field()
        #expect(text.clock.pendingTimers.isEmpty)
        field.becomeFirstResponder()
        let caret = try! #require(field.subviews.first { $0.identifier == "caret" })
        #expect(!caret.isHidden)
        text.clock.advance(by: 0.5)
        #expect(caret.isHidden)
        text.clock.advance(by: 0.5)
        #expect(!caret.isHidden)
        // Typing keeps it steady for another half second.
        text.clock.advance(by: 0.4)
        field.insertText("a")
        text.clock.advance(by: 0.3)
        #expect(!caret.isHidden)
        field.resignFirstResponder()
        text.settle()
        #expect(caret.isHidden)
        // No timer once editing ended (the keyboard's slide is over too).
        text.clock.advance(by: 2)
        #expect(text.clock.pendingTimers.isEmpty)
    }

    @Test func aTapPutsTheCaretWhereTheFingerIs() {
        let text = TextBed()
        let window = Window(screen: Screen.main)
        window.makeKeyAndVisible()
        let field = TextField(frame: Rect(x: 20, y: 20, width: 280, height: 44))
        field.text = "abcdef"
        window.addSubview(field)
        text.tap(field)
        // The right half of the field is past the text's end.
        #expect(field.caretPosition == 6)
        let c = field.caretRect
        text.tap(at: Point(x: 20 + TextField.padding + 1, y: 40))
        #expect(field.caretPosition == 0)
        #expect(field.caretRect.minX < c.minX)
    }
}
