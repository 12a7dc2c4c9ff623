import Foundation
import Graphics
import SeededRandom
import Testing

@testable import ImageDecoding

/// GIFDecoder against ImageMagick, frame by frame and pixel by pixel, on the fixtures of
/// `Fixtures/gif/make-fixtures` (each holds one case: a disposal mode, transparency, a local colour map,
/// interlacing, a frame off the screen), then its own rules in tables: durations, loop counts, disposal,
/// the defects it draws anyway and the files it refuses.
///
/// The reference is ImageMagick's `convert FILE -coalesce rgba:-`: a GIF reader of its own (not giflib,
/// the library under test), whose coalescing composites each frame onto the logical screen as browsers
/// do, disposing to transparent (not to the background colour) and restoring for DISPOSE_PREVIOUS. It
/// is Debian's `imagemagick` package, in `scripts/setup`'s test part.
@Suite struct GIFDecoderTests {
    // MARK: - Against the reference

    @Test(
        .enabled(if: Reference.convert != nil || Reference.isCI, "ImageMagick not found (apt-get install imagemagick)"),
        arguments: [
            "still", "dispose-none", "dispose-background", "dispose-previous", "dispose-previous-first", "dispose-unspecified", "local-map",
            "interlaced", "outside-screen", "delays", "no-loop",
        ])
    func everyFrameMatchesImageMagicksCoalescedFrames(fixture: String) throws {
        let image = try decode(fixture)
        let reference = try Reference.coalescedFrames(of: try Fixture.path(fixture), width: image.sourceWidth, height: image.sourceHeight)
        #expect(image.frames.count == reference.count)
        for (index, (frame, expected)) in zip(image.frames, reference).enumerated() {
            let differences = Reference.differences(frame.bitmap, expected)
            #expect(differences.isEmpty, "frame \(index + 1): \(differences.count) pixels differ, first \(differences.prefix(4))")
        }
    }

    // MARK: - Compositing

    @Test func aStillIsOneFrameOfTheScreensSizeWithNoDuration() throws {
        let image = try decode("still")
        #expect(image.format == .gif)
        #expect(image.frames.count == 1 && !image.isAnimated)
        #expect(image.frames[0].duration == 0)
        #expect(image.loopCount == 1)
        #expect((image.sourceWidth, image.sourceHeight) == (16, 12))
        #expect((image.bitmap.width, image.bitmap.height, image.bitmap.format) == (16, 12, .argb32Premultiplied))
        #expect(image.bitmap.pixel(x: 1, y: 0) == Colour.palette8[1])
        #expect(image.bitmap.pixel(x: 3, y: 2) == Colour.palette8[7])
    }

    /// One pixel per disposal mode that tells it from the others: what the next frame shows where the
    /// disposed image was and the next one does not draw.
    @Test(
        arguments: [
            // DISPOSE_DO_NOT: the second image (2,3 8x6; its (1,1) is index 2) stays under the third.
            ("dispose-none", 2, 3, 4, Colour.palette8[2]),
            // Unspecified (0), also with no GCB at all: kept, as DISPOSE_DO_NOT.
            ("dispose-unspecified", 1, 0, 0, Colour.palette8[0]),
            // Nothing ever drawn there: transparent.
            ("dispose-unspecified", 1, 14, 0, 0),
            // DISPOSE_BACKGROUND: the first image's rectangle is cleared to transparent, not to the background.
            ("dispose-background", 1, 0, 0, 0),
            ("dispose-background", 0, 0, 0, Colour.palette8[0]),
            // DISPOSE_PREVIOUS: the magenta second image is gone; the first one's pattern (index 4) is back.
            ("dispose-previous", 1, 4, 4, Colour.palette8[6]),
            ("dispose-previous", 2, 4, 4, Colour.palette8[4]),
            // A transparent index leaves the canvas: the first image shows through the third's holes.
            ("dispose-previous", 2, 8, 1, Colour.palette8[2]),
        ] as [(String, Int, Int, Int, UInt32)])
    func eachDisposalModeLeavesWhatBrowsersLeave(fixture: String, frame: Int, x: Int, y: Int, expected: UInt32) throws {
        let image = try decode(fixture)
        #expect(image.frames[frame].bitmap.pixel(x: x, y: y) == expected)
    }

    /// giflib 5.2.1's DGifSlurp de-interlaces (its NEWS, 5.0.0: "DGifSlurp() and EGifSpew() now read and
    /// write interlaced images properly"; earlier versions left the rows in file order): row y of the
    /// first image is colour y of its local map, in display order.
    @Test func interlacedRowsComeInDisplayOrder() throws {
        let image = try decode("interlaced")
        for y in 0..<13 {
            #expect(image.frames[0].bitmap.pixel(x: 0, y: y) == Colour.palette16[y], "row \(y)")
        }
        // The second image (3,1 5x11, interlaced too): its row y is (y + x) % 8 of the global map.
        for y in 0..<11 {
            #expect(image.frames[1].bitmap.pixel(x: 3, y: 1 + y) == Colour.palette8[y % 8], "row \(y) of the second image")
        }
    }

