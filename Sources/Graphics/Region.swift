import CPixman

/// A set of pixels, held as pixman's y-x banded rectangles (`pixman_region32_t`), with value semantics:
/// copies share the pixman region until one of them is mutated (copy on write).
///
/// The compositor keeps damage in these, so the operations are pixman's own: union, intersection and
/// subtraction are exact, and `rects` lists the disjoint bands pixman keeps (sorted by y, then x, with
/// rectangles in one band sharing their top and bottom, and vertically adjacent bands merged when equal).
public struct Region: Equatable, Sendable, CustomStringConvertible {
    private var storage: Storage

    /// The empty region. Calls `pixman_region32_init`.
    public init() {
        storage = Storage()
    }

    /// The pixels of `rect`; empty if `rect` is. Calls `pixman_region32_init_rect`.
    public init(_ rect: PixelRect) {
        storage = Storage()
        if !rect.isEmpty {
            pixman_region32_fini(storage.region)
            let box = rect.box
            pixman_region32_init_rect(
                storage.region, box.x1, box.y1, UInt32(box.x2 - box.x1),
                UInt32(box.y2 - box.y1))
        }
    }

    /// The union of `rects`, which may overlap and come in any order; empty ones are skipped.
    /// Calls `pixman_region32_init_rects`, which sorts and merges them into bands.
    public init(rects: [PixelRect]) {
        storage = Storage()
        let boxes = rects.filter { !$0.isEmpty }.map(\.box)
        if boxes.isEmpty { return }
        pixman_region32_fini(storage.region)
        pixmanRequire(
            pixman_region32_init_rects(storage.region, boxes, Int32(boxes.count)),
            "pixman_region32_init_rects")
    }

    /// Calls `pixman_region32_not_empty`.
    public var isEmpty: Bool { pixman_region32_not_empty(storage.region) == 0 }

    /// The smallest rectangle holding every pixel; `.zero` for the empty region.
    /// Reads `pixman_region32_extents`.
    public var extents: PixelRect {
        if isEmpty { return .zero }
        return PixelRect(box: pixman_region32_extents(storage.region).pointee)
    }

    /// pixman's disjoint y-x banded rectangles, in order. Reads `pixman_region32_rectangles`.
    public var rects: [PixelRect] {
        var count: Int32 = 0
        guard let boxes = pixman_region32_rectangles(storage.region, &count), count > 0 else { return [] }
        return UnsafeBufferPointer(start: boxes, count: Int(count)).map(PixelRect.init(box:))
    }

    /// The number of pixels.
    public var area: Int {
        rects.reduce(0) { $0 + Int($1.width) * Int($1.height) }
    }

    /// Calls `pixman_region32_contains_point`.
    public func contains(x: Int32, y: Int32) -> Bool {
        pixman_region32_contains_point(storage.region, x, y, nil) != 0
    }

    /// Whether every pixel of `rect` is in the region. An empty rectangle is never contained (pixman
    /// reports it as outside). Calls `pixman_region32_contains_rectangle`.
    public func contains(_ rect: PixelRect) -> Bool {
        if rect.isEmpty { return false }
        var box = rect.box
        return pixman_region32_contains_rectangle(storage.region, &box) == PIXMAN_REGION_IN
    }

    // MARK: Algebra

    /// Calls `pixman_region32_union`.
    public mutating func formUnion(_ other: Region) {
        makeUnique()
        pixmanRequire(
            pixman_region32_union(storage.region, storage.region, other.storage.region),
            "pixman_region32_union")
    }

    /// Calls `pixman_region32_union_rect`.
    public mutating func formUnion(_ rect: PixelRect) {
        if rect.isEmpty { return }
        makeUnique()
        let box = rect.box
        pixmanRequire(
            pixman_region32_union_rect(
                storage.region, storage.region, box.x1, box.y1,
                UInt32(box.x2 - box.x1), UInt32(box.y2 - box.y1)),
            "pixman_region32_union_rect")
    }

    public func union(_ other: Region) -> Region {
        var result = self
        result.formUnion(other)
        return result
    }

    public func union(_ rect: PixelRect) -> Region {
        var result = self
        result.formUnion(rect)
        return result
    }

