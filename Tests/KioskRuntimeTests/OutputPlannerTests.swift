import KioskKit
@testable import KioskRuntime
import Testing

@Suite struct OutputPlannerTests {
    static let fullHD = Screen.Mode(width: 1920, height: 1080, refreshRate: 60)
    static let hd = Screen.Mode(width: 1280, height: 720, refreshRate: 60)
    static let xga = Screen.Mode(width: 1024, height: 768, refreshRate: 60)

    static func hdmi(connected: Bool = true, modes: [Screen.Mode] = [fullHD, hd], current: Screen.Mode? = nil, bad: Bool = false) -> OutputPlanner.Connector {
        OutputPlanner.Connector(id: 40, name: "HDMI-A-1", connected: connected, modes: connected ? modes : [], preferred: connected ? 0 : nil,
                                current: current, possibleCRTCs: [31, 32], linkStatusBad: bad)
    }

    static func dp(connected: Bool = true, current: Screen.Mode? = nil) -> OutputPlanner.Connector {
        OutputPlanner.Connector(id: 41, name: "DP-1", connected: connected, modes: connected ? [xga] : [], preferred: connected ? 0 : nil,
                                current: current, possibleCRTCs: [31, 32])
    }

    @Test func startLightsEveryConnectedConnector() {
        let plan = OutputPlanner.plan([Self.hdmi(), Self.dp()], lit: [:], connectedScreens: [], requests: [:])
        #expect(plan.actions == [.light(connector: 40, name: "HDMI-A-1", crtc: 31, modeIndex: 0), .connectScreen(name: "HDMI-A-1"),
                                 .light(connector: 41, name: "DP-1", crtc: 32, modeIndex: 0), .connectScreen(name: "DP-1")])
        #expect(plan.problems.isEmpty)
    }

    @Test func aSecondDisplayArrivingLeavesTheFirstAlone() {
        let plan = OutputPlanner.plan([Self.hdmi(current: Self.fullHD), Self.dp()], lit: [40: .init(crtc: 31, name: "HDMI-A-1")], connectedScreens: ["HDMI-A-1"], requests: [:])
        #expect(plan.actions == [.updateScreen(name: "HDMI-A-1"),
                                 .light(connector: 41, name: "DP-1", crtc: 32, modeIndex: 0), .connectScreen(name: "DP-1")])
        #expect(plan.decisions == ["DP-1: dark -> 1024x768@60.000 on CRTC 32"])
    }

    @Test func aDisplayLeavingReleasesItsCRTCAndDisconnectsItsScreen() {
        let plan = OutputPlanner.plan([Self.hdmi(current: Self.fullHD), Self.dp(connected: false, current: Self.xga)],
                                      lit: [40: .init(crtc: 31, name: "HDMI-A-1"), 41: .init(crtc: 32, name: "DP-1")], connectedScreens: ["HDMI-A-1", "DP-1"], requests: [:])
        #expect(plan.actions == [.turnOff(connector: 41, name: "DP-1"), .disconnectScreen(name: "DP-1"), .updateScreen(name: "HDMI-A-1")])
        #expect(plan.decisions == ["DP-1: connected -> disconnected; CRTC 32 released"])
    }

    @Test func aConnectorThatVanishedEntirely() {
        let plan = OutputPlanner.plan([Self.hdmi(current: Self.fullHD)], lit: [40: .init(crtc: 31, name: "HDMI-A-1"), 41: .init(crtc: 32, name: "DP-1")], connectedScreens: ["HDMI-A-1", "DP-1"],
                                      requests: [:])
        #expect(plan.actions == [.turnOff(connector: 41, name: "DP-1"), .disconnectScreen(name: "DP-1"),
                                 .updateScreen(name: "HDMI-A-1")])
        #expect(plan.decisions == ["DP-1: connected -> gone; CRTC 32 released"])
    }

    @Test func aNewModeListReRunsTheChoice() {
        // The EDID changed: the monitor now offers 1280x720 only; the configured 1920x1080 is gone.
        let plan = OutputPlanner.plan([Self.hdmi(modes: [Self.hd], current: Self.fullHD)], lit: [40: .init(crtc: 31, name: "HDMI-A-1")], connectedScreens: ["HDMI-A-1"],
                                      requests: ["HDMI-A-1": .size(width: 1920, height: 1080, refresh: nil)])
        #expect(plan.actions == [.light(connector: 40, name: "HDMI-A-1", crtc: 31, modeIndex: 0), .updateScreen(name: "HDMI-A-1")])
        #expect(plan.problems == ["HDMI-A-1: mode 1920x1080 is not offered; it offers 1280x720@60.000"])
    }

    @Test func anUnchangedConnectorIsNotModesetAgain() {
        let plan = OutputPlanner.plan([Self.hdmi(current: Self.fullHD), Self.dp(current: Self.xga)], lit: [40: .init(crtc: 31, name: "HDMI-A-1"), 41: .init(crtc: 32, name: "DP-1")],
                                      connectedScreens: ["HDMI-A-1", "DP-1"], requests: [:])
        #expect(plan.actions == [.updateScreen(name: "HDMI-A-1"), .updateScreen(name: "DP-1")])
        #expect(plan.decisions.isEmpty)
    }

    @Test func linkStatusBadRelightsTheSameMode() {
        let plan = OutputPlanner.plan([Self.hdmi(current: Self.fullHD, bad: true)], lit: [40: .init(crtc: 31, name: "HDMI-A-1")], connectedScreens: ["HDMI-A-1"], requests: [:])
        #expect(plan.actions == [.light(connector: 40, name: "HDMI-A-1", crtc: 31, modeIndex: 0), .updateScreen(name: "HDMI-A-1")])
        #expect(plan.decisions == ["HDMI-A-1: 1920x1080@60.000 -> 1920x1080@60.000 on CRTC 31 (link-status Bad)"])
    }

    @Test func configuredOffTurnsALitConnectorOff() {
        let plan = OutputPlanner.plan([Self.hdmi(current: Self.fullHD)], lit: [40: .init(crtc: 31, name: "HDMI-A-1")], connectedScreens: ["HDMI-A-1"],
                                      requests: ["HDMI-A-1": .off])
        #expect(plan.actions == [.turnOff(connector: 40, name: "HDMI-A-1"), .disconnectScreen(name: "HDMI-A-1")])
    }

    @Test func moreConnectorsThanCRTCsLeavesOneDarkWithAProblem() {
        let third = OutputPlanner.Connector(id: 42, name: "DP-2", connected: true, modes: [Self.xga], preferred: 0, current: nil,
                                            possibleCRTCs: [31, 32])
        let plan = OutputPlanner.plan([Self.hdmi(current: Self.fullHD), Self.dp(current: Self.xga), third], lit: [40: .init(crtc: 31, name: "HDMI-A-1"), 41: .init(crtc: 32, name: "DP-1")],
                                      connectedScreens: ["HDMI-A-1", "DP-1"], requests: [:])
        #expect(plan.problems == ["DP-2: no CRTC left to drive it (2 in use); it stays dark"])
        #expect(!plan.actions.contains { if case .light = $0 { true } else { false } })
    }

    @Test func nothingConnected() {
        let plan = OutputPlanner.plan([Self.hdmi(connected: false), Self.dp(connected: false)], lit: [:], connectedScreens: [], requests: [:])
        #expect(plan.actions.isEmpty && plan.problems.isEmpty)
    }

    @Test func currentKeepsTheFirmwareModeWithoutAModeset() {
        let plan = OutputPlanner.plan([Self.hdmi(current: Self.hd)], lit: [:], connectedScreens: [], requests: ["HDMI-A-1": .current])
        #expect(plan.actions == [.light(connector: 40, name: "HDMI-A-1", crtc: 31, modeIndex: nil), .connectScreen(name: "HDMI-A-1")])
    }
}
