import Foundation
import Graphics
import Testing

@testable import ImageDecoding

/// JPEG against djpeg (libjpeg-turbo's own decoder) on the same files, which cjpeg makes from a test
/// picture: every pixel equal, at full size and at each reduced size.
@Suite struct JPEGDecoderTests {
    /// A JPEG of the test picture, made by cjpeg with `arguments` (quality, subsampling).
    static func jpeg(width: Int, height: Int, _ arguments: [String], in folder: URL) throws -> URL {
        let source = folder.appendingPathComponent("picture.ppm"), jpeg = folder.appendingPathComponent("picture.jpg")
        try ReferenceTools.writeNetpbm(ReferenceTools.picture(width: width, height: height), to: source, alpha: false)
        try ReferenceTools.run("cjpeg", arguments + ["-outfile", jpeg.path, source.path])
        return jpeg
    }

    @Test(arguments: [
        ["-quality", "90"],  // 4:2:0, fancy upsampling's case
        ["-quality", "75", "-sample", "1x1"],  // 4:4:4
        ["-quality", "85", "-progressive"],
        ["-quality", "80", "-grayscale"],
    ])
    func theFullSizeIsDjpegsPixels(arguments: [String]) throws {
        let folder = try ReferenceTools.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try Self.jpeg(width: 203, height: 117, arguments, in: folder)
        let image = try ImageDecoder.decode(contentsOfFile: file.path)
        let reference = try ReferenceTools.netpbm(ReferenceTools.run("djpeg", ["-ppm", file.path]))
        #expect(image.format == .jpeg && image.frames.count == 1 && image.bitmap.isOpaque && image.warnings.isEmpty)
        #expect(ReferenceTools.largestDifference(ReferenceTools.pixels(of: image.bitmap), reference) == 0)
    }

    /// `fitting` picks the smallest DCT scale that still covers the size asked on both sides, and the
    /// pixels are `djpeg -scale` at that scale.
    @Test(
        arguments: [
            ((800, 600), "1/1"), ((400, 300), "1/2"), ((300, 200), "3/8"), ((401, 10), "5/8"), ((100, 75), "1/8"), ((101, 75), "1/4"),
            ((10, 525), "7/8"),
        ] as [((Int, Int), String)])
    func aReducedSizeIsDjpegsScaledDecode(fitting: (Int, Int), scale: String) throws {
        let folder = try ReferenceTools.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try Self.jpeg(width: 800, height: 600, ["-quality", "88"], in: folder)
        let image = try ImageDecoder.decode(contentsOfFile: file.path, options: DecodingOptions(fitting: fitting))
        let reference = try ReferenceTools.netpbm(ReferenceTools.run("djpeg", ["-scale", scale, "-ppm", file.path]))
        #expect((image.bitmap.width, image.bitmap.height) == (reference.width, reference.height), "scale \(scale)")
        #expect(ReferenceTools.largestDifference(ReferenceTools.pixels(of: image.bitmap), reference) == 0)
        #expect((image.sourceWidth, image.sourceHeight) == (800, 600))
    }

    /// The stored pixels turned as the EXIF specification defines each orientation (where the stored
    /// 0th row and column land), checked against the stored decode pixel by pixel.
    @Test(arguments: 1...8)
    func theExifOrientationTurnsThePixels(orientation: Int) throws {
        let folder = try ReferenceTools.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = try [UInt8](Data(contentsOf: Self.jpeg(width: 48, height: 32, ["-quality", "95"], in: folder)))
        for bigEndian in [true, false] {
            let oriented = Self.withExifOrientation(orientation, plain, bigEndian: bigEndian)
            let stored = ReferenceTools.pixels(
                of: try ImageDecoder.decode(bytes: oriented, name: "o.jpg", options: DecodingOptions(appliesOrientation: false)).bitmap)
            let shown = ReferenceTools.pixels(of: try ImageDecoder.decode(bytes: oriented, name: "o.jpg").bitmap)
            let (w, h) = (stored.width, stored.height)
            #expect((shown.width, shown.height) == (orientation >= 5 ? (h, w) : (w, h)))
            // Where shown pixel (x, y) comes from in the stored image.
            let source: (Int, Int) -> (Int, Int) =
                switch orientation {
                case 2: { x, y in (w - 1 - x, y) }
                case 3: { x, y in (w - 1 - x, h - 1 - y) }
                case 4: { x, y in (x, h - 1 - y) }
                case 5: { x, y in (y, x) }
                case 6: { x, y in (y, h - 1 - x) }
                case 7: { x, y in (w - 1 - y, h - 1 - x) }
                case 8: { x, y in (w - 1 - y, x) }
                default: { x, y in (x, y) }
                }
            var wrong = 0
            for y in 0..<shown.height {
                for x in 0..<shown.width {
                    let (sx, sy) = source(x, y)
                    if shown[x, y] != stored[sx, sy] { wrong += 1 }
                }
            }
            #expect(wrong == 0, "orientation \(orientation), \(bigEndian ? "big" : "little")-endian: \(wrong) pixels misplaced")
        }
    }

