/// The bar at the top of a navigation interface (as `UINavigationBar`): it shows a stack of
/// `NavigationItem`s, the top item's title centred, its buttons on either side, and a back button titled
/// after the item below. A `NavigationController` makes one (`navigationBar`), places it at the top of its
/// safe area and keeps its items those of its view controllers: set the look here (`barTintColor`,
/// `tintColor`, `titleTextColor`), the content through each controller's `navigationItem`.
///
/// The back button's title, as UIKit's default back button display mode chooses it by the room there is:
/// the title of the item below's `backBarButtonItem`, else its `backButtonTitle`, else its `title`; when
/// that is nil or does not fit beside the centred title, "Back"; when even that does not fit, the chevron
/// alone. A tap on it pops the top controller.
@MainActor
open class NavigationBar: View {
    /// The bar's height in points: UIKit's for a bar without large titles or a prompt.
    public static let height = 44.0

    /// The items from the bottom of the stack to the top, as the navigation controller set them.
    public private(set) var items: [NavigationItem] = []
    /// The item whose title and buttons the bar shows (as `UINavigationBar.topItem`).
    public var topItem: NavigationItem? { items.last }
    /// The item below the top one, whose title the back button carries (as `UINavigationBar.backItem`).
    public var backItem: NavigationItem? { items.count >= 2 ? items[items.count - 2] : nil }

    /// The bar's background (as `UINavigationBar.barTintColor`; UIKit's light bar grey by default).
    open var barTintColor = Color(white: 0.97) { didSet { if barTintColor != oldValue { backgroundColor = barTintColor } } }
    /// The buttons' titles and images are in the bar's `tintColor` (as `UINavigationBar`'s: the view's,
    /// inherited from the window unless set on the bar).
    override open func tintColorDidChange() {
        super.tintColorDidChange()
        rebuildContent()
    }
    /// The title's colour (UIKit's `titleTextAttributes` foreground colour; black by default).
    open var titleTextColor = Color.black { didSet { if titleTextColor != oldValue { rebuildContent() } } }

    /// What a tap on the back button does: the navigation controller pops.
    var backAction: (() -> Void)?
    /// The top item's title and buttons, a subview filling the bar; during a transition, the incoming ones.
    private(set) var content: NavigationBarContent?
    /// During a transition, the outgoing content, fading out while `content` fades in.
    private(set) var outgoing: NavigationBarContent?
    /// During a transition, the items to go back to if it is cancelled.
    private var outgoingItems: [NavigationItem] = []

    override public init(frame: Rect = .zero) {
        super.init(frame: frame)
        backgroundColor = barTintColor
        isOpaque = true
        identifier = "navigation-bar"
    }

    /// As tall as UIKit's bar; as wide as it is placed.
    override open var intrinsicContentSize: Size { Size(width: View.noIntrinsicMetric, height: Self.height) }

    override open func sizeThatFits(_ size: Size) -> Size { Size(width: size.width, height: Self.height) }

    /// The hairline along the bottom edge that UIKit's bar draws between itself and the content.
    override open func draw(_ rect: Rect) {
        DrawingContext.current?.fill(Rect(x: 0, y: bounds.height - 1, width: bounds.width, height: 1), color: Color(white: 0, alpha: 0.3))
    }

    // MARK: Items (the navigation controller's)

    /// Shows `items` at once, their top item's content replacing what was shown.
    func show(_ items: [NavigationItem]) {
        if outgoing != nil { endTransition(completed: true) }
        setItems(items)
        rebuildContent()
    }

    /// Starts showing `items`: their content comes in transparent beside the old one, which stays until
    /// `endTransition`; the caller moves `fraction(_:)` from 0 to 1, animated or with a finger.
    func beginTransition(to items: [NavigationItem]) {
        if outgoing != nil { endTransition(completed: true) }
        outgoingItems = self.items
        outgoing = content
        setItems(items)
        let incoming = makeContent()
        incoming.alpha = 0
        content = incoming
    }

