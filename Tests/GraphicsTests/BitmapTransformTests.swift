import GoldenImages
import SeededRandom
import Testing

// Only what the golden images need from Foundation: its own AffineTransform would shadow Geometry's.
import class Foundation.FileManager
import class Foundation.ProcessInfo
import struct Foundation.URL

@testable import Graphics

/// `composite(_:transform:opacity:clip:)` and `fill(_:rect:transform:clip:)` against the plain composite
/// and fill, against references computed pixel by pixel from pixman's documented sampling, and against
/// golden images.
@Suite struct BitmapTransformTests {
    static let sentinel: UInt32 = 0xFF20_4060

    static func randomBitmap(width: Int, height: Int, seed: UInt64, format: PixelFormat = .argb32Premultiplied) -> Bitmap {
        var generator = SplitMix64(seed: seed)
        let bitmap = Bitmap(width: width, height: height, format: format)
        bitmap.setPixels { _, _ in generator.premultipliedPixel() }
        return bitmap
    }

    static func copy(of bitmap: Bitmap) -> Bitmap {
        let copy = Bitmap(width: bitmap.width, height: bitmap.height, format: bitmap.format)
        let pixels = bitmap.allPixels
        copy.setPixels { x, y in pixels[y * bitmap.width + x] }
        return copy
    }

    static let clip = Region(rects: [
        PixelRect(x: 0, y: 0, width: 30, height: 6),
        PixelRect(x: 10, y: 6, width: 8, height: 30),
        PixelRect(x: 25, y: 20, width: 40, height: 9),
        PixelRect(x: -5, y: 33, width: 100, height: 2),
    ])

    /// `transform` centred: `source`'s centre goes to `centre`, turned by `angle` and scaled by `scale`
    /// around it.
    static func around(_ size: Size, to centre: Point, angle: Double = 0, scale: Double = 1) -> AffineTransform {
        AffineTransform(translationX: -size.width / 2, y: -size.height / 2)
            .concatenating(AffineTransform(scaleX: scale, y: scale))
            .concatenating(AffineTransform(rotationAngle: angle))
            .concatenating(AffineTransform(translationX: centre.x, y: centre.y))
    }

    // MARK: (a) Whole-pixel translations are the plain composite

