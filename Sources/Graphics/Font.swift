import CLazyPangoCairo
import KioskTypes

/// A font request: a fontconfig family (or the generic `Sans`, `Serif`, `Monospace`), a size in pixels
/// and a weight. pango picks the face, and falls back per character to any installed font that has the
/// glyph (CJK, Arabic, ...), so the family is a preference, not a promise.
public struct Font: Hashable, Sendable, CustomStringConvertible {
    public enum Weight: Hashable, Sendable {
        case regular, medium, semibold, bold

        var pangoWeight: PangoWeight {
            switch self {
            case .regular: PANGO_WEIGHT_NORMAL
            case .medium: PANGO_WEIGHT_MEDIUM
            case .semibold: PANGO_WEIGHT_SEMIBOLD
            case .bold: PANGO_WEIGHT_BOLD
            }
        }
    }

    public var family: String
    /// The em size in pixels (`pango_font_description_set_absolute_size`, so no DPI is involved).
    public var size: Double
    public var weight: Weight
    /// The text style it was made for (`preferredFont(forTextStyle:compatibleWith:)`); nil for a font
    /// of a set size. A label that adjusts for the content size category finds its new size from it.
    public var textStyle: TextStyle?

    /// The system font's family: fontconfig's generic `Sans`.
    public static let systemFamily = "Sans"

    public init(family: String = Font.systemFamily, size: Double, weight: Weight = .regular) {
        self.family = family
        self.size = size
        self.weight = weight
    }

    /// The system font: fontconfig's `Sans` (DejaVu Sans on the kiosk image).
    public static func system(size: Double, weight: Weight = .regular) -> Font {
        Font(size: size, weight: weight)
    }

    /// The same family and weight at another size (as `UIFont.withSize(_:)`).
    public func withSize(_ size: Double) -> Font { Font(family: family, size: size, weight: weight) }

    public typealias TextStyle = FontTextStyle

    /// The system font of `style` at `category`'s size (as `UIFont.preferredFont(forTextStyle:compatibleWith:)`):
    /// UIKit's Dynamic Type sizes, headline semibold.
    public static func preferredFont(forTextStyle style: TextStyle, compatibleWith category: ContentSizeCategory) -> Font {
        var font = Font(size: style.pointSize(at: category), weight: style.isSemibold ? .semibold : .regular)
        font.textStyle = style
        return font
    }

    public static func boldSystemFont(ofSize size: Double) -> Font {
        Font(size: size, weight: .bold)
    }

    public var description: String { "\(family) \(formattedSize)px \(weight)" }

    private var formattedSize: String {
        size.rounded() == size && abs(size) < 1e9 ? String(Int(size)) : String(size)
    }

    /// A new `PangoFontDescription *` the caller frees with `pango_font_description_free`, for `family`
    /// (by default the family this thread's pango context uses for the font's: `PangoThreadContext.family`).
    /// Calls `pango_font_description_new`, `..._set_family`, `..._set_absolute_size`, `..._set_weight`.
    func makePangoDescription(family: String? = nil) -> OpaquePointer {
        let description = pango_font_description_new()!
        pango_font_description_set_family(description, family ?? PangoThreadContext.family(self.family))
        pango_font_description_set_absolute_size(description, max(size, 0) * Double(PANGO_SCALE))
        pango_font_description_set_weight(description, weight.pangoWeight)
        return description
    }
}
