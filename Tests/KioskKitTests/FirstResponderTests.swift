import Glibc
import Testing

@testable import KioskKit

/// A delegate that records what it is asked and may keep the field in editing.
final class EndingDelegate: TextFieldDelegate {
    var log: [String] = []
    var allowsEnd = false
    var onReturn: (() -> Void)?
    func textFieldShouldEndEditing(_ textField: TextField) -> Bool {
        log.append("shouldEnd")
        return allowsEnd
    }
    func textFieldDidEndEditing(_ textField: TextField) { log.append("didEnd") }
    func textFieldShouldReturn(_ textField: TextField) -> Bool {
        log.append("return")
        onReturn?()
        return true
    }
    func textFieldShouldClear(_ textField: TextField) -> Bool {
        log.append("shouldClear")
        return true
    }
}

/// A text field as the first responder: when it takes and gives up the status, what its delegate is asked,
/// and where Return moves the focus.
@MainActor
struct FirstResponderTests {
    @Test func returnWithNextMovesToTheNextField() {
        let text = TextBed()
        let window = Window(screen: Screen.main)
        window.makeKeyAndVisible()
        let name = TextField(frame: Rect(x: 20, y: 20, width: 280, height: 44))
        let pin = TextField(frame: Rect(x: 20, y: 80, width: 280, height: 44))
        name.returnKeyType = .next
        window.addSubview(pin)
        window.addSubview(name)
        text.tap(name)
        text.settle()
        #expect(text.key("key.return") != nil)
        text.tapKeys(["key.return"])
        #expect(pin.isFirstResponder)
        // The keyboard stayed (no hide and show between two fields).
        text.settle()
        #expect(text.takeNotes() == ["WillShowNotification ((0, 346), 320x222)", "DidShowNotification ((0, 346), 320x222)"])
    }

    /// `textFieldShouldEndEditing` is asked whenever the field is asked to resign (UIKit: "when you call
    /// the text field's resignFirstResponder() method"), Return and another field's focus included (a
    /// refusal leaves the keyboard as it was); only
    /// `endEditing(true)` and the field leaving its window take the status without asking.
    @Test func shouldEndEditingKeepsTheFieldWhenAsked() {
        let text = TextBed()
        let field = text.field()
        let other = TextField(frame: Rect(x: 20, y: 80, width: 280, height: 44))
        field.window!.addSubview(other)
        let delegate = EndingDelegate()
        field.delegate = delegate
        text.focus(field)
        _ = text.takeNotes()
        #expect(field.resignFirstResponder() == false)
        #expect(field.isFirstResponder && field.isEditing)
        field.insertText("\n")
        #expect(field.isFirstResponder)
        #expect(other.becomeFirstResponder() == false)
        #expect(field.window!.endEditing(false) == false)
        #expect(field.isFirstResponder && text.app.keyboard.isVisible)
        // Tapping the other field: this one stays, and its keyboard as it was (the page).
        text.tapKeys(["key.symbols"])
        text.tap(other)
        #expect(field.isFirstResponder && text.key("key.1") != nil)
        #expect(delegate.log == ["shouldEnd", "return", "shouldEnd", "shouldEnd", "shouldEnd", "shouldEnd"])
        delegate.log = []
        // Forced: the delegate is not asked, and still hears that editing ended.
        #expect(field.window!.endEditing(true))
        #expect(!field.isFirstResponder && !field.isEditing)
        #expect(delegate.log == ["didEnd"])
        text.settle()
        #expect(!text.app.keyboard.isVisible)
        // Asked and agreeing.
        delegate.allowsEnd = true
        delegate.log = []
        field.becomeFirstResponder()
        #expect(field.resignFirstResponder())
        #expect(delegate.log == ["shouldEnd", "didEnd"])
        // Leaving the window takes the status too.
        delegate.allowsEnd = false
        delegate.log = []
        field.becomeFirstResponder()
        field.removeFromSuperview()
        #expect(!field.isFirstResponder && !field.isEditing)
        #expect(delegate.log == ["didEnd"])
    }

    /// A delegate that moves the focus itself in `textFieldShouldReturn` keeps its choice over `.next`.
    @Test func returnLeavesAFocusTheDelegateMoved() {
        let text = TextBed()
        let window = Window(screen: Screen.main)
        window.makeKeyAndVisible()
        let fields = (0..<3).map { TextField(frame: Rect(x: 20, y: 20 + 60 * Double($0), width: 280, height: 44)) }
        for field in fields { window.addSubview(field) }
        fields[0].returnKeyType = .next
        let delegate = EndingDelegate()
        delegate.allowsEnd = true
        delegate.onReturn = { fields[2].becomeFirstResponder() }
        fields[0].delegate = delegate
        text.focus(fields[0])
        fields[0].insertText("\n")
        #expect(fields[2].isFirstResponder)
        #expect(delegate.log == ["return", "shouldEnd", "didEnd"])
    }

