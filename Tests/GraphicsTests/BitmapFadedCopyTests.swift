import Testing

@testable import Graphics

/// `copyFaded` (our one-pass loop) against what pixman leaves for the same frame: black filled, then the
/// source composited OVER through the opacity mask.
@Suite struct BitmapFadedCopyTests {
    /// pixman's result: a black fill, then OVER with `opacity`, inside `clip`.
    static func pixmanReference(_ source: Bitmap, size: (Int, Int), at rect: PixelRect, opacity: Double, clip: Region) -> Bitmap {
        let frame = Bitmap(width: size.0, height: size.1, format: .xrgb8888)
        frame.fill(Color(rgb: 0x123456), in: frame.bounds)
        frame.fill(.black, operation: .source, in: clip.intersection(rect).intersection(frame.bounds))
        frame.composite(source, operation: .over, destination: rect, opacity: opacity, clip: clip)
        return frame
    }

    static func faded(_ source: Bitmap, size: (Int, Int), at rect: PixelRect, opacity: Double, clip: Region) -> Bitmap {
        let frame = Bitmap(width: size.0, height: size.1, format: .xrgb8888)
        frame.fill(Color(rgb: 0x123456), in: frame.bounds)
        frame.copyFaded(source, destination: rect, opacity: opacity, clip: clip)
        return frame
    }

    static func colours(_ bitmap: Bitmap) -> [UInt32] { bitmap.allPixels.map { $0 & 0xFF_FFFF } }

    /// Every 8-bit mask alpha, on random premultiplied pixels (odd widths: the four-at-a-time loop and its tail).
    @Test(arguments: [0.0, 1.0 / 255, 0.25, 0.5, 0.5 + 1e-6, 0.7, 254.0 / 255, 1, -1, 2])
    func equalsPixmansFillAndOver(opacity: Double) {
        var generator = SeededGenerator(seed: 7)
        let source = Bitmap(width: 37, height: 9)
        source.setPixels { _, _ in generator.premultipliedPixel() }
        let rect = PixelRect(x: 3, y: 2, width: 37, height: 9)
        let clip = Region(rects: [PixelRect(x: 0, y: 0, width: 20, height: 6), PixelRect(x: 25, y: 4, width: 30, height: 10)])
        let expected = Self.pixmanReference(source, size: (48, 14), at: rect, opacity: opacity, clip: clip)
        let actual = Self.faded(source, size: (48, 14), at: rect, opacity: opacity, clip: clip)
        #expect(Self.colours(actual) == Self.colours(expected))
    }

    @Test func everyMaskAlphaOnEveryByte() {
        // One row holding every byte value as an opaque grey ramp and as premultiplied colours.
        let source = Bitmap(width: 256, height: 2)
        source.setPixels { x, y in
            let c = UInt32(x)
            return y == 0 ? 0xFF00_0000 | c << 16 | c << 8 | c : c << 24 | (c / 2) << 16 | (c / 3) << 8 | c
        }
        for step in 0...255 {
            let opacity = Double(step) / 255
            let rect = source.bounds
            let clip = Region(rect)
            let expected = Self.pixmanReference(source, size: (256, 2), at: rect, opacity: opacity, clip: clip)
            let actual = Self.faded(source, size: (256, 2), at: rect, opacity: opacity, clip: clip)
            #expect(Self.colours(actual) == Self.colours(expected), "opacity \(step)/255")
        }
    }

    @Test func anOpaqueSourceAndTheEdges() {
        let source = Bitmap(width: 10, height: 10, format: .xrgb8888)
        source.fill(Color(rgb: 0x80C0FF), in: source.bounds)
        // Partly outside the frame on the left and top; the clip reaches outside the source.
        let rect = PixelRect(x: -4, y: -3, width: 10, height: 10)
        let clip = Region(PixelRect(x: -10, y: -10, width: 40, height: 40))
        let expected = Self.pixmanReference(source, size: (8, 8), at: rect, opacity: 0.6, clip: clip)
        let actual = Self.faded(source, size: (8, 8), at: rect, opacity: 0.6, clip: clip)
        #expect(Self.colours(actual) == Self.colours(expected))
        #expect(actual.pixel(x: 7, y: 7) & 0xFF_FFFF == 0x123456)  // outside the source: untouched
    }
}