    @Test func aLocalColourMapIsUsedOverTheGlobalOneForItsImageOnly() throws {
        let image = try decode("local-map")
        #expect(image.frames[1].bitmap.pixel(x: 4, y: 2) == Colour.palette16[1])
        #expect(image.frames[2].bitmap.pixel(x: 6, y: 4) == Colour.palette8[0])
    }

    @Test func imagesOffTheScreenAreClipped() throws {
        let image = try decode("outside-screen")
        #expect((image.bitmap.width, image.bitmap.height) == (12, 10))
        // The second image's (3,3) at the screen's corner: index 1 + 6 % 7.
        #expect(image.frames[1].bitmap.pixel(x: 11, y: 9) == Colour.palette8[7])
        // The third lies wholly outside: nothing changes.
        #expect(Reference.words(image.frames[2].bitmap) == Reference.words(image.frames[1].bitmap))
    }

    /// Chrome draws an index past the colour map as transparent; ImageMagick refuses the file.
    @Test func anIndexPastTheColourMapIsTransparent() throws {
        let image = try decode("bad-index")
        #expect((0..<4).map { image.bitmap.pixel(x: $0, y: 0) } == Array(Colour.palette8[0..<4]))
        #expect((0..<4).map { image.bitmap.pixel(x: $0, y: 1) } == [0, 0, 0, 0])
    }

    // MARK: - Timing

    @Test func delaysAreCentisecondsAndTenMillisecondsOrLessShowForAHundred() throws {
        let image = try decode("delays")
        #expect(image.frames.map(\.duration) == [0.1, 0.1, 0.02, 0.05, 0.1, 1.5])
    }

    @Test(
        arguments: [
            ("0 cs", 0, 0.1), ("1 cs", 1, 0.1), ("2 cs", 2, 0.02), ("10 cs", 10, 0.1), ("a minute", 6000, 60),
        ] as [(String, Int, Double)])
    func aDelayBecomesADuration(_: String, centiseconds: Int, seconds: Double) {
        #expect(GIFTiming.duration(centiseconds: centiseconds) == seconds)
    }

    /// NETSCAPE2.0's count N is N repetitions after the first play, as browsers play it; 0 is forever.
    @Test(arguments: [("dispose-none", 0), ("delays", 4), ("no-loop", 1), ("still", 1)] as [(String, Int)])
    func theLoopCountIsHowOftenBrowsersPlayIt(fixture: String, loopCount: Int) throws {
        #expect(try decode(fixture).loopCount == loopCount)
    }

    // MARK: - Refused files

