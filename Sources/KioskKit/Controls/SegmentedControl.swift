/// A row of segments, titles or images, of which one is selected (as `UISegmentedControl`, in its look
/// since iOS 13: a light rounded plate, the selected segment a white raised pill, thin separators between
/// the others). A touch that lifts inside a segment selects it and sends `.valueChanged` when the
/// selection changed; while the finger is on a segment it is shown pressed. `isMomentary` segments do
/// not stay selected: each lift sends `.valueChanged` with the segment in `selectedSegmentIndex`, which
/// then goes back to `noSegment`. Setting `selectedSegmentIndex` sends nothing, as UIKit's.
///
/// Its intrinsic size: 32 points tall; segments of equal width, the widest content's plus padding
/// (`apportionsSegmentWidthsByContent` gives each its own), or the width set with `setWidth(_:forSegmentAt:)`.
@MainActor
open class SegmentedControl: Control {
    override open var tracedValue: String? { String(selectedSegmentIndex) }

    /// What a segment shows.
    public enum Content: Equatable {
        case title(String)
        case image(Bitmap)

        public static func == (a: Content, b: Content) -> Bool {
            switch (a, b) {
            case (.title(let x), .title(let y)): x == y
            case (.image(let x), .image(let y)): x === y
            default: false
            }
        }
    }

    /// `selectedSegmentIndex` when none is selected (UIKit's `noSegment`).
    public static let noSegment = -1
    static let height = 32.0, padding = 12.0, cornerRadius = 8.0, pillInset = 2.0
    static let plateColor = Color.tertiarySystemFill
    static let separatorColor = Color(red: 60.0 / 255, green: 60.0 / 255, blue: 67.0 / 255, alpha: 0.3)

    private struct Segment {
        var content: Content
        var isEnabled = true
        /// 0: the automatic width.
        var width = 0.0
    }

    private var segments: [Segment] = []
    /// The selected segment, or `noSegment`. Set, it shows at once and sends nothing; an index past the
    /// segments is `noSegment`.
    open var selectedSegmentIndex = SegmentedControl.noSegment {
        didSet {
            if !segments.indices.contains(selectedSegmentIndex) { selectedSegmentIndex = Self.noSegment }
            if selectedSegmentIndex != oldValue { setNeedsDisplay() }
        }
    }
    /// Whether a lift only reports its segment, which does not stay selected.
    open var isMomentary = false
    /// Whether each segment is as wide as its own content (false: all as wide as the widest).
    open var apportionsSegmentWidthsByContent = false { didSet { contentDidChange() } }
    /// The selected segment's pill; nil: white.
    open var selectedSegmentTintColor: Color? { didSet { setNeedsDisplay() } }
    /// The titles' font; the selected one's is its semibold.
    open var font: Font = .system(size: 13, weight: .medium) { didSet { contentDidChange() } }
    /// The titles' colour (UIKit's label black).
    open var titleColor: Color = .black { didSet { setNeedsDisplay() } }

    /// The segment under the finger while it is down inside one.
    private(set) var pressedSegment: Int?

    /// A control of one segment for each title (as `init(items:)` with strings).
    public convenience init(titles: [String]) {
        self.init(frame: .zero)
        segments = titles.map { Segment(content: .title($0)) }
        contentDidChange()
        bounds.size = intrinsicContentSize
    }

    public var numberOfSegments: Int { segments.count }

    /// Inserts a segment with `title` at `index` (past the end: last). `animated` is accepted for UIKit's
    /// signature; the change shows at once.
    public func insertSegment(withTitle title: String, at index: Int, animated: Bool) {
        insert(Segment(content: .title(title)), at: index)
    }

    public func insertSegment(with image: Bitmap, at index: Int, animated: Bool) {
        insert(Segment(content: .image(image)), at: index)
    }

    public func removeSegment(at index: Int, animated: Bool) {
        guard segments.indices.contains(index) else { return }
        segments.remove(at: index)
        if selectedSegmentIndex == index {
            selectedSegmentIndex = Self.noSegment
        } else if selectedSegmentIndex > index {
            selectedSegmentIndex -= 1
        }
        contentDidChange()
    }

    public func removeAllSegments() {
        segments = []
        selectedSegmentIndex = Self.noSegment
        contentDidChange()
    }

