import CPixmanBaseline
import KioskKit

/// The scale-up benchmark: a 600x400 ARGB image (the alert panel, drawn by `ScenePainter.drawAlert`, so
/// translucent with transparent corners) centred on a 1920x1080 XRGB shadow, zooming from 1.0 to 1.25
/// around its centre over `frameCount` frames, as a dialog that pops in. Each iteration composites the next
/// frame (the sequence wraps), with bilinear filtering, OVER; ours and raw pixman run the same sequence, so
/// their figures compare the same mix of scales.
public enum ScaleUpAnimation {
    public static let imageWidth = 600, imageHeight = 400
    /// Half a second at 60 Hz.
    public static let frameCount = 30

    /// The image's transform in frame `index` (wrapping): image pixels to shadow pixels.
    public static func transform(frame index: Int) -> AffineTransform {
        let scale = 1 + 0.25 * Double(index % frameCount) / Double(frameCount - 1)
        return AffineTransform(translationX: -Double(imageWidth) / 2, y: -Double(imageHeight) / 2)
            .concatenating(AffineTransform(scaleX: scale, y: scale))
            .concatenating(
                AffineTransform(translationX: Double(SceneGeometry.width) / 2, y: Double(SceneGeometry.height) / 2))
    }

    static func drawImage(in context: DrawingContext, bounds: Rect) {
        ScenePainter.drawAlert(in: context, bounds: bounds)
    }
}

/// Ours: `Bitmap.composite(_:transform:)` of the image onto the shadow.
public final class ScaleUpScene {
    public let image: Bitmap
    public let shadow = Bitmap(width: SceneGeometry.width, height: SceneGeometry.height, format: .xrgb8888)
    private var frame: Int

    /// `frame`: the animation frame the first `composeNextFrame` draws.
    public init(frame: Int = 0) {
        self.frame = frame
        image = Bitmap(width: ScaleUpAnimation.imageWidth, height: ScaleUpAnimation.imageHeight)
        let context = DrawingContext(bitmap: image)
        ScaleUpAnimation.drawImage(in: context, bounds: Rect(size: image.size))
        context.flush()
        shadow.fill(.black, in: shadow.bounds)  // touched once, so no page fault lands in a measurement
    }

    /// Frame `frame` of the animation onto the shadow, then the next frame's turn.
    public func composeNextFrame() {
        shadow.composite(image, transform: ScaleUpAnimation.transform(frame: frame))
        frame += 1
    }
}

/// Raw pixman doing the same: the same pixels in an a8r8g8b8 image with `PIXMAN_FILTER_BILINEAR` (and the
/// default `PIXMAN_REPEAT_NONE`), each frame's inverse transform from pixman's own double-precision helpers,
/// composited OVER into an x8r8g8b8 1920x1080 image over the transformed image's bounding box, in
/// destination coordinates (src_x = dest_x), as a program using pixman directly would write it.
public final class ScaleUpBaseline {
    private let image: PixelBuffer
    private let shadow = PixelBuffer(width: SceneGeometry.width, height: SceneGeometry.height)
    private let imageImage: OpaquePointer
    private let shadowImage: OpaquePointer
    private var frame: Int

    /// `frame`: the animation frame the first `composeNextFrame` draws.
    public init(frame: Int = 0) {
        self.frame = frame
        image = PixelBuffer(width: ScaleUpAnimation.imageWidth, height: ScaleUpAnimation.imageHeight) {
            ScaleUpAnimation.drawImage(in: $0, bounds: $1)
        }
        imageImage = image.makeImage(PIXMAN_a8r8g8b8)
        shadowImage = shadow.makeImage(PIXMAN_x8r8g8b8)
        guard pixman_image_set_filter(imageImage, PIXMAN_FILTER_BILINEAR, nil, 0) != 0 else {
            fatalError("pixman_image_set_filter failed")
        }
    }

    deinit {
        pixman_image_unref(imageImage)
        pixman_image_unref(shadowImage)
    }

    /// Calls `pixman_f_transform_invert`, `pixman_transform_from_pixman_f_transform`,
    /// `pixman_image_set_transform`, `pixman_f_transform_bounds` and `pixman_image_composite32`.
    public func composeNextFrame() {
        let t = ScaleUpAnimation.transform(frame: frame)
        frame += 1
        var forward = pixman_f_transform(m: ((t.a, t.c, t.tx), (t.b, t.d, t.ty), (0, 0, 1)))
        var inverse = pixman_f_transform()
        var fixed = pixman_transform_t()
        guard pixman_f_transform_invert(&inverse, &forward) != 0,
            pixman_transform_from_pixman_f_transform(&fixed, &inverse) != 0,
            pixman_image_set_transform(imageImage, &fixed) != 0
        else { fatalError("pixman transform setup failed") }
        var box = pixman_box16_t(x1: 0, y1: 0, x2: Int16(image.width), y2: Int16(image.height))
        guard pixman_f_transform_bounds(&forward, &box) != 0 else { fatalError("pixman_f_transform_bounds failed") }
        let x = Int32(box.x1), y = Int32(box.y1)
        pixman_image_composite32(
            PIXMAN_OP_OVER, imageImage, nil, shadowImage, x, y, 0, 0, x, y, Int32(box.x2) - x, Int32(box.y2) - y)
    }

    /// How many pixels differ in colour between this shadow and `frame` (an XRGB 1920x1080 bitmap), and the
    /// largest difference of one channel: the two are the same composite, up to the 1/65536 rounding of
    /// their fixed-point matrices (ours is taken relative to the drawn area's corner).
    public func difference(from frame: Bitmap) -> (pixels: Int, largest: UInt32) {
        precondition(frame.width == shadow.width && frame.height == shadow.height, "size mismatch")
        return frame.withUnsafeBytes { bytes in
            var pixels = 0
            var largest: UInt32 = 0
            for y in 0..<shadow.height {
                for x in 0..<shadow.width {
                    let a = shadow.data.load(fromByteOffset: y * shadow.stride + x * 4, as: UInt32.self)
                    let b = bytes.load(fromByteOffset: y * frame.stride + x * 4, as: UInt32.self)
                    if (a ^ b) & 0xFF_FFFF == 0 { continue }
                    pixels += 1
                    for shift: UInt32 in [0, 8, 16] {
                        let p = (a >> shift) & 0xFF, q = (b >> shift) & 0xFF
                        largest = max(largest, p > q ? p - q : q - p)
                    }
                }
            }
            return (pixels, largest)
        }
    }
}
