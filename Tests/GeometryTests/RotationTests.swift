import Geometry
import Testing

@Suite struct RotationTests {
    let logical = Size(width: 400, height: 300)

    /// Where the logical top-left corner's pixel (0,0)-(1,1) lands on the panel, for every rotation.
    @Test(arguments: [
        (Rotation.normal, Rect(x: 0, y: 0, width: 1, height: 1)),
        (.rotated90, Rect(x: 299, y: 0, width: 1, height: 1)),
        (.rotated180, Rect(x: 399, y: 299, width: 1, height: 1)),
        (.rotated270, Rect(x: 0, y: 399, width: 1, height: 1)),
        (.flipped, Rect(x: 399, y: 0, width: 1, height: 1)),
        (.flipped90, Rect(x: 299, y: 399, width: 1, height: 1)),
        (.flipped180, Rect(x: 0, y: 299, width: 1, height: 1)),
        (.flipped270, Rect(x: 0, y: 0, width: 1, height: 1)),
    ])
    func topLeftPixel(rotation: Rotation, expected: Rect) {
        #expect(rotation.physicalRect(fromLogical: Rect(x: 0, y: 0, width: 1, height: 1), logicalSize: logical) == expected)
    }

    @Test(arguments: Rotation.allCases)
    func roundTripAndBounds(rotation: Rotation) {
        let physical = rotation.logicalSize(
            forPhysical: rotation.swapsAxes
                ? Size(width: logical.height, height: logical.width) : logical)
        #expect(physical == logical)
        let whole = rotation.physicalRect(fromLogical: Rect(size: logical), logicalSize: logical)
        #expect(whole.minX == 0 && whole.minY == 0)
        #expect(whole.size == (rotation.swapsAxes ? Size(width: 300, height: 400) : logical))
        for p in [Point(x: 0, y: 0), Point(x: 13.5, y: 250), Point(x: 399, y: 1)] {
            let back = rotation.logicalPoint(
                fromPhysical: rotation.physicalPoint(fromLogical: p, logicalSize: logical),
                logicalSize: logical)
            #expect(abs(back.x - p.x) < 1e-9 && abs(back.y - p.y) < 1e-9)
        }
    }

    @Test func configNames() {
        #expect(Rotation.allCases.map(\.name) == ["normal", "90", "180", "270", "flipped", "flipped-90", "flipped-180", "flipped-270"])
        #expect(Rotation(rawValue: "flipped-270") == .flipped270)
    }
}

@Suite struct RectTests {
    @Test func intersectionAndUnion() {
        let a = Rect(x: 0, y: 0, width: 10, height: 10), b = Rect(x: 5, y: 5, width: 10, height: 10)
        #expect(a.intersection(b) == Rect(x: 5, y: 5, width: 5, height: 5))
        #expect(a.union(b) == Rect(x: 0, y: 0, width: 15, height: 15))
        #expect(a.intersection(Rect(x: 20, y: 20, width: 1, height: 1)).isNull)
        #expect(Rect.null.union(b) == b)
    }

    @Test func containsExcludesMaximumEdges() {
        let r = Rect(x: 10, y: 10, width: 10, height: 10)
        #expect(r.contains(Point(x: 10, y: 10)))
        #expect(!r.contains(Point(x: 20, y: 15)))
        #expect(!Rect.zero.contains(Point.zero))
    }

    @Test func integralCoversFractions() {
        #expect(Rect(x: 0.5, y: 1.2, width: 2, height: 2).integral == Rect(x: 0, y: 1, width: 3, height: 3))
    }
}
