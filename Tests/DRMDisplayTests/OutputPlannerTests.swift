import DRM
import KioskConfig
import Testing

@testable import DRMDisplay

extension DRMConnectorID: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: UInt32) { self.init(rawValue: value) }
}

extension DRMCRTCID: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: UInt32) { self.init(rawValue: value) }
}

/// A kernel mode of `width`x`height` whose exact refresh is `hz` (timings 4000 x 2500, so the clock in
/// kHz is hz * 10000).
func kernelMode(_ width: UInt16, _ height: UInt16, _ hz: Double, preferred: Bool = false, interlaced: Bool = false) -> DRMModeInfo {
    DRMModeInfo(
        clock: UInt32((hz * 10_000).rounded()), hdisplay: width, hsyncStart: width, hsyncEnd: width, htotal: 4000,
        vdisplay: height, vsyncStart: height, vsyncEnd: height, vtotal: 2500,
        flags: interlaced ? 0x10 : 0, type: preferred ? 1 << 3 : 0)
}

/// A connector as the wrapper reads it; `bad` sets `link-status` to Bad.
func kernelConnector(
    id: UInt32, type: UInt32, index: UInt32, connected: Bool, modes: [DRMModeInfo], crtcs: [UInt32],
    bad: Bool = false
) -> DRMConnector {
    let linkStatus = DRMProperty(
        id: DRMPropertyID(rawValue: 5), name: "link-status", value: bad ? 1 : 0,
        kind: .enumeration([("Good", 0), ("Bad", 1)]))
    return DRMConnector(
        id: DRMConnectorID(rawValue: id), type: type, typeIndex: index, status: connected ? .connected : .disconnected,
        modes: connected ? modes : [], physicalWidthMillimeters: 0, physicalHeightMillimeters: 0, encoderID: nil,
        possibleCRTCs: crtcs.map(DRMCRTCID.init(rawValue:)), properties: [linkStatus])
}

@Suite struct OutputPlannerTests {
    static let fullHD = kernelMode(1920, 1080, 60, preferred: true)
    static let hd = kernelMode(1280, 720, 60)
    static let xga = kernelMode(1024, 768, 60, preferred: true)

    /// A connector and the mode its CRTC shows now.
    typealias Probe = (connector: DRMConnector, current: DRMModeInfo?)

    /// DRM_MODE_CONNECTOR_HDMIA is 11, DisplayPort 10.
    static func hdmi(connected: Bool = true, modes: [DRMModeInfo] = [fullHD, hd], current: DRMModeInfo? = nil, bad: Bool = false) -> Probe {
        (kernelConnector(id: 40, type: 11, index: 1, connected: connected, modes: modes, crtcs: [31, 32], bad: bad), current)
    }

    static func dp(connected: Bool = true, current: DRMModeInfo? = nil) -> Probe {
        (kernelConnector(id: 41, type: 10, index: 1, connected: connected, modes: [xga], crtcs: [31, 32]), current)
    }

    static func plan(
        _ probes: [Probe], lit: [DRMConnectorID: OutputPlanner.LitOutput], connectedScreens: Set<String>,
        requests: [String: ModeRequest]
    ) -> OutputPlanner.Plan {
        var current: [DRMConnectorID: DRMModeInfo] = [:]
        for probe in probes { current[probe.connector.id] = probe.current }
        return OutputPlanner.plan(
            probes.map(\.connector), current: current, lit: lit, connectedScreens: connectedScreens, requests: requests)
    }

