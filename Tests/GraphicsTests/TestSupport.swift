import Foundation
import SeededRandom

@testable import Graphics

extension SplitMix64 {
    /// A valid premultiplied pixel: each colour component at most alpha. Biased to include the extremes
    /// (alpha 0 and 255) that fast paths special-case.
    mutating func premultipliedPixel() -> UInt32 {
        let alpha: UInt32
        switch UInt32.random(in: 0..<8, using: &self) {
        case 0: alpha = 0
        case 1: alpha = 255
        default: alpha = UInt32.random(in: 0...255, using: &self)
        }
        func component() -> UInt32 { UInt32.random(in: 0...alpha, using: &self) }
        return alpha << 24 | component() << 16 | component() << 8 | component()
    }
}

extension Bitmap {
    /// Sets every pixel from `value(x, y)` (raw words, bypassing cairo and pixman).
    func setPixels(_ value: (Int, Int) -> UInt32) {
        let (width, height, stride) = (self.width, self.height, self.stride)
        withUnsafeMutableBytes { bytes in
            for y in 0..<height {
                for x in 0..<width {
                    bytes.storeBytes(of: value(x, y), toByteOffset: y * stride + x * 4, as: UInt32.self)
                }
            }
        }
    }

    func setPixel(x: Int, y: Int, _ value: UInt32) {
        let stride = self.stride
        withUnsafeMutableBytes { $0.storeBytes(of: value, toByteOffset: y * stride + x * 4, as: UInt32.self) }
    }

    /// All pixels, row by row.
    var allPixels: [UInt32] {
        (0..<height).flatMap { y in (0..<width).map { x in pixel(x: x, y: y) } }
    }

    /// The columns and rows holding a pixel with non-zero alpha, or nil if there is none.
    var inkBounds: (minX: Int, maxX: Int, minY: Int, maxY: Int)? {
        var result: (minX: Int, maxX: Int, minY: Int, maxY: Int)?
        for y in 0..<height {
            for x in 0..<width where pixel(x: x, y: y) >> 24 != 0 {
                if let r = result {
                    result = (min(r.minX, x), max(r.maxX, x), min(r.minY, y), max(r.maxY, y))
                } else {
                    result = (x, x, y, y)
                }
            }
        }
        return result
    }

    var inkPixelCount: Int { allPixels.filter { $0 >> 24 != 0 }.count }
}

/// pixman's `MUL_UN8`: `a * b / 255` rounded to nearest, as `t = a*b + 0x80; ((t >> 8) + t) >> 8`.
func mulUN8(_ a: UInt32, _ b: UInt32) -> UInt32 {
    let t = a * b + 0x80
    return ((t >> 8) + t) >> 8
}

/// Applies `f` to each of the four 8-bit channels of two pixels.
func perChannel(_ p: UInt32, _ q: UInt32, _ f: (UInt32, UInt32) -> UInt32) -> UInt32 {
    var result: UInt32 = 0
    for shift in stride(from: 0, through: 24, by: 8) {
        result |= (f((p >> UInt32(shift)) & 0xFF, (q >> UInt32(shift)) & 0xFF) & 0xFF) << UInt32(shift)
    }
    return result
}

/// Porter-Duff OVER on premultiplied pixels with pixman's rounding and saturation:
/// `dst' = min(src + MUL_UN8(dst, 255 - srcα), 255)` per channel.
func referenceOver(_ src: UInt32, _ dst: UInt32) -> UInt32 {
    let inverseAlpha = 255 - (src >> 24)
    return perChannel(src, dst) { s, d in min(s + mulUN8(d, inverseAlpha), 255) }
}

/// `src IN mask`: each channel multiplied by the 8-bit mask alpha with pixman's rounding.
func referenceIn(_ src: UInt32, mask: UInt32) -> UInt32 {
    perChannel(src, 0) { s, _ in mulUN8(s, mask) }
}

/// A temporary directory removed at the end of `body`.
func withTemporaryDirectory<R>(_ body: (URL) throws -> R) throws -> R {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("GraphicsTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    return try body(url)
}
