/// A view that shows text in any script, laid out by pango (as `UILabel`): font, colour, alignment and
/// line wrapping, centred vertically in its bounds. It shows the lines that fit in its bounds and
/// `numberOfLines`, the last of them truncated by `lineBreakMode`. Labels let touches through by default.
@MainActor
open class Label: View {
    open var text: String = "" {
        didSet {
            guard text != oldValue else { return }
            // Plain text replaces the attributed (as UIKit's).
            if attributedText?.string != text { attributedText = nil }
            textDidChange()
        }
    }
    /// The text with attributes on its runs (as `UILabel.attributedText`): setting it sets `text` to its
    /// string; the label's font, colour, alignment and line break mode apply where it sets none. Setting
    /// `text` makes it nil.
    open var attributedText: AttributedText? {
        didSet {
            guard attributedText != oldValue else { return }
            if let attributedText, attributedText.string != text { text = attributedText.string }
            textDidChange()
        }
    }
    open var font: Font = .system(size: 17) { didSet { if font != oldValue { textDidChange() } } }
    open var textColor: Color = .black { didSet { if textColor != oldValue { setNeedsDisplay() } } }
    open var textAlignment: TextAlignment = .natural { didSet { if textAlignment != oldValue { setNeedsDisplay() } } }
    /// The most lines shown; 0 means as many as the text needs (as `UILabel.numberOfLines`).
    open var numberOfLines: Int = 1 { didSet { if numberOfLines != oldValue { textDidChange() } } }
    open var lineBreakMode: LineBreakMode = .truncatingTail { didSet { if lineBreakMode != oldValue { textDidChange() } } }
    /// Whether a font of a text style takes the style's new size when the kiosk's text size changes (as
    /// UIKit's; false).
    open var adjustsFontForContentSizeCategory = false
    /// Whether text too large for the bounds is drawn smaller, down to `minimumScaleFactor` of the font's
    /// size, before it is truncated (as `UILabel`'s): a one-line label's text until it fits the width, a
    /// label of several lines' until its wrapped lines fit the height and `numberOfLines`. The intrinsic
    /// size stays the full-size text's, as UIKit's.
    open var adjustsFontSizeToFitWidth = false { didSet { if adjustsFontSizeToFitWidth != oldValue { setNeedsDisplay() } } }
    /// The smallest share of the font's size text may shrink to; 0 (the default) or 1: the font's own size,
    /// so nothing shrinks (UIKit's meaning of 0).
    open var minimumScaleFactor: Double = 0 { didSet { if minimumScaleFactor != oldValue { setNeedsDisplay() } } }
    /// Where shrunk text of one line sits (as `UILabel.baselineAdjustment`).
    open var baselineAdjustment: BaselineAdjustment = .alignBaselines {
        didSet { if baselineAdjustment != oldValue { setNeedsDisplay() } }
    }
    /// The width a label of several lines wraps at for its `intrinsicContentSize` (as UIKit's); 0: its
    /// current width, once the layout gave it one.
    open var preferredMaxLayoutWidth: Double = 0 {
        didSet { if preferredMaxLayoutWidth != oldValue, numberOfLines != 1 { invalidateIntrinsicContentSize() } }
    }

    /// A label of several lines that wraps at its own width needs another height when its width changes.
    override open var bounds: Rect {
        didSet {
            if bounds.width != oldValue.width, numberOfLines != 1, preferredMaxLayoutWidth <= 0 { invalidateIntrinsicContentSize() }
        }
    }

    override public init(frame: Rect = .zero) {
        super.init(frame: frame)
        isUserInteractionEnabled = false
    }

    public convenience init(text: String, font: Font = .system(size: 17), frame: Rect = .zero) {
        self.init(frame: frame)
        self.text = text
        self.font = font
    }

    /// The text laid out for `width` (nil: one line per paragraph, no wrapping), in at most `maxHeight`.
    public func textLayout(width: Double?, maxHeight: Double? = nil) -> TextLayout {
        textLayout(font: font, width: width, maxHeight: maxHeight)
    }

    func textLayout(font: Font, width: Double?, maxHeight: Double? = nil) -> TextLayout {
        TextLayout(
            text: text, font: font, color: textColor, alignment: attributedText?.paragraphStyle?.alignment ?? textAlignment,
            lineBreakMode: attributedText?.paragraphStyle?.lineBreakMode ?? lineBreakMode, width: width,
            maxLines: max(numberOfLines, 0), maxHeight: maxHeight, attributes: attributedText)
    }

    /// The size the text needs: a label of several lines (`numberOfLines` not 1) wraps within `size`'s
    /// width when it has one; a one-line label takes the whole line, as UIKit's.
    override open func sizeThatFits(_ size: Size) -> Size {
        // No text takes no room (pango measures an empty line a line tall).
        guard !text.isEmpty else { return .zero }
        let layout = textLayout(width: numberOfLines != 1 && size.width > 0 ? size.width : nil)
        return Size(width: layout.size.width.rounded(.up), height: layout.size.height.rounded(.up))
    }

    /// The text's size (as `UILabel`'s): one line, or wrapped at `preferredMaxLayoutWidth` (else the current
    /// width) for a label of several lines; zero without text.
    override open var intrinsicContentSize: Size {
        sizeThatFits(Size(width: numberOfLines != 1 ? wrappingWidth : 0, height: 0))
    }

    private var wrappingWidth: Double { preferredMaxLayoutWidth > 0 ? preferredMaxLayoutWidth : bounds.width }

    /// The baselines of the text centred in the bounds, as `draw` places it: the first line's from the
    /// layout; the last line's that many line heights below (pango's lines of one font are of one height).
    override func baselinePosition(last: Bool) -> BaselinePosition {
        guard !text.isEmpty else { return .bottom }
        let layout = textLayout(width: numberOfLines != 1 && wrappingWidth > 0 ? wrappingWidth : nil)
        let lines = Double(max(layout.lineCount, 1))
        let below = last ? (lines - 1) * layout.size.height / lines : 0
        return BaselinePosition(heightFraction: 0.5, offset: layout.baseline + below - layout.size.height / 2)
    }

    private func textDidChange() {
        setNeedsDisplay()
        invalidateIntrinsicContentSize()
    }

    override open func draw(_ rect: Rect) {
        guard !text.isEmpty, let context = DrawingContext.current else { return }
        // As UIKit's: the lines that fit in the bounds (and numberOfLines), the last of them truncated.
        let drawn = fittingFont(in: bounds.size)
        let layout = textLayout(font: drawn, width: bounds.width, maxHeight: bounds.height)
        var top = ((bounds.height - layout.size.height) / 2).rounded()
        if drawn != font, numberOfLines == 1, baselineAdjustment != .alignCenters {
            // Shrunk: where the full-size line's baseline (or top) would have been.
            let full = textLayout(width: bounds.width, maxHeight: bounds.height)
            let fullTop = (bounds.height - full.size.height) / 2
            top = (baselineAdjustment == .alignBaselines ? fullTop + full.baseline - layout.baseline : fullTop).rounded()
        }
        context.draw(layout, at: Point(x: bounds.minX, y: bounds.minY + top))
    }
}