    /// A display the console lit that the kiosk does not drive (configured off) goes dark with its CRTC; it
    /// showed the console. A CRTC the kiosk lights for another display is left to that lighting.
    @Test func whatTheConsoleLitAndTheKioskDoesNotDriveGoesDark() {
        let hdmi = Self.hdmi(current: Self.fullHD)
        var current: [DRMConnectorID: DRMModeInfo] = [:]
        current[40] = Self.fullHD
        let alone = OutputPlanner.plan(
            [hdmi.connector], current: current, lit: [:], connectedScreens: [], requests: ["HDMI-A-1": .off], showing: [40: 31])
        #expect(alone.actions == [.darken(connector: 40, name: "HDMI-A-1", crtc: 31)])
        #expect(alone.decisions == ["HDMI-A-1: lit by something else on CRTC 31, not driven -> dark"])
        // DP-1 takes CRTC 31: its lighting takes the CRTC over.
        let taken = OutputPlanner.plan(
            [hdmi.connector, Self.dp().connector], current: current, lit: [:], connectedScreens: [], requests: ["HDMI-A-1": .off],
            showing: [40: 31])
        #expect(taken.actions == [.light(connector: 41, name: "DP-1", crtc: 31, modeIndex: 0), .connectScreen(name: "DP-1")])
        // Driven by the kiosk: nothing goes dark.
        let driven = OutputPlanner.plan(
            [hdmi.connector], current: current, lit: [:], connectedScreens: [], requests: [:], showing: [40: 31])
        #expect(!driven.actions.contains { if case .darken = $0 { true } else { false } })
    }

