/// An origin and a size, in points (as UIKit's `CGRect`). A negative size is allowed and normalized by the
/// `min`/`max` accessors, as Core Graphics does.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    @inlinable public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    @inlinable public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    @inlinable public init(size: Size) {
        self.init(origin: .zero, size: size)
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)
    /// The empty rectangle, as `CGRect.null`: the result of intersecting disjoint rectangles.
    public static let null = Rect(x: .infinity, y: .infinity, width: 0, height: 0)

    @inlinable public var width: Double { abs(size.width) }
    @inlinable public var height: Double { abs(size.height) }
    @inlinable public var minX: Double { min(origin.x, origin.x + size.width) }
    @inlinable public var minY: Double { min(origin.y, origin.y + size.height) }
    @inlinable public var maxX: Double { max(origin.x, origin.x + size.width) }
    @inlinable public var maxY: Double { max(origin.y, origin.y + size.height) }
    @inlinable public var midX: Double { (minX + maxX) / 2 }
    @inlinable public var midY: Double { (minY + maxY) / 2 }
    @inlinable public var center: Point { Point(x: midX, y: midY) }

    @inlinable public var isNull: Bool { origin.x.isInfinite || origin.y.isInfinite }
    /// True for the null rectangle and for rectangles without area.
    @inlinable public var isEmpty: Bool { isNull || size.width == 0 || size.height == 0 }

    /// The same rectangle with a non-negative size.
    @inlinable public var standardized: Rect {
        isNull ? self : Rect(x: minX, y: minY, width: width, height: height)
    }

    /// Whether `point` lies inside; the minimum edges are inside, the maximum edges outside (as `CGRect.contains`).
    @inlinable @inline(__always) public func contains(_ point: Point) -> Bool {
        !isEmpty && point.x >= minX && point.x < maxX && point.y >= minY && point.y < maxY
    }

    @inlinable public func contains(_ rect: Rect) -> Bool {
        if rect.isEmpty { return !isEmpty }
        return !isEmpty && rect.minX >= minX && rect.maxX <= maxX && rect.minY >= minY && rect.maxY <= maxY
    }

    @inlinable public func intersects(_ other: Rect) -> Bool { !intersection(other).isEmpty }

    @inlinable public func intersection(_ other: Rect) -> Rect {
        if isNull || other.isNull { return .null }
        let x0 = max(minX, other.minX), y0 = max(minY, other.minY)
        let x1 = min(maxX, other.maxX), y1 = min(maxY, other.maxY)
        if x1 < x0 || y1 < y0 { return .null }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    @inlinable public func union(_ other: Rect) -> Rect {
        if isNull { return other.standardized }
        if other.isNull { return standardized }
        let x0 = min(minX, other.minX), y0 = min(minY, other.minY)
        return Rect(x: x0, y: y0, width: max(maxX, other.maxX) - x0, height: max(maxY, other.maxY) - y0)
    }

    @inlinable public func offsetBy(dx: Double, dy: Double) -> Rect {
        isNull ? self : Rect(origin: origin.offsetBy(dx: dx, dy: dy), size: size)
    }

    @inlinable public func insetBy(dx: Double, dy: Double) -> Rect {
        if isNull { return self }
        let r = standardized
        let inset = Rect(x: r.minX + dx, y: r.minY + dy, width: r.width - 2 * dx, height: r.height - 2 * dy)
        return inset.size.width < 0 || inset.size.height < 0 ? .null : inset
    }

    /// The smallest rectangle with integral edges that contains this one (as `CGRect.integral`): what a
    /// repaint of this rectangle must touch in pixels.
    public var integral: Rect {
        if isNull { return self }
        let x0 = minX.rounded(.down), y0 = minY.rounded(.down)
        return Rect(x: x0, y: y0, width: maxX.rounded(.up) - x0, height: maxY.rounded(.up) - y0)
    }

    public var description: String { isNull ? "null" : "(\(origin), \(size))" }
}
