import CEC
import CECControl
import KioskBackend
import KioskConfig
import Testing

/// Which adapter follows a screen, as a table: the setting, the screen's connector, the adapters and the
/// connectors the kernel ties them to.
@Suite struct CECMatchTests {
    typealias Adapters = [(path: String, connector: CECConnector)]

    static let hdmi1 = ConnectorIdentity(card: 0, connector: 34)
    static let hdmi2 = ConnectorIdentity(card: 0, connector: 41)
    /// A board's two HDMI outputs with their own adapters, a USB adapter and an emulated one.
    static let board: Adapters = [
        ("/dev/cec0", .drm(card: 0, connector: 34)), ("/dev/cec1", .drm(card: 0, connector: 41)), ("/dev/cec2", .none),
        ("/dev/cec3", .other(type: 7)),
    ]

    static let cases: [(CECSetting, ConnectorIdentity?, Adapters, CECMatch.Choice)] = [
        (.auto, hdmi1, board, .adapter(path: "/dev/cec0", reason: "tied to card 0 connector 34")),
        (.auto, hdmi2, board, .adapter(path: "/dev/cec1", reason: "tied to card 0 connector 41")),
        // The same connector id on another card is another connector.
        (.auto, ConnectorIdentity(card: 1, connector: 34), board, .none(reason: "no adapter is tied to card 1 connector 34")),
        (.auto, ConnectorIdentity(card: 0, connector: 50), board, .none(reason: "no adapter is tied to card 0 connector 50")),
        (.auto, nil, board, .none(reason: "not a DRM connector")),
        (.auto, hdmi1, [], .none(reason: "no adapter is tied to card 0 connector 34")),
        (
            .auto, hdmi1, [("/dev/cec0", .drm(card: 0, connector: 34)), ("/dev/cec5", .drm(card: 0, connector: 34))],
            .none(reason: "/dev/cec0 and /dev/cec5 are all tied to card 0 connector 34; name one with cec = \"/dev/cecN\"")
        ),
        (.off, hdmi1, board, .none(reason: "cec = \"off\"")),
        // A named adapter wins over the connector info, and needs none (vivid's, USB ones).
        (.device("/dev/cec2"), hdmi1, board, .adapter(path: "/dev/cec2", reason: "configured")),
        (.device("/dev/cec1"), nil, [], .adapter(path: "/dev/cec1", reason: "configured")),
    ]

    @Test(arguments: cases)
    func choice(setting: CECSetting, connector: ConnectorIdentity?, adapters: Adapters, expected: CECMatch.Choice) {
        #expect(CECMatch.choose(setting: setting, connector: connector, adapters: adapters) == expected)
    }

    @Test(arguments: [
        ("schedule", "schedule"), ("schedule: off until 07:00", "schedule"), ("control", "control"), ("idle for 300 s", "idle"),
        ("idle for 2.5 s", "idle"), ("input", "input"), ("app", "app"), ("", ""), ("Control socket", "control"),
    ])
    func reasonKinds(reason: String, kind: String) {
        #expect(CECController.kind(ofReason: reason) == kind)
    }

    @Test func followedReasons() {
        var configuration = KioskConfiguration()
        #expect(CECController.reasons(for: configuration) == ["schedule", "control"])
        configuration.cecOnIdle = true
        #expect(CECController.reasons(for: configuration) == ["schedule", "control", "idle"])
    }
}
