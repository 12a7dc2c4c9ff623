import Foundation
import Graphics
import SeededRandom
import Testing

/// The reference decoders and encoders the tests compare with (libjpeg-turbo's djpeg and cjpeg, libwebp's
/// dwebp, cwebp and img2webp; `scripts/setup test` installs them), and the netpbm files they read and write.
enum ReferenceTools {
    struct ToolFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `tool` (found on PATH) to its end and returns its standard output; a non-zero exit throws with
    /// its standard error.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read before waiting: a full pipe would block the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailure(
                description: "\(tool) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): "
                    + String(decoding: stderr, as: UTF8.self)
                    + (process.terminationStatus == 127 ? " (run scripts/setup test to install the reference tools)" : ""))
        }
        return stdout
    }

    /// A folder of its own under the temporary directory.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-images-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Straight (not premultiplied) RGBA pixels, rows top to bottom.
    struct Pixels: Equatable {
        let width: Int
        let height: Int
        /// 4 bytes a pixel: red, green, blue, alpha.
        var rgba: [UInt8]

        subscript(x: Int, y: Int) -> [UInt8] { Array(rgba[(y * width + x) * 4..<(y * width + x) * 4 + 4]) }
    }

    /// A binary PGM (P5, grey), PPM (P6, opaque) or PAM (P7, RGB_ALPHA or RGB) file's pixels.
    static func netpbm(_ data: Data) throws -> Pixels {
        let bytes = [UInt8](data)
        var offset = 0
        func token() -> String {
            while offset < bytes.count, bytes[offset] == 0x23 || Character(UnicodeScalar(bytes[offset])).isWhitespace {
                if bytes[offset] == 0x23 { while offset < bytes.count, bytes[offset] != 0x0A { offset += 1 } } else { offset += 1 }
            }
            let start = offset
            while offset < bytes.count, !Character(UnicodeScalar(bytes[offset])).isWhitespace { offset += 1 }
            return String(decoding: bytes[start..<offset], as: UTF8.self)
        }
        let magic = token()
        var width = 0, height = 0, depth = 3
        if magic == "P6" || magic == "P5" {
            depth = magic == "P6" ? 3 : 1
            width = Int(token()) ?? 0
            height = Int(token()) ?? 0
            _ = token()  // maxval 255
        } else if magic == "P7" {
            while case let key = token(), key != "ENDHDR", !key.isEmpty {
                let value = token()
                switch key {
                case "WIDTH": width = Int(value) ?? 0
                case "HEIGHT": height = Int(value) ?? 0
                case "DEPTH": depth = Int(value) ?? 0
                default: break
                }
            }
        } else {
            throw ToolFailure(description: "not a PPM or PAM file: \(magic)")
        }
        offset += 1  // the one whitespace byte before the pixels
        guard width > 0, height > 0, bytes.count - offset >= width * height * depth else {
            throw ToolFailure(description: "a netpbm file of \(width)x\(height)x\(depth) with \(bytes.count - offset) bytes of pixels")
        }
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<width * height {
            if depth == 1 {  // grey
                for c in 0..<3 { rgba[i * 4 + c] = bytes[offset + i] }
            } else {
                for c in 0..<depth { rgba[i * 4 + c] = bytes[offset + i * depth + c] }
            }
        }
        return Pixels(width: width, height: height, rgba: rgba)
    }

    /// Writes `pixels` as a PPM (opaque) or a PAM with alpha.
    static func writeNetpbm(_ pixels: Pixels, to url: URL, alpha: Bool) throws {
        var data = Data(
            (alpha
                ? "P7\nWIDTH \(pixels.width)\nHEIGHT \(pixels.height)\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
                : "P6\n\(pixels.width) \(pixels.height)\n255\n").utf8)
        for i in 0..<pixels.width * pixels.height {
            data.append(contentsOf: pixels.rgba[i * 4..<i * 4 + (alpha ? 4 : 3)])
        }
        try data.write(to: url)
    }

    /// A bitmap's pixels un-premultiplied, as the reference tools write them (alpha 255 for `.xrgb8888`).
    static func pixels(of bitmap: Bitmap) -> Pixels {
        var rgba = [UInt8](repeating: 0, count: bitmap.width * bitmap.height * 4)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let word = bitmap.pixel(x: x, y: y)
                let alpha = bitmap.isOpaque ? 255 : Int(word >> 24)
                let i = (y * bitmap.width + x) * 4
                for (c, shift) in [16, 8, 0].enumerated() {
                    let value = Int(word >> UInt32(shift) & 0xFF)
                    rgba[i + c] = alpha == 0 ? 0 : UInt8(min(255, (value * 255 + alpha / 2) / alpha))
                }
                rgba[i + 3] = UInt8(alpha)
            }
        }
        return Pixels(width: bitmap.width, height: bitmap.height, rgba: rgba)
    }

    /// The same pixels premultiplied (rounded), as the decoders give them: where alpha is small,
    /// un-premultiplying would magnify a rounding step of 1 into a hundred.
    static func premultiplied(_ pixels: Pixels) -> Pixels {
        var result = pixels
        for i in stride(from: 0, to: pixels.rgba.count, by: 4) {
            let alpha = Int(pixels.rgba[i + 3])
            for c in 0..<3 { result.rgba[i + c] = UInt8((Int(pixels.rgba[i + c]) * alpha + 127) / 255) }
        }
        return result
    }

    /// A bitmap's premultiplied pixels as RGBA bytes (alpha 255 for `.xrgb8888`).
    static func premultipliedPixels(of bitmap: Bitmap) -> Pixels {
        var rgba = [UInt8](repeating: 0, count: bitmap.width * bitmap.height * 4)
        for y in 0..<bitmap.height {
            for x in 0..<bitmap.width {
                let word = bitmap.pixel(x: x, y: y)
                let i = (y * bitmap.width + x) * 4
                rgba[i] = UInt8(word >> 16 & 0xFF)
                rgba[i + 1] = UInt8(word >> 8 & 0xFF)
                rgba[i + 2] = UInt8(word & 0xFF)
                rgba[i + 3] = bitmap.isOpaque ? 255 : UInt8(word >> 24)
            }
        }
        return Pixels(width: bitmap.width, height: bitmap.height, rgba: rgba)
    }

    /// The largest difference of any channel between two images of one size (nil when the sizes differ),
    /// colour ignored where both are fully transparent.
    static func largestDifference(_ a: Pixels, _ b: Pixels) -> Int? {
        guard a.width == b.width, a.height == b.height else { return nil }
        var largest = 0
        for i in stride(from: 0, to: a.rgba.count, by: 4) {
            if a.rgba[i + 3] == 0, b.rgba[i + 3] == 0 { continue }
            for c in 0..<4 { largest = max(largest, abs(Int(a.rgba[i + c]) - Int(b.rgba[i + c]))) }
        }
        return largest
    }

    /// A photo-like test picture: smooth gradients, a hard-edged disc and seeded noise (JPEG's worst case
    /// and best), with a varying alpha when `alpha` is set.
    static func picture(width: Int, height: Int, alpha: Bool = false, seed: UInt64 = 1) -> Pixels {
        var random = SplitMix64(seed: seed)
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                let dx = Double(x - width / 2), dy = Double(y - height / 3)
                let inDisc = dx * dx + dy * dy < Double(min(width, height) * min(width, height)) / 16
                rgba[i] = UInt8(x * 255 / max(1, width - 1))
                rgba[i + 1] = inDisc ? 30 : UInt8(y * 255 / max(1, height - 1))
                rgba[i + 2] = UInt8(truncatingIfNeeded: 128 + Int(random.next() % 40) - 20)
                if alpha { rgba[i + 3] = UInt8((x + y) * 255 / max(1, width + height - 2)) }
            }
        }
        return Pixels(width: width, height: height, rgba: rgba)
    }
}