    /// Both paths, the plain composite the public method routes to and pixman's bilinear path with the
    /// translation as a matrix, give the plain composite's pixels: pixman samples pixel centres, so a
    /// whole-pixel shift has no half-pixel error to blend.
    @Test(
        arguments: [
            AffineTransform.identity, AffineTransform(translationX: 5, y: -3), AffineTransform(translationX: -7, y: 11),
            AffineTransform(translationX: 40, y: 30),
        ], [1.0, 0.6])
    func wholePixelTranslationEqualsPlainComposite(transform: AffineTransform, opacity: Double) {
        let source = Self.randomBitmap(width: 24, height: 18, seed: 11)
        let original = Self.randomBitmap(width: 48, height: 40, seed: 12)
        for clip in [nil, Self.clip] {
            let expected = Self.copy(of: original)
            expected.composite(
                source,
                destination: PixelRect(x: Int32(transform.tx), y: Int32(transform.ty), width: 24, height: 18),
                opacity: opacity, clip: clip)
            for fastPath in [true, false] {
                let destination = Self.copy(of: original)
                destination.composite(
                    source, transform: transform, opacity: opacity, clip: clip, wholePixelFastPath: fastPath)
                #expect(
                    destination.allPixels == expected.allPixels,
                    "\(transform) opacity \(opacity) clip \(clip != nil) fast path \(fastPath)")
            }
        }
    }

    // MARK: (b) Quarter turns, half turns and mirrors copy pixels exactly

    static let width = 13, height = 7

    /// Quarter turns and mirrors with whole-pixel translations; the bounding boxes land at (3, 2).
    static let exactTransforms: [AffineTransform] = [
        AffineTransform(rotationAngle: .pi / 2).concatenating(AffineTransform(translationX: Double(height + 3), y: 2)),
        AffineTransform(rotationAngle: .pi).concatenating(AffineTransform(translationX: Double(width + 3), y: Double(height + 2))),
        AffineTransform(rotationAngle: -.pi / 2).concatenating(AffineTransform(translationX: 3, y: Double(width + 2))),
        AffineTransform(scaleX: -1, y: 1).concatenating(AffineTransform(translationX: Double(width + 3), y: 2)),
    ]

    /// Each destination pixel inside the turned source is the source pixel whose centre the transform
    /// maps onto its centre, OVER the old pixel (with opacity through the mask); every other pixel keeps
    /// its value.
    @Test(arguments: BitmapTransformTests.exactTransforms, [1.0, 0.5])
    func quarterAndHalfTurnsEqualNearestNeighbourTurn(transform: AffineTransform, opacity: Double) {
        let source = Self.randomBitmap(width: Self.width, height: Self.height, seed: 21)
        let destination = Self.randomBitmap(width: 24, height: 20, seed: 22)
        let before = destination.allPixels
        destination.composite(source, transform: transform, opacity: opacity)

        let inverse = transform.inverted()
        let mask = UInt32(UInt16(opacity * 65535 + 0.5) >> 8)
        var mismatches = 0
        for y in 0..<destination.height {
            for x in 0..<destination.width {
                let s = Point(x: Double(x) + 0.5, y: Double(y) + 0.5).applying(inverse)
                let i = Int(s.x.rounded(.down)), j = Int(s.y.rounded(.down))
                var expected = before[y * destination.width + x]
                if (0..<Self.width).contains(i) && (0..<Self.height).contains(j) {
                    let pixel = source.pixel(x: i, y: j)
                    expected = referenceOver(opacity == 1 ? pixel : referenceIn(pixel, mask: mask), expected)
                }
                if destination.pixel(x: x, y: y) != expected { mismatches += 1 }
            }
        }
        #expect(mismatches == 0, "\(transform): \(mismatches) pixels differ")
    }

    // MARK: (c) Scaling is pixman's bilinear filter

    /// pixman's documented sampling: destination pixel (x, y) samples the source at
    /// `transform⁻¹(x + ½, y + ½)` and interpolates between the four nearest source pixel centres, with
    /// transparent pixels outside the source. Premultiplied channels interpolate independently.
    static func referenceBilinear(_ source: Bitmap, inverse: AffineTransform, x: Int, y: Int) -> [Double] {
        let s = Point(x: Double(x) + 0.5, y: Double(y) + 0.5).applying(inverse)
        let u = s.x - 0.5, v = s.y - 0.5
        let i0 = Int(u.rounded(.down)), j0 = Int(v.rounded(.down))
        let fx = u - Double(i0), fy = v - Double(j0)
        var channels = [0.0, 0, 0, 0]
        for (i, j, weight) in [
            (i0, j0, (1 - fx) * (1 - fy)), (i0 + 1, j0, fx * (1 - fy)), (i0, j0 + 1, (1 - fx) * fy), (i0 + 1, j0 + 1, fx * fy),
        ]
        where (0..<source.width).contains(i) && (0..<source.height).contains(j) {
            let pixel = source.pixel(x: i, y: j)
            for channel in 0..<4 { channels[channel] += weight * Double((pixel >> UInt32(24 - 8 * channel)) & 0xFF) }
        }
        return channels
    }

    /// A 2x scale-up onto a transparent bitmap is the reference bilinear filter within 1 per channel
    /// (pixman interpolates with 7-bit weights, exact for these quarter-pixel positions, and truncates);
    /// the edge pixels are the antialiased blend with the transparent outside, and nothing outside the
    /// bounding box is drawn.
    @Test(arguments: [AffineTransform(translationX: 3, y: 2), AffineTransform(translationX: 3.5, y: 2.25)])
    func twiceScaleUpEqualsReferenceBilinear(translation: AffineTransform) {
        let source = Self.randomBitmap(width: 6, height: 5, seed: 31)
        let destination = Bitmap(width: 20, height: 16)
        let transform = AffineTransform(scaleX: 2, y: 2).concatenating(translation)
        destination.composite(source, transform: transform)

        let box = PixelRect(enclosing: Rect(size: source.size).applying(transform))
        let inverse = transform.inverted()
        var worst = 0.0
        var outside = 0
        for y in 0..<destination.height {
            for x in 0..<destination.width {
                let pixel = destination.pixel(x: x, y: y)
                guard box.contains(x: Int32(x), y: Int32(y)) else {
                    if pixel != 0 { outside += 1 }
                    continue
                }
                let expected = Self.referenceBilinear(source, inverse: inverse, x: x, y: y)
                for channel in 0..<4 {
                    let actual = Double((pixel >> UInt32(24 - 8 * channel)) & 0xFF)
                    worst = max(worst, abs(actual - expected[channel]))
                }
            }
        }
        #expect(worst <= 1, "largest difference \(worst)")
        #expect(outside == 0)
    }

    // MARK: (d) Nothing outside the clip and the bounding box changes

    static let tilted = around(Size(width: 20, height: 12), to: Point(x: 31, y: 27), angle: .pi / 6, scale: 1.3)

    @Test(arguments: [nil, BitmapTransformTests.clip] as [Region?])
    func compositeTouchesOnlyClipAndBoundingBox(clip: Region?) {
        let source = Bitmap(width: 20, height: 12)
        source.setPixels { x, y in (x + y) % 3 == 0 ? 0x8040_2000 : 0xFFC0_8040 }
        let destination = Bitmap(width: 64, height: 60)
        destination.setPixels { _, _ in Self.sentinel }
        destination.composite(source, transform: Self.tilted, opacity: 0.8, clip: clip)
        let box = PixelRect(enclosing: Rect(size: source.size).applying(Self.tilted))
        Self.expectChangesOnlyInside(destination, box: box, clip: clip)
    }

    @Test(arguments: [nil, BitmapTransformTests.clip] as [Region?])
    func fillTouchesOnlyClipAndBoundingBox(clip: Region?) {
        let destination = Bitmap(width: 64, height: 60)
        destination.setPixels { _, _ in Self.sentinel }
        let rect = Rect(x: 0, y: 0, width: 20, height: 12)
        destination.fill(Color(rgb: 0xF0C020, alpha: 0.9), rect: rect, transform: Self.tilted, clip: clip)
        Self.expectChangesOnlyInside(destination, box: PixelRect(enclosing: rect.applying(Self.tilted)), clip: clip)
    }

    /// Every pixel outside `box ∩ clip` still holds the sentinel, and many inside do not.
    static func expectChangesOnlyInside(
        _ bitmap: Bitmap, box: PixelRect, clip: Region?, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var strays = 0, changed = 0
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width where bitmap.pixel(x: x, y: y) != sentinel {
                let allowed = box.contains(x: Int32(x), y: Int32(y)) && clip?.contains(x: Int32(x), y: Int32(y)) != false
                if allowed { changed += 1 } else { strays += 1 }
            }
        }
        #expect(strays == 0, "\(strays) pixels changed outside the clip and bounding box", sourceLocation: sourceLocation)
        #expect(changed > (clip == nil ? 300 : 100), "only \(changed) pixels changed", sourceLocation: sourceLocation)
    }

    @Test func singularTransformsAndZeroOpacityDrawNothing() {
        let source = Self.randomBitmap(width: 10, height: 10, seed: 41)
        let destination = Bitmap(width: 30, height: 30)
        destination.setPixels { _, _ in Self.sentinel }
        let flat = AffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 5, ty: 5)
        destination.composite(source, transform: flat)
        destination.composite(source, transform: AffineTransform(scaleX: 0, y: 1))
        destination.composite(source, transform: AffineTransform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0))
        destination.composite(source, transform: AffineTransform(rotationAngle: 0.3), opacity: 0)
        destination.fill(.red, rect: Rect(x: 0, y: 0, width: 10, height: 10), transform: flat)
        destination.fill(.red, rect: Rect(x: 0, y: 0, width: 0, height: 10), transform: .identity)
        destination.fill(.clear, rect: Rect(x: 0, y: 0, width: 10, height: 10), transform: AffineTransform(rotationAngle: 0.3))
        #expect(destination.allPixels.allSatisfy { $0 == Self.sentinel })
    }

    /// The transform and filter set on the source's shared pixman image and the destination's clip are
    /// gone afterwards: plain composites from and into the same bitmaps give what fresh ones give.
    @Test func pixmanStateIsResetAfterwards() {
        let source = Self.randomBitmap(width: 16, height: 16, seed: 51)
        let destination = Bitmap(width: 40, height: 40)
        destination.composite(source, transform: Self.tilted, opacity: 0.7, clip: Self.clip)
        destination.fill(.blue, rect: Rect(x: 0, y: 0, width: 9, height: 9), transform: Self.tilted, clip: Self.clip)

        let fresh = Bitmap(width: 40, height: 40)
        fresh.composite(source, operation: .source, sourceOrigin: (0, 0), destination: PixelRect(x: 3, y: 5, width: 30, height: 30))
        destination.fill(.clear, in: destination.bounds)
        destination.composite(source, operation: .source, sourceOrigin: (0, 0), destination: PixelRect(x: 3, y: 5, width: 30, height: 30))
        #expect(destination.allPixels == fresh.allPixels)
    }

    /// A source squeezed 4096 times horizontally and placed at (10, 4): the inverse's translation would be
    /// (-40960, -4), beyond 16.16 fixed point's ±32768, but the matrix is taken relative to the drawn area,
    /// so its translation is a point of the source and the 2x4 result lands where it should.
    @Test func farTranslationsStayInFixedPointRange() {
        let source = Bitmap(width: 8192, height: 4)
        source.setPixels { _, _ in 0xFFFF_FFFF }
        let destination = Bitmap(width: 20, height: 12)
        let transform = AffineTransform(scaleX: 1.0 / 4096, y: 1).concatenating(AffineTransform(translationX: 10, y: 4))
        destination.composite(source, transform: transform)
        #expect(destination.inkBounds.map { [$0.minX, $0.maxX, $0.minY, $0.maxY] } == [10, 11, 4, 7])
        #expect(destination.inkPixelCount == 8)
        #expect(destination.pixel(x: 10, y: 4) == 0xFFFF_FFFF && destination.pixel(x: 11, y: 7) == 0xFFFF_FFFF)
    }

    // MARK: (e) Filling a transformed rectangle

    /// A 40x20 rectangle turned by 30° around its centre: pixels wholly inside (centre more than ¾ from
    /// every side; a pixel reaches √½ from its centre) are exactly the colour OVER the sentinel, pixels
    /// wholly outside keep the sentinel, and pixels whose centre is on one side (within 0.1, more than 1
    /// from the others) are a blend strictly between (red channel at least a fifth of the way from each).
    @Test(arguments: [Color.white, Color(rgb: 0xFF8000, alpha: 0.6)])
    func rotatedFillCoversInsideBlendsEdges(color: Color) {
        let bitmap = Bitmap(width: 80, height: 64)
        bitmap.setPixels { _, _ in Self.sentinel }
        let rect = Rect(x: 0, y: 0, width: 40, height: 20)
        let transform = Self.around(rect.size, to: Point(x: 40.3, y: 31.7), angle: .pi / 6)
        bitmap.fill(color, rect: rect, transform: transform)

        let inverse = transform.inverted()
        let full = referenceOver(color.premultipliedARGB32, Self.sentinel)
        let (lo, hi) = ((Self.sentinel >> 16) & 0xFF, (full >> 16) & 0xFF)
        var inside = 0, outside = 0, edge = 0, wrong: [String] = []
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                // Signed distances from the pixel centre to the four sides (no scale: pixels), positive inside.
                let p = Point(x: Double(x) + 0.5, y: Double(y) + 0.5).applying(inverse)
                let sides = [p.x, rect.width - p.x, p.y, rect.height - p.y].sorted()
                let pixel = bitmap.pixel(x: x, y: y)
                if sides[0] > 0.75 {
                    inside += 1
                    if pixel != full { wrong.append("inside (\(x), \(y)) \(hexWord(pixel))") }
                } else if sides[0] < -0.75 {
                    outside += 1
                    if pixel != Self.sentinel { wrong.append("outside (\(x), \(y)) \(hexWord(pixel))") }
                } else if abs(sides[0]) < 0.1 && sides[1] > 1 {
                    edge += 1
                    let red = (pixel >> 16) & 0xFF, margin = (hi - lo) / 5
                    if !(lo + margin < red && red < hi - margin) { wrong.append("edge (\(x), \(y)) \(hexWord(pixel))") }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong: \(wrong.prefix(5))")
        #expect(inside > 500 && outside > 3000 && edge > 20, "inside \(inside), outside \(outside), edge \(edge)")
    }

    /// Rectangles that map onto whole pixels, axis-aligned (a translation, a quarter turn, a scale with a
    /// mirror and a half-pixel shift): the fast path is the plain fill, and pixman's rasterizer, forced,
    /// covers exactly the same pixels fully (255 samples per pixel), so both paths equal
    /// `fill(_:operation:in:)`.
    static let wholePixelFills: [(AffineTransform, Rect)] = [
        (AffineTransform(translationX: 3, y: -2), Rect(x: 1, y: 2, width: 11, height: 17)),
        (
            AffineTransform(rotationAngle: .pi / 2).concatenating(AffineTransform(translationX: 30, y: 1)),
            Rect(x: 1, y: 2, width: 11, height: 17)
        ),
        (
            AffineTransform(scaleX: 2, y: -1).concatenating(AffineTransform(translationX: 0.5, y: 25)),
            Rect(x: 1.25, y: 2, width: 11.5, height: 17)
        ),
    ]

    @Test(arguments: BitmapTransformTests.wholePixelFills, [Color(rgb: 0x3366CC), Color(rgb: 0x3366CC, alpha: 0.5)])
    func wholePixelFillsEqualPlainFill(fill: (transform: AffineTransform, rect: Rect), color: Color) {
        let original = Self.randomBitmap(width: 40, height: 32, seed: 61)
        let drawn = PixelRect(enclosing: fill.rect.applying(fill.transform))
        #expect(drawn.rect == fill.rect.applying(fill.transform), "the case maps onto whole pixels")
        for clip in [nil, Self.clip] {
            let expected = Self.copy(of: original)
            expected.fill(color, operation: .over, in: clip.map { $0.intersection(drawn) } ?? Region(drawn))
            for fastPath in [true, false] {
                let bitmap = Self.copy(of: original)
                bitmap.fill(color, rect: fill.rect, transform: fill.transform, clip: clip, wholePixelFastPath: fastPath)
                #expect(bitmap.allPixels == expected.allPixels, "\(fill.transform) clip \(clip != nil) fast path \(fastPath)")
            }
        }
    }

    /// A rectangle far larger than the bitmap and than 16.16 fixed point's range, turned: clipped before
    /// pixman sees it, so the visible part is filled and nothing overflows.
    @Test func hugeRotatedFillIsClippedFirst() {
        let bitmap = Bitmap(width: 30, height: 20)
        let transform = AffineTransform(rotationAngle: 0.1).concatenating(AffineTransform(translationX: -50000, y: -50000))
        bitmap.fill(.green, rect: Rect(x: 0, y: 0, width: 200_000, height: 200_000), transform: transform)
        #expect(bitmap.allPixels.allSatisfy { $0 == Color.green.premultipliedARGB32 })
    }

    @Test func polygonClipAndTrapezoids() {
        // A diamond cut by a square: an octagon, in the diamond's order.
        let diamond = [Point(x: 5, y: 0), Point(x: 10, y: 5), Point(x: 5, y: 10), Point(x: 0, y: 5)]
        let octagon = Bitmap.clip(diamond, to: Rect(x: 1, y: 1, width: 8, height: 8))
        #expect(octagon.count == 8)
        #expect(octagon.allSatisfy { (1...9).contains($0.x) && (1...9).contains($0.y) })
        #expect(Bitmap.clip(diamond, to: Rect(x: 20, y: 0, width: 5, height: 5)).isEmpty)
        // Bands at the octagon's vertex heights 1, 4, 6, 9: three trapezoids.
        let traps = Bitmap.trapezoids(ofConvexPolygon: octagon)
        #expect(traps.map(\.top) == [1, 4, 6].map { Int32($0) << 16 })
        #expect(traps.map(\.bottom) == [4, 6, 9].map { Int32($0) << 16 })
    }

    // MARK: (f) Golden images

    /// 96x64: an 8-pixel checkerboard on the left, 4-pixel red, white and blue stripes on the right, a
    /// diagonal stripe pattern along the bottom, a one-pixel dark frame: edges in every direction, no text.
    static func pattern() -> Bitmap {
        let bitmap = Bitmap(width: 96, height: 64)
        let stripes: [UInt32] = [0xFFD0_2020, 0xFFF0_F0F0, 0xFF20_40C0]
        bitmap.setPixels { x, y in
            if x == 0 || y == 0 || x == 95 || y == 63 { return 0xFF10_1010 }
            if y >= 48 { return (x + y) / 6 % 2 == 0 ? 0xFF20_A040 : 0xFFF0_E060 }
            if x < 48 { return (x / 8 + y / 8) % 2 == 0 ? 0xFF00_0000 : 0xFFFF_FFFF }
            return stripes[(x - 48) / 4 % 3]
        }
        return bitmap
    }

    static let goldenBackground = Color(rgb: 0x808890)

    @Test func goldenRotated30() throws {
        let frame = Bitmap(width: 160, height: 140, format: .xrgb8888)
        frame.fill(Self.goldenBackground, in: frame.bounds)
        frame.composite(Self.pattern(), transform: Self.around(Size(width: 96, height: 64), to: Point(x: 80, y: 70), angle: .pi / 6))
        try expectGolden(frame, named: "transform-rotated-30")
    }

    @Test func goldenScaled1_5() throws {
        let frame = Bitmap(width: 170, height: 120, format: .xrgb8888)
        frame.fill(Self.goldenBackground, in: frame.bounds)
        frame.composite(Self.pattern(), transform: Self.around(Size(width: 96, height: 64), to: Point(x: 85, y: 60), scale: 1.5))
        try expectGolden(frame, named: "transform-scaled-1.5")
    }

    /// Rotated and scaled together, with opacity, over a rotated fill.
    @Test func goldenFillAndCompositeRotatedScaled() throws {
        let frame = Bitmap(width: 200, height: 160, format: .xrgb8888)
        frame.fill(Self.goldenBackground, in: frame.bounds)
        let panel = Rect(x: 0, y: 0, width: 150, height: 90)
        frame.fill(Color(rgb: 0x203050), rect: panel, transform: Self.around(panel.size, to: Point(x: 100, y: 80), angle: -.pi / 9))
        frame.composite(
            Self.pattern(), transform: Self.around(Size(width: 96, height: 64), to: Point(x: 100, y: 80), angle: .pi / 6, scale: 1.5),
            opacity: 0.85)
        try expectGolden(frame, named: "transform-fill-rotated-scaled")
    }
}

/// Compares the colour of `image` with `Fixtures/<name>.png` in the source tree (`GoldenImages`).
private func expectGolden(_ image: Bitmap, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    try GoldenImages.expectGolden(image, named: name, in: folder, sourceLocation: sourceLocation)
}
