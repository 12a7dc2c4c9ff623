/// A control with a title and/or an image (as `UIButton`), drawn centred: the image first, then the title,
/// over its background image if it has one. Each can be set for a state (`setTitle(_:for:)` and the
/// others, as UIKit's): the current state's is shown, else the normal state's. Without colours of their
/// own, a pressed title is the normal one at 60 % and a disabled one at 40 %, and a pressed button shows
/// `highlightedBackgroundColor` (by default its background darkened).
@MainActor
open class Button: Control {
    /// The normal state's title (`setTitle(_:for: .normal)`).
    open var title: String? {
        get { titles[.normal] }
        set { setTitle(newValue, for: .normal) }
    }
    /// The normal state's image (`setImage(_:for: .normal)`).
    open var image: Bitmap? {
        get { images[.normal] }
        set { setImage(newValue, for: .normal) }
    }
    open var font: Font = .system(size: 20, weight: .medium) { didSet { if font != oldValue { contentDidChange() } } }
    /// The normal state's title colour: the one set, else the tint (`tintColor`, UIKit's system blue unless
    /// a view above sets another), as a system button's.
    open var titleColor: Color {
        get { titleColors[.normal] ?? tintColor }
        set { setTitleColor(newValue, for: .normal) }
    }
    /// The pressed title's colour (`setTitleColor(_:for: .highlighted)`).
    open var highlightedTitleColor: Color? {
        get { titleColors[.highlighted] }
        set { setTitleColor(newValue, for: .highlighted) }
    }
    /// The background while pressed; nil: the background colour with 30% black over it.
    open var highlightedBackgroundColor: Color? { didSet { if highlightedBackgroundColor != oldValue { setNeedsDisplay() } } }
    /// Space between the image and the title.
    open var imageTitleSpacing: Double = 8 { didSet { if imageTitleSpacing != oldValue { contentDidChange() } } }

    private var titles: [State: String] = [:]
    private var titleColors: [State: Color] = [:]
    private var images: [State: Bitmap] = [:]
    private var backgroundImages: [State: Bitmap] = [:]

    public convenience init(title: String, frame: Rect = .zero) {
        self.init(frame: frame)
        self.title = title
    }

    // MARK: Content by state

    /// The title shown in `state` (nil: that state shows the normal one).
    public func setTitle(_ title: String?, for state: State) { set(&titles, title, for: state) }
    public func title(for state: State) -> String? { titles[state] ?? titles[.normal] }

    /// The title's colour in `state` (nil: derived from the normal one).
    public func setTitleColor(_ color: Color?, for state: State) { set(&titleColors, color, for: state, resizes: false) }
    public func titleColor(for state: State) -> Color? { titleColors[state] ?? titleColors[.normal] }

    /// The image shown in `state`, before the title.
    public func setImage(_ image: Bitmap?, for state: State) { set(&images, image, for: state) }
    public func image(for state: State) -> Bitmap? { images[state] ?? images[.normal] }

    /// The image drawn stretched over the bounds, under the title and image, in `state`.
    public func setBackgroundImage(_ image: Bitmap?, for state: State) { set(&backgroundImages, image, for: state, resizes: false) }
    public func backgroundImage(for state: State) -> Bitmap? { backgroundImages[state] ?? backgroundImages[.normal] }

    public var currentTitle: String? { title(for: state) }
    public var currentImage: Bitmap? { image(for: state) }
    public var currentBackgroundImage: Bitmap? { backgroundImage(for: state) }

    /// The title's colour now: the current state's, else the normal colour, at 60 % while pressed and 40 %
    /// while disabled.
    public var currentTitleColor: Color {
        if let color = titleColors[state] { return color }
        if isHighlighted, isEnabled, let color = titleColors[.highlighted] { return color }
        var color = titleColor
        if isHighlighted { color = color.withAlphaComponent(color.alpha * 0.6) }
        return isEnabled ? color : color.withAlphaComponent(color.alpha * 0.4)
    }

    private func set<Value>(_ table: inout [State: Value], _ value: Value?, for state: State, resizes: Bool = true) {
        table[state] = value
        if resizes { contentDidChange() } else { setNeedsDisplay() }
    }

    /// A tap is a button's primary action (`.primaryActionTriggered` with `.touchUpInside`).
    override open var sendsPrimaryActionOnTouchUpInside: Bool { true }

    override open func stateDidChange() {
        super.stateDidChange()
        // A state with a title or an image of its own may need another size.
        if titles.count > 1 || images.count > 1 { invalidateIntrinsicContentSize() }
    }

    override open func tintColorDidChange() {
        super.tintColorDidChange()
        if titleColors[.normal] == nil { setNeedsDisplay() }
    }

    // MARK: Size

    /// The current image and title side by side, at their natural sizes (the title on one line).
    override open func sizeThatFits(_ size: Size) -> Size {
        let title = titleLayout()
        let imageSize = currentImage?.size ?? .zero
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

    /// The current title on one line in its current colour, ending in "…" at `width` (nil: whole); nil
    /// without one.
    private func titleLayout(width: Double? = nil) -> TextLayout? {
        guard let title = currentTitle, !title.isEmpty else { return nil }
        return TextLayout(
            text: title, font: font, color: currentTitleColor, alignment: .left, lineBreakMode: .truncatingTail, width: width,
            maxLines: 1)
    }

    override open func draw(_ rect: Rect) {
        guard let context = DrawingContext.current else { return }
        if let background = currentBackgroundImage {
            // Within the rounded corners, as the layer's background colour is.
            context.save()
            if cornerRadius > 0 { context.clip(toRoundedRect: bounds, radius: cornerRadius) }
            context.draw(background, in: bounds, opacity: isEnabled ? 1 : 0.4)
            context.restore()
        }
        // Pressed, it darkens, unless its pressed look is an image of its own.
        if isHighlighted, backgroundImages[state] == nil {
            let shade = highlightedBackgroundColor ?? Color(white: 0, alpha: 0.3)
            if cornerRadius > 0 {
                context.fillRoundedRect(bounds, radius: cornerRadius, color: shade)
            } else {
                context.fill(bounds, color: shade)
            }
        }
        let image = currentImage
        var imageSize = Size.zero
        if let image, image.width > 0, image.height > 0 {
            // The image keeps its aspect ratio and fits the height.
            let scale = min(1, bounds.height / Double(image.height), bounds.width / Double(image.width))
            imageSize = Size(width: (Double(image.width) * scale).rounded(), height: (Double(image.height) * scale).rounded())
        }
        let hasTitle = !(currentTitle ?? "").isEmpty
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
