import Foundation
import Graphics
import Testing

/// ImageMagick as the reference GIF decoder of GIFDecoderTests (why ImageMagick: there).
enum Reference {
    /// In CI a missing ImageMagick is a failure, not a skip: `scripts/setup test` installs it.
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// ImageMagick 6's convert, by the name Debian's imagemagick-6.q16 installs first: a `convert` on
    /// PATH may be something else (an alternative, a wrapper).
    static let convert: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin"]
        for name in ["convert-im6.q16", "convert"] {
            if let found = folders.map({ "\($0)/\(name)" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
                return found
            }
        }
        return nil
    }()

    /// One frame as ImageMagick gives it: `width * height` pixels of 4 bytes, red, green, blue, alpha.
    struct Frame {
        var width: Int
        var height: Int
        var rgba: [UInt8]
    }

    /// `convert FILE -alpha set -coalesce -depth 8 rgba:-`: every frame composited onto the logical
    /// screen, `width` x `height`, one after the other. `-alpha set` first: ImageMagick gives a frame
    /// without a transparent index no alpha channel, so what its first frame does not cover would come
    /// out opaque black (the background colour), where browsers and GIFDecoder leave it transparent.
    static func coalescedFrames(of path: String, width: Int, height: Int) throws -> [Frame] {
        let convert = try #require(convert, "ImageMagick not found (apt-get install imagemagick)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: convert)
        process.arguments = [path, "-alpha", "set", "-coalesce", "-depth", "8", "rgba:-"]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // A few kilobytes: read to the end, then wait (it cannot block on a full pipe while we wait).
        let bytes = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "convert \(path): \(message)")
        let frameBytes = width * height * 4
        try #require(!bytes.isEmpty && bytes.count % frameBytes == 0, "convert gave \(bytes.count) bytes, not frames of \(width)x\(height)")
        return stride(from: 0, to: bytes.count, by: frameBytes).map {
            Frame(width: width, height: height, rgba: Array(bytes[$0..<$0 + frameBytes]))
        }
    }

    /// The pixels where `bitmap` (premultiplied 0xAARRGGBB words) differs from `frame` (straight RGBA):
    /// transparent pixels compare by alpha alone (their colour is anything in either), the others by
    /// colour, unpremultiplied (a GIF's pixels are opaque or transparent: nothing to round).
    static func differences(_ bitmap: Bitmap, _ frame: Frame) -> [String] {
        guard bitmap.width == frame.width, bitmap.height == frame.height else {
            return ["\(bitmap.width)x\(bitmap.height) where the reference is \(frame.width)x\(frame.height)"]
        }
        var differences: [String] = []
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let at = (y * frame.width + x) * 4
                let (red, green, blue, alpha) = (frame.rgba[at], frame.rgba[at + 1], frame.rgba[at + 2], frame.rgba[at + 3])
                let word = bitmap.pixel(x: x, y: y)
                let expected: UInt32? = alpha == 0 ? nil : UInt32(alpha) << 24 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue)
                let matches = expected.map { $0 == word } ?? (word >> 24 == 0)
                if !matches {
                    let hex = { (value: UInt32) in String(value, radix: 16) }
                    differences.append("(\(x),\(y)) \(hex(word)) where the reference has \(expected.map(hex) ?? "transparent")")
                }
            }
        }
        return differences
    }

    /// Every pixel's word, row by row, for comparing two bitmaps.
    static func words(_ bitmap: Bitmap) -> [UInt32] {
        (0..<bitmap.height).flatMap { y in (0..<bitmap.width).map { bitmap.pixel(x: $0, y: y) } }
    }
}
