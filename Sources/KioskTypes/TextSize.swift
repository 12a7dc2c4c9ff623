/// How large text is drawn, kiosk-wide (the config's `text-size`, `Application.preferredContentSizeCategory`;
/// as `UIContentSizeCategory`): the seven standard sizes and the five larger ones for accessibility. Text
/// in a text style (`Font.preferredFont(forTextStyle:)`) takes its size from it.
public enum ContentSizeCategory: String, Sendable, CaseIterable, Comparable {
    case extraSmall = "extra-small"
    case small
    case medium
    /// The default.
    case large
    case extraLarge = "extra-large"
    case extraExtraLarge = "extra-extra-large"
    case extraExtraExtraLarge = "extra-extra-extra-large"
    case accessibilityMedium = "accessibility-medium"
    case accessibilityLarge = "accessibility-large"
    case accessibilityExtraLarge = "accessibility-extra-large"
    case accessibilityExtraExtraLarge = "accessibility-extra-extra-large"
    case accessibilityExtraExtraExtraLarge = "accessibility-extra-extra-extra-large"

    /// Whether it is one of the accessibility sizes (as `isAccessibilityCategory`).
    public var isAccessibilityCategory: Bool { self >= .accessibilityMedium }

    public static func < (a: ContentSizeCategory, b: ContentSizeCategory) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// The text styles of UIKit's Dynamic Type (`UIFont.TextStyle`), which `Font.TextStyle` names.
public enum FontTextStyle: String, Sendable, CaseIterable {
    case largeTitle, title1, title2, title3, headline, subheadline, body, callout, footnote, caption1, caption2

    /// Its size in points at `category`: Apple's Dynamic Type table for iOS (the Human Interface
    /// Guidelines' "Dynamic Type sizes"; body is 17 at the default `large`).
    public func pointSize(at category: ContentSizeCategory) -> Double {
        let sizes: [Double]
        switch self {
        case .largeTitle: sizes = [31, 32, 33, 34, 36, 38, 40, 44, 48, 52, 56, 60]
        case .title1: sizes = [25, 26, 27, 28, 30, 32, 34, 38, 43, 48, 53, 58]
        case .title2: sizes = [19, 20, 21, 22, 24, 26, 28, 34, 39, 44, 50, 56]
        case .title3: sizes = [17, 18, 19, 20, 22, 24, 26, 31, 37, 43, 49, 55]
        case .headline, .body: sizes = [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53]
        case .callout: sizes = [13, 14, 15, 16, 18, 20, 22, 26, 32, 38, 44, 51]
        case .subheadline: sizes = [12, 13, 14, 15, 17, 19, 21, 25, 30, 36, 42, 49]
        case .footnote: sizes = [12, 12, 12, 13, 15, 17, 19, 23, 27, 33, 38, 44]
        case .caption1: sizes = [11, 11, 11, 12, 14, 16, 18, 22, 26, 32, 37, 43]
        case .caption2: sizes = [11, 11, 11, 11, 13, 15, 17, 20, 24, 29, 34, 40]
        }
        return sizes[ContentSizeCategory.allCases.firstIndex(of: category)!]
    }

    /// Headline is body's size, semibold; the others are regular (UIKit's).
    public var isSemibold: Bool { self == .headline }
}
