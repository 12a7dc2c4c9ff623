/// A location in a two-dimensional coordinate system whose y axis points down, in points (as UIKit's `CGPoint`).
///
/// The small members of `Point`, `Size`, `Rect` and `AffineTransform` are `@inlinable`: hit testing runs
/// them for every window and view under a finger, and a call into this module for each cost more than
/// the arithmetic (Benchmarks/README.md).
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Double
    public var y: Double

    @inlinable public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    @inlinable public func offsetBy(dx: Double, dy: Double) -> Point { Point(x: x + dx, y: y + dy) }

    public var description: String { "(\(formatted(x)), \(formatted(y)))" }
}

/// A width and a height, in points (as UIKit's `CGSize`).
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Double
    public var height: Double

    @inlinable public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    public static let zero = Size(width: 0, height: 0)

    public var description: String { "\(formatted(width))x\(formatted(height))" }
}

/// Whole numbers without a fraction (`12`), others as Swift prints them (`12.5`): for logs and errors.
func formatted(_ value: Double) -> String {
    if value.rounded() == value, abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}

/// Seconds, as Foundation's `TimeInterval` (the same type, so code that imports Foundation too sees no
/// difference): here so that the window model needs no Foundation.
public typealias TimeInterval = Double
