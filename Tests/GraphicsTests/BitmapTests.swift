import Foundation
import Glibc
import SeededRandom
import Testing

@testable import Graphics

@Suite struct BitmapTests {
    @Test func newBitmapIsZeroFilled() {
        let bitmap = Bitmap(width: 5, height: 3, format: .argb32Premultiplied)
        #expect(bitmap.width == 5 && bitmap.height == 3)
        #expect(bitmap.stride == 20)
        #expect(bitmap.size == Size(width: 5, height: 3))
        #expect(bitmap.allPixels.allSatisfy { $0 == 0 })
        #expect(!bitmap.isOpaque)
        #expect(Bitmap(width: 5, height: 3, format: .xrgb8888).isOpaque)
        bitmap.withUnsafeBytes { #expect($0.count == 60) }
    }

    @Test func emptyBitmapIsUsable() {
        let empty = Bitmap(width: 0, height: 0)
        let target = Bitmap(width: 4, height: 4)
        target.composite(empty, destination: target.bounds)
        target.fill(.red, in: Region())
        #expect(target.allPixels.allSatisfy { $0 == 0 })
    }

    @Test func rawBytesWriteThroughToPixels() {
        let bitmap = Bitmap(width: 3, height: 2)
        bitmap.setPixel(x: 2, y: 1, 0x8040_2010)
        #expect(bitmap.pixel(x: 2, y: 1) == 0x8040_2010)
        bitmap.withUnsafeBytes { bytes in
            #expect(bytes.load(fromByteOffset: bitmap.stride + 8, as: UInt32.self) == 0x8040_2010)
        }
    }

    /// Composition alone needs no cairo surface (a display's scanout buffers are made and filled before
    /// cairo is loaded); cairo's first drawing makes it, over the same pixels, which pixman then still
    /// sees, for each way a bitmap holds its memory.
    @Test func cairoComesOnlyWithTheFirstDrawing() {
        let wrapped = UnsafeMutableRawPointer.allocate(byteCount: 64 * 64 * 4, alignment: 16)
        defer { wrapped.deallocate() }
        for bitmap in [
            Bitmap(width: 4, height: 4), Bitmap(width: 256, height: 256),
            Bitmap(wrapping: wrapped, width: 64, height: 64, stride: 256, format: .xrgb8888),
        ] {
            bitmap.fill(.red, in: bitmap.bounds)
            bitmap.composite(Bitmap(width: 2, height: 2), destination: bitmap.bounds)
            bitmap.withUnsafeMutableBytes { $0.storeBytes(of: 0xFF00_FF00, toByteOffset: 0, as: UInt32.self) }
            #expect(bitmap.pixel(x: 1, y: 1) | 0xFF00_0000 == 0xFFFF_0000)
            #expect(!bitmap.hasCairoSurface, "\(bitmap)")
            let drawing = DrawingContext(bitmap: bitmap)
            drawing.fill(Rect(x: 0, y: 0, width: 1, height: 1), color: .blue)
            drawing.flush()
            #expect(bitmap.hasCairoSurface)
            #expect(bitmap.pixel(x: 0, y: 0) | 0xFF00_0000 == 0xFF00_00FF)
            #expect(bitmap.pixel(x: 1, y: 0) | 0xFF00_0000 == 0xFFFF_0000)
            bitmap.fill(.green, in: PixelRect(x: 0, y: 0, width: 1, height: 1))
            #expect(bitmap.pixel(x: 0, y: 0) | 0xFF00_0000 == 0xFF00_FF00)
        }
    }

    // MARK: PNG

    /// A bitmap with opaque, translucent and clear pixels whose premultiplied values survive a PNG round
    /// trip (cairo un-premultiplies on write and premultiplies on read).
    static func sampleBitmap(width: Int = 9, height: Int = 7) -> Bitmap {
        let bitmap = Bitmap(width: width, height: height)
        var generator = SplitMix64(seed: 42)
        bitmap.setPixels { _, _ in generator.premultipliedPixel() }
        bitmap.setPixel(x: 0, y: 0, 0xFFFF_0000)
        bitmap.setPixel(x: 1, y: 0, 0x8000_4080)
        bitmap.setPixel(x: 2, y: 0, 0x0000_0000)
        return bitmap
    }

    @Test func pngFileRoundTrip() throws {
        let original = Self.sampleBitmap()
        let reloaded = try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("sample.png").path
            try original.writePNG(to: path)
            return try Bitmap(contentsOfPNGFile: path)
        }
        #expect(reloaded.format == .argb32Premultiplied)
        #expect(reloaded.width == original.width && reloaded.height == original.height)
        #expect(reloaded.allPixels == original.allPixels)
    }

