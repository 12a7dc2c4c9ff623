/// What a navigation bar shows for one view controller (as `UINavigationItem`): its title in the middle,
/// the buttons on either side, and what the back button says over the controller pushed after it.
/// Every view controller has one (`ViewController.navigationItem`), whose title follows the controller's
/// `title`. A change to an item the bar shows (the top one, or the one below whose title the back button
/// carries) shows at once.
@MainActor
open class NavigationItem {
    /// The title shown in the middle of the bar while this item is on top (as `UINavigationItem.title`),
    /// and on the back button while it is second from the top; nil there reads "Back", as UIKit's.
    open var title: String? { didSet { if title != oldValue { itemDidChange() } } }

    /// The item the bar shows as the back button over the next controller (as `UINavigationItem.
    /// backBarButtonItem`): its title (or image) replaces this item's title there; its actions are not
    /// run, the back button pops. Nil by default.
    open var backBarButtonItem: BarButtonItem? { didSet { if backBarButtonItem !== oldValue { itemDidChange() } } }

    /// The back button's title over the next controller when there is no `backBarButtonItem` (as
    /// `UINavigationItem.backButtonTitle`); nil: this item's title.
    open var backButtonTitle: String? { didSet { if backButtonTitle != oldValue { itemDidChange() } } }

    /// Whether the bar shows no back button while this item is on top (as `UINavigationItem.hidesBackButton`);
    /// the interactive pop still pops, as UIKit's.
    open var hidesBackButton = false { didSet { if hidesBackButton != oldValue { itemDidChange() } } }

    /// The buttons on the leading side, from the edge inward (as `UINavigationItem.leftBarButtonItems`); they
    /// take the back button's place unless `leftItemsSupplementBackButton`.
    open var leftBarButtonItems: [BarButtonItem]? { didSet { itemDidChange() } }

    /// The buttons on the trailing side, from the edge inward: the first is the rightmost (as
    /// `UINavigationItem.rightBarButtonItems`).
    open var rightBarButtonItems: [BarButtonItem]? { didSet { itemDidChange() } }

    /// Whether the left items follow the back button rather than replace it (as `UINavigationItem.
    /// leftItemsSupplementBackButton`; false by default).
    open var leftItemsSupplementBackButton = false { didSet { if leftItemsSupplementBackButton != oldValue { itemDidChange() } } }

    /// The bar showing this item (on top or as the back item), told of each change.
    weak var bar: NavigationBar?

    /// An item with `title` (as `UINavigationItem(title:)`).
    public init(title: String? = nil) {
        self.title = title
    }

    /// The first of `leftBarButtonItems` (as `UINavigationItem.leftBarButtonItem`); setting it makes it the only one.
    open var leftBarButtonItem: BarButtonItem? {
        get { leftBarButtonItems?.first }
        set { leftBarButtonItems = newValue.map { [$0] } }
    }

    /// The first of `rightBarButtonItems`, the rightmost (as `UINavigationItem.rightBarButtonItem`).
    open var rightBarButtonItem: BarButtonItem? {
        get { rightBarButtonItems?.first }
        set { rightBarButtonItems = newValue.map { [$0] } }
    }

    private func itemDidChange() {
        bar?.itemDidChange(self)
    }
}