    /// A delegate that moves the focus on in `textFieldDidEndEditing`, while another field is taking it:
    /// the delegate's choice stands and there stays one field editing (two were, the second with a caret
    /// blinking for ever and deaf to taps).
    @Test func aFocusMovedInDidEndEditingLeavesOneFieldEditing() {
        final class MovingOn: TextFieldDelegate {
            var next: TextField?
            func textFieldDidEndEditing(_ textField: TextField) { next?.becomeFirstResponder() }
        }
        let text = TextBed()
        let window = Window(screen: Screen.main)
        window.makeKeyAndVisible()
        let fields = (0..<3).map { TextField(frame: Rect(x: 20, y: 20 + 60 * Double($0), width: 280, height: 44)) }
        for field in fields { window.addSubview(field) }
        let delegate = MovingOn()
        delegate.next = fields[2]
        fields[0].delegate = delegate
        text.focus(fields[0])
        #expect(!fields[1].becomeFirstResponder())
        #expect(fields[2].isFirstResponder && fields[2].isEditing)
        #expect(fields.map(\.isEditing) == [false, false, true])
        delegate.next = nil
        text.tap(fields[1])
        #expect(fields[1].isFirstResponder && fields.map(\.isEditing) == [false, true, false])
    }

    /// A hidden view takes no input: the field being edited in it ends its editing ("a hidden view does not
    /// receive input events", UIKit); so does the field itself hidden.
    @Test func hidingTheViewAroundTheFieldEndsItsEditing() {
        let text = TextBed()
        let field = text.field()
        let panel = View(frame: Rect(x: 0, y: 0, width: 320, height: 200))
        field.window!.addSubview(panel)
        panel.addSubview(field)
        text.focus(field)
        #expect(field.isFirstResponder)
        panel.isHidden = true
        #expect(!field.isFirstResponder && !field.isEditing)
        text.settle()
        #expect(!text.app.keyboard.isVisible)
        panel.isHidden = false
        text.focus(field)
        field.isHidden = true
        #expect(!field.isFirstResponder)
    }

    /// A field that is hidden, or in a hidden view or window, cannot become first responder: the keyboard
    /// would come up for a field nobody sees, and keys go into it. A window on its way to the screen (its
    /// controller's `viewWillAppear`) takes it.
    @Test func aHiddenFieldDoesNotBecomeFirstResponder() {
        let text = TextBed()
        let field = text.field()
        let window = field.window!
        let panel = View(frame: Rect(x: 0, y: 0, width: 320, height: 200))
        window.addSubview(panel)
        panel.addSubview(field)
        panel.isHidden = true
        #expect(!field.becomeFirstResponder() && !field.isEditing)
        panel.isHidden = false
        field.isHidden = true
        #expect(!field.becomeFirstResponder())
        field.isHidden = false
        window.isHidden = true
        #expect(!field.becomeFirstResponder())
        text.settle()
        #expect(!text.app.keyboard.isVisible)
        // viewWillAppear, while the window is being shown.
        final class Focusing: ViewController {
            let field = TextField(frame: Rect(x: 20, y: 20, width: 280, height: 44))
            var focused = false
            override func loadView() {
                super.loadView()
                view.addSubview(field)
            }
            override func viewWillAppear(_ animated: Bool) { focused = field.becomeFirstResponder() }
        }
        let controller = Focusing()
        let second = Window(screen: Screen.main)
        second.rootViewController = controller
        second.makeKeyAndVisible()
        #expect(controller.focused && controller.field.isFirstResponder)
    }

    /// A field that is not first responder resigns "successfully" (UIKit's default: true) and tells nobody.
    @Test func resigningWithoutTheStatusIsTrueAndSilent() {
        let text = TextBed()
        let field = text.field()
        final class Delegate: TextFieldDelegate {
            var ended = 0
            func textFieldDidEndEditing(_ textField: TextField) { ended += 1 }
        }
        let delegate = Delegate()
        field.delegate = delegate
        #expect(field.resignFirstResponder())
        #expect(delegate.ended == 0)
        text.focus(field)
        #expect(field.resignFirstResponder() && delegate.ended == 1)
    }