    @Test func startLightsEveryConnectedConnector() {
        let plan = Self.plan([Self.hdmi(), Self.dp()], lit: [:], connectedScreens: [], requests: [:])
        #expect(
            plan.actions == [
                .light(connector: 40, name: "HDMI-A-1", crtc: 31, modeIndex: 0), .connectScreen(name: "HDMI-A-1"),
                .light(connector: 41, name: "DP-1", crtc: 32, modeIndex: 0), .connectScreen(name: "DP-1"),
            ])
        #expect(plan.problems.isEmpty)
    }

    /// What the console shows in the mode asked for is lit in that mode (the lighting then commits without
    /// a modeset: `DRMDisplay.light`), and the decision says it was shown by another, not dark.
    @Test func whatTheConsoleShowsInTheModeAskedForIsTakenOver() {
        let plan = Self.plan([Self.hdmi(current: Self.fullHD)], lit: [:], connectedScreens: [], requests: [:])
        #expect(plan.actions == [.light(connector: 40, name: "HDMI-A-1", crtc: 31, modeIndex: 0), .connectScreen(name: "HDMI-A-1")])
        #expect(plan.decisions == ["HDMI-A-1: 1920x1080@60.000 (shown by another) -> 1920x1080@60.000 on CRTC 31"])
    }

    @Test func aSecondDisplayArrivingLeavesTheFirstAlone() {
        let plan = Self.plan(
            [Self.hdmi(current: Self.fullHD), Self.dp()], lit: [40: .init(crtc: 31, name: "HDMI-A-1")], connectedScreens: ["HDMI-A-1"],
            requests: [:])
        #expect(
            plan.actions == [
                .updateScreen(name: "HDMI-A-1"),
                .light(connector: 41, name: "DP-1", crtc: 32, modeIndex: 0), .connectScreen(name: "DP-1"),
            ])
        #expect(plan.decisions == ["DP-1: dark -> 1024x768@60.000 on CRTC 32"])
    }

    @Test func aDisplayLeavingReleasesItsCRTCAndDisconnectsItsScreen() {
        let plan = Self.plan(
            [Self.hdmi(current: Self.fullHD), Self.dp(connected: false, current: Self.xga)],
            lit: [40: .init(crtc: 31, name: "HDMI-A-1"), 41: .init(crtc: 32, name: "DP-1")], connectedScreens: ["HDMI-A-1", "DP-1"],
            requests: [:])
        #expect(plan.actions == [.turnOff(connector: 41, name: "DP-1"), .disconnectScreen(name: "DP-1"), .updateScreen(name: "HDMI-A-1")])
        #expect(plan.decisions == ["DP-1: connected -> disconnected; CRTC 32 released"])
    }

    @Test func aConnectorThatVanishedEntirely() {
        let plan = Self.plan(
            [Self.hdmi(current: Self.fullHD)], lit: [40: .init(crtc: 31, name: "HDMI-A-1"), 41: .init(crtc: 32, name: "DP-1")],
            connectedScreens: ["HDMI-A-1", "DP-1"],
            requests: [:])
        #expect(
            plan.actions == [
                .turnOff(connector: 41, name: "DP-1"), .disconnectScreen(name: "DP-1"),
                .updateScreen(name: "HDMI-A-1"),
            ])
        #expect(plan.decisions == ["DP-1: connected -> gone; CRTC 32 released"])
    }

    @Test func aNewModeListReRunsTheChoice() {
        // The EDID changed: the monitor now offers 1280x720 only; the configured 1920x1080 is gone.
        let plan = Self.plan(
            [Self.hdmi(modes: [Self.hd], current: Self.fullHD)], lit: [40: .init(crtc: 31, name: "HDMI-A-1")],
            connectedScreens: ["HDMI-A-1"],
            requests: ["HDMI-A-1": .size(width: 1920, height: 1080, refresh: nil)])
        #expect(plan.actions == [.light(connector: 40, name: "HDMI-A-1", crtc: 31, modeIndex: 0), .updateScreen(name: "HDMI-A-1")])
        #expect(plan.problems == ["HDMI-A-1: mode 1920x1080 is not offered; it offers 1280x720@60.000"])
    }

    @Test func anUnchangedConnectorIsNotModesetAgain() {
        let plan = Self.plan(
            [Self.hdmi(current: Self.fullHD), Self.dp(current: Self.xga)],
            lit: [40: .init(crtc: 31, name: "HDMI-A-1"), 41: .init(crtc: 32, name: "DP-1")],
            connectedScreens: ["HDMI-A-1", "DP-1"], requests: [:])
        #expect(plan.actions == [.updateScreen(name: "HDMI-A-1"), .updateScreen(name: "DP-1")])
        #expect(plan.decisions.isEmpty)
    }

    @Test func linkStatusBadRelightsTheSameMode() {
        let plan = Self.plan(
            [Self.hdmi(current: Self.fullHD, bad: true)], lit: [40: .init(crtc: 31, name: "HDMI-A-1")], connectedScreens: ["HDMI-A-1"],
            requests: [:])
        #expect(plan.actions == [.light(connector: 40, name: "HDMI-A-1", crtc: 31, modeIndex: 0), .updateScreen(name: "HDMI-A-1")])
        #expect(plan.decisions == ["HDMI-A-1: 1920x1080@60.000 -> 1920x1080@60.000 on CRTC 31 (link-status Bad)"])
    }

    @Test func configuredOffTurnsALitConnectorOff() {
        let plan = Self.plan(
            [Self.hdmi(current: Self.fullHD)], lit: [40: .init(crtc: 31, name: "HDMI-A-1")], connectedScreens: ["HDMI-A-1"],
            requests: ["HDMI-A-1": .off])
        #expect(plan.actions == [.turnOff(connector: 40, name: "HDMI-A-1"), .disconnectScreen(name: "HDMI-A-1")])
    }

    @Test func moreConnectorsThanCRTCsLeavesOneDarkWithAProblem() {
        let third: Probe = (kernelConnector(id: 42, type: 10, index: 2, connected: true, modes: [Self.xga], crtcs: [31, 32]), nil)
        let plan = Self.plan(
            [Self.hdmi(current: Self.fullHD), Self.dp(current: Self.xga), third],
            lit: [40: .init(crtc: 31, name: "HDMI-A-1"), 41: .init(crtc: 32, name: "DP-1")],
            connectedScreens: ["HDMI-A-1", "DP-1"], requests: [:])
        #expect(plan.problems == ["DP-2: no CRTC left to drive it (2 in use); it stays dark"])
        #expect(!plan.actions.contains { if case .light = $0 { true } else { false } })
    }

    @Test func nothingConnected() {
        let plan = Self.plan([Self.hdmi(connected: false), Self.dp(connected: false)], lit: [:], connectedScreens: [], requests: [:])
        #expect(plan.actions.isEmpty && plan.problems.isEmpty)
    }

    @Test func currentKeepsTheFirmwareModeWithoutAModeset() {
        let plan = Self.plan([Self.hdmi(current: Self.hd)], lit: [:], connectedScreens: [], requests: ["HDMI-A-1": .current])
        #expect(plan.actions == [.light(connector: 40, name: "HDMI-A-1", crtc: 31, modeIndex: nil), .connectScreen(name: "HDMI-A-1")])
    }
}