    /// Calls `pixman_region32_intersect`.
    public func intersection(_ other: Region) -> Region {
        let result = Region()
        pixmanRequire(
            pixman_region32_intersect(result.storage.region, storage.region, other.storage.region),
            "pixman_region32_intersect")
        return result
    }

    /// Calls `pixman_region32_intersect_rect`.
    public func intersection(_ rect: PixelRect) -> Region {
        if rect.isEmpty { return Region() }
        let result = Region()
        let box = rect.box
        pixmanRequire(
            pixman_region32_intersect_rect(
                result.storage.region, storage.region, box.x1, box.y1,
                UInt32(box.x2 - box.x1), UInt32(box.y2 - box.y1)),
            "pixman_region32_intersect_rect")
        return result
    }

    /// The pixels of `self` that are not in `other`. Calls `pixman_region32_subtract`.
    public func subtracting(_ other: Region) -> Region {
        let result = Region()
        pixmanRequire(
            pixman_region32_subtract(result.storage.region, storage.region, other.storage.region),
            "pixman_region32_subtract")
        return result
    }

    public func subtracting(_ rect: PixelRect) -> Region {
        subtracting(Region(rect))
    }

    /// The region moved by whole pixels. Calls `pixman_region32_translate`.
    public func translatedBy(dx: Int32, dy: Int32) -> Region {
        var result = self
        result.makeUnique()
        pixman_region32_translate(result.storage.region, dx, dy)
        return result
    }

    /// The region mapped from the logical coordinates of a screen of `logicalSize` to the physical
    /// coordinates of its panel turned by `rotation`. Quarter turns and mirrors map each pixel onto one
    /// pixel, so each rectangle maps exactly; the result is re-banded by `pixman_region32_init_rects`.
    public func transformed(by rotation: Rotation, logicalSize: Size) -> Region {
        if rotation == .normal { return self }
        let transform = rotation.logicalToPhysical(logicalSize: logicalSize)
        return Region(rects: rects.map { PixelRect(enclosing: $0.rect.applying(transform)) })
    }

    /// Calls `pixman_region32_equal`: same pixels, whatever the history.
    public static func == (lhs: Region, rhs: Region) -> Bool {
        lhs.storage === rhs.storage || pixman_region32_equal(lhs.storage.region, rhs.storage.region) != 0
    }

    public var description: String {
        isEmpty ? "Region(empty)" : "Region(\(rects.map(\.description).joined(separator: ", ")))"
    }

    // MARK: Storage

    /// The pixman region lives at a fixed heap address so it can be passed to pixman as both source and
    /// destination of one call (pixman allows aliasing; Swift's `&` on a property would not).
    private final class Storage: @unchecked Sendable {
        // @unchecked: the region is only mutated through `Region`'s mutating methods after `makeUnique()`,
        // so a storage reachable from two values (or threads) is never written.
        let region: UnsafeMutablePointer<pixman_region32_t>

        init() {
            region = .allocate(capacity: 1)
            pixman_region32_init(region)
        }

        func copy() -> Storage {
            let copy = Storage()
            pixmanRequire(pixman_region32_copy(copy.region, region), "pixman_region32_copy")
            return copy
        }

        deinit {
            pixman_region32_fini(region)
            region.deallocate()
        }
    }

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    /// Calls `body` with each of pixman's rectangles, without building an array.
    func forEachBox(_ body: (pixman_box32_t) -> Void) {
        var count: Int32 = 0
        guard let boxes = pixman_region32_rectangles(storage.region, &count) else { return }
        for index in 0..<Int(count) { body(boxes[index]) }
    }

    /// For the Bitmap operations that hand the region to pixman (read-only).
    func withUnsafeRegion<R>(_ body: (UnsafeMutablePointer<pixman_region32_t>) throws -> R) rethrows -> R {
        try body(storage.region)
    }
}

extension PixelRect {
    /// pixman's edge form (`init(edges:)` keeps `x + width` within `Int32`).
    var box: pixman_box32_t {
        pixman_box32_t(x1: x, y1: y, x2: Int32(clamping: maxX), y2: Int32(clamping: maxY))
    }

    init(box: pixman_box32_t) {
        self.init(edges: Int64(box.x1), Int64(box.y1), Int64(box.x2), Int64(box.y2))
    }
}
