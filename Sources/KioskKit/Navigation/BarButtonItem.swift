/// A button for a navigation bar (as `UIBarButtonItem`): a title or an image, a style, whether it is
/// enabled, and what a tap does. The item is a description, not a view: the bar that shows it makes the
/// button, and a change to the item (a new title, disabled) shows there at once.
///
/// Actions are closures, as `Control.addAction(for:_:)`'s: `primaryAction` given at `init` (UIKit's
/// `init(title:image:primaryAction:menu:)`) and any added with `addAction(_:)` run in that order on each
/// tap, with the item. Target-action is the closure's capture (`{ [weak self] _ in self?.save() }`).
@MainActor
open class BarButtonItem {
    /// How the item's title is drawn (as `UIBarButtonItem.Style`, same raw values): `done` in the bold face
    /// UIKit gives the button that ends a task.
    public enum Style: Int, Sendable {
        case plain = 0
        case done = 2
    }

    /// The text on the button; with an `image` too, the image is shown and this names it (UIKit shows one).
    open var title: String? { didSet { if title != oldValue { itemDidChange() } } }
    /// The picture on the button, drawn at its size (one pixel a point) in place of the title.
    open var image: Bitmap? { didSet { if image !== oldValue { itemDidChange() } } }
    open var style: Style { didSet { if style != oldValue { itemDidChange() } } }
    /// A disabled item's button is dimmed and ignores taps (as `UIBarItem.isEnabled`).
    open var isEnabled = true { didSet { if isEnabled != oldValue { itemDidChange() } } }
    /// A number of the app's, as `UIBarItem.tag`.
    open var tag = 0

    /// The button made for the item by the bar that shows it, told of each change.
    weak var button: BarItemButton?
    private var actions: [@MainActor (BarButtonItem) -> Void] = []

    /// An item with a title (as `UIBarButtonItem(title:style:target:action:)`, the action a closure).
    public init(title: String?, style: Style = .plain, primaryAction: (@MainActor (BarButtonItem) -> Void)? = nil) {
        self.title = title
        self.style = style
        if let primaryAction { actions.append(primaryAction) }
    }

    /// An item with an image (as `UIBarButtonItem(image:style:target:action:)`).
    public init(image: Bitmap?, style: Style = .plain, primaryAction: (@MainActor (BarButtonItem) -> Void)? = nil) {
        self.image = image
        self.style = style
        if let primaryAction { actions.append(primaryAction) }
    }

    /// Calls `handler` with the item after those added before, on each tap of its button.
    public func addAction(_ handler: @escaping @MainActor (BarButtonItem) -> Void) {
        actions.append(handler)
    }

    /// Runs the item's actions, as a tap on its button does (nothing while it is disabled).
    public func sendActions() {
        guard isEnabled else { return }
        for action in actions { action(self) }
    }

    private func itemDidChange() {
        button?.show(self)
    }
}

/// The button a navigation bar shows for a `BarButtonItem`, or for its back item: the bar's tint, the
/// system font (bold for `done`), dimmed while pressed as UIKit's bar buttons are (the whole button, not
/// a shade behind it).
@MainActor
final class BarItemButton: Button {
    /// The item it shows; nil for the back button.
    private(set) weak var item: BarButtonItem?

    /// The space on each side of the title or image inside the button, so that the touch area is wider than the text.
    static let padding = 8.0

    override init(frame: Rect) {
        super.init(frame: frame)
        highlightedBackgroundColor = .clear
        font = .system(size: 17)
        imageTitleSpacing = 6
    }

    /// A button that runs `item`'s actions when tapped.
    convenience init(item: BarButtonItem, tint: Color) {
        self.init(frame: .zero)
        titleColor = tint
        show(item)
        addAction(for: .touchUpInside) { [weak self] _ in self?.item?.sendActions() }
    }

    /// Takes `item`'s title, image, style and state; the bar lays out again for the new size.
    func show(_ item: BarButtonItem) {
        self.item = item
        item.button = self
        title = item.image == nil ? item.title : nil
        image = item.image
        font = .system(size: 17, weight: item.style == .done ? .bold : .regular)
        isEnabled = item.isEnabled
        superview?.setNeedsLayout()
    }

    override var isHighlighted: Bool {
        didSet { if isHighlighted != oldValue { alpha = isHighlighted ? 0.3 : 1 } }
    }

    /// The title's colour stays the tint while pressed: the button's alpha dims it instead.
    override var currentTitleColor: Color {
        isEnabled ? titleColor : titleColor.withAlphaComponent(titleColor.alpha * 0.4)
    }

    /// Its content's width with the padding on both sides, and the bar's height.
    var naturalWidth: Double { sizeThatFits(.zero).width + 2 * Self.padding }
}
