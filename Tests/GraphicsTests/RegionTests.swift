import Graphics
import Testing

@Suite struct RegionTests {
    let a = PixelRect(x: 0, y: 0, width: 10, height: 10)
    let b = PixelRect(x: 5, y: 5, width: 10, height: 10)

    @Test func emptyRegion() {
        let empty = Region()
        #expect(empty.isEmpty)
        #expect(empty.rects.isEmpty)
        #expect(empty.extents == .zero)
        #expect(empty.area == 0)
        #expect(empty == Region(PixelRect(x: 3, y: 3, width: 0, height: 5)))
        #expect(empty == Region(rects: [PixelRect(x: 1, y: 1, width: -2, height: 4)]))
        #expect(!empty.contains(x: 0, y: 0))
        #expect(empty.description == "Region(empty)")
    }

    @Test func unionIsBandedYThenX() {
        let union = Region(a).union(Region(b))
        #expect(
            union.rects == [
                PixelRect(x: 0, y: 0, width: 10, height: 5),
                PixelRect(x: 0, y: 5, width: 15, height: 5),
                PixelRect(x: 5, y: 10, width: 10, height: 5),
            ])
        #expect(union.area == 175)
        #expect(union.extents == PixelRect(x: 0, y: 0, width: 15, height: 15))
        #expect(union.contains(x: 14, y: 14))
        #expect(!union.contains(x: 14, y: 0))
        #expect(!union.contains(x: 15, y: 14))  // the maximum edge is outside
    }

    @Test func formUnionWithRectMatchesUnion() {
        var region = Region(a)
        region.formUnion(b)
        #expect(region == Region(a).union(b))
        #expect(region == Region(rects: [b, a]))
    }

    @Test func intersection() {
        #expect(Region(a).intersection(Region(b)).rects == [PixelRect(x: 5, y: 5, width: 5, height: 5)])
        #expect(Region(a).intersection(b) == Region(PixelRect(x: 5, y: 5, width: 5, height: 5)))
        #expect(Region(a).intersection(PixelRect(x: 20, y: 20, width: 5, height: 5)).isEmpty)
    }

    @Test func subtraction() {
        let difference = Region(a).subtracting(b)
        #expect(
            difference.rects == [
                PixelRect(x: 0, y: 0, width: 10, height: 5),
                PixelRect(x: 0, y: 5, width: 5, height: 5),
            ])
        #expect(difference.area == 75)
        #expect(difference == Region(a).subtracting(Region(b)))
        // A hole: four bands around the centre.
        let ring = Region(PixelRect(x: 0, y: 0, width: 9, height: 9)).subtracting(PixelRect(x: 3, y: 3, width: 3, height: 3))
        #expect(ring.rects.count == 4)
        #expect(ring.area == 72)
        #expect(!ring.contains(x: 4, y: 4))
    }

    @Test func equalityIgnoresHowTheRegionWasBuilt() {
        // Two halves side by side merge into one band with one rectangle.
        let halves = Region(rects: [PixelRect(x: 5, y: 0, width: 5, height: 10), PixelRect(x: 0, y: 0, width: 5, height: 10)])
        #expect(halves == Region(a))
        #expect(halves.rects == [a])
        // Vertically stacked equal bands merge too.
        let stacked = Region(PixelRect(x: 0, y: 0, width: 10, height: 4)).union(PixelRect(x: 0, y: 4, width: 10, height: 6))
        #expect(stacked.rects == [a])
        #expect(Region(a) != Region(b))
    }

    @Test func containsRectangle() {
        let union = Region(a).union(b)
        #expect(union.contains(PixelRect(x: 0, y: 5, width: 15, height: 5)))
        #expect(union.contains(PixelRect(x: 5, y: 2, width: 5, height: 12)))
        #expect(!union.contains(PixelRect(x: 0, y: 0, width: 15, height: 5)))
        #expect(!union.contains(PixelRect(x: 2, y: 2, width: 0, height: 0)))  // empty: never contained
    }

    @Test func translation() {
        let moved = Region(a).union(b).translatedBy(dx: -5, dy: 7)
        #expect(moved.extents == PixelRect(x: -5, y: 7, width: 15, height: 15))
        #expect(moved == Region(PixelRect(x: -5, y: 7, width: 10, height: 10)).union(PixelRect(x: 0, y: 12, width: 10, height: 10)))
    }

    @Test func copiesAreIndependent() {
        let original = Region(a)
        var copy = original
        copy.formUnion(b)
        #expect(original == Region(a))
        #expect(copy.area == 175)
        var selfUnion = copy
        selfUnion.formUnion(selfUnion)
        #expect(selfUnion == copy)
    }

    @Test func description() {
        #expect(Region(rects: [PixelRect(x: 1, y: 2, width: 3, height: 4)]).description == "Region((1, 2, 3x4))")
    }

    @Test func rotationOfOnePixel() {
        let logicalSize = Size(width: 7, height: 5)
        let pixel = Region(PixelRect(x: 0, y: 0, width: 1, height: 1))
        // Where logical (0, 0) lands on the panel for each rotation (clockwise, mirror first).
        let expected: [Rotation: (Int32, Int32)] = [
            .normal: (0, 0), .rotated90: (4, 0), .rotated180: (6, 4), .rotated270: (0, 6),
            .flipped: (6, 0), .flipped90: (4, 6), .flipped180: (0, 4), .flipped270: (0, 0),
        ]
        for rotation in Rotation.allCases {
            let (x, y) = expected[rotation]!
            #expect(
                pixel.transformed(by: rotation, logicalSize: logicalSize) == Region(PixelRect(x: x, y: y, width: 1, height: 1)),
                "\(rotation)")
        }
    }

    /// Every logical pixel is in the region exactly when the physical pixel it maps onto (by its centre,
    /// through Geometry's Rotation) is in the transformed region, for all 8 rotations.
    @Test(arguments: Rotation.allCases)
    func rotationMapsEveryPixel(rotation: Rotation) {
        let logicalSize = Size(width: 13, height: 8)
        let region = Region(rects: [
            PixelRect(x: 0, y: 0, width: 4, height: 3),
            PixelRect(x: 2, y: 2, width: 7, height: 2),
            PixelRect(x: 10, y: 5, width: 3, height: 3),
            PixelRect(x: 6, y: 7, width: 1, height: 1),
        ])
        let physical = region.transformed(by: rotation, logicalSize: logicalSize)
        #expect(physical.area == region.area)
        let physicalSize = rotation.swapsAxes ? Size(width: 8, height: 13) : logicalSize
        #expect(
            PixelRect(x: 0, y: 0, width: Int32(physicalSize.width), height: Int32(physicalSize.height))
                .intersection(physical.extents) == physical.extents)
        for y in 0..<8 {
            for x in 0..<13 {
                let p = rotation.physicalPoint(
                    fromLogical: Point(x: Double(x) + 0.5, y: Double(y) + 0.5),
                    logicalSize: logicalSize)
                #expect(
                    region.contains(x: Int32(x), y: Int32(y))
                        == physical.contains(x: Int32(p.x.rounded(.down)), y: Int32(p.y.rounded(.down))))
            }
        }
        // And back: the inverse rotation of a rotated region is the original.
        #expect(
            Rotation.allCases.contains { back in
                physical.transformed(by: back, logicalSize: physicalSize) == region
            })
    }
}

