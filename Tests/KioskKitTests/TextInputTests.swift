import Glibc
import Testing

@testable import KioskKit

/// A screen of a given size on a manual clock, with touches and key presses sent through
/// `Application.sendEvent` as a kiosk's input backend sends them.
@MainActor
final class TextBed {
    let bed: TestBed
    let clock = ManualClock(now: 10)
    /// A compositor on an output that shows each frame at once: the keyboard's slide runs on its frames.
    let output = TestOutput(bufferCount: 1)
    let compositor: Compositor
    var app: Application { bed.app }
    private(set) var notes: [String] = []
    private var observations: [NotificationObservation] = []

    init(width: Int = 320, height: Int = 568) {
        bed = TestBed(screens: [])
        bed.app.clock = clock
        bed.backend.connect("DSI-1", modes: [Screen.Mode(width: width, height: height, refreshRate: 60)])
        compositor = Compositor(output: output, application: bed.app)
        output.compositor = compositor
        for name in [
            Responder.keyboardWillShowNotification, Responder.keyboardDidShowNotification,
            Responder.keyboardWillHideNotification, Responder.keyboardDidHideNotification,
        ] {
            observations.append(
                bed.center.addObserver(forName: name) { [weak self] note in
                    let end = note.userInfo[Responder.keyboardFrameEndUserInfoKey] as? Rect
                    self?.notes.append(
                        "\(note.name.rawValue.replacingOccurrences(of: "KioskKeyboard", with: "")) \(end.map { "\($0)" } ?? "?")")
                })
        }
    }

    func takeNotes() -> [String] {
        defer { notes = [] }
        return notes
    }

    /// Lets the keyboard's slide (and anything else on the clock) finish.
    func settle() { clock.advance(by: 1) }

    var keyboardWindow: Window? { app.keyboard.window }

    /// The key with `identifier` on the keyboard (nil when it has none).
    func key(_ identifier: String) -> View? {
        keyboardWindow?.subviews.first { $0.identifier == identifier }
    }

    /// Taps the centre of `view` (down, 60 ms, up), as a finger would.
    func tap(_ view: View, hold: TimeInterval = 0.06) {
        let window = view.window!
        let center = window.convert(view.convert(Point(x: view.bounds.midX, y: view.bounds.midY), to: nil), to: nil as Window?)
        tap(at: center, hold: hold)
    }

    func tap(at point: Point, hold: TimeInterval = 0.06) {
        clock.advance(by: 0.1)
        let touch = Touch(screen: Screen.main, location: point, timestamp: clock.now)
        app.sendEvent(Event(touches: [touch], timestamp: clock.now))
        clock.advance(by: hold)
        touch.update(phase: .ended, location: point, timestamp: clock.now)
        app.sendEvent(Event(touches: [touch], timestamp: clock.now))
    }

    /// Taps the keys named, in order (`"key.a"`), each found on the page showing when its turn comes.
    func tapKeys(_ identifiers: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        for identifier in identifiers {
            guard let key = key(identifier) else {
                Issue.record(
                    "no key \(identifier) on the keyboard: \(keyboardWindow?.subviews.compactMap(\.identifier) ?? [])",
                    sourceLocation: sourceLocation)
                return
            }
            tap(key)
        }
    }

    /// A full-screen key window holding one text field at `frame` (width 280 unless given).
    func field(_ frame: Rect = Rect(x: 20, y: 20, width: 280, height: 44)) -> TextField {
        let window = Window(screen: Screen.main)
        window.makeKeyAndVisible()
        let field = TextField(frame: frame)
        window.addSubview(field)
        return field
    }

    /// Taps `field` and lets the keyboard come.
    func focus(_ field: TextField) {
        tap(field)
        settle()
    }

    /// A hardware key: its keysym and the text it types, pressed and released.
    func press(_ keysym: UInt32, _ text: String = "") {
        clock.advance(by: 0.05)
        app.sendEvent(Event(presses: [Press(phase: .began, keysym: keysym, text: text, timestamp: clock.now)], timestamp: clock.now))
        app.sendEvent(Event(presses: [Press(phase: .ended, keysym: keysym, text: "", timestamp: clock.now)], timestamp: clock.now))
    }
}

