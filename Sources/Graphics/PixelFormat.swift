import CLazyPangoCairo
import CPixman

/// The two 32-bit layouts the runtime uses; both are native-endian words `0xAARRGGBB`, which is what
/// cairo, pixman and DRM (`DRM_FORMAT_ARGB8888`/`XRGB8888`, little-endian) mean by these names.
public enum PixelFormat: Sendable, Hashable, CustomStringConvertible {
    /// Per-pixel alpha, colour premultiplied by it: cairo's `CAIRO_FORMAT_ARGB32`, pixman's
    /// `PIXMAN_a8r8g8b8`. View content and window buffers.
    case argb32Premultiplied
    /// Opaque; the top byte is ignored by readers and its value is unspecified (pixman and cairo may
    /// write 0xff, the alpha they computed, or leave what was there): cairo's `CAIRO_FORMAT_RGB24`,
    /// pixman's `PIXMAN_x8r8g8b8`. Screen buffers.
    case xrgb8888

    public var description: String {
        switch self {
        case .argb32Premultiplied: "argb32Premultiplied"
        case .xrgb8888: "xrgb8888"
        }
    }

    var cairoFormat: cairo_format_t {
        switch self {
        case .argb32Premultiplied: CAIRO_FORMAT_ARGB32
        case .xrgb8888: CAIRO_FORMAT_RGB24
        }
    }

    var pixmanFormat: pixman_format_code_t {
        switch self {
        case .argb32Premultiplied: PIXMAN_a8r8g8b8
        case .xrgb8888: PIXMAN_x8r8g8b8
        }
    }
}

/// How a composite combines source and destination (Porter-Duff, on premultiplied pixels).
public enum CompositeOperation: Sendable, Hashable {
    /// `dst = src + dst × (1 − srcα)`: `PIXMAN_OP_OVER`.
    case over
    /// `dst = src`: `PIXMAN_OP_SRC`.
    case source
    /// `dst = src + dst`, each component saturating at 255: `PIXMAN_OP_ADD`. Two images added through
    /// masks of complementary weights (`w` and `1 − w`) are their cross-fade, exactly where either is
    /// transparent too, which no order of two OVERs gives.
    case add

    var pixmanOp: pixman_op_t {
        switch self {
        case .over: PIXMAN_OP_OVER
        case .source: PIXMAN_OP_SRC
        case .add: PIXMAN_OP_ADD
        }
    }
}
