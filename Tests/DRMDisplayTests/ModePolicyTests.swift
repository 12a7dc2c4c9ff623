import Geometry
import KioskConfig
import Testing

@testable import DRMDisplay

@Suite struct ModePolicyTests {
    static let p60 = DisplayMode(width: 1920, height: 1080, refreshRate: 60)
    static let p5994 = DisplayMode(width: 1920, height: 1080, refreshRate: 59.94)
    static let p50 = DisplayMode(width: 1920, height: 1080, refreshRate: 50)
    static let i60 = DisplayMode(width: 1920, height: 1080, refreshRate: 60, isInterlaced: true)
    static let hd = DisplayMode(width: 1280, height: 720, refreshRate: 60)
    static let uhd30 = DisplayMode(width: 3840, height: 2160, refreshRate: 30)
    static let uhd24 = DisplayMode(width: 3840, height: 2160, refreshRate: 24)
    static let offered = [i60, p5994, p60, p50, hd, uhd24, uhd30]

    struct Row: Sendable, CustomTestStringConvertible {
        var request: ModeRequest?
        var preferred: Int?
        var current: DisplayMode?
        var expected: ModePolicy.Decision
        var problem: Bool = false
        var testDescription: String { "\(request.map { "\($0)" } ?? "nil") preferred=\(preferred.map(String.init) ?? "-")" }
    }

    static let rows: [Row] = [
        // Nothing configured: preferred > current > largest.
        Row(request: nil, preferred: 4, current: p50, expected: .set(index: 4)),
        Row(request: .preferred, preferred: 4, current: nil, expected: .set(index: 4)),
        Row(request: nil, preferred: nil, current: p50, expected: .set(index: 3)),
        Row(request: nil, preferred: nil, current: nil, expected: .set(index: 6)),  // largest area, then refresh
        // A size: the highest refresh of it, progressive before interlaced.
        Row(request: .size(width: 1920, height: 1080, refresh: nil), preferred: 4, current: nil, expected: .set(index: 2)),
        Row(request: .size(width: 1920, height: 1080, refresh: 60), preferred: 4, current: nil, expected: .set(index: 2)),
        Row(request: .size(width: 1920, height: 1080, refresh: 59.94), preferred: 4, current: nil, expected: .set(index: 1)),
        // Not exact: the nearest of that size.
        Row(request: .size(width: 1920, height: 1080, refresh: 59.9), preferred: 4, current: nil, expected: .set(index: 1)),
        Row(request: .size(width: 1920, height: 1080, refresh: 48), preferred: 4, current: nil, expected: .set(index: 3)),
        Row(request: .size(width: 3840, height: 2160, refresh: 25), preferred: 4, current: nil, expected: .set(index: 5)),
        // A size not offered: a problem, then the defaults.
        Row(request: .size(width: 800, height: 600, refresh: nil), preferred: 4, current: nil, expected: .set(index: 4), problem: true),
        Row(request: .size(width: 800, height: 600, refresh: 60), preferred: nil, current: hd, expected: .set(index: 4), problem: true),
        // current: keep without modeset; nothing lit: the defaults.
        Row(request: .current, preferred: 4, current: p50, expected: .keepCurrent),
        Row(request: .current, preferred: 4, current: nil, expected: .set(index: 4)),
        Row(request: .off, preferred: 4, current: p50, expected: .off),
    ]

    @Test(arguments: rows)
    func decides(row: Row) {
        let outcome = ModePolicy.choose(
            row.request, offered: Self.offered, preferred: row.preferred, current: row.current,
            connector: "HDMI-A-1")
        #expect(outcome.decision == row.expected)
        #expect((outcome.problem != nil) == row.problem)
    }

    @Test func aModeNotOfferedNamesTheConnectorAndListsTheModes() {
        let outcome = ModePolicy.choose(
            .size(width: 800, height: 600, refresh: nil), offered: [Self.p60, Self.hd], preferred: 0,
            current: nil, connector: "HDMI-A-1")
        #expect(outcome.problem == "HDMI-A-1: mode 800x600 is not offered; it offers 1920x1080@60.000, 1280x720@60.000")
    }

    @Test func noModesAtAll() {
        #expect(ModePolicy.choose(nil, offered: [], preferred: nil, current: nil, connector: "DP-1").decision == .off)
        #expect(ModePolicy.choose(.current, offered: [], preferred: nil, current: Self.hd, connector: "DP-1").decision == .keepCurrent)
    }
}

@Suite struct CRTCAllocationTests {
    typealias Request = CRTCAllocation.Request<String, Int>

    @Test func everyConnectorGetsOneWhenPossible() {
        let result = CRTCAllocation.allocate(
            [
                Request(connector: "A", possibleCRTCs: [1, 2]),
                Request(connector: "B", possibleCRTCs: [1]),
            ], previous: [:])
        #expect(result.assignments == ["A": 2, "B": 1] && result.unassigned.isEmpty)
    }

    @Test func keepsPreviousAssignmentsWhenAnotherConnectorComes() {
        // A had CRTC 1; B arrives and could only use 1: A keeps it (no re-modeset), B stays dark.
        let result = CRTCAllocation.allocate(
            [
                Request(connector: "A", possibleCRTCs: [1, 2]),
                Request(connector: "B", possibleCRTCs: [1]),
            ], previous: ["A": 1])
        #expect(result.assignments == ["A": 1] && result.unassigned == ["B"])
        // When a connector goes away, the others keep theirs.
        let after = CRTCAllocation.allocate([Request(connector: "B", possibleCRTCs: [2, 3])], previous: ["A": 1, "B": 3])
        #expect(after.assignments == ["B": 3])
    }

    @Test func moreConnectorsThanCRTCs() {
        let result = CRTCAllocation.allocate(
            [
                Request(connector: "A", possibleCRTCs: [1, 2]),
                Request(connector: "B", possibleCRTCs: [1, 2]),
                Request(connector: "C", possibleCRTCs: [1, 2]),
            ], previous: [:])
        #expect(result.assignments.count == 2 && result.unassigned == ["C"])
        #expect(Set(result.assignments.values) == [1, 2])
    }

    @Test func aPreviousCRTCNoLongerPossibleIsReplaced() {
        let result = CRTCAllocation.allocate([Request(connector: "A", possibleCRTCs: [2])], previous: ["A": 1])
        #expect(result.assignments == ["A": 2])
    }

    @Test func augmentingPathsFindAFullMatching() {
        // Greedy in order would give A->1 and leave B dark; matching moves A to 2.
        let result = CRTCAllocation.allocate(
            [
                Request(connector: "A", possibleCRTCs: [1, 2]),
                Request(connector: "B", possibleCRTCs: [1]),
                Request(connector: "C", possibleCRTCs: [2, 3]),
            ], previous: [:])
        #expect(result.unassigned.isEmpty && result.assignments["B"] == 1 && result.assignments["A"] == 2 && result.assignments["C"] == 3)
    }
}
