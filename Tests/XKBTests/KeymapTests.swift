import Glibc
import Testing

@testable import XKB

/// Keymaps from the xkeyboard-config data installed on this machine (Debian's `xkb-data`, a dependency of
/// `libxkbcommon0`). Every test in this process that compiles a keymap names its layout explicitly, so the
/// `XKB_DEFAULT_*` variables of whoever runs the tests cannot change the results; the tests of the
/// defaults and of those variables run in child processes (exit tests), where setting the environment
/// cannot race with other tests reading it.
@Suite struct KeymapTests {
    @Test func usLayoutCompiles() throws {
        let keymap = try Keymap(layout: "us")
        #expect(keymap.layoutNames == ["English (US)"])
    }

    @Test func twoLayoutsAreTwoGroups() throws {
        let keymap = try Keymap(layout: "us,de")
        #expect(keymap.layoutNames == ["English (US)", "German"])
    }

    @Test func unknownLayoutThrowsNamingIt() {
        let error = #expect(throws: XKBError.self) { try Keymap(layout: "kiosk-no-such-layout") }
        #expect(error?.operation == "xkb_keymap_new_from_names")
        #expect(error?.detail == "layout \"kiosk-no-such-layout\"")
        #expect(
            error?.description.hasPrefix("xkb_keymap_new_from_names(layout \"kiosk-no-such-layout\"): failed")
                == true, "\(String(describing: error))")
        // xkbcommon's own explanation is kept (observed with 1.5.0: `Couldn't find file
        // "symbols/kiosk-no-such-layout" in include path`).
        #expect(
            error?.messages.contains { $0.contains("symbols/kiosk-no-such-layout") } == true,
            "\(error?.messages ?? [])")
    }

    @Test func unknownVariantThrowsNamingLayoutAndVariant() {
        let error = #expect(throws: XKBError.self) { try Keymap(layout: "de", variant: "kiosk-no-such-variant") }
        #expect(error?.detail == "layout \"de\", variant \"kiosk-no-such-variant\"")
    }

    /// Without a layout, the environment's layout is named in the error, with the variable that gave it.
    @Test func errorNamesTheEnvironmentVariableThatGaveTheLayout() async {
        await #expect(processExitsWith: .success) {
            setenv("XKB_DEFAULT_LAYOUT", "kiosk-env-layout", 1)
            do throws(XKBError) {
                _ = try Keymap()
                exit(1)
            } catch {
                exit(error.detail == "layout \"kiosk-env-layout\" (XKB_DEFAULT_LAYOUT)" ? 0 : 2)
            }
        }
    }

    @Test func nilFieldsUseXkbcommonsDefaultsWithoutEnvironment() async {
        await #expect(processExitsWith: .success) {
            for name in ["RULES", "MODEL", "LAYOUT", "VARIANT", "OPTIONS"] { unsetenv("XKB_DEFAULT_\(name)") }
            let keymap = try! Keymap()
            let state = KeyboardState(keymap: keymap)
            // Debian's libxkbcommon is built with the upstream defaults: evdev, pc105, us.
            exit(keymap.layoutNames == ["English (US)"] && state.update(evdevKey: 30, pressed: true).text == "a" ? 0 : 1)
        }
    }

    @Test func xkbDefaultLayoutIsHonouredWhenLayoutIsNil() async {
        await #expect(processExitsWith: .success) {
            setenv("XKB_DEFAULT_LAYOUT", "de", 1)
            let keymap = try! Keymap()
            let state = KeyboardState(keymap: keymap)
            // KEY_Y (21) is the key labelled Z on a German keyboard.
            exit(keymap.layoutNames == ["German"] && state.update(evdevKey: 21, pressed: true).text == "z" ? 0 : 1)
        }
    }

    /// A layout given explicitly wins over XKB_DEFAULT_LAYOUT, and takes XKB_DEFAULT_VARIANT with it out
    /// of play (xkbcommon pairs layout and variant).
    @Test func explicitLayoutIgnoresTheEnvironmentsLayoutAndVariant() async {
        await #expect(processExitsWith: .success) {
            setenv("XKB_DEFAULT_LAYOUT", "de", 1)
            setenv("XKB_DEFAULT_VARIANT", "kiosk-no-such-variant", 1)
            let keymap = try! Keymap(layout: "us")
            exit(keymap.layoutNames == ["English (US)"] ? 0 : 1)
        }
    }

    @Test func describeListsWhatWasAskedFor() {
        #expect(
            Keymap.describe("evdev", "pc105", "de", "nodeadkeys", "")
                == "rules \"evdev\", model \"pc105\", layout \"de\", variant \"nodeadkeys\", options \"\"")
    }

    @Test func errorDescriptionWithoutMessages() {
        #expect(XKBError.failed("xkb_context_new").description == "xkb_context_new: failed")
        #expect(
            XKBError.failed("xkb_keymap_new_from_names", detail: "layout \"xx\"", messages: ["a", "b"]).description
                == "xkb_keymap_new_from_names(layout \"xx\"): failed; xkbcommon: a; b")
    }
}