    /// How far the transition is: the outgoing content fades out as the incoming fades in.
    func setTransitionFraction(_ fraction: Double) {
        outgoing?.alpha = 1 - fraction
        content?.alpha = fraction
    }

    /// Ends the transition: completed, the incoming content stays; cancelled, the old items come back.
    func endTransition(completed: Bool) {
        guard let old = outgoing else { return }
        outgoing = nil
        if completed {
            old.removeFromSuperview()
            content?.alpha = 1
        } else {
            content?.removeFromSuperview()
            content = old
            old.alpha = 1
            setItems(outgoingItems)
        }
        outgoingItems = []
    }

    private func setItems(_ new: [NavigationItem]) {
        for item in items where item.bar === self { item.bar = nil }
        items = new
        for item in new { item.bar = self }
    }

    /// An item changed: the content shows it again if it is the top or the back item.
    func itemDidChange(_ item: NavigationItem) {
        guard item === topItem || item === backItem else { return }
        rebuildContent()
    }

    /// The top item's content made again, as faded in as the one it replaces (during a transition).
    private func rebuildContent() {
        let alpha = content?.alpha ?? 1
        content?.removeFromSuperview()
        content = items.isEmpty ? nil : makeContent()
        content?.alpha = alpha
    }

    private func makeContent() -> NavigationBarContent {
        let made = NavigationBarContent(top: topItem, back: backItem, tint: tintColor, titleColor: titleTextColor) { [weak self] in
            self?.backAction?()
        }
        made.frame = bounds
        made.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        addSubview(made)
        return made
    }
}

/// One item's content in the bar: the back button, the leading items, the title and the trailing items,
/// placed by `layoutSubviews` as UIKit's bar places them (the title centred on the bar when it fits
/// between the buttons, else moved and then truncated to fit between them).
@MainActor
final class NavigationBarContent: View {
    let titleLabel = Label()
    let backButton: BarItemButton?
    let leftButtons: [BarItemButton]
    let rightButtons: [BarItemButton]
    /// The back button's titles, best first: it shows the first that fits.
    private let backTitles: [String]

    /// The distance from the bar's edges to the first button's frame (whose padding puts its text 16
    /// points in, UIKit's margin); the back button starts at the edge, its chevron 8 points in.
    static let edgeInset = 8.0
    /// The smallest gap between the title and a button.
    static let titleGap = 4.0

    init(top: NavigationItem?, back: NavigationItem?, tint: Color, titleColor: Color, onBack: @escaping () -> Void) {
        titleLabel.text = top?.title ?? ""
        titleLabel.font = .system(size: 17, weight: .bold)
        titleLabel.textColor = titleColor
        titleLabel.identifier = "navigation-title"
        let left = top?.leftBarButtonItems ?? []
        let showsBack = back != nil && top?.hidesBackButton != true && (left.isEmpty || top?.leftItemsSupplementBackButton == true)
        if showsBack, let back {
            let button = BarItemButton(frame: .zero)
            button.titleColor = tint
            button.image = NavigationBarContent.backIndicator(color: tint)
            button.identifier = "navigation-back"
            button.addAction(for: .touchUpInside) { _ in onBack() }
            backButton = button
            backTitles = NavigationBarContent.backTitles(for: back)
        } else {
            backButton = nil
            backTitles = []
        }
        leftButtons = left.map { BarItemButton(item: $0, tint: tint) }
        rightButtons = (top?.rightBarButtonItems ?? []).map { BarItemButton(item: $0, tint: tint) }
        super.init(frame: .zero)
        for button in [backButton].compactMap({ $0 }) + leftButtons + rightButtons { addSubview(button) }
        addSubview(titleLabel)
    }

