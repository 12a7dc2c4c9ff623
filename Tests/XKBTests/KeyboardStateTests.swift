import Testing
import XKB

/// Evdev key codes used below (linux/input-event-codes.h).
private enum Key {
    static let a: UInt32 = 30
    static let y: UInt32 = 21
    static let enter: UInt32 = 28
    static let backspace: UInt32 = 14
    static let leftShift: UInt32 = 42
    static let leftControl: UInt32 = 29
    static let leftAlt: UInt32 = 56
    static let capsLock: UInt32 = 58
    static let c: UInt32 = 46
}

@Suite struct KeyboardStateTests {
    let us: KeyboardState

    init() throws {
        us = KeyboardState(keymap: try Keymap(layout: "us"))
    }

    @Test func keyAGivesLowercaseA() {
        let result = us.update(evdevKey: Key.a, pressed: true)
        #expect(result.keysym == 0x61)
        #expect(result.text == "a")
        #expect(KeyboardState.keysymName(result.keysym) == "a")
    }

    @Test func releaseGivesTheKeysymButNoText() {
        us.update(evdevKey: Key.a, pressed: true)
        let release = us.update(evdevKey: Key.a, pressed: false)
        #expect(release.keysym == 0x61)
        #expect(release.text == "")
    }

    @Test func shiftHeldGivesUppercase() {
        let shift = us.update(evdevKey: Key.leftShift, pressed: true)
        #expect(KeyboardState.keysymName(shift.keysym) == "Shift_L")
        #expect(shift.text == "", "the modifier key itself has no text")
        #expect(us.shift)
        let a = us.update(evdevKey: Key.a, pressed: true)
        #expect(a.keysym == 0x41)
        #expect(a.text == "A")
        us.update(evdevKey: Key.a, pressed: false)
        us.update(evdevKey: Key.leftShift, pressed: false)
        #expect(!us.shift)
        #expect(us.update(evdevKey: Key.a, pressed: true).text == "a")
    }

    @Test func enterGivesReturn() {
        let enter = us.update(evdevKey: Key.enter, pressed: true)
        #expect(enter.keysym == 0xff0d)
        #expect(KeyboardState.keysymName(enter.keysym) == "Return")
        #expect(enter.text == "\r")
        #expect(us.update(evdevKey: Key.backspace, pressed: true).text == "\u{8}")
    }

    @Test func controlAndAltAreTracked() {
        #expect(!us.control && !us.alt)
        us.update(evdevKey: Key.leftControl, pressed: true)
        #expect(us.control)
        // xkbcommon's Control transformation: Ctrl+C is ETX.
        #expect(us.update(evdevKey: Key.c, pressed: true).text == "\u{3}")
        us.update(evdevKey: Key.leftControl, pressed: false)
        us.update(evdevKey: Key.leftAlt, pressed: true)
        #expect(us.alt && !us.control)
    }

    @Test func capsLockLocksUntilPressedAgain() {
        us.update(evdevKey: Key.capsLock, pressed: true)
        us.update(evdevKey: Key.capsLock, pressed: false)
        #expect(us.capsLock)
        #expect(us.update(evdevKey: Key.a, pressed: true).text == "A")
        us.update(evdevKey: Key.a, pressed: false)
        us.update(evdevKey: Key.capsLock, pressed: true)
        us.update(evdevKey: Key.capsLock, pressed: false)
        #expect(!us.capsLock)
    }

    @Test func germanLayoutSwapsYAndZ() throws {
        let de = KeyboardState(keymap: try Keymap(layout: "de"))
        let result = de.update(evdevKey: Key.y, pressed: true)
        #expect(result.text == "z")
        #expect(result.keysym == 0x7a)
    }

    @Test func keysymCharacters() {
        #expect(KeyboardState.keysymCharacter(0x61) == "a")
        #expect(KeyboardState.keysymCharacter(0xe9) == "é", "eacute")
        #expect(KeyboardState.keysymCharacter(0xffb1) == "1", "KP_1 stands for the digit")
        #expect(KeyboardState.keysymCharacter(0xff0d) == "\r", "Return stands for a control character")
        #expect(KeyboardState.keysymCharacter(0xffe1) == nil, "Shift_L")
        #expect(KeyboardState.keysymCharacter(0xfe51) == nil, "dead_acute")
        #expect(KeyboardState.keysymCharacter(0) == nil, "NoSymbol")
    }

    @Test func keysymNames() {
        #expect(KeyboardState.keysymName(0xff1b) == "Escape")
        #expect(KeyboardState.keysymName(0xffe1) == "Shift_L")
        // Unicode keysyms (0x01000000 + code point) without a legacy name are spelled Uxxxx.
        #expect(KeyboardState.keysymName(0x0100_20ac) == "EuroSign" || KeyboardState.keysymName(0x0100_20ac) == "U20AC")
        #expect(KeyboardState.keysymName(0x2000_0000) == nil, "above XKB_KEYSYM_MAX")
    }
}
