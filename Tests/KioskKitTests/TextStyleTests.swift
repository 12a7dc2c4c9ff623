import KioskTesting
import Testing

@testable import KioskKit

/// Text styles as UIKit's Dynamic Type: `Font.preferredFont(forTextStyle:)` at the kiosk's text size
/// (UIKit's table), and a change of `preferredContentSizeCategory` resizing the labels and text fields
/// that adjust for it, and no others.
@MainActor
@Suite(.serialized)
struct TextStyleTests {
    @Test func theDefaultSizesAreUIKits() {
        _ = AnimationBed()
        let sizes = Font.TextStyle.allCases.map { Font.preferredFont(forTextStyle: $0).size }
        #expect(sizes == [34, 28, 22, 20, 17, 15, 17, 16, 13, 12, 11])
        let headline = Font.preferredFont(forTextStyle: .headline)
        #expect(headline.weight == .semibold && headline.textStyle == .headline && headline.family == Font.systemFamily)
        #expect(Font.preferredFont(forTextStyle: .body).weight == .regular)
        #expect(Font.preferredFont(forTextStyle: .body, compatibleWith: .accessibilityExtraExtraExtraLarge).size == 53)
        #expect(Font.preferredFont(forTextStyle: .caption2, compatibleWith: .extraSmall).size == 11, "never below 11")
    }

    /// Each style grows (or stays) with every larger size, and keeps its place below the larger styles.
    @Test(arguments: Font.TextStyle.allCases)
    func everyStyleGrowsWithTheCategory(style: Font.TextStyle) {
        let sizes = ContentSizeCategory.allCases.map { style.pointSize(at: $0) }
        #expect(zip(sizes, sizes.dropFirst()).allSatisfy { $0 <= $1 }, "\(style): \(sizes)")
        #expect(ContentSizeCategory.allCases.allSatisfy { style.pointSize(at: $0) <= Font.TextStyle.largeTitle.pointSize(at: $0) })
        #expect(
            ContentSizeCategory.accessibilityMedium.isAccessibilityCategory
                && !ContentSizeCategory.extraExtraExtraLarge.isAccessibilityCategory)
    }

    @Test func aChangeResizesWhatAdjustsAndPostsOnce() {
        let bed = AnimationBed()
        let adjusting = Label(text: "Departures")
        adjusting.font = .preferredFont(forTextStyle: .title2)
        adjusting.adjustsFontForContentSizeCategory = true
        let fixed = Label(text: "Gate 4")
        fixed.font = .preferredFont(forTextStyle: .title2)
        let sized = Label(text: "12:40")
        sized.font = .system(size: 22)
        sized.adjustsFontForContentSizeCategory = true
        let field = TextField(frame: Rect(x: 0, y: 100, width: 200, height: 40))
        field.font = .preferredFont(forTextStyle: .body)
        field.adjustsFontForContentSizeCategory = true
        let nested = View()
        nested.addSubview(adjusting)
        for view in [nested, fixed, sized, field] { bed.window.addSubview(view) }
        let posted = Recorded<String>()
        let observation = Application.shared.notificationCenter.addObserver(forName: Application.contentSizeCategoryDidChangeNotification) {
            posted.values.append($0.userInfo["category"] as? String ?? "?")
        }
        defer { Application.shared.notificationCenter.removeObserver(observation) }
        let before = adjusting.intrinsicContentSize
        Application.shared.preferredContentSizeCategory = .accessibilityLarge
        #expect(adjusting.font.size == 39 && adjusting.font.textStyle == .title2 && adjusting.intrinsicContentSize.height > before.height)
        #expect(field.font.size == 33)
        #expect(fixed.font.size == 22 && sized.font.size == 22, "only a text style's font that adjusts")
        #expect(Font.preferredFont(forTextStyle: .body).size == 33)
        Application.shared.preferredContentSizeCategory = .accessibilityLarge
        #expect(posted.values == ["accessibility-large"], "posted once, for a change")
    }
}
