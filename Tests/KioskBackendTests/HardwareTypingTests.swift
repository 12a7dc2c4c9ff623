import KioskKit
import Testing
import XKB

@testable import KioskBackend

/// A hardware keyboard end to end short of the kernel: evdev key codes through xkbcommon's German keymap
/// (with its Compose sequences), the input router, and the application's first responder, a text field
/// that is not in the key window.
@MainActor
struct HardwareTypingTests {
    @Test func grüße123OnAGermanKeyboardLandsInTheFirstResponder() throws {
        let bed = InputBed()
        let other = Window(screen: bed.app.screens[0])
        let field = TextField(frame: Rect(x: 10, y: 10, width: 300, height: 40))
        other.addSubview(field)
        other.isHidden = false
        #expect(field.becomeFirstResponder())
        #expect(!other.isKeyWindow)
        let keyboard = bed.input.plug(InputDeviceInfo(id: 0, name: "Keyboard", sysname: "event0", capabilities: .keyboard))
        let state = KeyboardState(keymap: try Keymap(layout: "de"), composeTable: try ComposeTable(locale: "de_DE.UTF-8"))
        var time: UInt64 = 1000
        func key(_ code: UInt32, _ pressed: Bool) {
            time += 10_000
            let (keysym, text) = state.update(evdevKey: code, pressed: pressed)
            guard keysym != 0 || !text.isEmpty else { return }
            bed.router.key(keyboard, keysym: keysym, text: text, pressed: pressed, time: time)
        }
        func tap(_ code: UInt32) {
            key(code, true)
            key(code, false)
        }
        // Linux input codes: LEFTSHIFT 42, G 34, R 19, LEFTBRACE 26 (ü on de), MINUS 12 (ß on de), E 18,
        // SPACE 57, 1 2 3 = 2 3 4, EQUAL 13 (dead_acute on de), BACKSPACE 14.
        key(42, true)
        tap(34)
        key(42, false)
        for code: UInt32 in [19, 26, 12, 18, 57, 2, 3, 4] { tap(code) }
        #expect(field.text == "Grüße 123")
        // A dead key composes: dead_acute then e is é; Backspace takes it whole.
        tap(13)
        tap(18)
        #expect(field.text == "Grüße 123é")
        tap(14)
        tap(14)
        #expect(field.text == "Grüße 12")
    }
}
