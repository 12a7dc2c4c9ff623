/// The subviews' part of `View.hitTest`: front to back, as UIKit, but through a grid of the subviews' frames
/// (`HitTestIndex`) for a view with many of them, so that a touch skips the subviews that cannot contain it
/// instead of asking each (10,000 views took 350 µs walked one by one; Benchmarks/README.md).
///
/// The grid only leaves out subviews whose `hitTest` would certainly return nil: those of KioskKit's own
/// classes (`View.hitTestsWithinFrame`), whose `hitTest` and `point(inside:)` are the default ones, when the
/// point lies outside their frame. Any other subview (an app's subclass, which may override either and take
/// points outside its bounds, as a button with a larger touch area; one whose transform cannot be inverted)
/// is asked for every point, in its place in the order. Hidden, transparent and non-interactive subviews
/// stay in the grid: their own `hitTest` turns the point down, as before.
extension View {
    /// Whether hit tests go through `HitTestIndex`; off only in tests, which compare its answers with the
    /// plain walk's.
    static var usesHitTestIndex = true

    /// The deepest subview that takes `point` (this view's coordinates), front to back; nil when none does.
    func hitTestSubviews(_ point: Point, with event: Event?) -> View? {
        // A NaN or infinite point cannot be placed in a cell; the plain walk answers it as it always did.
        let placeable = point.x.isFinite && point.y.isFinite
        // Unmanaged from the start: a binding of the grid itself would be retained until the query ends.
        if placeable, View.usesHitTestIndex, let index = hitTestIndex.map(Unmanaged.passUnretained) {
            return Self.query(index, point, with: event)
        }
        if placeable, subviews.count >= HitTestIndex.minimumSubviews, View.usesHitTestIndex {
            let index = HitTestIndex(subviews)
            hitTestIndex = index
            return Self.query(Unmanaged.passUnretained(index), point, with: event)
        }
        for subview in subviews.reversed() {
            // Straight into the subview's coordinates, not through the window: this runs for every view
            // under the finger.
            if let hit = subview.hitTest(subview.convertFromSuperview(point), with: event) { return hit }
        }
        return nil
    }

    /// Queries of grids under way, nested (a window's grid asks a subview, which asks its own); while any
    /// runs, a grid that is dropped waits in `retiredHitTestIndexes` until the outermost one ends.
    /// (Main-actor state, never held inout across a call: unchecked, as the dynamic check cost more than
    /// the counting.)
    @exclusivity(unchecked) private static var hitTestQueries = 0
    @exclusivity(unchecked) private static var retiredHitTestIndexes: [HitTestIndex] = []
    @exclusivity(unchecked) private static var hasRetiredHitTestIndexes = false

    /// `index`'s answer, with the index lent to the query rather than retained (an atomic retain and
    /// release for every window a touch passes through): a subview's `hitTest` that changes the tree drops
    /// the grid (`hitTestIndex = nil`), which then stays alive, retired, until no query is under way.
    @inline(__always) private static func query(_ index: Unmanaged<HitTestIndex>, _ point: Point, with event: Event?) -> View? {
        hitTestQueries += 1
        defer {
            hitTestQueries -= 1
            // A flag, not the array's `isEmpty`: the array is made lazily, and checking that cost a call a query.
            if hitTestQueries == 0, hasRetiredHitTestIndexes {
                retiredHitTestIndexes.removeAll()
                hasRetiredHitTestIndexes = false
            }
        }
        return lend(index) { index in index.hitTest(point, with: event) }
    }

    /// The grid is about to be dropped or replaced: a query under way in it asks the rest of its subviews
    /// one by one (its boxes may be stale), and it is kept until the query ends.
    func retireHitTestIndex() {
        guard let hitTestIndex else { return }
        hitTestIndex.isRetired = true
        if View.hitTestQueries > 0 {
            View.retiredHitTestIndexes.append(hitTestIndex)
            View.hasRetiredHitTestIndexes = true
        }
    }

    /// A subview's frame or the list of subviews changed: the grid is made again at the next touch.
    func invalidateSuperviewHitTestIndex() {
        superview?.hitTestIndex = nil
    }

    /// Whether `hitTest` is sure to return nil for a point outside `frame`: true for KioskKit's own classes,
    /// none of which overrides `hitTest` or `point(inside:)` (a test reads the sources to keep it so), false
    /// for every other class, whose overrides UIKit calls wherever the point is.
    var hitTestsWithinFrame: Bool {
        let type = ObjectIdentifier(Swift.type(of: self))
        // A loop, not `contains(where:)`: a main-actor closure passed to the standard library is checked to
        // run on the main actor at each call, which was most of a grid's cost.
        for known in kioskKitViewClasses where known == type { return true }
        return false
    }

    /// The box outside which `hitTest` returns nil, in the superview's coordinates, widened by a margin
    /// that covers the rounding of `convertFromSuperview`; nil when there is no such box to trust: a class
    /// that may override hit testing, a transform that cannot be inverted well (`convertFromSuperview` would
    /// map points anywhere), values too large or not finite.
    var hitTestBox: HitTestIndex.Box? {
        guard hitTestsWithinFrame else { return nil }
        let size = bounds.size, center = self.center, origin = bounds.origin
        var magnitude = abs(center.x) + abs(center.y) + abs(size.width) + abs(size.height) + abs(origin.x) + abs(origin.y)
        let box: Rect
        if hasTransform {
            let t = transform
            let determinant = t.determinant
            let scale = max(abs(t.a), abs(t.b), abs(t.c), abs(t.d))
            // The inverse's error grows with the matrix's condition (about scale² / |det|): past a million
            // the margin below would not cover it.
            guard determinant != 0, determinant.isFinite, scale * scale <= 1e6 * abs(determinant) else { return nil }
            magnitude += abs(t.tx) + abs(t.ty) + scale * (abs(size.width) + abs(size.height))
            box = Rect(x: -size.width / 2, y: -size.height / 2, width: size.width, height: size.height).applying(t)
                .offsetBy(dx: center.x, dy: center.y)
        } else {
            box = Rect(x: center.x - size.width / 2, y: center.y - size.height / 2, width: size.width, height: size.height)
        }
        // Beyond 1e15 a point's place in a cell stops being exact arithmetic; such a view is simply asked.
        guard magnitude.isFinite, magnitude <= 1e15 else { return nil }
        // One point and a millionth of the values' size: far more than the few units in the last place that
        // the conversion's rounding moves a point, so no subview that takes a point is ever left out.
        let margin = 1 + magnitude * 1e-6
        return HitTestIndex.Box(minX: box.minX - margin, minY: box.minY - margin, maxX: box.maxX + margin, maxY: box.maxY + margin)
    }
}

/// KioskKit's view classes, none of which overrides `hitTest` or `point(inside:)`: their subviews can be left
/// out of a hit test by their frames (`View.hitTestsWithinFrame`). Subclasses are not: an app's may override.
private let kioskKitViewClasses: [ObjectIdentifier] = [
    View.self, Window.self, KeyboardWindow.self, Label.self, ImageView.self, Control.self, Button.self, TextField.self,
    ScrollView.self, ScrollIndicator.self, TableView.self, TableViewCell.self, TableSectionHeader.self, KeyView.self,
    AccentPopup.self,
].map { ObjectIdentifier($0) }
