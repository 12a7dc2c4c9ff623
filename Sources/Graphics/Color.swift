/// A colour with straight (non-premultiplied) alpha, each component in `0...1` (as UIKit's `UIColor` in
/// the sRGB space). Values outside the range are clamped, NaN becomes 0.
public struct Color: Hashable, Sendable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = Self.clamped(red)
        self.green = Self.clamped(green)
        self.blue = Self.clamped(blue)
        self.alpha = Self.clamped(alpha)
    }

    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// A colour from a `0xRRGGBB` literal, as designers write them.
    public init(rgb: UInt32, alpha: Double = 1) {
        self.init(
            red: Double((rgb >> 16) & 0xFF) / 255, green: Double((rgb >> 8) & 0xFF) / 255,
            blue: Double(rgb & 0xFF) / 255, alpha: alpha)
    }

    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    public static let black = Color(white: 0)
    public static let white = Color(white: 1)
    public static let red = Color(red: 1, green: 0, blue: 0)
    public static let green = Color(red: 0, green: 1, blue: 0)
    public static let blue = Color(red: 0, green: 0, blue: 1)
    /// UIKit's values: gray 0.5, lightGray 2/3, darkGray 1/3, orange (1, 0.5, 0).
    public static let gray = Color(white: 0.5)
    public static let lightGray = Color(white: 2.0 / 3.0)
    public static let darkGray = Color(white: 1.0 / 3.0)
    public static let yellow = Color(red: 1, green: 1, blue: 0)
    public static let orange = Color(red: 1, green: 0.5, blue: 0)

    public var isOpaque: Bool { alpha >= 1 }

    public func withAlphaComponent(_ alpha: Double) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// The premultiplied 16-bit components cairo and pixman work with (`pixman_color_t`). cairo computes
    /// them as `UInt16(component * alpha * 65535 + 0.5)` (`_cairo_color_double_to_short`), and we use the
    /// same rounding so a colour filled through pixman equals the same colour filled through cairo.
    public var premultipliedShorts: (red: UInt16, green: UInt16, blue: UInt16, alpha: UInt16) {
        func short(_ value: Double) -> UInt16 { UInt16(value * 65535 + 0.5) }
        return (short(red * alpha), short(green * alpha), short(blue * alpha), short(alpha))
    }

    /// The `0xAARRGGBB` premultiplied pixel this colour composites as. pixman turns a 16-bit
    /// `pixman_color_t` into a pixel by dropping the low byte (`color_to_uint32`: `alpha >> 8 << 24 | ...`),
    /// and cairo's image compositor does the same, so that is the rounding here too: 0.5 becomes 0x80.
    public var premultipliedARGB32: UInt32 {
        let c = premultipliedShorts
        return UInt32(c.alpha >> 8) << 24 | UInt32(c.red >> 8) << 16 | UInt32(c.green >> 8) << 8
            | UInt32(c.blue >> 8)
    }

    public var description: String {
        func component(_ value: Double) -> String {
            let rounded = (value * 1000).rounded() / 1000
            return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        }
        return "Color(red: \(component(red)), green: \(component(green)), blue: \(component(blue)), "
            + "alpha: \(component(alpha)))"
    }

    private static func clamped(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, 0), 1)
    }
}