    @Test func pngDataRoundTrip() throws {
        let original = Self.sampleBitmap(width: 31, height: 17)
        let data = try original.pngData()
        #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        let reloaded = try Bitmap(pngData: data)
        #expect(reloaded.allPixels == original.allPixels)
    }

    @Test func opaquePNGLoadsAsXRGB() throws {
        let original = Bitmap(width: 4, height: 4, format: .xrgb8888)
        original.setPixels { x, y in 0xFF00_0000 | UInt32(x * 60) << 16 | UInt32(y * 60) }
        let reloaded = try Bitmap(pngData: original.pngData())
        #expect(reloaded.format == .xrgb8888)
        #expect(reloaded.allPixels.map { $0 & 0xFF_FFFF } == original.allPixels.map { $0 & 0xFF_FFFF })
    }

    @Test func missingFileNamesThePath() {
        let path = "/nonexistent-\(UUID().uuidString)/logo.png"
        #expect {
            try Bitmap(contentsOfPNGFile: path)
        } throws: { error in
            guard let error = error as? GraphicsError else { return false }
            return error.isFileNotFound && error.path == path
                && error.description == "cairo_image_surface_create_from_png(\"\(path)\"): file not found"
        }
    }

    @Test func corruptFileNamesThePath() throws {
        try withTemporaryDirectory { directory in
            let path = directory.appendingPathComponent("corrupt.png").path
            // A PNG signature followed by garbage, and a file that is not a PNG at all.
            for contents: [UInt8] in [[0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3], Array("hello".utf8)] {
                try Data(contents).write(to: URL(fileURLWithPath: path))
                let error = #expect(throws: GraphicsError.self) { try Bitmap(contentsOfPNGFile: path) }
                #expect(error?.path == path)
                #expect(error?.isFileNotFound == false)
                #expect(error?.description.hasPrefix("cairo_image_surface_create_from_png(\"\(path)\"): ") == true)
            }
        }
    }

    @Test func truncatedDataThrows() throws {
        let data = try Self.sampleBitmap().pngData()
        let error = #expect(throws: GraphicsError.self) { try Bitmap(pngData: Array(data.prefix(data.count / 2))) }
        #expect(error?.operation == "cairo_image_surface_create_from_png_stream")
        #expect(error?.path == nil)
        #expect(throws: GraphicsError.self) { try Bitmap(pngData: []) }
    }

    @Test func unwritablePathThrows() {
        let path = "/nonexistent-\(UUID().uuidString)/out.png"
        let error = #expect(throws: GraphicsError.self) { try Self.sampleBitmap().writePNG(to: path) }
        #expect(error?.description.hasPrefix("cairo_surface_write_to_png(\"\(path)\"): ") == true)
    }

    /// `Fixtures/sample.png` was written by `sampleBitmap()` (run with `GRAPHICS_WRITE_FIXTURES=<dir>` to
    /// regenerate it); loading it through the bundle checks the reader against a file not made in this run.
    @Test func fixtureMatchesItsGenerator() throws {
        if let directory = ProcessInfo.processInfo.environment["GRAPHICS_WRITE_FIXTURES"] {
            try Self.sampleBitmap().writePNG(to: directory + "/sample.png")
        }
        let url = try #require(Bundle.module.url(forResource: "sample", withExtension: "png", subdirectory: "Fixtures"))
        let fixture = try Bitmap(contentsOfPNGFile: url.path)
        #expect(fixture.allPixels == Self.sampleBitmap().allPixels)
        #expect(fixture.pixel(x: 1, y: 0) == 0x8000_4080)
    }

    /// A large bitmap's pages take memory only once written (its own mapping, zero pages until then), even
    /// after large bitmaps were freed, which makes glibc's malloc take blocks of that size from its heap,
    /// cleared whole.
    @Test func aLargeBitmapTakesMemoryOnlyWhereItIsDrawn() {
        for _ in 0..<4 {
            let large = Bitmap(width: 1024, height: 1024)
            DrawingContext(bitmap: large).fill(Rect(x: 0, y: 0, width: 1024, height: 1024), color: .red)
        }
        let bitmap = Bitmap(width: 1000, height: 1000)
        let context = DrawingContext(bitmap: bitmap)
        context.fill(Rect(x: 0, y: 0, width: 10, height: 10), color: .blue)
        context.flush()
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let length = bitmap.stride * bitmap.height
        let pages = (length + pageSize - 1) / pageSize
        var resident = [UInt8](repeating: 0, count: pages)
        #expect(mincore(bitmap.data, length, &resident) == 0)
        let count = resident.filter { $0 & 1 != 0 }.count
        // The 10 rows drawn: 10 pages of 977 with 4 KiB pages, fewer with an arm64 kernel's 16 or 64 KiB ones.
        #expect(count <= 16, "\(count) of \(pages) pages resident")
    }
}
