/// A view that shows text in any script, laid out by pango (as `UILabel`): font, colour, alignment and
/// line wrapping, centred vertically in its bounds. It shows the lines that fit in its bounds and
/// `numberOfLines`, the last of them truncated by `lineBreakMode`. Labels let touches through by default.
@MainActor
open class Label: View {
    open var text: String = "" { didSet { if text != oldValue { setNeedsDisplay() } } }
    open var font: Font = .system(size: 17) { didSet { if font != oldValue { setNeedsDisplay() } } }
    open var textColor: Color = .black { didSet { if textColor != oldValue { setNeedsDisplay() } } }
    open var textAlignment: TextAlignment = .natural { didSet { if textAlignment != oldValue { setNeedsDisplay() } } }
    /// The most lines shown; 0 means as many as the text needs (as `UILabel.numberOfLines`).
    open var numberOfLines: Int = 1 { didSet { if numberOfLines != oldValue { setNeedsDisplay() } } }
    open var lineBreakMode: LineBreakMode = .truncatingTail { didSet { if lineBreakMode != oldValue { setNeedsDisplay() } } }

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
        TextLayout(
            text: text, font: font, color: textColor, alignment: textAlignment, lineBreakMode: lineBreakMode,
            width: width, maxLines: max(numberOfLines, 0), maxHeight: maxHeight)
    }

    /// The size the text needs: a label of several lines (`numberOfLines` not 1) wraps within `size`'s
    /// width when it has one; a one-line label takes the whole line, as UIKit's.
    override open func sizeThatFits(_ size: Size) -> Size {
        // No text takes no room (pango measures an empty line a line tall).
        guard !text.isEmpty else { return .zero }
        let layout = textLayout(width: numberOfLines != 1 && size.width > 0 ? size.width : nil)
        return Size(width: layout.size.width.rounded(.up), height: layout.size.height.rounded(.up))
    }

    override open func draw(_ rect: Rect) {
        guard !text.isEmpty, let context = DrawingContext.current else { return }
        // As UIKit's: the lines that fit in the bounds (and numberOfLines), the last of them truncated.
        let layout = textLayout(width: bounds.width, maxHeight: bounds.height)
        let top = ((bounds.height - layout.size.height) / 2).rounded()
        context.draw(layout, at: Point(x: bounds.minX, y: bounds.minY + top))
    }
}
