import CJPEGBaseline
import Glibc
import ImageDecoding

/// A 4000x3000 photo-like JPEG (quality 90, 4:2:0: a camera's), shown at 1280x800: decoded by
/// ImageDecoding at the smallest DCT scale that covers the screen (3/8: 1500x1125), and by libjpeg as djpeg
/// decodes it at that scale (`djpeg -scale 3/8`), from the same bytes in memory.
public final class PhotoScene: @unchecked Sendable {
    // @unchecked: the benchmark touches it from one task at a time.
    public static let width = 4000, height = 3000
    public static let shown = (width: 1280, height: 800)
    public let jpeg: [UInt8]
    /// djpeg's output buffer, RGB.
    private var rgb: [UInt8]

    public init() {
        jpeg = Self.makePhoto()
        rgb = [UInt8](repeating: 0, count: 1500 * 1125 * 3)
    }

    /// ImageDecoding's decode at the shown size; returns the bitmap's width (kept, so it is not optimised away).
    public func decode() -> Int {
        let image = try! ImageDecoder.decode(bytes: jpeg, name: "photo.jpg", options: DecodingOptions(fitting: Self.shown))
        return image.bitmap.width
    }

    /// The baseline: libjpeg at 3/8, as djpeg.
    public func baseline() -> Int {
        var width: Int32 = 0, height: Int32 = 0
        let status = jpeg.withUnsafeBufferPointer { data in
            rgb.withUnsafeMutableBufferPointer { out in
                kiosk_baseline_djpeg(data.baseAddress, data.count, 3, 8, out.baseAddress, out.count, &width, &height)
            }
        }
        precondition(status == 0, "libjpeg failed on the benchmark's photo")
        return Int(width)
    }

    /// The largest channel difference between the two decodes (0: the same pixels), and their sizes.
    public func compare() -> (difference: Int, ours: (Int, Int), baseline: (Int, Int)) {
        let image = try! ImageDecoder.decode(bytes: jpeg, name: "photo.jpg", options: DecodingOptions(fitting: Self.shown))
        let bitmap = image.bitmap
        var width: Int32 = 0, height: Int32 = 0
        _ = jpeg.withUnsafeBufferPointer { data in
            rgb.withUnsafeMutableBufferPointer { out in
                kiosk_baseline_djpeg(data.baseAddress, data.count, 3, 8, out.baseAddress, out.count, &width, &height)
            }
        }
        var largest = 0
        for y in 0..<min(bitmap.height, Int(height)) {
            for x in 0..<min(bitmap.width, Int(width)) {
                let word = bitmap.pixel(x: x, y: y)
                let i = (y * Int(width) + x) * 3
                for (c, shift) in [16, 8, 0].enumerated() {
                    largest = max(largest, abs(Int(word >> UInt32(shift) & 0xFF) - Int(rgb[i + c])))
                }
            }
        }
        return (largest, (bitmap.width, bitmap.height), (Int(width), Int(height)))
    }

    /// A smooth picture with edges and fine noise, so the entropy coding is a photo's, not a flat fill's.
    private static func makePhoto() -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let noise = Int(state >> 59)  // 0...31
                let i = (y * width + x) * 3
                let stripe = (x / 97 + y / 131) % 2 == 0
                pixels[i] = UInt8((x * 255 / width + noise) & 0xFF)
                pixels[i + 1] = UInt8(((stripe ? 200 : 60) + noise / 2) & 0xFF)
                pixels[i + 2] = UInt8((y * 255 / height + noise) & 0xFF)
            }
        }
        var out: UnsafeMutablePointer<UInt8>?
        let size = pixels.withUnsafeBufferPointer { kiosk_baseline_cjpeg($0.baseAddress, Int32(width), Int32(height), 90, &out) }
        precondition(size > 0, "libjpeg could not make the benchmark's photo")
        defer { free(out) }
        return Array(UnsafeBufferPointer(start: out, count: size))
    }
}
