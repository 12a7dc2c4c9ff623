/// A rectangle of whole pixels, in the `Int32` coordinates pixman uses (`pixman_box32_t` holds edges, this
/// holds an origin and a size). A rectangle with a non-positive width or height is empty.
public struct PixelRect: Hashable, Sendable, CustomStringConvertible {
    public var x: Int32
    public var y: Int32
    public var width: Int32
    public var height: Int32

    public init(x: Int32, y: Int32, width: Int32, height: Int32) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public static let zero = PixelRect(x: 0, y: 0, width: 0, height: 0)

    /// The pixels a repaint of `rect` touches: `rect.integral`, clamped to ±`coordinateLimit`. The null
    /// rectangle and non-finite rectangles give `.zero`.
    public init(enclosing rect: Rect) {
        let r = rect.integral
        guard !r.isNull, r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite else {
            self = .zero
            return
        }
        func clamp(_ v: Double) -> Int64 { Int64(min(max(v, Double(Int32.min)), Double(Int32.max))) }
        self.init(edges: clamp(r.minX), clamp(r.minY), clamp(r.maxX), clamp(r.maxY))
    }

    /// How far from the origin an edge may be (2³⁰ - 1): every screen is far smaller, and within it both
    /// `x + width` and the width of a rectangle from one end to the other fit in `Int32`.
    public static let coordinateLimit: Int32 = Int32.max / 2

    /// From edges computed in 64 bits, clamped to ±`coordinateLimit`.
    public init(edges x1: Int64, _ y1: Int64, _ x2: Int64, _ y2: Int64) {
        let lo = -Int64(Self.coordinateLimit), hi = Int64(Self.coordinateLimit)
        let cx1 = min(max(x1, lo), hi), cy1 = min(max(y1, lo), hi)
        let cx2 = min(max(x2, cx1), hi), cy2 = min(max(y2, cy1), hi)
        self.init(x: Int32(cx1), y: Int32(cy1), width: Int32(cx2 - cx1), height: Int32(cy2 - cy1))
    }

    public var rect: Rect { Rect(x: Double(x), y: Double(y), width: Double(width), height: Double(height)) }

    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The same rectangle moved by `(dx, dy)`.
    public func offsetBy(dx: Int32, dy: Int32) -> PixelRect { PixelRect(x: x + dx, y: y + dy, width: width, height: height) }

    /// One past the last column and row, computed without overflow.
    public var maxX: Int64 { Int64(x) + Int64(width) }
    public var maxY: Int64 { Int64(y) + Int64(height) }

    /// The common pixels, `.zero` when there are none.
    public func intersection(_ other: PixelRect) -> PixelRect {
        if isEmpty || other.isEmpty { return .zero }
        let x1 = max(Int64(x), Int64(other.x)), y1 = max(Int64(y), Int64(other.y))
        let x2 = min(maxX, other.maxX), y2 = min(maxY, other.maxY)
        if x2 <= x1 || y2 <= y1 { return .zero }
        return PixelRect(edges: x1, y1, x2, y2)
    }

    public func contains(x px: Int32, y py: Int32) -> Bool {
        !isEmpty && px >= x && py >= y && Int64(px) < maxX && Int64(py) < maxY
    }

    public var description: String { "(\(x), \(y), \(width)x\(height))" }
}