@Suite struct PixelRectTests {
    @Test func enclosingRoundsOutward() {
        #expect(PixelRect(enclosing: Rect(x: 1.5, y: -0.25, width: 2, height: 1)) == PixelRect(x: 1, y: -1, width: 3, height: 2))
        #expect(PixelRect(enclosing: Rect(x: 2, y: 3, width: 10, height: 10)) == PixelRect(x: 2, y: 3, width: 10, height: 10))
        #expect(PixelRect(enclosing: .null) == .zero)
        #expect(PixelRect(enclosing: Rect(x: 0, y: 0, width: .infinity, height: 1)) == .zero)
        #expect(PixelRect(enclosing: Rect(x: 0, y: 0, width: 1e12, height: 1)).width == PixelRect.coordinateLimit)
        // From one end of the range to the other: the width fits in Int32 (it trapped).
        #expect(
            PixelRect(enclosing: Rect(x: -3e9, y: 0, width: 6e9, height: 1))
                == PixelRect(x: -PixelRect.coordinateLimit, y: 0, width: 2 * PixelRect.coordinateLimit, height: 1))
    }

    @Test func intersectionAndContains() {
        let r = PixelRect(x: 0, y: 0, width: 10, height: 10)
        #expect(r.intersection(PixelRect(x: 5, y: -5, width: 10, height: 10)) == PixelRect(x: 5, y: 0, width: 5, height: 5))
        #expect(r.intersection(PixelRect(x: 10, y: 0, width: 5, height: 5)) == .zero)
        #expect(r.contains(x: 9, y: 0))
        #expect(!r.contains(x: 10, y: 0))
        #expect(PixelRect(x: 0, y: 0, width: 0, height: 3).isEmpty)
        #expect(r.rect == Rect(x: 0, y: 0, width: 10, height: 10))
    }
}
