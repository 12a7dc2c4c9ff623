/// How much a constraint matters, 1 to 1000 (as `UILayoutPriority`): at `required` it must hold; below,
/// the layout comes as close to it as the higher priorities let it.
public struct LayoutPriority: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByFloatLiteral,
    ExpressibleByIntegerLiteral, CustomStringConvertible
{
    public var rawValue: Float

    public init(rawValue: Float) { self.rawValue = rawValue }
    public init(_ rawValue: Float) { self.rawValue = rawValue }
    public init(floatLiteral value: Float) { rawValue = value }
    public init(integerLiteral value: Int) { rawValue = Float(value) }

    public static let required = LayoutPriority(1000)
    /// What a button resists compression with (UIKit's `defaultHigh`).
    public static let defaultHigh = LayoutPriority(750)
    /// What a button hugs its content with (UIKit's `defaultLow`).
    public static let defaultLow = LayoutPriority(250)
    /// What `systemLayoutSizeFitting(_:)` holds the target size with: below every other priority.
    public static let fittingSizeLevel = LayoutPriority(50)

    public static func < (lhs: LayoutPriority, rhs: LayoutPriority) -> Bool { lhs.rawValue < rhs.rawValue }
    public static func + (lhs: LayoutPriority, rhs: Float) -> LayoutPriority { LayoutPriority(lhs.rawValue + rhs) }
    public static func - (lhs: LayoutPriority, rhs: Float) -> LayoutPriority { LayoutPriority(lhs.rawValue - rhs) }

    public var description: String { rawValue == rawValue.rounded() ? String(Int(rawValue)) : String(rawValue) }
}
