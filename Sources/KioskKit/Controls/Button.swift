/// A control with a title and/or an image (as `UIButton`), drawn centred: the image first, then the title.
/// While pressed it shows its highlighted look: `highlightedBackgroundColor` (by default its background
/// darkened) and `highlightedTitleColor`.
@MainActor
open class Button: Control {
    open var title: String? { didSet { if title != oldValue { contentDidChange() } } }
    open var image: Bitmap? { didSet { if image !== oldValue { contentDidChange() } } }
    open var font: Font = .system(size: 20, weight: .medium) { didSet { if font != oldValue { contentDidChange() } } }
    /// The title's colour: the one set, else the tint (`tintColor`, UIKit's system blue unless a view above
    /// sets another), as a system button's.
    open var titleColor: Color {
        get { ownTitleColor ?? tintColor }
        set {
            guard newValue != ownTitleColor else { return }
            ownTitleColor = newValue
            setNeedsDisplay()
        }
    }
    private var ownTitleColor: Color?
    open var highlightedTitleColor: Color? { didSet { if highlightedTitleColor != oldValue { setNeedsDisplay() } } }
    /// The background while pressed; nil: the background colour with 30% black over it.
    open var highlightedBackgroundColor: Color? { didSet { if highlightedBackgroundColor != oldValue { setNeedsDisplay() } } }
    /// Space between the image and the title.
    open var imageTitleSpacing: Double = 8 { didSet { if imageTitleSpacing != oldValue { contentDidChange() } } }

    public convenience init(title: String, frame: Rect = .zero) {
        self.init(frame: frame)
        self.title = title
    }

    /// The image and the title side by side, at their natural sizes (the title on one line).
    override open func sizeThatFits(_ size: Size) -> Size {
        let title = titleLayout()
        let imageSize = image?.size ?? .zero
        let spacing = imageSize.width > 0 && title != nil ? imageTitleSpacing : 0
        let titleSize = title.map { Size(width: $0.size.width.rounded(.up), height: $0.size.height.rounded(.up)) } ?? .zero
        return Size(width: imageSize.width + spacing + titleSize.width, height: max(imageSize.height, titleSize.height))
    }

    /// Its image and title at their natural sizes (`sizeThatFits`), which Auto Layout keeps it at.
    override open var intrinsicContentSize: Size { sizeThatFits(.zero) }

    private func contentDidChange() {
        setNeedsDisplay()
        invalidateIntrinsicContentSize()
    }

    /// The title on one line in its current colour, ending in "…" at `width` (nil: whole); nil without one.
    private func titleLayout(width: Double? = nil) -> TextLayout? {
        guard let title, !title.isEmpty else { return nil }
        return TextLayout(
            text: title, font: font, color: currentTitleColor, alignment: .left, lineBreakMode: .truncatingTail, width: width,
            maxLines: 1)
    }

    override open func tintColorDidChange() {
        super.tintColorDidChange()
        if ownTitleColor == nil { setNeedsDisplay() }
    }

    /// The title's colour in the current state.
    public var currentTitleColor: Color {
        let color = isHighlighted ? (highlightedTitleColor ?? titleColor.withAlphaComponent(titleColor.alpha * 0.6)) : titleColor
        return isEnabled ? color : color.withAlphaComponent(color.alpha * 0.4)
    }

    override open func draw(_ rect: Rect) {
        guard let context = DrawingContext.current else { return }
        if isHighlighted {
            let shade = highlightedBackgroundColor ?? Color(white: 0, alpha: 0.3)
            if cornerRadius > 0 {
                context.fillRoundedRect(bounds, radius: cornerRadius, color: shade)
            } else {
                context.fill(bounds, color: shade)
            }
        }
        var imageSize = Size.zero
        if let image, image.width > 0, image.height > 0 {
            // The image keeps its aspect ratio and fits the height.
            let scale = min(1, bounds.height / Double(image.height), bounds.width / Double(image.width))
            imageSize = Size(width: (Double(image.width) * scale).rounded(), height: (Double(image.height) * scale).rounded())
        }
        let hasTitle = !(title ?? "").isEmpty
        let spacing = imageSize.width > 0 && hasTitle ? imageTitleSpacing : 0
        // One line; a title longer than the room beside the image ends in "…" (it ran past the edge).
        let room = max(bounds.width - imageSize.width - spacing, 1)
        let layout = titleLayout().flatMap { whole in whole.size.width > room ? titleLayout(width: room) : whole }
        let textWidth = min(layout?.size.width ?? 0, room)
        var x = (bounds.midX - (imageSize.width + spacing + textWidth) / 2).rounded()
        if let image, imageSize.width > 0 {
            context.draw(
                image, in: Rect(x: x, y: (bounds.midY - imageSize.height / 2).rounded(), width: imageSize.width, height: imageSize.height),
                opacity: isEnabled ? 1 : 0.4)
            x += imageSize.width + spacing
        }
        if let layout {
            context.draw(layout, at: Point(x: x, y: (bounds.midY - layout.size.height / 2).rounded()))
        }
    }
}