@MainActor
struct TextInputTests {
    /// Reference 002's AppDelegate, replayed: a full-screen window, a normal-level window with a text field
    /// and a tap recognizer, a window covering the status bar (statusBar + 1), an alert-level window with a
    /// text field, made key last; then the keyboard.
    @Test func theReferenceExperimentReplayed() {
        let text = TextBed()
        let bed = text.bed
        var taps = 0
        let window = Window(frame: Screen.main.bounds)
        window.identifier = "window"
        window.backgroundColor = .yellow
        window.rootViewController = ViewController()
        window.makeKeyAndVisible()
        let normalWindow = Window(frame: Screen.main.bounds)
        normalWindow.identifier = "normalWindow"
        normalWindow.windowLevel = .normal
        normalWindow.rootViewController = ViewController()
        normalWindow.makeKeyAndVisible()
        let tf = TextField(frame: Rect(x: 10, y: 64, width: 100, height: 20))
        tf.identifier = "tf"
        normalWindow.addSubview(tf)
        normalWindow.addGestureRecognizer(TapGestureRecognizer { _ in taps += 1 })
        let cover = Window(frame: Rect(x: 0, y: 0, width: Screen.main.bounds.width, height: 20))
        cover.identifier = "coverStatusBarWindow"
        cover.windowLevel = .statusBar + 1
        cover.rootViewController = ViewController()
        cover.makeKeyAndVisible()
        cover.addGestureRecognizer(TapGestureRecognizer { _ in taps += 1 })
        let alert = Window(frame: Rect(x: 50, y: 150, width: 200, height: 250))
        alert.identifier = "alertLevelWindow"
        alert.rootViewController = ViewController()
        alert.windowLevel = .alert
        alert.makeKeyAndVisible()
        let tf1 = TextField(frame: Rect(x: 10, y: 64, width: 100, height: 20))
        tf1.identifier = "tf1"
        alert.addSubview(tf1)
        alert.addGestureRecognizer(TapGestureRecognizer { _ in taps += 1 })
        #expect(bed.app.keyWindow === alert)
        #expect(bed.app.windows.map(\.displayName) == ["window", "normalWindow", "coverStatusBarWindow", "alertLevelWindow"])
        _ = bed.takeLog()

        // A tap on the alert window's field: it becomes first responder and the keyboard comes.
        text.tap(tf1)
        #expect(tf1.isFirstResponder && tf1.isEditing)
        // The window's single-tap recognizer did not take the field's tap (controls keep their own).
        #expect(taps == 0)
        text.settle()
        let keyboard = try! #require(text.keyboardWindow)
        #expect(text.takeNotes() == ["WillShowNotification ((0, 346), 320x222)", "DidShowNotification ((0, 346), 320x222)"])
        // Last in the window list, in front of the alert-level window; never key; the key window unchanged.
        #expect(bed.app.windows.last === keyboard)
        #expect(bed.app.windows.map(\.displayName).suffix(2) == ["alertLevelWindow", "keyboard"])
        #expect(bed.app.keyWindow === alert && !keyboard.isKeyWindow)
        #expect(bed.takeLog() == ["window.visible keyboard"])
        // Typing by tapping keys lands in the alert window's field.
        text.tapKeys(["key.H", "key.i"])
        #expect(tf1.text == "Hi")
        // Then a tap on the normal window's field (not key) moves the typing there; the keyboard stays.
        text.tap(tf)
        #expect(tf.isFirstResponder && !tf1.isFirstResponder)
        text.tapKeys(["key.O", "key.k"])
        #expect(tf.text == "Ok" && tf1.text == "Hi")
        #expect(bed.app.keyWindow === alert)
        text.settle()
        #expect(text.takeNotes().isEmpty)
        // A tap outside any text field ends the editing and the keyboard goes; a tap on a key first does not.
        text.tap(at: Point(x: 300, y: 100))
        #expect(!tf.isFirstResponder)
        text.settle()
        #expect(text.takeNotes() == ["WillHideNotification ((0, 568), 320x222)", "DidHideNotification ((0, 568), 320x222)"])
        #expect(keyboard.isHidden)
        #expect(taps == 1)
    }

