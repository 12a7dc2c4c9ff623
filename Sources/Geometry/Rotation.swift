/// How a screen's content is turned on its panel, clockwise, with the names the field uses in config
/// files (sway, kanshi, weston's `transform`): `normal`, `90`, `180`, `270`, `flipped`, `flipped-90`,
/// `flipped-180`, `flipped-270`. A flipped variant mirrors the content left to right first, then rotates.
///
/// Apps see the *logical* screen (a 1280x800 panel turned by 90 is 800x1280); the compositor maps logical
/// pixels onto the *physical* buffer with `physicalPoint(fromLogical:logicalSize:)`, and touch input maps
/// the panel's coordinates back with `logicalPoint(fromPhysical:logicalSize:)`.
public enum Rotation: String, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case normal = "normal"
    case rotated90 = "90"
    case rotated180 = "180"
    case rotated270 = "270"
    case flipped = "flipped"
    case flipped90 = "flipped-90"
    case flipped180 = "flipped-180"
    case flipped270 = "flipped-270"

    /// The config spelling (`"flipped-90"`).
    public var name: String { rawValue }
    public var description: String { rawValue }

    /// The config spelling, without regard to case (`Flipped-90`), as the file, the environment and the
    /// command line all take it.
    public init?(spelling: String) {
        self.init(rawValue: spelling.lowercased())
    }

    /// Every spelling, for messages: `normal, 90, 180, 270, flipped, ...`.
    public static let validSpellings = allCases.map(\.name).joined(separator: ", ")

    /// Clockwise quarter turns applied after the optional mirror.
    public var quarterTurns: Int {
        switch self {
        case .normal, .flipped: 0
        case .rotated90, .flipped90: 1
        case .rotated180, .flipped180: 2
        case .rotated270, .flipped270: 3
        }
    }

    public var isFlipped: Bool {
        switch self {
        case .flipped, .flipped90, .flipped180, .flipped270: true
        default: false
        }
    }

    /// Whether width and height trade places between the panel and the logical screen.
    public var swapsAxes: Bool { quarterTurns % 2 == 1 }

    /// The logical size apps see on a panel of `physicalSize`.
    public func logicalSize(forPhysical physicalSize: Size) -> Size {
        swapsAxes ? Size(width: physicalSize.height, height: physicalSize.width) : physicalSize
    }

    /// The affine map from logical to physical coordinates for a logical screen of `logicalSize`:
    /// `physical = (a*x + c*y + tx, b*x + d*y + ty)`. Exact for continuous coordinates; a pixel's
    /// area maps onto a pixel's area because both sizes are whole numbers.
    public func logicalToPhysical(logicalSize size: Size) -> AffineTransform {
        let w = size.width, h = size.height
        // Mirror left-right inside the logical rectangle first.
        let mirror = isFlipped ? AffineTransform(a: -1, b: 0, c: 0, d: 1, tx: w, ty: 0) : .identity
        // Then turn clockwise (y points down, so clockwise is (x, y) -> (-y, x)) and move back on screen.
        let turn: AffineTransform
        switch quarterTurns {
        case 1: turn = AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: h, ty: 0)
        case 2: turn = AffineTransform(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)
        case 3: turn = AffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: w)
        default: turn = .identity
        }
        return mirror.concatenating(turn)
    }

    public func physicalPoint(fromLogical point: Point, logicalSize: Size) -> Point {
        point.applying(logicalToPhysical(logicalSize: logicalSize))
    }

    public func logicalPoint(fromPhysical point: Point, logicalSize: Size) -> Point {
        point.applying(logicalToPhysical(logicalSize: logicalSize).inverted())
    }

    public func physicalRect(fromLogical rect: Rect, logicalSize: Size) -> Rect {
        rect.applying(logicalToPhysical(logicalSize: logicalSize))
    }
}
