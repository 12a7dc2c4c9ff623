/// A grid over a view's subviews' frames, for `View.hitTestSubviews`: each cell lists, back to front, the
/// subviews whose box (`View.hitTestBox`) overlaps it, and one list holds those to ask for every point (no
/// box, or a box over much of the grid). Made when a hit test first needs it, dropped when a subview's
/// geometry or the list of subviews changes (`invalidateSuperviewHitTestIndex`, `View.subviews`).
///
/// Its tables are plain memory, read without the bounds checks and retains of Swift arrays, and its
/// subviews are lent to the query rather than retained: a query runs for every window a touch passes
/// through, and each retain and release is an atomic operation. It holds the subviews it was made from
/// (`views`), so a subview that an override's `hitTest` removes during a query is still alive and asked, as
/// in the plain walk, which walks a copy of the list.
final class HitTestIndex {
    /// Fewer subviews than this are walked one by one: the grid would cost more than it saves.
    static let minimumSubviews = 32

    struct Box {
        var minX, minY, maxX, maxY: Double

        func contains(_ point: Point) -> Bool {
            point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
        }
    }

    /// The subviews the index was made from, in their order, and the same lent to the queries without
    /// retaining them (`lend`), as `views` keeps them alive.
    private let views: [View]
    private let lent: UnsafeMutableBufferPointer<Unmanaged<View>>
    /// Each subview's box, by its index among the subviews.
    private let boxes: UnsafeMutableBufferPointer<Box>
    /// The grid's extent (the union of the gridded boxes) and cells per point on each axis.
    private let extent: Box
    private let scaleX: Double, scaleY: Double
    private let columns: Int, rows: Int
    /// Cell `c` lists `entries[starts[c]..<starts[c + 1]]`, subview indices in increasing order (back to front).
    private let starts: UnsafeMutableBufferPointer<Int32>
    private let entries: UnsafeMutableBufferPointer<Int32>
    /// Subviews asked for every point, in increasing order.
    private let everywhere: UnsafeMutableBufferPointer<Int32>
    /// The view dropped this grid (`View.retireHitTestIndex`): a subview or the list changed, perhaps in the
    /// middle of a query, by a subview's own `hitTest`.
    var isRetired = false

