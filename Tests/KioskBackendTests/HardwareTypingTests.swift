import KioskKit
import KioskTesting
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

    /// A text field that counts the presses it is sent.
    final class CountingField: TextField {
        var pressesSent = 0
        override func pressesBegan(_ presses: Set<Press>, with event: Event) {
            pressesSent += presses.count
            super.pressesBegan(presses, with: event)
        }
    }

    /// A held key repeats where the keymap says it does (libinput passes no repeats on): after the delay,
    /// at the rate, into the first responder's text, without `pressesBegan` again; its release, the
    /// keyboard's removal or a rate of 0 stop it, and a modifier never repeats.
    @Test func aHeldKeyRepeatsIntoTheTextField() throws {
        let bed = InputBed()
        let clock = KioskTesting.ManualClock()
        bed.app.clock = clock
        bed.app.keyRepeat = KeyRepeat(delay: 0.5, rate: 10)
        let field = CountingField(frame: Rect(x: 10, y: 10, width: 300, height: 40))
        bed.window.addSubview(field)
        #expect(field.becomeFirstResponder())
        let keyboard = bed.input.plug(InputDeviceInfo(id: 0, name: "Keyboard", sysname: "event0", capabilities: .keyboard))
        let keymap = try Keymap(layout: "us")
        let state = KeyboardState(keymap: keymap, composeTable: nil)
        func key(_ code: UInt32, _ pressed: Bool) {
            let (keysym, text) = state.update(evdevKey: code, pressed: pressed)
            bed.router.key(
                keyboard, keysym: keysym, text: text, pressed: pressed, time: UInt64(clock.now * 1_000_000), keyCode: code,
                repeats: pressed && keymap.keyRepeats(evdevKey: code))
        }
        // Linux input codes: A 30, BACKSPACE 14, LEFTSHIFT 42.
        #expect(keymap.keyRepeats(evdevKey: 30) && keymap.keyRepeats(evdevKey: 14) && !keymap.keyRepeats(evdevKey: 42))
        key(30, true)
        #expect(field.text == "a")
        clock.advance(by: 0.45)
        #expect(field.text == "a")
        clock.advance(by: 0.1)
        #expect(field.text == "aa")
        clock.advance(by: 0.3)
        #expect(field.text == "aaaaa")
        key(30, false)
        clock.advance(by: 2)
        #expect(field.text == "aaaaa" && field.pressesSent == 1)
        // Backspace held; Shift pressed meanwhile does not stop it.
        key(14, true)
        clock.advance(by: 0.55)
        key(42, true)
        clock.advance(by: 0.1)
        #expect(field.text == "aa")
        key(14, false)
        clock.advance(by: 2)
        key(42, false)
        #expect(field.text == "aa")
        // A keyboard unplugged with a key down: no release comes, the repeat stops all the same.
        key(30, true)
        bed.input.unplug(keyboard)
        clock.advance(by: 2)
        #expect(field.text == "aaa")
        // No repeats at a rate of 0.
        let second = bed.input.plug(InputDeviceInfo(id: 1, name: "Keyboard", sysname: "event1", capabilities: .keyboard))
        bed.app.keyRepeat = KeyRepeat(delay: 0.5, rate: 0)
        bed.router.key(second, keysym: 0x62, text: "b", pressed: true, time: 1, keyCode: 48, repeats: true)
        clock.advance(by: 2)
        #expect(field.text == "aaab")
    }
}
