import SeededRandom
import Testing

@testable import Graphics

@Suite struct BitmapCompositingTests {
    /// A source and a destination of random premultiplied pixels (seeded), same size.
    static func randomPair(width: Int = 64, height: Int = 64, seed: UInt64) -> (source: Bitmap, destination: Bitmap) {
        var generator = SplitMix64(seed: seed)
        let source = Bitmap(width: width, height: height)
        let destination = Bitmap(width: width, height: height)
        source.setPixels { _, _ in generator.premultipliedPixel() }
        destination.setPixels { _, _ in generator.premultipliedPixel() }
        return (source, destination)
    }

    // MARK: Operators against the premultiplied formulas

    @Test func overMatchesPixmanFormulaExactly() {
        let (source, destination) = Self.randomPair(seed: 1)
        let before = destination.allPixels
        destination.composite(source, destination: destination.bounds)
        let expected = zip(source.allPixels, before).map { referenceOver($0, $1) }
        #expect(destination.allPixels == expected)
    }

    @Test func overAtChosenPixels() {
        let source = Bitmap(width: 1, height: 1)
        let destination = Bitmap(width: 1, height: 1)
        // Half-transparent red (premultiplied 0x80800000) over opaque blue:
        // blue = 0 + 255 * 127 / 255 = 127, red = 128, alpha = 128 + 255 * 127 / 255 = 255.
        source.setPixel(x: 0, y: 0, 0x8080_0000)
        destination.setPixel(x: 0, y: 0, 0xFF00_00FF)
        destination.composite(source, destination: destination.bounds)
        #expect(destination.pixel(x: 0, y: 0) == 0xFF80_007F)
        // Over a transparent pixel the source is copied.
        destination.setPixel(x: 0, y: 0, 0)
        destination.composite(source, destination: destination.bounds)
        #expect(destination.pixel(x: 0, y: 0) == 0x8080_0000)
    }

    @Test(arguments: [0.5, 0.25, 0.8, 1.0 / 255])
    func overWithOpacityMatchesFormulaExactly(opacity: Double) {
        let (source, destination) = Self.randomPair(seed: 2)
        let before = destination.allPixels
        destination.composite(source, destination: destination.bounds, opacity: opacity)
        let mask = UInt32(UInt16(opacity * 65535 + 0.5) >> 8)
        let expected = zip(source.allPixels, before).map { referenceOver(referenceIn($0, mask: mask), $1) }
        #expect(destination.allPixels == expected)
    }