    @MainActor init(_ subviews: [View]) {
        // Plain loops into plain memory: `map` and `contains(where:)` would check at each call that their
        // main-actor closure runs on the main actor, and arrays of ranges and their bounds checks were most
        // of a grid's making (it is made again after every change to a subview's place).
        let count = subviews.count
        views = subviews
        lent = .allocate(capacity: count)
        let boxes = UnsafeMutableBufferPointer<Box>.allocate(capacity: count)
        var gridded: [Int32] = []
        gridded.reserveCapacity(count)
        var everywhere: [Int32] = []
        // The box of a subview asked for every point.
        let anywhere = Box(minX: -.infinity, minY: -.infinity, maxX: .infinity, maxY: .infinity)
        var extent = Box(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        for index in 0..<count {
            let subview = subviews[index]
            (lent.baseAddress! + index).initialize(to: .passUnretained(subview))
            guard let box = subview.hitTestBox else {
                (boxes.baseAddress! + index).initialize(to: anywhere)
                everywhere.append(Int32(index))
                continue
            }
            (boxes.baseAddress! + index).initialize(to: box)
            gridded.append(Int32(index))
            extent = Box(
                minX: min(extent.minX, box.minX), minY: min(extent.minY, box.minY), maxX: max(extent.maxX, box.maxX),
                maxY: max(extent.maxY, box.maxY))
        }
        // About one cell per gridded subview, shaped like the extent (the margin makes it at least 2 wide).
        let width = extent.maxX - extent.minX, height = extent.maxY - extent.minY
        let wanted = Double(max(gridded.count, 1))
        let columns = gridded.isEmpty ? 1 : min(max(Int((wanted * width / height).squareRoot().rounded()), 1), 1024)
        let rows = gridded.isEmpty ? 1 : min(max(Int((wanted / Double(columns)).rounded(.up)), 1), 1024)
        let scaleX = gridded.isEmpty ? 0 : Double(columns) / width
        let scaleY = gridded.isEmpty ? 0 : Double(rows) / height
        let cells = columns * rows
        // A box over more than an eighth of the cells is cheaper to check for every point than to list in them.
        let largest = max(16, cells / 8)
        // Each listed subview, its first and last column and row; then, per cell, where its next entry goes.
        let spans = UnsafeMutableBufferPointer<Int32>.allocate(capacity: gridded.count * 5)
        defer { spans.deallocate() }
        let starts = UnsafeMutableBufferPointer<Int32>.allocate(capacity: cells + 1)
        starts.initialize(repeating: 0)
        var listed = 0
        for index in gridded {
            let box = boxes[Int(index)]
            let column0 = Self.cell(box.minX, from: extent.minX, scale: scaleX, count: columns)
            let column1 = Self.cell(box.maxX, from: extent.minX, scale: scaleX, count: columns)
            let row0 = Self.cell(box.minY, from: extent.minY, scale: scaleY, count: rows)
            let row1 = Self.cell(box.maxY, from: extent.minY, scale: scaleY, count: rows)
            if (column1 - column0 + 1) * (row1 - row0 + 1) > largest {
                everywhere.append(index)
                continue
            }
            spans[listed * 5] = index
            spans[listed * 5 + 1] = Int32(column0)
            spans[listed * 5 + 2] = Int32(column1)
            spans[listed * 5 + 3] = Int32(row0)
            spans[listed * 5 + 4] = Int32(row1)
            listed += 1
            // Counted one cell ahead, so that the sums below leave each cell's start in its place.
            for row in row0...row1 { for column in column0...column1 { starts[row * columns + column + 1] &+= 1 } }
        }
        for cell in 0..<cells { starts[cell + 1] &+= starts[cell] }
        let entries = UnsafeMutableBufferPointer<Int32>.allocate(capacity: Int(starts[cells]))
        let next = UnsafeMutableBufferPointer<Int32>.allocate(capacity: cells)
        defer { next.deallocate() }
        _ = next.initialize(from: starts[0..<cells])
        // In increasing subview order, so each cell's list is sorted back to front.
        for item in 0..<listed {
            for row in Int(spans[item * 5 + 3])...Int(spans[item * 5 + 4]) {
                for column in Int(spans[item * 5 + 1])...Int(spans[item * 5 + 2]) {
                    let cell = row * columns + column
                    entries[Int(next[cell])] = spans[item * 5]
                    next[cell] &+= 1
                }
            }
        }
        self.columns = columns
        self.rows = rows
        self.scaleX = scaleX
        self.scaleY = scaleY
        self.extent = extent
        self.boxes = boxes
        self.starts = starts
        self.entries = entries
        self.everywhere = Self.copy(everywhere.sorted())
    }

    deinit {
        lent.deallocate()
        boxes.deallocate()
        starts.deallocate()
        entries.deallocate()
        everywhere.deallocate()
    }

    private static func copy<Element>(_ array: [Element]) -> UnsafeMutableBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: array.count)
        _ = buffer.initialize(from: array)
        return buffer
    }

    /// The column (or row) of `value`, which lies in the extent: the same rounding for boxes and points,
    /// and monotonic, so a point inside a box falls in one of the box's cells.
    private static func cell(_ value: Double, from start: Double, scale: Double, count: Int) -> Int {
        min(Int(max(value - start, 0) * scale), count &- 1)
    }

    /// The part of `entries` that lists the cell under `point`; empty outside the grid.
    @inline(__always) private func cellEntries(at point: Point) -> Range<Int> {
        guard extent.contains(point) else { return 0..<0 }
        // Wrapping arithmetic: both cells are below 1024, and the overflow checks were a fifth of a query.
        let cell =
            Self.cell(point.y, from: extent.minY, scale: scaleY, count: rows) &* columns
            &+ Self.cell(point.x, from: extent.minX, scale: scaleX, count: columns)
        return Int(starts[cell])..<Int(starts[cell &+ 1])
    }

    /// The deepest view under `point` (finite, in the indexed view's coordinates) among its subviews: the
    /// candidates front to back, each asked by its own `hitTest`.
    @MainActor func hitTest(_ point: Point, with event: Event?) -> View? {
        let range = cellEntries(at: point)
        // The two lists merged from their fronts (highest index first), as the plain walk's order.
        var inCell = range.upperBound, always = everywhere.count
        while true {
            let index: Int
            if inCell > range.lowerBound, always == 0 || entries[inCell - 1] > everywhere[always - 1] {
                inCell -= 1
                index = Int(entries[inCell])
            } else if always > 0 {
                always -= 1
                index = Int(everywhere[always])
            } else {
                return nil
            }
            guard boxes[index].contains(point) else { continue }
            let hit = lend(lent[index]) { subview in subview.hitTest(subview.convertFromSuperview(point), with: event) }
            if let hit { return hit }
            // That subview's `hitTest` changed the tree: the boxes may be stale, so the subviews behind it are
            // asked one by one, as the plain walk would go on through its copy of the list.
            if isRetired { return askAll(below: index, point, with: event) }
        }
    }

    @MainActor private func askAll(below end: Int, _ point: Point, with event: Event?) -> View? {
        for index in (0..<end).reversed() {
            let hit = lend(lent[index]) { subview in subview.hitTest(subview.convertFromSuperview(point), with: event) }
            if let hit { return hit }
        }
        return nil
    }

    /// The subviews `hitTest` would ask for `point`, front to back (for tests).
    func candidates(at point: Point) -> [Int] {
        let indices = Array(entries[cellEntries(at: point)]) + Array(everywhere)
        return indices.map { Int($0) }.sorted(by: >).filter { boxes[$0].contains(point) }
    }
}

/// `body` with `reference`'s object, neither retained nor released: for an object something else keeps
/// alive throughout. Through this function rather than `_withUnsafeGuaranteedRef` directly, which would add
/// a dynamic main-actor check to each main-actor closure passed to it (the standard library is not built in
/// Swift 6 mode), as costly as the retain it saves.
@inline(__always) func lend<Object: AnyObject, Result>(_ reference: Unmanaged<Object>, _ body: (Object) -> Result) -> Result {
    reference._withUnsafeGuaranteedRef(body)
}