    /// `plain` with an APP1 Exif segment after SOI whose IFD0 has an orientation tag (and one tag before it).
    static func withExifOrientation(_ orientation: Int, _ plain: [UInt8], bigEndian: Bool) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? u16(v >> 16) + u16(v & 0xFFFF) : u16(v & 0xFFFF) + u16(v >> 16) }
        var tiff: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        tiff += u16(42) + u32(8) + u16(2)
        tiff += u16(0x010F) + u16(2) + u32(4) + Array("Cam\0".utf8)  // Make, ASCII, 4 bytes inline
        tiff += u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0)
        tiff += u32(0)  // no next IFD
        let payload = Array("Exif\0\0".utf8) + tiff
        let length = payload.count + 2
        return Array(plain[0..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + plain[2...]
    }

    /// A file cut anywhere, garbage after the signature, or a header claiming 60000x60000 fails with the
    /// file's name and a reason, and never crashes.
    @Test func badFilesAreRefusedByName() throws {
        let folder = try ReferenceTools.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = try [UInt8](Data(contentsOf: Self.jpeg(width: 64, height: 48, ["-quality", "90"], in: folder)))
        for cut in [3, 20, 200, whole.count / 2, whole.count - 2] {
            let error = #expect(throws: ImageDecodingError.self) { try ImageDecoder.decode(bytes: Array(whole[..<cut]), name: "cut.jpg") }
            #expect(error?.path == "cut.jpg" && error?.format == .jpeg && error?.reason.isEmpty == false, "cut at \(cut)")
        }
        let garbage = [0xFF, 0xD8, 0xFF] + (0..<500).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        #expect(throws: ImageDecodingError.self) { try ImageDecoder.decode(bytes: garbage, name: "garbage.jpg") }

        // The SOF0 frame header's height and width (big-endian, after its length and precision).
        func claiming(_ side: UInt8...) -> [UInt8] {
            var bomb = whole
            let sof = (0..<bomb.count - 1).first { bomb[$0] == 0xFF && bomb[$0 + 1] == 0xC0 }!
            bomb.replaceSubrange((sof + 5)..<(sof + 9), with: side + side)
            return bomb
        }
        let tooWide = #expect(throws: ImageDecodingError.self) { try ImageDecoder.decode(bytes: claiming(0xEA, 0x60), name: "bomb.jpg") }
        #expect(tooWide?.reason == "60000x60000 is over the largest side a bitmap can have, 32767")
        let tooMany = #expect(throws: ImageDecodingError.self) { try ImageDecoder.decode(bytes: claiming(0x4E, 0x20), name: "bomb.jpg") }
        #expect(
            tooMany?.reason
                == "20000x20000 is 400000000 pixels, over the limit of 50000000 (a decompression bomb, or a picture to decode at a reduced size)"
        )
        // Asked for a reduced size, 1/8 (2500x2500) is within the limit, and the data, made for 64x48,
        // runs out before the picture does: libjpeg's warning, refused.
        let cut = #expect(throws: ImageDecodingError.self) {
            try ImageDecoder.decode(bytes: claiming(0x4E, 0x20), name: "bomb.jpg", options: DecodingOptions(fitting: (100, 100)))
        }
        #expect(cut?.reason == "tjDecompress2: Corrupt JPEG data: premature end of data segment", "\(String(describing: cut))")
    }

    /// Bytes between two segments (as some cameras write) are a warning of libjpeg's: the picture is whole,
    /// and the warning is passed on for the caller to log.
    @Test func aWarningOnAWholePictureIsPassedOn() throws {
        let folder = try ReferenceTools.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try Self.jpeg(width: 64, height: 48, ["-quality", "90"], in: folder)
        let whole = try [UInt8](Data(contentsOf: file))
        let afterJFIF = 4 + (Int(whole[4]) << 8 | Int(whole[5]))  // SOI, then APP0's marker and length
        let padded = Array(whole[..<afterJFIF]) + [1, 2, 3] + whole[afterJFIF...]
        let image = try ImageDecoder.decode(bytes: padded, name: "padded.jpg")
        #expect(image.warnings == ["Corrupt JPEG data: 3 extraneous bytes before marker 0xdb"])
        let reference = try ReferenceTools.netpbm(ReferenceTools.run("djpeg", ["-ppm", file.path]))
        #expect(ReferenceTools.largestDifference(ReferenceTools.pixels(of: image.bitmap), reference) == 0)
    }

    @Test func aMissingFileOrAFolderIsNamed() {
        let missing = #expect(throws: ImageDecodingError.self) { try ImageDecoder.decode(contentsOfFile: "/nonexistent/photo.jpg") }
        #expect(missing?.description == "cannot read /nonexistent/photo.jpg: open: No such file or directory")
        let folder = #expect(throws: ImageDecodingError.self) { try ImageDecoder.decode(contentsOfFile: "/tmp") }
        #expect(folder?.description == "cannot read /tmp: not a regular file")
        let empty = #expect(throws: ImageDecodingError.self) { try ImageDecoder.decode(bytes: [], name: "empty.png") }
        #expect(empty?.description == "cannot read empty.png: the file is empty")
    }
}
