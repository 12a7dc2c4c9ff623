import CPixmanBaseline
import Glibc
import KioskKit

/// Pixel memory for the baselines: 64-byte aligned like `Bitmap`'s, touched once so no page fault lands
/// in a measurement.
final class PixelBuffer {
    let width: Int, height: Int, stride: Int
    let data: UnsafeMutableRawPointer

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        stride = width * 4
        var memory: UnsafeMutableRawPointer?
        guard posix_memalign(&memory, 64, stride * height) == 0, let memory else { fatalError("posix_memalign failed") }
        data = memory
        data.initializeMemory(as: UInt8.self, repeating: 0, count: stride * height)
    }

    /// The same pixels as what `draw` paints into a premultiplied ARGB32 bitmap of this size.
    convenience init(width: Int, height: Int, drawnBy draw: (DrawingContext, Rect) -> Void) {
        let bitmap = Bitmap(width: width, height: height, format: .argb32Premultiplied)
        let context = DrawingContext(bitmap: bitmap)
        draw(context, Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
        context.flush()
        self.init(copying: bitmap)
    }

    /// A copy of `bitmap`'s pixels.
    convenience init(copying bitmap: Bitmap) {
        self.init(width: bitmap.width, height: bitmap.height)
        bitmap.withUnsafeBytes { bytes in
            for row in 0..<height {
                (data + row * stride).copyMemory(from: bytes.baseAddress! + row * bitmap.stride, byteCount: width * 4)
            }
        }
    }

    /// What the compositor caches for a view that `draw` paints and whose cache it crops (square corners,
    /// no border, not `isOpaque`): the drawing recorded in a `width` x `height`
    /// `DrawingContext(croppingTo:height:make:prepare:)` and replayed into a bitmap of the box around what
    /// it marks (`finishCropping`), and where that box sits in the view.
    static func cropped(width: Int, height: Int, drawnBy draw: (DrawingContext, Rect) -> Void) -> (buffer: PixelBuffer, x: Int, y: Int) {
        let context = DrawingContext(
            croppingTo: width, height: height, make: { Bitmap(width: $0, height: $1, format: .argb32Premultiplied) },
            prepare: { _ in })
        draw(context, Rect(x: 0, y: 0, width: Double(width), height: Double(height)))
        guard let box = context.finishCropping() else { fatalError("the cropped drawing marked nothing") }
        return (PixelBuffer(copying: box.bitmap), box.x, box.y)
    }

    deinit { free(data) }

    /// How many pixels differ in colour from `frame` (an XRGB bitmap of the same size; the undefined top
    /// byte is ignored).
    func differingPixels(from frame: Bitmap) -> Int {
        precondition(frame.width == width && frame.height == height, "size mismatch")
        return frame.withUnsafeBytes { bytes in
            var count = 0
            for y in 0..<height {
                for x in 0..<width {
                    let a = data.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
                    let b = bytes.load(fromByteOffset: y * frame.stride + x * 4, as: UInt32.self)
                    if (a ^ b) & 0xFFFFFF != 0 { count += 1 }
                }
            }
            return count
        }
    }

    /// A pixman image over this memory (pixman only borrows it). Calls `pixman_image_create_bits`.
    func makeImage(_ format: pixman_format_code_t) -> OpaquePointer {
        guard
            let image = pixman_image_create_bits(
                format, Int32(width), Int32(height),
                data.assumingMemoryBound(to: UInt32.self), Int32(stride))
        else { fatalError("pixman_image_create_bits failed") }
        return image
    }
}

/// The raw-pixman baseline: the scene's three layers composited with `pixman_image_composite32` into an
/// x8r8g8b8 1920x1080 image, exactly the operations the compositor asks pixman for in a full frame:
/// the opaque background with SRC (a8r8g8b8 → x8r8g8b8), the 1920x40 status bar with OVER at (0, 0), the
/// 600x300 alert with OVER at (660, 390). The layers hold the same pixels as the scene's view caches:
/// drawn by the same `ScenePainter` functions, the status bar's and the alert's recorded and replayed into
/// the box around what they mark, as the compositor crops those two views' caches (each marks its whole
/// rect: the alert's rounded corners come out as the compositor's, 1 apart in a channel on 4 pixels from a
/// direct drawing).
public final class PixmanBaseline {
    private let background: PixelBuffer
    private let statusBar: (buffer: PixelBuffer, x: Int, y: Int)
    private let alert: (buffer: PixelBuffer, x: Int, y: Int)
    private let shadow: PixelBuffer
    private let output: PixelBuffer
    private let backgroundImage: OpaquePointer
    private let statusBarImage: OpaquePointer
    private let alertImage: OpaquePointer
    private let shadowImage: OpaquePointer
    private let outputImage: OpaquePointer

