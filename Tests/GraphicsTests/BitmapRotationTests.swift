import SeededRandom
import Testing

@testable import Graphics

/// `copy(from:rotation:region:)` against the obvious per-pixel loop: each physical pixel inside the
/// region takes the logical pixel whose centre Geometry's `Rotation` maps onto its centre.
@Suite struct BitmapRotationTests {
    static let logicalWidth = 13, logicalHeight = 7
    static let sentinel: UInt32 = 0xDEAD_BEEF

    static func logicalBitmap(_ format: PixelFormat) -> Bitmap {
        var generator = SplitMix64(seed: 77)
        let bitmap = Bitmap(width: logicalWidth, height: logicalHeight, format: format)
        bitmap.setPixels { _, _ in
            format == .xrgb8888
                ? 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &generator)
                : generator.premultipliedPixel()
        }
        return bitmap
    }

    static func check(_ rotation: Rotation, format: PixelFormat, region: (PixelRect) -> Region) {
        let logical = logicalBitmap(format)
        let logicalSize = logical.size
        let physicalSize = rotation.swapsAxes ? (logicalHeight, logicalWidth) : (logicalWidth, logicalHeight)
        let physical = Bitmap(width: physicalSize.0, height: physicalSize.1, format: format)
        physical.setPixels { _, _ in sentinel }
        let copyRegion = region(physical.bounds)
        physical.copy(from: logical, rotation: rotation, region: copyRegion)

        // xrgb's top byte is unspecified after a pixman SRC (fast paths copy it, others write 0xff).
        let mask: UInt32 = format == .xrgb8888 ? 0xFF_FFFF : 0xFFFF_FFFF
        var mismatches = 0
        for py in 0..<physical.height {
            for px in 0..<physical.width {
                let expected: UInt32
                if copyRegion.contains(x: Int32(px), y: Int32(py)) {
                    let l = rotation.logicalPoint(
                        fromPhysical: Point(x: Double(px) + 0.5, y: Double(py) + 0.5),
                        logicalSize: logicalSize)
                    expected = logical.pixel(x: Int(l.x.rounded(.down)), y: Int(l.y.rounded(.down)))
                } else {
                    expected = sentinel
                }
                if physical.pixel(x: px, y: py) & mask != expected & mask { mismatches += 1 }
            }
        }
        #expect(mismatches == 0, "\(rotation) \(format): \(mismatches) pixels differ")
    }

    @Test(arguments: Rotation.allCases, [PixelFormat.argb32Premultiplied, .xrgb8888])
    func wholeBufferIsExact(rotation: Rotation, format: PixelFormat) {
        Self.check(rotation, format: format) { Region($0) }
    }

    @Test(arguments: Rotation.allCases)
    func onlyTheRegionChanges(rotation: Rotation) {
        Self.check(rotation, format: .argb32Premultiplied) { bounds in
            Region(rects: [
                PixelRect(x: 1, y: 1, width: 3, height: 2),
                PixelRect(x: 2, y: 4, width: 1, height: 1),
                PixelRect(x: bounds.width - 2, y: bounds.height - 3, width: 10, height: 10),  // partly outside
                PixelRect(x: -5, y: 5, width: 6, height: 1),
            ])
        }
    }

    /// The compositor's use: damage in logical coordinates, turned into physical with `Region.transformed`.
    @Test(arguments: Rotation.allCases)
    func logicalDamageTransformedToPhysical(rotation: Rotation) {
        let damage = Region(rects: [PixelRect(x: 0, y: 0, width: 4, height: 3), PixelRect(x: 9, y: 2, width: 4, height: 5)])
        Self.check(rotation, format: .argb32Premultiplied) { _ in
            damage.transformed(by: rotation, logicalSize: Size(width: Double(Self.logicalWidth), height: Double(Self.logicalHeight)))
        }
    }
}

extension BitmapRotationTests {
    /// Every way to run the copy gives the same words: pixman with a destination clip, pixman per
    /// rectangle, and (for flipped-90/-270) the tiled Swift transpose the public method uses.
    @Test(arguments: Rotation.allCases, [PixelFormat.argb32Premultiplied, .xrgb8888])
    func copyPathsGiveIdenticalPixels(rotation: Rotation, format: PixelFormat) {
        let logical = Self.logicalBitmap(format)
        let size = rotation.swapsAxes ? (Self.logicalHeight, Self.logicalWidth) : (Self.logicalWidth, Self.logicalHeight)
        let region = Region(rects: [
            PixelRect(x: 0, y: 1, width: 3, height: 3), PixelRect(x: 4, y: 5, width: 2, height: 9),
            PixelRect(x: 1, y: 10, width: 40, height: 1),
        ])
        let paths: [(Bitmap.ClipStrategy, Bool)] = [(.destinationClip, true), (.destinationClip, false), (.perRectangle, false)]
        let results = paths.map { strategy, swift in
            let physical = Bitmap(width: size.0, height: size.1, format: format)
            physical.setPixels { _, _ in Self.sentinel }
            physical.copy(from: logical, rotation: rotation, region: region, strategy: strategy, transposeInSwift: swift)
            return physical.allPixels
        }
        #expect(results[0] == results[1])
        #expect(results[1] == results[2])
    }
}

@Suite struct BitmapWrappingTests {
    /// A bitmap over foreign memory with a wider pitch than needed (as DRM dumb buffers have) writes the
    /// right bytes and leaves the padding alone.
    @Test func copiesIntoForeignMemoryWithItsPitch() {
        let width = 5, height = 3, stride = 32
        let memory = UnsafeMutableRawPointer.allocate(byteCount: stride * height, alignment: 64)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0xAB, count: stride * height)
        let source = Bitmap(width: width, height: height, format: .xrgb8888)
        source.fill(.red, in: source.bounds)
        do {
            let wrapped = Bitmap(wrapping: memory, width: width, height: height, stride: stride, format: .xrgb8888)
            wrapped.copy(from: source, rotation: .normal, region: Region(PixelRect(x: 1, y: 1, width: 2, height: 1)))
            #expect(wrapped.pixel(x: 1, y: 1) & 0xFFFFFF == 0xFF0000 && wrapped.pixel(x: 2, y: 1) & 0xFFFFFF == 0xFF0000)
            #expect(wrapped.pixel(x: 0, y: 0) == 0xABABABAB && wrapped.pixel(x: 3, y: 1) == 0xABABABAB)
        }
        // The bitmap is gone and the memory is still ours, padding untouched.
        #expect(memory.load(fromByteOffset: stride - 4, as: UInt32.self) == 0xABABABAB)
        #expect(memory.load(fromByteOffset: stride + 4, as: UInt32.self) & 0xFFFFFF == 0xFF0000)
    }
}