    /// Opaque content copied and darkened is, for every 8-bit mask alpha, exactly a black fill and the
    /// content OVER it through the mask (what the compositor paints for a window fading over black).
    @Test func copyAndDarkenEqualsBlackFillAndOverThroughTheMask() {
        var generator = SplitMix64(seed: 11)
        let source = Bitmap(width: 64, height: 64)
        source.setPixels { _, _ in 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &generator) }
        let opacities = (0...255).map { Double($0) / 255 } + [0.001, 0.3333, 0.5, 0.70001, 0.999]
        for opacity in opacities {
            let reference = Bitmap(width: 64, height: 64, format: .xrgb8888)
            reference.fill(.white, in: reference.bounds)
            reference.fill(.black, operation: .source, in: Region(reference.bounds))
            reference.composite(source, destination: reference.bounds, opacity: opacity)
            let darkened = Bitmap(width: 64, height: 64, format: .xrgb8888)
            darkened.fill(.white, in: darkened.bounds)
            darkened.composite(source, operation: .source, destination: darkened.bounds)
            darkened.darken(by: opacity, in: Region(darkened.bounds))
            let rgb = { (pixels: [UInt32]) in pixels.map { $0 & 0xFF_FFFF } }
            #expect(rgb(darkened.allPixels) == rgb(reference.allPixels), "opacity \(opacity)")
        }
    }

    @Test func sourceCopiesExactly() {
        let (source, destination) = Self.randomPair(seed: 3)
        destination.composite(source, operation: .source, destination: destination.bounds)
        #expect(destination.allPixels == source.allPixels)
    }

    @Test func sourceWithOpacityMatchesFormulaExactly() {
        let (source, destination) = Self.randomPair(seed: 4)
        destination.composite(source, operation: .source, destination: destination.bounds, opacity: 0.5)
        #expect(destination.allPixels == source.allPixels.map { referenceIn($0, mask: 128) })
    }

    /// ADD through complementary masks is the cross-fade of two images, each channel `src·w + dst·(1 − w)`
    /// with pixman's rounding, saturating: what a view transition's dissolve composes.
    @Test(arguments: [0, 1, 64, 127, 128, 200, 255])
    func addThroughComplementaryMasksIsTheCrossFade(weight: Int) {
        let (old, new) = Self.randomPair(seed: 12)
        let blend = Bitmap(width: 64, height: 64)
        blend.composite(old, operation: .add, destination: blend.bounds, opacity: Double(255 - weight) / 255)
        blend.composite(new, operation: .add, destination: blend.bounds, opacity: Double(weight) / 255)
        let mask = UInt32(weight)
        let expected = zip(old.allPixels, new.allPixels).map { a, b in
            perChannel(referenceIn(a, mask: 255 - mask), referenceIn(b, mask: mask)) { min($0 + $1, 255) }
        }
        #expect(blend.allPixels == expected)
    }

    @Test func zeroOpacityOverChangesNothing() {
        let (source, destination) = Self.randomPair(seed: 5)
        let before = destination.allPixels
        destination.composite(source, destination: destination.bounds, opacity: 0)
        #expect(destination.allPixels == before)
    }

    @Test func overOntoXRGB() {
        var generator = SplitMix64(seed: 6)
        let source = Bitmap(width: 32, height: 32)
        let destination = Bitmap(width: 32, height: 32, format: .xrgb8888)
        source.setPixels { _, _ in generator.premultipliedPixel() }
        destination.setPixels { _, _ in UInt32.random(in: 0...UInt32.max, using: &generator) }
        // An xrgb pixel reads as opaque whatever its top byte holds.
        let before = destination.allPixels.map { $0 | 0xFF00_0000 }
        destination.composite(source, destination: destination.bounds)
        let expected = zip(source.allPixels, before).map { referenceOver($0, $1) & 0xFF_FFFF }
        #expect(destination.allPixels.map { $0 & 0xFF_FFFF } == expected)
    }

    // MARK: Placement

    @Test func sourceOriginLandsOnDestinationOrigin() {
        let (source, destination) = Self.randomPair(width: 20, height: 20, seed: 7)
        let before = destination.allPixels
        let target = PixelRect(x: 3, y: 4, width: 6, height: 5)
        destination.composite(source, operation: .source, sourceOrigin: (x: 10, y: 2), destination: target)
        for y in 0..<20 {
            for x in 0..<20 {
                let expected =
                    target.contains(x: Int32(x), y: Int32(y))
                    ? source.pixel(x: x - 3 + 10, y: y - 4 + 2) : before[y * 20 + x]
                #expect(destination.pixel(x: x, y: y) == expected, "(\(x), \(y))")
            }
        }
    }

    /// A `.source` composite of a small bitmap into a large rectangle writes only where the source has
    /// pixels; the rest of the rectangle, and everything outside the bitmap's bounds, is untouched.
    @Test func compositeStaysInsideSourceAndDestination() {
        let source = Bitmap(width: 4, height: 4)
        source.setPixels { _, _ in 0xFF11_2233 }
        let destination = Bitmap(width: 10, height: 10)
        destination.setPixels { _, _ in 0xFFAA_AAAA }
        destination.composite(
            source, operation: .source, sourceOrigin: (x: 2, y: 0),
            destination: PixelRect(x: 7, y: -1, width: 100, height: 100))
        for y in 0..<10 {
            for x in 0..<10 {
                // Source columns 2..<4 land on 7..<9; source rows 0..<4 land on -1..<3.
                let inside = (7..<9).contains(x) && (0..<3).contains(y)
                #expect(destination.pixel(x: x, y: y) == (inside ? 0xFF11_2233 : 0xFFAA_AAAA), "(\(x), \(y))")
            }
        }
    }

    // MARK: Clip

    static let clip = Region(rects: [
        PixelRect(x: 2, y: 2, width: 10, height: 3),
        PixelRect(x: 20, y: 1, width: 5, height: 40),
        PixelRect(x: 5, y: 30, width: 30, height: 2),
        PixelRect(x: -10, y: 50, width: 200, height: 3),
    ])

    @Test(arguments: [CompositeOperation.over, .source], [1.0, 0.5])
    func clipLimitsCompositeExactly(operation: CompositeOperation, opacity: Double) {
        let (source, destination) = Self.randomPair(seed: 8)
        let before = destination.allPixels
        let unclipped = Bitmap(width: 64, height: 64)
        unclipped.setPixels { x, y in before[y * 64 + x] }
        let target = PixelRect(x: 4, y: 0, width: 50, height: 60)
        destination.composite(
            source, operation: operation, sourceOrigin: (x: 1, y: 2), destination: target,
            opacity: opacity, clip: Self.clip)
        unclipped.composite(
            source, operation: operation, sourceOrigin: (x: 1, y: 2), destination: target,
            opacity: opacity)
        for y in 0..<64 {
            for x in 0..<64 {
                let inside = Self.clip.contains(x: Int32(x), y: Int32(y)) && target.contains(x: Int32(x), y: Int32(y))
                let expected = inside ? unclipped.pixel(x: x, y: y) : before[y * 64 + x]
                #expect(destination.pixel(x: x, y: y) == expected, "(\(x), \(y))")
            }
        }
    }

    @Test func clipStrategiesGiveIdenticalPixels() {
        let (source, first) = Self.randomPair(seed: 9)
        let second = Bitmap(width: 64, height: 64)
        second.setPixels { x, y in first.pixel(x: x, y: y) }
        for strategy in [Bitmap.ClipStrategy.destinationClip, .perRectangle] {
            let target = strategy == .destinationClip ? first : second
            target.composite(
                source, operation: .over, sourceOrigin: (x: 3, y: 0), destination: target.bounds,
                opacity: 0.7, clip: Self.clip, strategy: strategy)
        }
        #expect(first.allPixels == second.allPixels)
        // The destination clip is removed again: a later unclipped composite covers everything.
        first.composite(source, operation: .source, destination: first.bounds)
        #expect(first.allPixels == source.allPixels)
    }

    @Test func emptyClipChangesNothing() {
        let (source, destination) = Self.randomPair(seed: 10)
        let before = destination.allPixels
        destination.composite(source, destination: destination.bounds, clip: Region())
        #expect(destination.allPixels == before)
    }

    // MARK: Fill

    @Test func sourceFillWritesPremultipliedColourInsideRegionOnly() {
        let bitmap = Bitmap(width: 40, height: 40)
        bitmap.setPixels { _, _ in 0x1234_5678 }
        let color = Color(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.5)
        let region = Self.clip  // partly outside the bitmap: clipped, no stray writes
        bitmap.fill(color, in: region)
        for y in 0..<40 {
            for x in 0..<40 {
                let expected = region.contains(x: Int32(x), y: Int32(y)) ? color.premultipliedARGB32 : 0x1234_5678
                #expect(bitmap.pixel(x: x, y: y) == expected, "(\(x), \(y))")
            }
        }
        bitmap.fill(.clear, in: PixelRect(x: 0, y: 0, width: 1, height: 1))
        #expect(bitmap.pixel(x: 0, y: 0) == 0)
    }

    @Test func overFillBlendsWithPixmanRounding() {
        let bitmap = Bitmap(width: 8, height: 8)
        bitmap.setPixels { x, y in 0xFF00_0000 | UInt32(x * 30) << 8 | UInt32(y * 30) }
        let before = bitmap.allPixels
        let color = Color(rgb: 0xFF8000, alpha: 0.25)
        bitmap.fill(color, operation: .over, in: bitmap.bounds)
        #expect(bitmap.allPixels == before.map { referenceOver(color.premultipliedARGB32, $0) })
    }

    @Test func fillOfXRGBBitmapSetsColourChannels() {
        let bitmap = Bitmap(width: 4, height: 4, format: .xrgb8888)
        bitmap.fill(.orange, in: bitmap.bounds)
        #expect(bitmap.allPixels.allSatisfy { $0 & 0xFF_FFFF == 0xFF_8000 })
    }
}
