import Geometry
import Glibc
import KioskKit
import Logging
import PNG

/// UIKit's launch screen role: a picture a display backend shows at the first modeset, while the app is
/// still starting, until the app's first frame replaces it. From the configuration's `launch-screen` (a PNG
/// file), else the one the app names (`KioskRuntime.main(launchScreen:)`, a PNG in its resources). The
/// picture is centred, upright in the screen's rotation, on `background`, scaled down to fit when it is
/// larger than the screen (never up: a logo stays sharp; a picture of the screen's size fills it).
///
/// Decoded once, on first use (libpng, loaded then: the text stack, which reads PNGs too, is still loading
/// on its own thread), and kept only until the app's first frame: `release()`.
@MainActor
public final class LaunchScreen {
    public let path: String
    public let background: Color
    private var decoded: Bitmap?
    /// The decoded picture's memory, which `decoded` wraps (freed with it).
    private var pixels: UnsafeMutableBufferPointer<UInt32>?
    private var failed = false
    /// Released: the app's first frame is on the displays, and a display lit later shows that app.
    public private(set) var isReleased = false
    private let log = Logger(label: "kiosk.launch-screen")

    public init(path: String, background: Color = .black) {
        self.path = path
        self.background = background
    }

    /// Loads libpng now, before another thread's `dlopen` (pango's 35 libraries) holds the dynamic
    /// loader's lock that the first decode would wait for. A failure is said when the picture is read.
    public nonisolated static func preload() {
        _ = try? PNGLibrary.shared.load()
    }

    /// Paints the picture into `target` (a frame of a panel `rotation` turns from the logical screen):
    /// background, then the picture. False, said in the log once, when the file cannot be read: the caller
    /// then keeps what the display shows until the app's first frame.
    public func paint(into target: Bitmap, rotation: Rotation) -> Bool {
        guard !isReleased, let image = image() else { return false }
        let physical = Size(width: Double(target.width), height: Double(target.height))
        let logical = rotation.logicalSize(forPhysical: physical)
        let scale = min(1, logical.width / Double(image.width), logical.height / Double(image.height))
        // Centred on whole pixels when not scaled: pixman then copies the picture exactly.
        let x = ((logical.width - Double(image.width) * scale) / 2).rounded(.down)
        let y = ((logical.height - Double(image.height) * scale) / 2).rounded(.down)
        let transform = AffineTransform(scaleX: scale, y: scale)
            .concatenating(AffineTransform(translationX: x, y: y))
            .concatenating(rotation.logicalToPhysical(logicalSize: logical))
        target.fill(background, operation: .source, in: PixelRect(x: 0, y: 0, width: Int32(target.width), height: Int32(target.height)))
        target.composite(image, transform: transform)
        return true
    }

    /// Frees the decoded picture once the app's first frame is on the displays; it is not shown again.
    public func release() {
        isReleased = true
        decoded = nil
        pixels?.deallocate()
        pixels = nil
    }

    // `release()` is for the caller; a launch screen dropped without it frees its memory here.
    isolated deinit {
        pixels?.deallocate()
    }

    private func image() -> Bitmap? {
        if let decoded { return decoded }
        guard !failed else { return nil }
        let png: PNGImage
        do {
            png = try PNGImage(contentsOfFile: path)
        } catch {
            failed = true
            log.error("launch-screen: \(error); the displays keep what they show until the app's first frame")
            return nil
        }
        // Premultiplied ARGB, as pixman composites it (libpng gives straight alpha).
        let memory = UnsafeMutableBufferPointer<UInt32>.allocate(capacity: png.width * png.height)
        png.bgra.withUnsafeBufferPointer { bytes in
            for index in 0..<memory.count {
                let b = UInt32(bytes[index * 4]), g = UInt32(bytes[index * 4 + 1])
                let r = UInt32(bytes[index * 4 + 2]), a = UInt32(bytes[index * 4 + 3])
                // pixman's rounding of c * a / 255.
                let premultiply = { (c: UInt32) in (c * a + 127) / 255 }
                memory[index] = a << 24 | premultiply(r) << 16 | premultiply(g) << 8 | premultiply(b)
            }
        }
        pixels = memory
        let bitmap = Bitmap(
            wrapping: UnsafeMutableRawPointer(memory.baseAddress!), width: png.width, height: png.height, stride: png.width * 4,
            format: .argb32Premultiplied)
        decoded = bitmap
        log.info("launch-screen: \(path), \(png.width)x\(png.height)")
        return bitmap
    }
}
