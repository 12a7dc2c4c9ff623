import Foundation
import Graphics
import Testing

@testable import ImageDecoding

/// WebP against libwebp's own tools: a still image against dwebp's decode of the same file, an animation
/// against the frames img2webp encoded losslessly (which it stores as changed rectangles blended onto
/// the previous canvas, so each full canvas must be put back together exactly).
@Suite struct WebPDecoderTests {
    @Test(
        arguments: [
            (["-q", "80"], false), (["-lossless"], false), (["-q", "70"], true), (["-lossless"], true),
        ] as [([String], Bool)])
    func aStillImageIsDwebpsPixels(arguments: [String], alpha: Bool) throws {
        let folder = try ReferenceTools.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("picture.pam"), webp = folder.appendingPathComponent("picture.webp")
        try ReferenceTools.writeNetpbm(ReferenceTools.picture(width: 157, height: 93, alpha: alpha), to: source, alpha: true)
        try ReferenceTools.run("cwebp", arguments + ["-quiet", "-exact", source.path, "-o", webp.path])
        let image = try ImageDecoder.decode(contentsOfFile: webp.path)
        let reference = try ReferenceTools.netpbm(ReferenceTools.run("dwebp", ["-quiet", "-pam", webp.path, "-o", "-"]))
        #expect(image.format == .webp && image.frames.count == 1 && image.frames[0].duration == 0)
        #expect(image.bitmap.isOpaque == !alpha)
        // Compared premultiplied: libwebp premultiplies with its own rounding, which may differ by 1.
        let difference = ReferenceTools.largestDifference(
            ReferenceTools.premultipliedPixels(of: image.bitmap), ReferenceTools.premultiplied(reference))
        #expect(difference != nil && difference! <= (alpha ? 1 : 0), "largest difference \(String(describing: difference))")
    }

    @Test func anAnimationGivesEveryFullCanvasWithItsDuration() throws {
        let folder = try ReferenceTools.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Four opaque frames where only a square moves: img2webp stores frames 2-4 as small rectangles.
        var frames: [ReferenceTools.Pixels] = []
        var arguments = ["-loop", "3", "-lossless"]
        let durations = [40, 120, 5, 70]
        for index in 0..<4 {
            var frame = ReferenceTools.picture(width: 64, height: 40, seed: 9)
            for y in 10..<20 {
                for x in (index * 12)..<(index * 12 + 10) {
                    frame.rgba.replaceSubrange((y * 64 + x) * 4..<(y * 64 + x) * 4 + 4, with: [255, 0, 0, 255])
                }
            }
            let file = folder.appendingPathComponent("frame\(index).pam")
            try ReferenceTools.writeNetpbm(frame, to: file, alpha: true)
            frames.append(frame)
            arguments += ["-d", "\(durations[index])", file.path]
        }
        let webp = folder.appendingPathComponent("moving.webp")
        try ReferenceTools.run("img2webp", arguments + ["-o", webp.path])
        let image = try ImageDecoder.decode(contentsOfFile: webp.path)
        #expect(image.frames.count == 4 && image.loopCount == 3 && image.isAnimated)
        // 5 ms is shown for 100 ms, as browsers do.
        #expect(image.frames.map(\.duration) == [0.04, 0.12, 0.1, 0.07])
        for (index, frame) in image.frames.enumerated() {
            #expect(ReferenceTools.largestDifference(ReferenceTools.pixels(of: frame.bitmap), frames[index]) == 0, "frame \(index + 1)")
        }
    }

    @Test func badFilesAreRefusedByName() throws {
        let folder = try ReferenceTools.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("p.pam"), webp = folder.appendingPathComponent("p.webp")
        try ReferenceTools.writeNetpbm(ReferenceTools.picture(width: 80, height: 60), to: source, alpha: true)
        try ReferenceTools.run("cwebp", ["-quiet", "-q", "80", source.path, "-o", webp.path])
        let whole = try [UInt8](Data(contentsOf: webp))
        for cut in [12, 30, whole.count / 2, whole.count - 1] {
            let error = #expect(throws: ImageDecodingError.self) { try ImageDecoder.decode(bytes: Array(whole[..<cut]), name: "cut.webp") }
            #expect(error?.format == .webp && error?.path == "cut.webp", "cut at \(cut)")
        }
        // A lossless header (VP8L) claiming 16384x16384, the format's largest, under a pixel limit of 1000.
        let error = #expect(throws: ImageDecodingError.self) {
            try ImageDecoder.decode(bytes: whole, name: "p.webp", options: DecodingOptions(limits: DecodingLimits(maximumPixels: 1000)))
        }
        #expect(
            error?.reason == "80x60 is 4800 pixels, over the limit of 1000 (a decompression bomb, or a picture to decode at a reduced size)"
        )
    }
}
