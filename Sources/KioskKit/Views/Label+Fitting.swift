/// Where a label's shrunk line of text sits vertically (as `UIBaselineAdjustment`).
public enum BaselineAdjustment: Hashable, Sendable {
    /// Its baseline where the full-size text's would be.
    case alignBaselines
    /// Centred in the bounds.
    case alignCenters
    /// Its top where the full-size text's would be.
    case none
}

extension Label {
    /// How close the fitting font's size comes to the largest that fits, in pixels: pango lays the text
    /// out once a halving, so six or seven layouts find it.
    static let fittingPrecision = 0.25

    /// The font the text is drawn in within `size`: `font`, or with `adjustsFontSizeToFitWidth` the largest
    /// size down to `minimumScaleFactor` of it at which the text fits (the smallest when none does: the
    /// text is then truncated at that size).
    func fittingFont(in size: Size) -> Font {
        guard adjustsFontSizeToFitWidth, minimumScaleFactor > 0, minimumScaleFactor < 1, !text.isEmpty, !fits(font, in: size) else {
            return font
        }
        var low = font.size * minimumScaleFactor, high = font.size
        guard fits(font.withSize(low), in: size) else { return font.withSize(low) }
        // Fits at `low`, not at `high`.
        while high - low > Self.fittingPrecision {
            let middle = (low + high) / 2
            if fits(font.withSize(middle), in: size) { low = middle } else { high = middle }
        }
        return font.withSize(low)
    }

    /// Whether the text in `font` fits `size` untruncated: one line its width; several lines, wrapped at
    /// its width, its height and `numberOfLines`.
    private func fits(_ font: Font, in size: Size) -> Bool {
        if numberOfLines == 1 { return textLayout(font: font, width: nil).size.width <= size.width }
        // Wrapped without a limit (the label's own layout stops at `numberOfLines`, truncating).
        let layout = TextLayout(text: text, font: font, lineBreakMode: .wordWrap, width: size.width)
        return layout.size.height <= size.height && (numberOfLines <= 0 || layout.lineCount <= numberOfLines)
    }
}