    @Test func touchesOnTheKeyboardNeverFallThroughEvenBetweenKeys() {
        let text = TextBed()
        let window = Window(screen: Screen.main)
        var behind = 0
        window.addGestureRecognizer(TapGestureRecognizer { _ in behind += 1 })
        window.makeKeyAndVisible()
        let field = TextField(frame: Rect(x: 10, y: 40, width: 300, height: 40))
        window.addSubview(field)
        text.tap(field)
        text.settle()
        let keyboard = try! #require(text.keyboardWindow)
        // Between "q" and "w" (the gap) and at the keyboard's left edge.
        let q = try! #require(text.key("key.Q")), w = try! #require(text.key("key.W"))
        let gap = Point(x: (q.frame.maxX + w.frame.minX) / 2, y: keyboard.frame.minY + q.frame.midY)
        #expect(w.frame.minX > q.frame.maxX)
        let hit = text.app.hitTest(gap, on: Screen.main)
        #expect(hit?.0 === keyboard)
        text.tap(at: gap)
        text.tap(at: Point(x: 1, y: keyboard.frame.maxY - 2))
        #expect(behind == 0 && field.isFirstResponder && field.text.isEmpty)
    }

    @Test func typingGrüße123OnTheGermanLayoutByTaps() {
        let text = TextBed(width: 800, height: 480)
        text.app.keyboard.language = .de
        let field = text.field(Rect(x: 20, y: 20, width: 400, height: 44))
        text.focus(field)
        // The field starts a sentence: the letters page is shifted for the first letter only.
        text.tapKeys(["key.G", "key.r", "key.ü"])
        // ß is a long press on s: the accents show after 0.5 s; lifting on the first types it.
        let s = try! #require(text.key("key.s"))
        text.tap(s, hold: 0.7)
        text.tapKeys(["key.e", "key.space", "key.symbols", "key.1", "key.2", "key.3"])
        #expect(field.text == "Grüße 123")
        #expect(field.caretPosition == 9)
        // The number page of the German layout has the euro, and Backspace takes one character.
        #expect(text.key("key.€") != nil)
        text.tapKeys(["key.backspace"])
        #expect(field.text == "Grüße 12")
    }

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
        // The number pad: digits and Backspace, no letters.
        #expect(text.key("key.7") != nil && text.key("key.a") == nil && text.key("key.return") == nil)
        text.tapKeys(["key.4", "key.2"])
        text.press(0x78, "x")
        text.press(KeySym.returnKey)
        #expect(field.text == "42")
        #expect(
            delegate.log == ["shouldBegin", "didBegin", "change 0+0 \"4\"", "change 1+0 \"2\"", "change 2+0 \"x\"", "return", "didEnd"])
        #expect(events == ["editingDidBegin", "editingChanged", "editingChanged", "editingDidEndOnExit", "editingDidEnd"])
        #expect(!field.isFirstResponder)
    }

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

    /// The keyboard follows the edited field's window to another screen.
    @Test func theKeyboardFollowsTheWindowToAnotherScreen() {
        let text = TextBed()
        let field = text.field()
        text.focus(field)
        #expect(text.keyboardWindow?.screen === Screen.main)
        let hdmi = text.bed.backend.connect("HDMI-A-1", modes: [Screen.Mode(width: 1280, height: 720, refreshRate: 60)])
        field.window!.screen = hdmi
        text.settle()
        #expect(field.isFirstResponder)
        #expect(text.app.keyboard.isVisible && text.keyboardWindow?.screen === hdmi)
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

    /// Focus moving to another field while the keyboard is up posts the frame-change notifications (UIKit:
    /// "if the keyboard is already visible", instead of the show notifications), so an app can scroll the
    /// new field above it.
    @Test func anotherFieldWhileTheKeyboardIsUpPostsAFrameChange() {
        let text = TextBed()
        var changes: [String] = []
        let observations = [Responder.keyboardWillChangeFrameNotification, Responder.keyboardDidChangeFrameNotification].map { name in
            text.bed.center.addObserver(forName: name) { note in
                let begin = note.userInfo[Responder.keyboardFrameBeginUserInfoKey] as? Rect
                let end = note.userInfo[Responder.keyboardFrameEndUserInfoKey] as? Rect
                changes.append("\(note.name.rawValue) \(begin == end)")
            }
        }
        defer { withExtendedLifetime(observations) {} }
        let first = text.field()
        let second = TextField(frame: Rect(x: 20, y: 80, width: 280, height: 44))
        first.window!.addSubview(second)
        text.focus(first)
        changes = []
        _ = text.takeNotes()
        text.tap(second)
        text.settle()
        #expect(second.isFirstResponder)
        #expect(changes == ["KioskKeyboardWillChangeFrameNotification true", "KioskKeyboardDidChangeFrameNotification true"])
        #expect(text.takeNotes().isEmpty)
        // The same field again: nothing changes, nothing is posted.
        changes = []
        text.tap(second)
        #expect(changes.isEmpty)
    }

    /// The on-screen Backspace deletes as it goes down and again while held (`Application.keyRepeat`),
    /// on past the capitals turning on at the start of the text (which builds the keys anew).
    @Test func holdingTheOnScreenBackspaceRepeats() throws {
        let text = TextBed()
        text.app.keyRepeat = KeyRepeat(delay: 0.5, rate: 10)
        let field = text.field()
        text.focus(field)
        field.text = "Hi. hello"
        field.caretPosition = 9
        let key = try #require(text.key("key.backspace"))
        let center = key.window!.convert(key.convert(Point(x: key.bounds.midX, y: key.bounds.midY), to: nil), to: nil as Window?)
        let touch = Touch(screen: Screen.main, location: center, timestamp: text.clock.now)
        text.app.sendEvent(Event(touches: [touch], timestamp: text.clock.now))
        #expect(field.text == "Hi. hell")
        text.clock.advance(by: 0.45)
        #expect(field.text == "Hi. hell")
        text.clock.advance(by: 0.6)
        // 0.5, 0.6 ... 1.0: six more; the capitals came on at "Hi. " and the keys were built anew.
        #expect(field.text == "Hi")
        touch.update(phase: .ended, location: center, timestamp: text.clock.now)
        text.app.sendEvent(Event(touches: [touch], timestamp: text.clock.now))
        #expect(field.text == "Hi")
        text.clock.advance(by: 1)
        #expect(field.text == "Hi")
    }

    /// A rotation while the keyboard shows lays it out for the new width at once (the page kept), with
    /// `keyboardWillShow`/`DidShow` giving the new frame; a screen that goes away takes the keyboard, and it
    /// comes back with the screen's new mode while the field still edits.
    @Test func theKeyboardFollowsItsScreen() {
        let text = TextBed(width: 800, height: 480)
        let field = text.field()
        text.focus(field)
        text.tapKeys(["key.symbols"])
        #expect(text.keyboardWindow?.frame.width == 800)
        _ = text.takeNotes()
        Screen.main.rotation = .rotated90
        text.settle()
        let metrics = KeyboardLayout.Metrics(screen: Size(width: 480, height: 800))
        #expect(text.keyboardWindow?.frame == Rect(x: 0, y: 800 - metrics.height, width: 480, height: metrics.height))
        #expect(text.keyboardWindow!.subviews.allSatisfy { $0.frame.maxX <= 480 })
        #expect(text.key("key.1") != nil)
        #expect(
            text.takeNotes() == ["WillShowNotification \(text.keyboardWindow!.frame)", "DidShowNotification \(text.keyboardWindow!.frame)"])
        text.bed.backend.disconnect("DSI-1")
        text.settle()
        #expect(!text.app.keyboard.isVisible && field.isFirstResponder)
        #expect(text.takeNotes().map { $0.prefix { $0 != " " } } == ["WillHideNotification", "DidHideNotification"])
        text.bed.backend.connect("DSI-1", modes: [Screen.Mode(width: 1280, height: 800, refreshRate: 60)])
        text.settle()
        // Still turned: 800 wide, 1280 high.
        let bounds = Screen.main.bounds
        let tall = KeyboardLayout.Metrics(screen: bounds.size)
        #expect(text.app.keyboard.isVisible && bounds.size == Size(width: 800, height: 1280))
        #expect(text.keyboardWindow?.frame == Rect(x: 0, y: 1280 - tall.height, width: 800, height: tall.height))
    }

    /// The capitals follow the text before the caret: after the symbols page (`.words`: "12 Main"), after
    /// `clearsOnBeginEditing`, the clear button or a text the app sets; an email field capitalizes as
    /// UIKit documents (only the number pads do not).
    @Test func theCapitalsFollowTheText() {
        let text = TextBed()
        let field = text.field()
        field.autocapitalizationType = .words
        text.focus(field)
        text.tapKeys(["key.symbols", "key.1", "key.2", "key.space", "key.letters"])
        #expect(text.key("key.M") != nil)
        field.resignFirstResponder()
        text.settle()
        let cleared = text.field(Rect(x: 20, y: 80, width: 280, height: 44))
        cleared.text = "old"
        cleared.clearsOnBeginEditing = true
        text.focus(cleared)
        #expect(cleared.text.isEmpty && text.key("key.A") != nil)
        text.tapKeys(["key.A", "key.b"])
        #expect(text.key("key.c") != nil)
        cleared.text = ""
        #expect(text.key("key.C") != nil)
        cleared.resignFirstResponder()
        text.settle()
        let email = text.field(Rect(x: 20, y: 140, width: 280, height: 44))
        email.keyboardType = .emailAddress
        text.focus(email)
        #expect(text.key("key.Q") != nil)
        // A number pad has no capitals to turn on.
        email.resignFirstResponder()
        text.settle()
        let pin = text.field(Rect(x: 20, y: 200, width: 280, height: 44))
        pin.keyboardType = .numberPad
        text.focus(pin)
        #expect(text.key("key.7") != nil && text.app.keyboard.shift == .off)
    }

    /// Every frame change is framed by `keyboardWillChangeFrame` and `keyboardDidChangeFrame`, in UIKit's
    /// order around the show and hide notifications, with the same frames.
    @Test func frameChangeNotificationsComeWithShowAndHide() {
        let text = TextBed()
        var log: [String] = []
        let names = [
            Responder.keyboardWillChangeFrameNotification, Responder.keyboardWillShowNotification,
            Responder.keyboardDidChangeFrameNotification, Responder.keyboardDidShowNotification,
            Responder.keyboardWillHideNotification, Responder.keyboardDidHideNotification,
        ]
        let observations = names.map { name in
            text.bed.center.addObserver(forName: name) { note in
                let end = note.userInfo[Responder.keyboardFrameEndUserInfoKey] as? Rect
                log.append(
                    "\(note.name.rawValue.replacingOccurrences(of: "KioskKeyboard", with: "").replacingOccurrences(of: "Notification", with: "")) \(end.map { "\($0.minY)" } ?? "?")"
                )
            }
        }
        let field = text.field()
        text.focus(field)
        field.resignFirstResponder()
        text.settle()
        #expect(
            log == [
                "WillChangeFrame 346.0", "WillShow 346.0", "DidChangeFrame 346.0", "DidShow 346.0", "WillChangeFrame 568.0",
                "WillHide 568.0", "DidChangeFrame 568.0", "DidHide 568.0",
            ])
        withExtendedLifetime(observations) {}
    }

    /// A double tap on Shift locks the capitals also when the field had turned them on by itself.
    @Test func aDoubleTapOnShiftLocksFromAutomaticCapitals() {
        let text = TextBed()
        let field = text.field()
        text.focus(field)
        #expect(text.app.keyboard.shift == .once)
        text.tapKeys(["key.shift", "key.shift"])
        #expect(text.app.keyboard.shift == .locked)
        text.tapKeys(["key.A", "key.B"])
        #expect(field.text == "AB" && text.app.keyboard.shift == .locked)
        text.tapKeys(["key.shift"])
        #expect(text.app.keyboard.shift == .off)
    }

    /// A keyboard type changed while editing takes effect on `reloadInputViews()`, whole (not halfway
    /// at the next page).
    @Test func aKeyboardTypeChangeTakesEffectOnReload() {
        let text = TextBed()
        let field = text.field()
        text.focus(field)
        field.keyboardType = .emailAddress
        field.returnKeyType = .search
        text.tapKeys(["key.shift"])
        #expect(text.key("key.@") == nil)
        field.keyboardType = .numberPad
        field.reloadInputViews()
        #expect(text.key("key.7") != nil && text.key("key.a") == nil && text.key("key.A") == nil)
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

    @Test func keyboardGeometryFollowsTheScreen() {
        for (width, height, keyHeight) in [
            (800.0, 480.0, 44.0), (1280, 800, 68), (480, 800, 68), (1920, 1080, 92), (3840, 2160, 96), (2160, 3840, 96),
        ] {
            let metrics = KeyboardLayout.Metrics(screen: Size(width: width, height: height))
            #expect(metrics.keyHeight == keyHeight, "\(width)x\(height)")
            let layout = KeyboardLayout(language: .de)
            for page in [KeyboardLayout.Page.letters(shifted: false), .symbols, .moreSymbols, .numberPad] {
                let frames = layout.frames(of: page, for: .default, width: width, metrics: metrics)
                // Inside the keyboard, none overlapping, and at least as big as a fingertip (44 points).
                #expect(frames.allSatisfy { $0.frame.minX >= 0 && $0.frame.maxX <= width && $0.frame.maxY <= metrics.height })
                #expect(frames.allSatisfy { $0.frame.width >= 30 && $0.frame.height >= 44 }, "\(width)x\(height) \(page)")
                for (i, a) in frames.enumerated() {
                    for b in frames[(i + 1)...] { #expect(!a.frame.intersects(b.frame) || a.frame.intersection(b.frame).isEmpty) }
                }
            }
        }
    }

    @Test func layoutsAsTables() {
        let en = KeyboardLayout(language: .en), de = KeyboardLayout(language: .de)
        func ids(_ layout: KeyboardLayout, _ page: KeyboardLayout.Page, _ type: KeyboardType = .default) -> [String] {
            layout.rows(of: page, for: type).map {
                $0.map { $0.role.identifier.replacingOccurrences(of: "key.", with: "") }.joined(separator: " ")
            }
        }
        #expect(
            ids(en, .letters(shifted: false)) == [
                "q w e r t y u i o p", "a s d f g h j k l", "shift z x c v b n m backspace", "symbols space return",
            ])
        #expect(
            ids(de, .letters(shifted: true)) == [
                "Q W E R T Z U I O P Ü", "A S D F G H J K L Ö Ä", "shift Y X C V B N M backspace", "symbols space return",
            ])
        #expect(ids(en, .letters(shifted: false), .emailAddress).last == "symbols @ space . return")
        #expect(ids(de, .symbols)[1] == "- / : ; ( ) € & @ \"")
        #expect(ids(en, .numberPad) == ["1 2 3", "4 5 6", "7 8 9", "gap 0 backspace"])
        #expect(ids(de, .decimalPad).last == ", 0 backspace")
        #expect(de.accents(for: "s").first == "ß" && en.accents(for: "E") == ["È", "É", "Ê", "Ë", "Ē", "Ė", "Ę"])
    }
}

@MainActor
struct TextInputGoldenTests {
    /// The screen with a text field focused and the keyboard up on `page`.
    private func keyboardImage(
        width: Int, height: Int, language: KeyboardLayout.Language, type: KeyboardType = .default, symbols: Bool = false
    ) -> Bitmap {
        let text = TextBed(width: width, height: height)
        text.app.keyboard.language = language
        let window = Window(screen: Screen.main)
        window.backgroundColor = Color(rgb: 0xF2F2F7)
        window.isOpaque = true
        window.makeKeyAndVisible()
        let field = TextField(frame: Rect(x: 20, y: 20, width: 300, height: 44))
        field.keyboardType = type
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
