extension Application {
    /// Posted after `preferredContentSizeCategory` changed (as `UIContentSizeCategory.didChangeNotification`),
    /// the new category's name under `"category"`.
    nonisolated public static let contentSizeCategoryDidChangeNotification = NotificationName(
        "KioskContentSizeCategoryDidChangeNotification")

    /// The labels and text fields on every window that adjust for it take their style's new size.
    func contentSizeCategoryDidChange() {
        let category = preferredContentSizeCategory
        func adjusted(_ font: Font) -> Font? {
            font.textStyle.map { Font.preferredFont(forTextStyle: $0, compatibleWith: category) }
        }
        func visit(_ view: View) {
            if let label = view as? Label, label.adjustsFontForContentSizeCategory, let font = adjusted(label.font) {
                label.font = font
            } else if let field = view as? TextField, field.adjustsFontForContentSizeCategory, let font = adjusted(field.font) {
                field.font = font
            }
            for subview in view.subviews { visit(subview) }
        }
        for window in windows { visit(window) }
        notificationCenter.post(name: Self.contentSizeCategoryDidChangeNotification, userInfo: ["category": category.rawValue])
    }
}

extension Font {
    /// The system font of `style` at the kiosk's text size (as `UIFont.preferredFont(forTextStyle:)`):
    /// `Application.shared.preferredContentSizeCategory`, the config's `text-size`.
    @MainActor
    public static func preferredFont(forTextStyle style: TextStyle) -> Font {
        preferredFont(forTextStyle: style, compatibleWith: Application.shared.preferredContentSizeCategory)
    }
}
