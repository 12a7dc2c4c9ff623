import Glibc
import Testing

@testable import KioskKit

/// The on-screen keyboard: its window among the app's, its keys typing into the first responder, how it
/// follows the responder and its screen, and the notifications it posts.
@MainActor
struct OnScreenKeyboardTests {
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
        // Last in the window list, in front of the alert-level window, at the highest level; never key; the
        // key window unchanged.
        #expect(bed.app.windows.last === keyboard && keyboard.windowLevel == .keyboard)
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
        // A tap outside any text field, on the normal window: its recognizer hears it, and the editing goes
        // on with the keyboard up (UIKit ends editing only when the app asks).
        text.tap(at: Point(x: 300, y: 100))
        #expect(taps == 1 && tf.isFirstResponder)
        text.settle()
        #expect(text.takeNotes().isEmpty && !keyboard.isHidden)
        // The app asks: the keyboard goes.
        #expect(normalWindow.endEditing(true))
        #expect(!tf.isFirstResponder)
        text.settle()
        #expect(text.takeNotes() == ["WillHideNotification ((0, 568), 320x222)", "DidHideNotification ((0, 568), 320x222)"])
        #expect(keyboard.isHidden)
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
}
