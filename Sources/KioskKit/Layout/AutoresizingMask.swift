extension View {
    /// Moves and sizes the subviews with an autoresizing mask after the bounds went from `oldSize`.
    func resizeSubviews(from oldSize: Size) {
        for subview in subviews where !subview.autoresizingMask.isEmpty {
            subview.frame = subview.autoresizingMask.resize(subview.frame, from: oldSize, to: bounds.size)
        }
    }
}

/// How a view follows its superview's size changes (as `UIView.AutoresizingMask`).
public struct AutoresizingMask: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let flexibleLeftMargin = AutoresizingMask(rawValue: 1 << 0)
    public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
    public static let flexibleRightMargin = AutoresizingMask(rawValue: 1 << 2)
    public static let flexibleTopMargin = AutoresizingMask(rawValue: 1 << 3)
    public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
    public static let flexibleBottomMargin = AutoresizingMask(rawValue: 1 << 5)

    /// The new frame: the size change is shared out among the flexible parts of each axis, as UIKit does.
    func resize(_ frame: Rect, from oldSize: Size, to newSize: Size) -> Rect {
        let (x, width) = Self.share(
            newSize.width - oldSize.width, origin: frame.minX, length: frame.width, oldTotal: oldSize.width,
            leading: contains(.flexibleLeftMargin), flexible: contains(.flexibleWidth),
            trailing: contains(.flexibleRightMargin))
        let (y, height) = Self.share(
            newSize.height - oldSize.height, origin: frame.minY, length: frame.height, oldTotal: oldSize.height,
            leading: contains(.flexibleTopMargin), flexible: contains(.flexibleHeight),
            trailing: contains(.flexibleBottomMargin))
        return Rect(x: x, y: y, width: width, height: height)
    }

    private static func share(
        _ delta: Double, origin: Double, length: Double, oldTotal: Double,
        leading: Bool, flexible: Bool, trailing: Bool
    ) -> (Double, Double) {
        guard delta != 0, leading || flexible || trailing else { return (origin, length) }
        // Each flexible part takes a share of the change proportional to its old extent, as UIKit does;
        // when all flexible parts are zero-sized, they split the change equally.
        let parts = [(leading, origin), (flexible, length), (trailing, oldTotal - origin - length)]
        let total = parts.filter(\.0).map { max($0.1, 0) }.reduce(0, +)
        let count = Double(parts.filter(\.0).count)
        func share(_ part: (Bool, Double)) -> Double {
            guard part.0 else { return 0 }
            return total > 0 ? delta * max(part.1, 0) / total : delta / count
        }
        return (origin + share(parts[0]), max(length + share(parts[1]), 0))
    }
}