    /// What the back button may say over the item after `back`, as UIKit's default display mode tries them.
    static func backTitles(for back: NavigationItem) -> [String] {
        if let item = back.backBarButtonItem {
            // An item of the app's says what it says (its image instead of a title shows the chevron alone).
            return [item.image == nil ? item.title ?? "" : ""]
        }
        guard let title = back.backButtonTitle ?? back.title, !title.isEmpty else { return ["Back", ""] }
        return [title, "Back", ""]
    }

    override func layoutSubviews() {
        let height = bounds.height, width = bounds.width
        var leading = Self.edgeInset
        var trailing = width - Self.edgeInset
        for button in rightButtons {
            let size = button.naturalWidth
            button.frame = Rect(x: trailing - size, y: 0, width: size, height: height)
            trailing -= size
        }
        let titleWidth = min(titleLabel.sizeThatFits(Size(width: width, height: height)).width.rounded(.up), width)
        if let backButton {
            // The first title that leaves the centred title clear, down to the chevron alone, measured on a
            // button off screen so that the one shown changes (and draws again) only when its title does.
            let room = (width - titleWidth) / 2 - Self.titleGap
            let probe = BarItemButton(frame: .zero)
            probe.image = backButton.image
            let chosen =
                backTitles.first { title in
                    probe.title = title.isEmpty ? nil : title
                    return probe.naturalWidth <= room
                } ?? ""
            backButton.title = chosen.isEmpty ? nil : chosen
            backButton.frame = Rect(x: 0, y: 0, width: backButton.naturalWidth, height: height)
            leading = backButton.frame.maxX
        }
        for button in leftButtons {
            let size = button.naturalWidth
            button.frame = Rect(x: leading, y: 0, width: size, height: height)
            leading += size
        }
        // Centred on the bar if it fits between the buttons; else as near the centre as it can be.
        let low = leading + Self.titleGap, high = trailing - Self.titleGap
        var x = ((width - titleWidth) / 2).rounded()
        if x < low { x = low }
        if x + titleWidth > high { x = max(low, high - titleWidth) }
        titleLabel.frame = Rect(x: x, y: 0, width: max(min(titleWidth, high - x), 0), height: height)
    }

    /// The back button's chevron in `color`, 13 by 21 points as UIKit's back indicator: two strokes 2.5
    /// points wide with round ends, antialiased by 4x4 samples a pixel (the drawing context draws no
    /// lines, and a font's "<" differs from board to board).
    static func backIndicator(color: Color) -> Bitmap {
        let width = 13, height = 21
        let bitmap = Bitmap(width: width, height: height)
        let corner = Point(x: 2.5, y: 10.5), top = Point(x: 10.5, y: 2.5), bottom = Point(x: 10.5, y: 18.5)
        let radius = 1.25
        func distance(_ p: Point, _ a: Point, _ b: Point) -> Double {
            let dx = b.x - a.x, dy = b.y - a.y
            let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy)))
            let x = a.x + t * dx - p.x, y = a.y + t * dy - p.y
            return (x * x + y * y).squareRoot()
        }
        bitmap.withUnsafeMutableBytes { bytes in
            for row in 0..<height {
                for column in 0..<width {
                    var covered = 0
                    for sy in 0..<4 {
                        for sx in 0..<4 {
                            let p = Point(x: Double(column) + (Double(sx) + 0.5) / 4, y: Double(row) + (Double(sy) + 0.5) / 4)
                            if min(distance(p, top, corner), distance(p, corner, bottom)) <= radius { covered += 1 }
                        }
                    }
                    let alpha = color.alpha * Double(covered) / 16
                    func channel(_ value: Double) -> UInt32 { UInt32((value * alpha * 255).rounded()) }
                    let word = channel(1) << 24 | channel(color.red) << 16 | channel(color.green) << 8 | channel(color.blue)
                    bytes.storeBytes(of: word, toByteOffset: row * bitmap.stride + column * 4, as: UInt32.self)
                }
            }
        }
        return bitmap
    }
}