    public func setTitle(_ title: String, forSegmentAt index: Int) { setContent(.title(title), at: index) }
    public func setImage(_ image: Bitmap, forSegmentAt index: Int) { setContent(.image(image), at: index) }

    public func titleForSegment(at index: Int) -> String? {
        guard segments.indices.contains(index), case .title(let title) = segments[index].content else { return nil }
        return title
    }

    public func imageForSegment(at index: Int) -> Bitmap? {
        guard segments.indices.contains(index), case .image(let image) = segments[index].content else { return nil }
        return image
    }

    /// A disabled segment is dimmed and takes no touches (the others still do).
    public func setEnabled(_ enabled: Bool, forSegmentAt index: Int) {
        guard segments.indices.contains(index) else { return }
        segments[index].isEnabled = enabled
        setNeedsDisplay()
    }

    public func isEnabledForSegment(at index: Int) -> Bool { segments.indices.contains(index) && segments[index].isEnabled }

    /// A width of 0 (the default) is the automatic one.
    public func setWidth(_ width: Double, forSegmentAt index: Int) {
        guard segments.indices.contains(index) else { return }
        segments[index].width = max(width, 0)
        contentDidChange()
    }

    public func widthForSegment(at index: Int) -> Double { segments.indices.contains(index) ? segments[index].width : 0 }

    private func insert(_ segment: Segment, at index: Int) {
        let place = min(max(index, 0), segments.count)
        segments.insert(segment, at: place)
        if selectedSegmentIndex >= place { selectedSegmentIndex += 1 }
        contentDidChange()
    }

    private func setContent(_ content: Content, at index: Int) {
        guard segments.indices.contains(index), segments[index].content != content else { return }
        segments[index].content = content
        contentDidChange()
    }

    private func contentDidChange() {
        invalidateIntrinsicContentSize()
        setNeedsDisplay()
    }

    // MARK: Sizes

    /// The natural width of segment `index`'s content, padding included.
    private func naturalWidth(_ index: Int) -> Double {
        switch segments[index].content {
        case .title(let title):
            let semibold = Font(family: font.family, size: font.size, weight: .semibold)
            let layout = TextLayout(text: title, font: semibold, lineBreakMode: .truncatingTail, maxLines: 1)
            return layout.size.width.rounded(.up) + 2 * Self.padding
        case .image(let image): return Double(image.width) + 2 * Self.padding
        }
    }

    override open var intrinsicContentSize: Size {
        guard !segments.isEmpty else { return Size(width: 0, height: Self.height) }
        let natural = segments.indices.map(naturalWidth)
        let widest = natural.max() ?? 0
        let width = segments.indices.reduce(0.0) { sum, index in
            let set = segments[index].width
            return sum + (set > 0 ? set : apportionsSegmentWidthsByContent ? natural[index] : widest)
        }
        return Size(width: width, height: Self.height)
    }

    override open func sizeThatFits(_ size: Size) -> Size { intrinsicContentSize }

    /// Each segment's rectangle across the bounds: set widths kept, the rest of the room shared by the
    /// others, equally or in proportion to their content (`apportionsSegmentWidthsByContent`).
    func segmentFrames() -> [Rect] {
        guard !segments.isEmpty else { return [] }
        let fixed = segments.reduce(0.0) { $0 + $1.width }
        let automatic = segments.indices.filter { segments[$0].width == 0 }
        let weights = automatic.map { apportionsSegmentWidthsByContent ? naturalWidth($0) : 1 }
        let total = weights.reduce(0, +)
        let room = max(bounds.width - fixed, 0)
        var widths = segments.map(\.width)
        for (place, index) in automatic.enumerated() { widths[index] = total > 0 ? room * weights[place] / total : 0 }
        var x = bounds.minX
        return widths.map { width in
            defer { x += width }
            return Rect(x: x, y: bounds.minY, width: width, height: bounds.height)
        }
    }

    private func segment(at point: Point) -> Int? {
        segmentFrames().firstIndex { $0.minX <= point.x && point.x < $0.maxX && bounds.contains(point) }
    }

    // MARK: Tracking