    @Test(arguments: [
        ("no-color-map", "image 1 of 1 has no colour map, neither its own nor the file's"),
        ("zero-frame", "image 1 is 0x3, which has no pixels"),
    ])
    func aDefectiveFileIsRefusedWithItsReason(fixture: String, reason: String) throws {
        let bytes = try Fixture.bytes(fixture)
        #expect(throws: ImageDecodingError(path: fixture, format: .gif, reason: reason)) {
            try GIFDecoder.decode(bytes, name: fixture, options: DecodingOptions())
        }
    }

    /// dispose-none.gif cut inside each of its parts: giflib's reason, never a crash nor a partial image.
    @Test(arguments: [
        (3, "the signature", "DGifOpen: Failed to read from given file"),
        (10, "the screen descriptor", "DGifOpen: No screen descriptor detected"),
        (20, "the global colour table", "DGifOpen: No screen descriptor detected"),
        (45, "the NETSCAPE2.0 extension", "DGifSlurp: Failed to read from given file"),
        (60, "the first Graphics Control Extension", "DGifSlurp: Failed to read from given file"),
        (70, "the first image descriptor", "DGifSlurp: Failed to read from given file"),
        (75, "the first image, after its LZW code size", "DGifSlurp: Failed to read from given file"),
        (120, "the first image's LZW data", "DGifSlurp: Failed to read from given file"),
        (280, "the last image's LZW data", "DGifSlurp: Failed to read from given file"),
    ])
    func aTruncatedFileIsRefused(length: Int, inside: String, reason: String) throws {
        let bytes = Array(try Fixture.bytes("dispose-none").prefix(length))
        #expect(throws: ImageDecodingError(path: "cut", format: .gif, reason: reason)) {
            try GIFDecoder.decode(bytes, name: "cut", options: DecodingOptions())
        }
    }

    /// A file that ends after its last image, without the trailer byte, is whole: browsers show it.
    @Test func aFileWithoutItsTrailerDecodes() throws {
        let bytes = try Fixture.bytes("dispose-none")
        let image = try GIFDecoder.decode(Array(bytes.dropLast()), name: "untrailed", options: DecodingOptions())
        let whole = try decode("dispose-none")
        #expect(image.frames.map { Reference.words($0.bitmap) } == whole.frames.map { Reference.words($0.bitmap) })
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func garbageAfterTheSignatureIsRefused(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let bytes = Array("GIF89a".utf8) + (0..<200).map { _ in UInt8.random(in: 0...255, using: &random) }
        #expect(throws: ImageDecodingError.self) { try GIFDecoder.decode(bytes, name: "garbage", options: DecodingOptions()) }
    }

    /// Bytes of a valid animation changed at random (sizes, positions, colour tables, LZW codes): each
    /// decodes or is refused, and nothing traps.
    @Test(arguments: 1...40 as ClosedRange<UInt64>)
    func aCorruptedFileDecodesOrIsRefused(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var bytes = try Fixture.bytes("dispose-none")
        for _ in 0..<random.integer(in: 1...6) {
            bytes[random.integer(in: 6...bytes.count - 1)] = UInt8.random(in: 0...255, using: &random)
        }
        do {
            let image = try GIFDecoder.decode(bytes, name: "corrupt", options: DecodingOptions())
            #expect(image.frames.allSatisfy { $0.bitmap.width == image.sourceWidth && $0.bitmap.height == image.sourceHeight })
        } catch {
            #expect(!error.reason.isEmpty)
        }
    }

    @Test func aScreenFollowedByGarbageIsRefusedByGiflib() {
        let bytes = Array("GIF89a".utf8) + [4, 0, 4, 0, 0, 0, 0] + Array("garbage!".utf8)
        #expect(throws: ImageDecodingError(path: "g", format: .gif, reason: "DGifSlurp: Wrong record type detected")) {
            try GIFDecoder.decode(bytes, name: "g", options: DecodingOptions())
        }
    }

    /// The header alone claims the size; the limits refuse it before giflib reads on (which would have
    /// failed on the missing data: its error would show), let alone before a pixel is allocated.
    @Test(arguments: [
        (60000, 60000, "60000x60000 is over the largest side a bitmap can have, 32767"),
        (
            20000, 20000,
            "20000x20000 is 400000000 pixels, over the limit of 50000000 (a decompression bomb, or a picture to decode at a reduced size)"
        ),
    ])
    func aHugeScreenIsRefusedBeforeAnythingIsAllocated(width: Int, height: Int, reason: String) {
        let bytes = Array("GIF89a".utf8) + [UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8), 0, 0, 0]
        #expect(throws: ImageDecodingError(path: "bomb", format: .gif, reason: reason)) {
            try GIFDecoder.decode(bytes + [0x2C], name: "bomb", options: DecodingOptions())
        }
    }

    /// A small screen with an image descriptor claiming 30000x30000: giflib would allocate 900 MB for
    /// its raster whatever the screen.
    @Test func aHugeImageOnASmallScreenIsRefused() {
        let bytes = Array("GIF89a".utf8) + [10, 0, 10, 0, 0, 0, 0] + [0x2C, 0, 0, 0, 0, 0x30, 0x75, 0x30, 0x75, 0, 8]
        #expect(throws: ImageDecodingError(path: "bomb", format: .gif, reason: "image 1 is 30000x30000, over the limit of 50000000 pixels"))
        {
            try GIFDecoder.decode(bytes, name: "bomb", options: DecodingOptions())
        }
    }

    /// dispose-none: 3 canvases of 16x12, 2304 bytes.
    @Test func anAnimationOverTheByteLimitIsRefused() throws {
        let bytes = try Fixture.bytes("dispose-none")
        var options = DecodingOptions()
        options.limits.maximumAnimationBytes = 2303
        #expect(
            throws: ImageDecodingError(path: "a", format: .gif, reason: "3 frames of 16x12 take more than the limit of 2303 bytes decoded")
        ) {
            try GIFDecoder.decode(bytes, name: "a", options: options)
        }
        options.limits.maximumAnimationBytes = 2304
        #expect(try GIFDecoder.decode(bytes, name: "a", options: options).frames.count == 3)
    }

    @Test func theImageDecoderSendsAGIFHere() throws {
        let image = try ImageDecoder.decode(contentsOfFile: try Fixture.path("no-loop"))
        #expect(image.format == .gif && image.frames.count == 2)
        #expect(image.frames.map(\.duration) == [0.5, 0.5])
    }

    private func decode(_ fixture: String) throws -> DecodedImage {
        try GIFDecoder.decode(try Fixture.bytes(fixture), name: fixture, options: DecodingOptions())
    }
}

/// The fixtures' colours (make-fixtures' PALETTE8 and PALETTE16) as canvas words.
private enum Colour {
    static func word(_ red: Int, _ green: Int, _ blue: Int) -> UInt32 {
        0xFF00_0000 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
    }

    static let palette8 = [
        word(0, 0, 0), word(255, 0, 0), word(0, 200, 0), word(0, 0, 255),
        word(255, 255, 0), word(0, 255, 255), word(255, 0, 255), word(250, 250, 250),
    ]
    static let palette16 = (0..<16).map { word(16 * $0, 255 - 16 * $0, (97 * $0) % 256) }
}

private enum Fixture {
    static func path(_ name: String) throws -> String {
        try #require(Bundle.module.url(forResource: name, withExtension: "gif", subdirectory: "Fixtures/gif")).path
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: try path(name))))
    }
}
