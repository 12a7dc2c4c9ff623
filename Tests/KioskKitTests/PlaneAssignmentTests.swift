import Testing

@_spi(KioskRuntime) @testable import KioskKit

/// The plane policy as a table (weston's proposals: planes only, mixed, renderer only): candidates and the
/// planes a CRTC offers in, the proposals out, best first.
@Suite struct PlaneAssignmentTests {
    typealias Candidate = PlaneAssignment.Candidate

    static let both: Set<PixelFormat> = [.argb32Premultiplied, .xrgb8888]
    /// virtio-gpu's and vkms's cursor plane: 64x64 ARGB, in front of everything.
    static let cursorPlane = DisplayPlane(
        id: 40, kind: .cursor, formats: both, zOrder: 2, requiredSize: DisplayPlane.BufferSize(width: 64, height: 64))
    static let overlay = DisplayPlane(id: 35, kind: .overlay, formats: both, zOrder: 1)
    static let opaqueOnlyOverlay = DisplayPlane(id: 36, kind: .overlay, formats: [.xrgb8888], zOrder: 1)
    static let smallOverlay = DisplayPlane(
        id: 37, kind: .overlay, formats: both, zOrder: 1, maximumSize: DisplayPlane.BufferSize(width: 100, height: 100))

    static func cursor(at x: Int32 = 10, _ y: Int32 = 10, size: Int32 = 16) -> Candidate {
        Candidate(
            preference: .cursor, rect: PixelRect(x: x, y: y, width: size, height: size), isOpaque: false, isPlaceable: true,
            isCoveredByComposition: false)
    }

    static func layer(
        _ rect: PixelRect = PixelRect(x: 0, y: 0, width: 320, height: 240), opaque: Bool = true, placeable: Bool = true,
        covered: Bool = false
    ) -> Candidate {
        Candidate(preference: .overlay, rect: rect, isOpaque: opaque, isPlaceable: placeable, isCoveredByComposition: covered)
    }

    struct Row: CustomTestStringConvertible {
        let name: String
        let candidates: [Candidate]
        let planes: [DisplayPlane]
        /// Each proposal as candidate index → plane id, best first (the last is always empty).
        let proposals: [[Int: UInt32]]
        var testDescription: String { name }
    }

    static let rows: [Row] = [
        Row(name: "no planes: renderer only", candidates: [cursor()], planes: [], proposals: [[:]]),
        Row(name: "no candidates", candidates: [], planes: [cursorPlane, overlay], proposals: [[:]]),
        Row(name: "cursor on the cursor plane", candidates: [cursor()], planes: [overlay, cursorPlane], proposals: [[0: 40], [:]]),
        Row(name: "cursor without a cursor plane: an overlay", candidates: [cursor()], planes: [overlay], proposals: [[0: 35], [:]]),
        Row(
            name: "cursor larger than the cursor plane: an overlay", candidates: [cursor(size: 80)], planes: [cursorPlane, overlay],
            proposals: [[0: 35], [:]]),
        Row(
            name: "translucent cursor and an opaque-only overlay: composed", candidates: [cursor()], planes: [opaqueOnlyOverlay],
            proposals: [[:]]),
        Row(
            name: "planes only: a layer on the overlay, the cursor on its plane", candidates: [layer(), cursor()],
            planes: [cursorPlane, overlay], proposals: [[0: 35, 1: 40], [1: 40], [:]]),
        Row(
            name: "an overlay never takes the cursor plane", candidates: [layer(PixelRect(x: 0, y: 0, width: 64, height: 64))],
            planes: [cursorPlane], proposals: [[:]]),
        Row(
            name: "mixed: a layer under composed content is composed, the cursor is not", candidates: [layer(covered: true), cursor()],
            planes: [cursorPlane, overlay], proposals: [[1: 40], [:]]),
        Row(
            name: "a transformed or clipped layer is composed", candidates: [layer(placeable: false), cursor()],
            planes: [cursorPlane, overlay], proposals: [[1: 40], [:]]),
        Row(
            name: "an opaque layer on an opaque-only overlay", candidates: [layer()], planes: [opaqueOnlyOverlay],
            proposals: [[0: 36], [:]]),
        Row(
            name: "a translucent layer needs alpha", candidates: [layer(opaque: false)], planes: [opaqueOnlyOverlay],
            proposals: [[:]]),
        Row(name: "a layer over the plane's maximum size is composed", candidates: [layer()], planes: [smallOverlay], proposals: [[:]]),
        Row(
            name: "a layer within it is placed", candidates: [layer(PixelRect(x: 5, y: 5, width: 100, height: 50))],
            planes: [smallOverlay], proposals: [[0: 37], [:]]),
        Row(
            name: "two overlapping layers, one overlay: the front one composed covers the back one",
            candidates: [layer(), layer(PixelRect(x: 10, y: 10, width: 50, height: 50))], planes: [overlay],
            proposals: [[:]]),
        Row(
            name: "two layers apart, one overlay: the back one placed",
            candidates: [
                layer(PixelRect(x: 0, y: 0, width: 100, height: 100)), layer(PixelRect(x: 200, y: 0, width: 50, height: 50)),
            ], planes: [overlay], proposals: [[0: 35], [:]]),
        Row(
            name: "planes keep the candidates' order; dropping the front one takes the one it covers too",
            candidates: [
                layer(PixelRect(x: 0, y: 0, width: 100, height: 100)), layer(PixelRect(x: 50, y: 50, width: 100, height: 100)),
            ], planes: [DisplayPlane(id: 50, kind: .overlay, formats: both, zOrder: 3), overlay],
            proposals: [[0: 35, 1: 50], [:]]),
        Row(
            name: "a layer not on the screen is composed (nothing to show)", candidates: [layer(placeable: false)],
            planes: [overlay], proposals: [[:]]),
    ]

    @Test(arguments: rows) func proposals(_ row: Row) {
        let proposals = PlaneAssignment.proposals(for: row.candidates, planes: row.planes).map { $0.mapValues(\.id) }
        #expect(proposals == row.proposals.removingDuplicateEmpties(), "\(row.name)")
    }

    @Test func dropsFrontOverlayBeforeTheCursor() {
        let candidates = [
            Self.layer(PixelRect(x: 0, y: 0, width: 100, height: 100)), Self.layer(PixelRect(x: 200, y: 0, width: 50, height: 50)),
            Self.cursor(at: 300, 200),
        ]
        let planes = [Self.overlay, DisplayPlane(id: 51, kind: .overlay, formats: Self.both, zOrder: 1), Self.cursorPlane]
        let proposals = PlaneAssignment.proposals(for: candidates, planes: planes).map { $0.mapValues(\.id) }
        #expect(proposals == [[0: 35, 1: 51, 2: 40], [0: 35, 2: 40], [2: 40], [:]])
    }
}

extension Array where Element == [Int: UInt32] {
    /// The table's rows end with one empty proposal, however they were written.
    fileprivate func removingDuplicateEmpties() -> [[Int: UInt32]] {
        var result = filter { !$0.isEmpty }
        result.append([:])
        return result
    }
}
