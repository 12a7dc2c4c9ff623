/// A row of dots, one a page, the current page's dot filled (as `UIPageControl`). A tap on either side of
/// the current dot moves one page that way and sends `.valueChanged` (nothing at the first or last page);
/// setting `currentPage` sends nothing, so a paging scroll view sets it as it settles, and the page
/// control's action scrolls it:
///
///     pages.isPagingEnabled = true
///     dots.numberOfPages = 3
///     dots.addAction(for: .valueChanged) { control in
///         let page = Double((control as! PageControl).currentPage)
///         pages.setContentOffset(Point(x: page * pages.bounds.width, y: 0), animated: true)
///     }
///     // and in the scroll view's delegate, scrollViewDidEndDecelerating:
///     dots.currentPage = Int((pages.contentOffset.x / pages.bounds.width).rounded())
///
/// Its intrinsic size is the dots' (`size(forNumberOfPages:)`), 26 points tall; the touch area is at least
/// 44 points tall.
@MainActor
open class PageControl: Control {
    override open var tracedValue: String? { String(currentPage) }

    /// A dot's diameter and the distance between two dots' centres.
    public static let dotDiameter = 8.0, dotSpacing = 16.0
    /// The other pages' dots unless `pageIndicatorTintColor` is set, and the current one's.
    public static let defaultPageIndicatorTintColor = Color(white: 0, alpha: 0.3)
    public static let defaultCurrentPageIndicatorTintColor = Color(white: 0)

    /// How many pages (0 or more); the current page stays among them.
    open var numberOfPages = 0 {
        didSet {
            numberOfPages = max(numberOfPages, 0)
            currentPage = min(currentPage, max(numberOfPages - 1, 0))
            invalidateIntrinsicContentSize()
            setNeedsDisplay()
        }
    }
    /// The page whose dot is filled, from 0, pinned to the pages. Set, it shows at once and sends nothing.
    open var currentPage = 0 {
        didSet {
            currentPage = min(max(currentPage, 0), max(numberOfPages - 1, 0))
            if currentPage != oldValue { setNeedsDisplay() }
        }
    }
    /// Whether it shows no dot with one page or none (its `isHidden` stays the app's, as UIKit's).
    open var hidesForSinglePage = false { didSet { if hidesForSinglePage != oldValue { setNeedsDisplay() } } }
    /// Whether the dots are drawn: not for a single page when `hidesForSinglePage`.
    public var showsDots: Bool { numberOfPages > (hidesForSinglePage ? 1 : 0) }
    /// The dots' colours; nil: the defaults above.
    open var pageIndicatorTintColor: Color? { didSet { setNeedsDisplay() } }
    open var currentPageIndicatorTintColor: Color? { didSet { setNeedsDisplay() } }

    /// The size the dots of `pageCount` pages take (as `size(forNumberOfPages:)`).
    public func size(forNumberOfPages pageCount: Int) -> Size {
        let count = Double(max(pageCount, 0))
        return Size(width: count > 0 ? (count - 1) * Self.dotSpacing + Self.dotDiameter + 16 : 0, height: 26)
    }

    override open var intrinsicContentSize: Size { size(forNumberOfPages: numberOfPages) }
    override open func sizeThatFits(_ size: Size) -> Size { intrinsicContentSize }

    /// Its bounds, grown to at least 44 points tall around the middle.
    override open func point(inside point: Point, with event: Event?) -> Bool {
        touchTarget().contains(point)
    }

    /// The centre of page `index`'s dot, the row centred in the bounds.
    func dotCenter(_ index: Int) -> Point {
        let row = Double(max(numberOfPages - 1, 0)) * Self.dotSpacing
        return Point(x: bounds.midX - row / 2 + Double(index) * Self.dotSpacing, y: bounds.midY)
    }

    override open func touchesEnded(_ touches: Set<Touch>, with event: Event) {
        let touch = touches.first
        let wasTracking = isTracking
        super.touchesEnded(touches, with: event)
        // A tap that lifts inside, as a button's: which side of the current dot it lifted on.
        guard wasTracking, !isTracking, let touch, point(inside: touch.location(in: self), with: event), numberOfPages > 1 else {
            return
        }
        let step = touch.location(in: self).x < dotCenter(currentPage).x ? -1 : 1
        let page = min(max(currentPage + step, 0), numberOfPages - 1)
        guard page != currentPage else { return }
        currentPage = page
        sendValueChanged()
    }

    override open func draw(_ rect: Rect) {
        guard let context = DrawingContext.current, showsDots else { return }
        let other = pageIndicatorTintColor ?? Self.defaultPageIndicatorTintColor
        let current = currentPageIndicatorTintColor ?? Self.defaultCurrentPageIndicatorTintColor
        for index in 0..<numberOfPages {
            let center = dotCenter(index), radius = Self.dotDiameter / 2
            var color = index == currentPage ? current : other
            if !isEnabled { color = color.withAlphaComponent(color.alpha * 0.5) }
            context.fillEllipse(in: Rect(x: center.x - radius, y: center.y - radius, width: 2 * radius, height: 2 * radius), color: color)
        }
    }
}
