import KioskConfig
import Testing

@Suite struct ModeRequestTests {
    @Test(arguments: [
        ("preferred", ModeRequest.preferred), ("current", .current), ("OFF", .off),
        ("1920x1080", .size(width: 1920, height: 1080, refresh: nil)),
        ("1920x1080@60", .size(width: 1920, height: 1080, refresh: 60)),
        ("1920x1080@59.94", .size(width: 1920, height: 1080, refresh: 59.94)),
    ])
    func parses(text: String, expected: ModeRequest) {
        #expect(ModeRequest(text) == expected)
    }

    @Test(arguments: ["", "1920", "1920x", "x1080", "1920x1080@", "1920x1080@fast", "0x1080", "-1x5", "1920x1080@0", "big"])
    func rejects(text: String) {
        #expect(ModeRequest(text) == nil)
    }

    @Test func spellsBack() {
        #expect(ModeRequest("1920x1080@59.94")!.description == "1920x1080@59.94")
        #expect(ModeRequest("1280x720@60")!.description == "1280x720@60")
    }
}