    public init() {
        let w = SceneGeometry.width, h = SceneGeometry.height
        background = PixelBuffer(width: w, height: h) { context, bounds in
            ScenePainter.drawBackground(in: context, bounds: bounds, dirty: bounds)
        }
        statusBar = PixelBuffer.cropped(width: Int(SceneGeometry.statusBarRect.width), height: Int(SceneGeometry.statusBarRect.height)) {
            ScenePainter.drawStatusBar(in: $0, bounds: $1)
        }
        alert = PixelBuffer.cropped(width: Int(SceneGeometry.alertRect.width), height: Int(SceneGeometry.alertRect.height)) {
            ScenePainter.drawAlert(in: $0, bounds: $1)
        }
        shadow = PixelBuffer(width: w, height: h)
        output = PixelBuffer(width: w, height: h)
        backgroundImage = background.makeImage(PIXMAN_a8r8g8b8)
        statusBarImage = statusBar.buffer.makeImage(PIXMAN_a8r8g8b8)
        alertImage = alert.buffer.makeImage(PIXMAN_a8r8g8b8)
        shadowImage = shadow.makeImage(PIXMAN_x8r8g8b8)
        outputImage = output.makeImage(PIXMAN_x8r8g8b8)
    }

    deinit {
        for image in [backgroundImage, statusBarImage, alertImage, shadowImage, outputImage] { pixman_image_unref(image) }
    }

    /// The three layers into the x8r8g8b8 image: the baseline of the full-frame target.
    public func compositeLayers() {
        let w = Int32(SceneGeometry.width), h = Int32(SceneGeometry.height)
        pixman_image_composite32(PIXMAN_OP_SRC, backgroundImage, nil, shadowImage, 0, 0, 0, 0, 0, 0, w, h)
        for (layer, image, rect) in [
            (statusBar, statusBarImage, SceneGeometry.statusBarRect), (alert, alertImage, SceneGeometry.alertRect),
        ] {
            pixman_image_composite32(
                PIXMAN_OP_OVER, image, nil, shadowImage, 0, 0, 0, 0, Int32(rect.minX) + Int32(layer.x),
                Int32(rect.minY) + Int32(layer.y), Int32(layer.buffer.width), Int32(layer.buffer.height))
        }
    }

    /// The three layers, then the whole image copied (pixman SRC) into a second x8r8g8b8 image: the same
    /// pixman work as the compositor's full frame, shadow plus copy into the output's buffer.
    public func compositeLayersAndCopy() {
        compositeLayers()
        pixman_image_composite32(
            PIXMAN_OP_SRC, shadowImage, nil, outputImage, 0, 0, 0, 0, 0, 0,
            Int32(SceneGeometry.width), Int32(SceneGeometry.height))
    }

    /// How many pixels of the composited image differ in colour from `frame` (an XRGB frame of the same
    /// size; the undefined top byte is ignored): 0 proves the baseline composites what the scene shows.
    public func differingPixels(from frame: Bitmap) -> Int { shadow.differingPixels(from: frame) }
}

/// `memcpy` of one 1920x1080 XRGB frame (8,294,400 bytes) between two buffers.
public final class FrameMemcpy {
    private let source = PixelBuffer(width: SceneGeometry.width, height: SceneGeometry.height)
    private let destination = PixelBuffer(width: SceneGeometry.width, height: SceneGeometry.height)

    public init() {
        source.data.initializeMemory(as: UInt8.self, repeating: 0x5A, count: source.stride * source.height)
    }

    public var byteCount: Int { source.stride * source.height }

    public func copy() {
        memcpy(destination.data, source.data, byteCount)
    }
}
