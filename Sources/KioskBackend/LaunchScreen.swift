import Dispatch
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
/// Decoded once (libpng: the text stack, which reads PNGs too, is still loading on its own thread), on a
/// thread of its own from `startReading()` or else when first painted, and kept only until the app's first
/// frame: `release()`.
@MainActor
public final class LaunchScreen {
    public let path: String
    public let background: Color
    private var decoded: Bitmap?
    /// The decoded picture's memory, which `decoded` wraps (freed with it).
    private var pixels: UnsafeMutableBufferPointer<UInt32>?
    /// The picture being read on a thread of its own (`startReading()`).
    private var reading: Reading?
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
        // A picture still being read (no display lit before the first frame) is freed when it is done.
        if case let .success(picture)? = reading?.wait() { picture.memory.deallocate() }
        reading = nil
    }

    // `release()` is for the caller; a launch screen dropped without it frees its memory here.
    isolated deinit {
        pixels?.deallocate()
        if case let .success(picture)? = reading?.wait() { picture.memory.deallocate() }
    }

    /// Starts reading the picture on a thread of its own (`BackgroundThread`), so that the start does not
    /// wait for it where it is shown: on the disk bed, decoding and premultiplying a 1280x800 PNG took the
    /// main thread 110 ms between the seat and the displays. Call it after `preload()`: libpng's `dlopen`
    /// then does not wait behind pango's. Without it, the picture is read when first painted.
    public func startReading() {
        guard reading == nil, decoded == nil, !failed else { return }
        let reading = Reading()
        self.reading = reading
        let path = path
        if !BackgroundThread.start({ reading.finish(Self.read(path)) }) { reading.finish(Self.read(path)) }
    }

    private func image() -> Bitmap? {
        if let decoded { return decoded }
        guard !failed else { return nil }
        let result = reading?.wait() ?? Self.read(path)
        reading = nil
        switch result {
        case let .failure(error):
            failed = true
            log.error("launch-screen: \(error); the displays keep what they show until the app's first frame")
            return nil
        case let .success(picture):
            pixels = picture.memory
            let bitmap = Bitmap(
                wrapping: UnsafeMutableRawPointer(picture.memory.baseAddress!), width: picture.width, height: picture.height,
                stride: picture.width * 4, format: .argb32Premultiplied)
            decoded = bitmap
            log.info("launch-screen: \(path), \(picture.width)x\(picture.height)")
            return bitmap
        }
    }

    /// A decoded picture's premultiplied pixels, handed from the reading thread to the main thread once.
    struct Picture: @unchecked Sendable {
        // @unchecked: the memory is written by the reading thread before `Reading.finish` and only read after
        // `Reading.wait`, which orders the two.
        let memory: UnsafeMutableBufferPointer<UInt32>
        let width: Int
        let height: Int
    }

    /// The file decoded into premultiplied ARGB, as pixman composites it (libpng gives straight alpha).
    nonisolated static func read(_ path: String) -> Result<Picture, PNGError> {
        let png: PNGImage
        do {
            png = try PNGImage(contentsOfFile: path)
        } catch {
            return .failure(error)
        }
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
        return .success(Picture(memory: memory, width: png.width, height: png.height))
    }

    /// The reading thread's result, waited for once.
    final class Reading: @unchecked Sendable {
        // @unchecked: `result` is written once before `done` is signalled and read only after waiting on it.
        private var result: Result<Picture, PNGError>?
        private let done = DispatchSemaphore(value: 0)

        func finish(_ result: Result<Picture, PNGError>) {
            self.result = result
            done.signal()
        }

        func wait() -> Result<Picture, PNGError> {
            done.wait()
            return result!
        }
    }
}