    /// A field disabled while edited ends its editing and takes no more keys.
    @Test func disablingTheFieldEndsItsEditing() {
        let text = TextBed()
        let field = text.field()
        text.app.keyboard.hasHardwareKeyboard = true
        text.focus(field)
        text.press(0x61, "a")
        field.isEnabled = false
        #expect(!field.isFirstResponder && !field.isEditing)
        text.press(0x62, "b")
        #expect(field.text == "a")
    }

    /// A hidden window takes no input: the field edited in it ends its editing and the keyboard goes.
    @Test func hidingTheWindowEndsItsEditing() {
        let text = TextBed()
        let field = text.field()
        let delegate = EndingDelegate()
        field.delegate = delegate
        text.focus(field)
        _ = text.takeNotes()
        field.window!.isHidden = true
        #expect(!field.isFirstResponder && !field.isEditing)
        #expect(delegate.log == ["didEnd"])
        text.settle()
        #expect(!text.app.keyboard.isVisible)
        #expect(text.takeNotes().map { $0.prefix { $0 != " " } } == ["WillHideNotification", "DidHideNotification"])
    }

    /// A touch outside the text fields ends no editing, as in UIKit, where editing ends only when the app
    /// asks: the field stays first responder and the keyboard up. An app dismisses the keyboard on a tap as
    /// UIKit apps do, with a tap recognizer calling `endEditing(true)` (a field's own taps stay the field's).
    @Test func aTouchOutsideTheFieldsEndsNoEditingUnlessTheAppAsks() {
        let text = TextBed()
        let field = text.field()
        let window = field.window!
        let other = TextField(frame: Rect(x: 20, y: 80, width: 280, height: 44))
        window.addSubview(other)
        let delegate = EndingDelegate()
        delegate.allowsEnd = true
        field.delegate = delegate
        #expect(!text.app.endsEditingOnTouchOutside)
        text.focus(field)
        _ = text.takeNotes()
        text.tap(at: Point(x: 160, y: 250))
        text.settle()
        #expect(field.isFirstResponder && field.isEditing && text.app.keyboard.isVisible)
        #expect(text.takeNotes().isEmpty && delegate.log.isEmpty)
        let dismiss = TapGestureRecognizer { recognizer in _ = recognizer.view?.endEditing(true) }
        dismiss.cancelsTouchesInView = false
        window.addGestureRecognizer(dismiss)
        text.tap(other)
        #expect(other.isFirstResponder && delegate.log == ["shouldEnd", "didEnd"])
        text.tap(at: Point(x: 160, y: 250))
        #expect(!other.isFirstResponder && text.app.firstResponder == nil)
        text.settle()
        #expect(text.takeNotes().map { $0.prefix { $0 != " " } } == ["WillHideNotification", "DidHideNotification"])
    }

    /// `endsEditingOnTouchOutside`, the kiosk's convenience: a touch that begins outside the text fields and
    /// off the keyboard asks the field being edited to resign as it goes down (its delegate may refuse),
    /// and the touch goes on to the view it landed on; one on another field or on a key leaves it to them.
    @Test func optedInATouchOutsideTheFieldsEndsTheEditingAsItBegins() {
        let text = TextBed()
        text.app.endsEditingOnTouchOutside = true
        let field = text.field()
        let window = field.window!
        let other = TextField(frame: Rect(x: 20, y: 80, width: 280, height: 44))
        window.addSubview(other)
        let below = RecordingView(frame: Rect(x: 0, y: 200, width: 320, height: 100))
        window.addSubview(below)
        let delegate = EndingDelegate()
        field.delegate = delegate
        text.focus(field)
        _ = text.takeNotes()
        text.tapKeys(["key.H"])
        #expect(field.isFirstResponder && field.text == "H" && delegate.log.isEmpty)
        // Refused by the delegate, the field stays; the view under the finger has the touch all the same.
        let point = Point(x: 160, y: 250)
        let refused = text.touchDown(at: point)
        #expect(field.isFirstResponder && delegate.log == ["shouldEnd"] && below.calls == ["began 1"])
        text.lift(refused)
        delegate.allowsEnd = true
        text.tap(other)
        #expect(other.isFirstResponder)
        // As it goes down, before it lifts.
        let touch = text.touchDown(at: point)
        #expect(text.app.firstResponder == nil && below.calls == ["began 1", "ended 1", "began 1"])
        text.lift(touch)
        text.settle()
        #expect(text.takeNotes().map { $0.prefix { $0 != " " } } == ["WillHideNotification", "DidHideNotification"])
    }
}