    override open func touchesBegan(_ touches: Set<Touch>, with event: Event) {
        super.touchesBegan(touches, with: event)
        trackPress(touches)
    }

    override open func touchesMoved(_ touches: Set<Touch>, with event: Event) {
        super.touchesMoved(touches, with: event)
        trackPress(touches)
    }

    override open func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        let lifted = pressedSegment
        super.touchesEnded(touches, with: event)
        guard !isTracking else { return }
        pressedSegment = nil
        setNeedsDisplay()
        guard let lifted else { return }
        if isMomentary {
            selectedSegmentIndex = lifted
            sendValueChanged()
            selectedSegmentIndex = Self.noSegment
        } else if lifted != selectedSegmentIndex {
            selectedSegmentIndex = lifted
            sendValueChanged()
        }
    }

    override open func touchesCancelled(_ touches: Set<Touch>, with event: Event) {
        super.touchesCancelled(touches, with: event)
        if !isTracking, pressedSegment != nil {
            pressedSegment = nil
            setNeedsDisplay()
        }
    }

    override open var isEnabled: Bool { didSet { if isEnabled != oldValue { pressedSegment = nil } } }

    /// The enabled segment under the tracked finger, shown pressed; none when it is outside.
    private func trackPress(_ touches: Set<Touch>) {
        guard isTracking, let touch = touches.first else { return }
        let index = segment(at: touch.location(in: self)).flatMap { segments[$0].isEnabled ? $0 : nil }
        guard index != pressedSegment else { return }
        pressedSegment = index
        setNeedsDisplay()
    }

    // MARK: Drawing

    override open func draw(_ rect: Rect) {
        guard let context = DrawingContext.current else { return }
        context.fillRoundedRect(bounds, radius: Self.cornerRadius, color: Self.plateColor)
        let frames = segmentFrames()
        if frames.indices.contains(selectedSegmentIndex) {
            let pill = frames[selectedSegmentIndex].insetBy(dx: Self.pillInset, dy: Self.pillInset)
            let radius = Self.cornerRadius - Self.pillInset
            // A soft edge below it, as UIKit's shadow.
            context.fillRoundedRect(pill.offsetBy(dx: 0, dy: 0.5), radius: radius, color: Color(white: 0, alpha: 0.08))
            context.fillRoundedRect(pill, radius: radius, color: selectedSegmentTintColor ?? .white)
        }
        for index in frames.indices.dropFirst() {
            // No separator beside the selected pill.
            guard index != selectedSegmentIndex, index - 1 != selectedSegmentIndex else { continue }
            let x = frames[index].minX
            context.fill(Rect(x: x - 0.5, y: bounds.minY + 8, width: 1, height: bounds.height - 16), color: Self.separatorColor)
        }
        for (index, frame) in frames.enumerated() { drawContent(index, in: frame, context: context) }
    }

    private func drawContent(_ index: Int, in frame: Rect, context: DrawingContext) {
        let enabled = isEnabled && segments[index].isEnabled
        let pressed = pressedSegment == index && index != selectedSegmentIndex
        let strength = !enabled ? 0.3 : pressed ? 0.5 : 1
        let room = max(frame.width - 2 * Self.pillInset - 4, 1)
        switch segments[index].content {
        case .title(let title):
            let weight: Font.Weight = index == selectedSegmentIndex ? .semibold : font.weight
            let layout = TextLayout(
                text: title, font: Font(family: font.family, size: font.size, weight: weight),
                color: titleColor.withAlphaComponent(titleColor.alpha * strength), lineBreakMode: .truncatingTail, width: room,
                maxLines: 1)
            let width = min(layout.size.width, room)
            context.draw(
                layout, at: Point(x: (frame.midX - width / 2).rounded(), y: (frame.midY - layout.size.height / 2).rounded()))
        case .image(let image):
            let scale = min(1, room / Double(max(image.width, 1)), (frame.height - 8) / Double(max(image.height, 1)))
            let size = Size(width: (Double(image.width) * scale).rounded(), height: (Double(image.height) * scale).rounded())
            context.draw(
                image,
                in: Rect(
                    x: (frame.midX - size.width / 2).rounded(), y: (frame.midY - size.height / 2).rounded(), width: size.width,
                    height: size.height), opacity: strength)
        }
    }
}
