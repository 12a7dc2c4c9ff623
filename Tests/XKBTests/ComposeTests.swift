import Glibc
import Testing
import XKB

/// Evdev key codes used below (linux/input-event-codes.h).
private enum Key {
    static let equal: UInt32 = 13  // right of ß on a German keyboard: dead_acute
    static let grave: UInt32 = 41  // left of 1 on a German keyboard: dead_circumflex
    static let q: UInt32 = 16
    static let e: UInt32 = 18
    static let o: UInt32 = 24
    static let a: UInt32 = 30
    static let apostrophe: UInt32 = 40  // ' and " on a US keyboard
    static let leftShift: UInt32 = 42
    static let space: UInt32 = 57
    static let rightAlt: UInt32 = 100  // the Compose key with compose:ralt
}

/// Dead keys and the Compose key against the real Compose file: libX11's `en_US.UTF-8` one
/// (`/usr/share/X11/locale`, Debian's `libx11-data`, which libxkbcommon0's users pull in through
/// libx11-6). A Compose file of the user's own (`XCOMPOSEFILE`, `~/.XCompose`) comes first in
/// xkbcommon's search and could change these results; CI and the development machines have none.
@Suite struct ComposeTests {
    let table: ComposeTable

    init() throws {
        table = try ComposeTable(locale: "en_US.UTF-8")
    }

    /// Presses and releases each key in turn; returns what each press gave, then each release.
    private func type(_ keys: [UInt32], on state: KeyboardState) -> [(keysym: UInt32, text: String)] {
        keys.flatMap { [state.update(evdevKey: $0, pressed: true), state.update(evdevKey: $0, pressed: false)] }
    }

    private func name(_ keysym: UInt32) -> String { KeyboardState.keysymName(keysym) ?? "?" }

    @Test func deadAcuteThenEGivesEAcute() throws {
        let de = KeyboardState(keymap: try Keymap(layout: "de"), composeTable: table)
        let dead = de.update(evdevKey: Key.equal, pressed: true)
        #expect(dead.keysym == 0 && dead.text == "", "composing gives nothing: \(name(dead.keysym))")
        let deadRelease = de.update(evdevKey: Key.equal, pressed: false)
        #expect(deadRelease.keysym == 0 && deadRelease.text == "", "nor does the dead key's release")
        let e = de.update(evdevKey: Key.e, pressed: true)
        #expect(name(e.keysym) == "eacute")
        #expect(e.text == "é")
        // The key's release is its own: the sequence is over.
        let eRelease = de.update(evdevKey: Key.e, pressed: false)
        #expect(name(eRelease.keysym) == "e" && eRelease.text == "")
        #expect(de.update(evdevKey: Key.e, pressed: true).text == "e", "the next key types itself")
    }

    @Test func deadCircumflexThenAGivesACircumflex() throws {
        let de = KeyboardState(keymap: try Keymap(layout: "de"), composeTable: table)
        let typed = type([Key.grave, Key.a], on: de)
        #expect(typed.map(\.text) == ["", "", "â", ""])
        #expect(name(typed[2].keysym) == "acircumflex")
    }

    /// A dead key then space types the accent alone; for the acute, libX11's table says the apostrophe
    /// (`<dead_acute> <space> : "'"`), and the acute accent itself is the dead key pressed twice.
    @Test func deadKeyThenSpaceGivesTheAccent() throws {
        let de = KeyboardState(keymap: try Keymap(layout: "de"), composeTable: table)
        let circumflex = type([Key.grave, Key.space], on: de)[2]
        #expect(circumflex.text == "^" && name(circumflex.keysym) == "asciicircum")
        #expect(type([Key.equal, Key.space], on: de)[2].text == "'")
        let twice = type([Key.equal, Key.equal], on: de)[2]
        #expect(twice.text == "´" && name(twice.keysym) == "acute")
    }

    /// The Compose key (`compose:ralt` makes right Alt `Multi_key`), `o`, `"`: Shift, held for the
    /// quote, is no part of the sequence and goes through as itself.
    @Test func composeKeyOThenQuoteGivesODiaeresis() throws {
        let us = KeyboardState(keymap: try Keymap(layout: "us", options: "compose:ralt"), composeTable: table)
        #expect(type([Key.rightAlt, Key.o], on: us).map(\.text) == ["", "", "", ""])
        let shift = us.update(evdevKey: Key.leftShift, pressed: true)
        #expect(name(shift.keysym) == "Shift_L", "a modifier is not swallowed mid-sequence")
        let quote = us.update(evdevKey: Key.apostrophe, pressed: true)
        #expect(quote.text == "ö")
        #expect(name(quote.keysym) == "odiaeresis")
        us.update(evdevKey: Key.apostrophe, pressed: false)
        us.update(evdevKey: Key.leftShift, pressed: false)
        #expect(us.update(evdevKey: Key.o, pressed: true).text == "o")
    }

