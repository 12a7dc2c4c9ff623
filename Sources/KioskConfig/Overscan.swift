/// The edges of the picture a television may not show (`[screens.NAME] overscan`), in points: the app's
/// safe area leaves them out, so content kept in it is seen whole. Written as CSS writes margins: one value
/// for every edge (`overscan = 24`), two for top and bottom then left and right (`"16 32"`), three for top,
/// left and right, bottom, or four clockwise from the top (`"16 32 16 32"`), separated by spaces or commas.
public struct Overscan: Sendable, Hashable, CustomStringConvertible {
    public var top: Int
    public var right: Int
    public var bottom: Int
    public var left: Int

    public init(top: Int = 0, right: Int = 0, bottom: Int = 0, left: Int = 0) {
        self.top = top
        self.right = right
        self.bottom = bottom
        self.left = left
    }

    public static let none = Overscan()

    /// More than a quarter of a 1080-line picture on one edge is no television's overscan: a typing mistake.
    public static let range = 0...270

    public static let validSpellings =
        "1 to 4 numbers of points, \(range.lowerBound) to \(range.upperBound) each, as CSS margins: \"24\" (every edge), "
        + "\"16 32\" (top and bottom, left and right), \"16 32 8\" (top, sides, bottom), \"16 32 8 32\" (top, right, bottom, left)"

    /// Why `text` is no overscan, naming it as `shown`, or nil when it is one (`init(spelling:)` takes it).
    public static func problem(_ text: String, shown: String) -> String? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "," })
        guard (1...4).contains(parts.count) else { return "\(shown) has \(parts.count) values" }
        for part in parts {
            let named = parts.count == 1 ? shown : "\(shown) has \(part), which"
            guard let value = Int(part) else { return "\(named) is not a whole number" }
            guard range.contains(value) else { return "\(named) is out of range" }
        }
        return nil
    }

    /// The overscan `text` spells; nil when it spells none (`problem` says why).
    public init?(spelling text: String) {
        guard Self.problem(text, shown: text) == nil else { return nil }
        let values = text.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Int($0) }
        switch values.count {
        case 1: self.init(top: values[0], right: values[0], bottom: values[0], left: values[0])
        case 2: self.init(top: values[0], right: values[1], bottom: values[0], left: values[1])
        case 3: self.init(top: values[0], right: values[1], bottom: values[2], left: values[1])
        default: self.init(top: values[0], right: values[1], bottom: values[2], left: values[3])
        }
    }

    /// The shortest CSS spelling: `24`, `16 32`, `16 32 8`, `16 32 8 4`.
    public var description: String {
        if top == bottom, left == right { return top == left ? "\(top)" : "\(top) \(left)" }
        if left == right { return "\(top) \(left) \(bottom)" }
        return "\(top) \(right) \(bottom) \(left)"
    }
}
