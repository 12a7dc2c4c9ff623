import DRM
import KioskKit
import Testing

@testable import DRMDisplay

/// The primary plane's `rotation` value for each screen rotation, from the bits the plane offers (a table).
@Suite struct ScanoutRotationTests {
    static func property(_ names: [String]) -> DRMProperty {
        let bits: [String: UInt64] = ["rotate-0": 0, "rotate-90": 1, "rotate-180": 2, "rotate-270": 3, "reflect-x": 4, "reflect-y": 5]
        return DRMProperty(
            id: DRMPropertyID(rawValue: 7), name: "rotation", value: 1, kind: .bitmask(names.map { ($0, bits[$0]!) }))
    }

    struct Row: CustomTestStringConvertible {
        let offered: [String]
        let rotation: Rotation
        let value: UInt64?
        var testDescription: String { "\(rotation) with \(offered.joined(separator: ","))" }
    }

    static let vc4 = ["rotate-0", "rotate-180", "reflect-x", "reflect-y"]
    static let reflections = ["rotate-0", "reflect-x", "reflect-y"]
    static let halfTurn = ["rotate-0", "rotate-180"]
    static let rows: [Row] = [
        Row(offered: vc4, rotation: .normal, value: 1),
        Row(offered: vc4, rotation: .rotated180, value: 4),
        Row(offered: vc4, rotation: .flipped, value: 1 | 16),
        Row(offered: vc4, rotation: .flipped180, value: 1 | 32),
        Row(offered: vc4, rotation: .rotated90, value: nil),
        Row(offered: vc4, rotation: .flipped270, value: nil),
        Row(offered: reflections, rotation: .rotated180, value: 1 | 16 | 32),
        Row(offered: halfTurn, rotation: .rotated180, value: 4),
        Row(offered: halfTurn, rotation: .flipped, value: nil),
        Row(offered: halfTurn + ["reflect-x"], rotation: .flipped180, value: 4 | 16),
        Row(offered: ["rotate-0"], rotation: .rotated180, value: nil),
    ]

    @Test(arguments: rows) func value(_ row: Row) {
        #expect(ScanoutRotation.value(for: row.rotation, offered: Self.property(row.offered)) == row.value)
    }

    @Test func anEnumerationIsNoRotationProperty() {
        let property = DRMProperty(id: DRMPropertyID(rawValue: 7), name: "rotation", value: 1, kind: .enumeration([("rotate-0", 1)]))
        #expect(ScanoutRotation.value(for: .normal, offered: property) == nil)
    }
}