    /// `dead_acute`, `q` is no sequence: both give nothing (libX11's choice), and the next key starts afresh.
    @Test func anUnknownSequenceIsCancelledAndTypesNothing() throws {
        let de = KeyboardState(keymap: try Keymap(layout: "de"), composeTable: table)
        let typed = type([Key.equal, Key.q], on: de)
        #expect(typed.allSatisfy { $0.keysym == 0 && $0.text == "" }, "\(typed.map { name($0.keysym) })")
        let e = de.update(evdevKey: Key.e, pressed: true)
        #expect(e.text == "e" && name(e.keysym) == "e")
    }

    /// Without a table a dead key is its own keysym with no text, and the next key types itself (the
    /// state of things when the locale has no Compose file).
    @Test func withoutATableDeadKeysTypeNothingAndComposeNothing() throws {
        let de = KeyboardState(keymap: try Keymap(layout: "de"))
        let dead = de.update(evdevKey: Key.equal, pressed: true)
        #expect(name(dead.keysym) == "dead_acute" && dead.text == "")
        de.update(evdevKey: Key.equal, pressed: false)
        #expect(de.update(evdevKey: Key.e, pressed: true).text == "e")
    }

    /// xkbcommon takes the C locale as en_US.UTF-8 (a kiosk started without LANG still composes).
    @Test func theCLocaleComposesAsEnUSUTF8() throws {
        let table = try ComposeTable(locale: "C")
        #expect(table.locale == "C")
        let de = KeyboardState(keymap: try Keymap(layout: "de"), composeTable: table)
        #expect(type([Key.equal, Key.e], on: de)[2].text == "é")
    }

    /// A locale without a Compose file is an error naming it, with xkbcommon's explanation. In a child
    /// process without the user's Compose files, which xkbcommon would take instead.
    @Test func aLocaleWithoutAComposeFileThrowsNamingIt() async {
        await #expect(processExitsWith: .success) {
            Self.withoutUserComposeFiles()
            do throws(XKBError) {
                _ = try ComposeTable(locale: "kiosk-no-such-locale")
                exit(1)
            } catch {
                guard error.operation == "xkb_compose_table_new_from_locale",
                    error.detail == "locale \"kiosk-no-such-locale\"",
                    // Observed with xkbcommon 1.5.0: `couldn't find a Compose file for locale
                    // "kiosk-no-such-locale" (mapped to "kiosk-no-such-locale")`.
                    error.messages.contains(where: { $0.contains("Compose file for locale") })
                else {
                    print(error)
                    exit(2)
                }
                exit(0)
            }
        }
    }

    /// The locale from the environment, locale(7)'s order: LC_ALL, LC_CTYPE, LANG, the empty ones skipped.
    @Test func theEnvironmentsLocaleFollowsLocale7() async {
        await #expect(processExitsWith: .success) {
            for name in ["LC_ALL", "LC_CTYPE", "LANG"] { unsetenv(name) }
            guard ComposeTable.environmentLocale() == ("C", nil) else { exit(1) }
            setenv("LANG", "de_DE.UTF-8", 1)
            setenv("LC_CTYPE", "", 1)
            guard ComposeTable.environmentLocale() == ("de_DE.UTF-8", "LANG") else { exit(2) }
            setenv("LC_CTYPE", "fr_FR.UTF-8", 1)
            guard ComposeTable.environmentLocale() == ("fr_FR.UTF-8", "LC_CTYPE") else { exit(3) }
            setenv("LC_ALL", "C.UTF-8", 1)
            guard ComposeTable.environmentLocale() == ("C.UTF-8", "LC_ALL") else { exit(4) }
            exit(0)
        }
    }

    /// The error names the variable the locale came from.
    @Test func theErrorNamesTheVariableThatGaveTheLocale() async {
        await #expect(processExitsWith: .success) {
            Self.withoutUserComposeFiles()
            unsetenv("LC_ALL")
            unsetenv("LC_CTYPE")
            setenv("LANG", "kiosk-env-locale", 1)
            do throws(XKBError) {
                _ = try ComposeTable()
                exit(1)
            } catch {
                exit(error.detail == "locale \"kiosk-env-locale\" (LANG)" ? 0 : 2)
            }
        }
    }

    private static func withoutUserComposeFiles() {
        unsetenv("XCOMPOSEFILE")
        unsetenv("XDG_CONFIG_HOME")
        setenv("HOME", "/nonexistent", 1)
    }
}
