import Testing

@testable import KioskConfig

@Suite struct SuggestionTests {
    static let keys = ["mode", "rotation", "primary", "position", "edid"]

    @Test(arguments: [
        ("rotaton", "rotation"), ("rotaiton", "rotation"), ("Rotation", "rotation"), ("mdoe", "mode"),
        ("modes", "mode"), ("positon", "position"), ("primry", "primary"), ("EDID", "edid"),
    ])
    func suggests(word: String, expected: String) {
        #expect(Suggestion.closest(to: word, among: Self.keys) == expected)
    }

    @Test(arguments: ["colour", "x", "rot", "transform", "", String(repeating: "mode", count: 100)])
    func staysQuiet(word: String) {
        #expect(Suggestion.closest(to: word, among: Self.keys) == nil)
    }

    @Test func underscoresAreHyphens() {
        #expect(Suggestion.closest(to: "hotplug_debounce_ms", among: ["hotplug-debounce-ms"]) == "hotplug-debounce-ms")
    }

    @Test func editDistance() {
        #expect(Suggestion.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(Suggestion.editDistance(Array("ab"), Array("ba")) == 1)
        #expect(Suggestion.editDistance(Array(""), Array("abc")) == 3)
    }
}
