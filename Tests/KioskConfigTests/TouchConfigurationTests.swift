import Testing

@testable import KioskConfig

@Suite struct TouchConfigurationTests {
    typealias Match = TouchConfiguration.Match

    @Test(arguments: [
        ("ILITEK*", Match.name("ILITEK*")),
        ("222a:0001", .vendorProduct(vendor: 0x222a, product: 0x0001)),
        ("0EEF:C000", .vendorProduct(vendor: 0x0eef, product: 0xc000)),
        // Not four hex digits each: a name, as the runtime's --touch parser reads it too.
        ("22a:1", .name("22a:1")),
        ("/dev/input/event3", .path("/dev/input/event3")),
        ("/dev/input/by-path/platform-3f204000.spi-cs-1-event", .path("/dev/input/by-path/platform-3f204000.spi-cs-1-event")),
        ("/sys/devices/platform/soc/input/input2", .path("/sys/devices/platform/soc/input/input2")),
        ("platform-3f204000.spi-cs-1", .path("platform-3f204000.spi-cs-1")),
        ("pci-0000:00:14.0-usb-0:2:1.0", .path("pci-0000:00:14.0-usb-0:2:1.0")),
        ("usb-0000:01:00.0-1", .path("usb-0000:01:00.0-1")),
    ])
    func parses(text: String, expected: Match) throws {
        #expect(try Match.parse(text).get() == expected)
        #expect(expected.description == (expected == .vendorProduct(vendor: 0x0eef, product: 0xc000) ? "0eef:c000" : text))
    }

    @Test func rejects() {
        #expect(Match.parse("") == .failure(.empty))
        #expect(Match.parse("/dev/input/") == .failure(.notDevicePath))
        #expect(Match.parse("/dev/fb0") == .failure(.notDevicePath))
        #expect(Match.parse("ILITEK [") == .failure(.badGlob("a \"[\" is not closed by \"]\"")))
        #expect(Match.parse("ILITEK \\") == .failure(.badGlob("it ends with a lone \"\\\"")))
    }

    @Test(arguments: [
        ("ILITEK*", "ILITEK ILITEK-TP", true),
        ("ILITEK*", "Goodix Capacitive TouchScreen", false),
        ("*Touch*", "Goodix Capacitive TouchScreen", true),
        ("?oodix*", "Goodix Capacitive TouchScreen", true),
        ("[GH]oodix*", "Goodix", true),
        ("[!G]oodix*", "Goodix", false),
        ("[a-z]*", "goodix", true),
        ("[a-z]*", "Goodix", false),
        ("[]]x", "]x", true),
        ("a\\*", "a*", true),
        ("a\\*", "ab", false),
        ("*a*b*c*", "xxaxxbxxcxx", true),
        ("*a*b*c*", "xxaxxcxxbxx", false),
        ("", "", true),
        ("*", "", true),
        ("Touchscreen", "Touchscreen", true),
        ("Touchscreen", "touchscreen", false),
        ("TS ✋*", "TS ✋ 2", true),
    ])
    func globs(pattern: String, name: String, matches: Bool) {
        #expect(Glob.matches(pattern, name) == matches)
    }

    /// Linear in the text: a fuzzed pattern of stars against a long name does not take exponential time.
    @Test func manyStarsAreFast() {
        let pattern = String(repeating: "*a", count: 200) + "b"
        let name = String(repeating: "a", count: 5_000)
        #expect(!Glob.matches(pattern, name))
    }

    /// `kiosk calibrate --write` escapes `*?[` in the device name it writes, so the glob matches it literally.
    @Test func escapedDeviceNames() throws {
        let parsed = try configuration(
            #"""
            # Written by `kiosk calibrate`.
            [[touch]]
            match = "Goodix \\[v2\\] \\*"
            screen = "DSI-1"
            calibration = [1.000000, 0.000000, 0.000000, 0.000000, 1.000000, 0.000000]
            """#)
        let match = try #require(parsed.touch.first?.match)
        #expect(match == .name(#"Goodix \[v2\] \*"#))
        #expect(match.matches(name: "Goodix [v2] *", vendor: 0, product: 0, paths: []))
        #expect(!match.matches(name: "Goodix v v2", vendor: 0, product: 0, paths: []))
    }

    @Test func matchesDevices() {
        #expect(Match.name("ILITEK*").matches(name: "ILITEK-TP", vendor: 0, product: 0, paths: []))
        #expect(Match.vendorProduct(vendor: 0x222a, product: 1).matches(name: "x", vendor: 0x222a, product: 1, paths: []))
        #expect(!Match.vendorProduct(vendor: 0x222a, product: 1).matches(name: "x", vendor: 0x222a, product: 2, paths: []))
        #expect(Match.path("/dev/input/event3").matches(name: "x", vendor: 0, product: 0, paths: ["/dev/input/event3", "platform-x"]))
        #expect(!Match.path("/dev/input/event3").matches(name: "x", vendor: 0, product: 0, paths: ["/dev/input/event30"]))
    }
}
