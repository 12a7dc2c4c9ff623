#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A 2-D affine transform (as UIKit's `CGAffineTransform`): the matrix
///
///     | a  b  0 |
///     | c  d  0 |
///     | tx ty 1 |
///
/// applied to row vectors, so a point maps to `(a·x + c·y + tx, b·x + d·y + ty)`. With the y axis pointing
/// down, a positive rotation angle turns clockwise on screen, as in UIKit.
public struct AffineTransform: Hashable, Sendable, CustomStringConvertible {
    public var a: Double
    public var b: Double
    public var c: Double
    public var d: Double
    public var tx: Double
    public var ty: Double

    @inlinable public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// `CGAffineTransform(translationX:y:)`.
    @inlinable public init(translationX tx: Double, y ty: Double) {
        self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }

    /// `CGAffineTransform(scaleX:y:)`.
    @inlinable public init(scaleX sx: Double, y sy: Double) {
        self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0)
    }

    /// `CGAffineTransform(rotationAngle:)`: `angle` in radians. Quarter turns are exact (no 6e-17 residue),
    /// so a view turned by π/2 still lands on whole pixels.
    public init(rotationAngle angle: Double) {
        let (sine, cosine) = Self.exactSineCosine(angle)
        self.init(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    /// Compared entry by entry, which inlines into the caller, rather than through the synthesized `==`.
    @inlinable public var isIdentity: Bool { a == 1 && b == 0 && c == 0 && d == 1 && tx == 0 && ty == 0 }

    /// True when the transform only moves points (no scale, rotation or shear).
    @inlinable public var isTranslation: Bool { a == 1 && b == 0 && c == 0 && d == 1 }

    /// `t1.concatenating(t2)`: first `self`, then `other` (as `CGAffineTransform.concatenating`).
    @inlinable public func concatenating(_ other: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * other.a + b * other.c, b: a * other.b + b * other.d,
            c: c * other.a + d * other.c, d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx, ty: tx * other.b + ty * other.d + other.ty)
    }

    /// A translation applied before this transform (as `CGAffineTransform.translatedBy(x:y:)`).
    @inlinable public func translatedBy(x: Double, y: Double) -> AffineTransform {
        AffineTransform(translationX: x, y: y).concatenating(self)
    }

    /// A scale applied before this transform (as `CGAffineTransform.scaledBy(x:y:)`).
    @inlinable public func scaledBy(x: Double, y: Double) -> AffineTransform {
        AffineTransform(scaleX: x, y: y).concatenating(self)
    }

    /// A rotation applied before this transform (as `CGAffineTransform.rotated(by:)`).
    public func rotated(by angle: Double) -> AffineTransform {
        AffineTransform(rotationAngle: angle).concatenating(self)
    }

    /// The determinant `a·d − b·c`: zero for a transform that flattens the plane.
    @inlinable public var determinant: Double { a * d - b * c }

    /// The inverse, or the transform itself when it cannot be inverted (as `CGAffineTransform.inverted()`).
    @inlinable public func inverted() -> AffineTransform {
        let det = determinant
        guard det != 0, det.isFinite else { return self }
        return AffineTransform(
            a: d / det, b: -b / det, c: -c / det, d: a / det,
            tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }

    /// The transform `fraction` of the way from this one to `other`, as Core Animation passes between two
    /// transforms: each is split into translation, rotation, scale and shear (A = R(θ)·[[sx, m], [0, sy]]),
    /// those are interpolated (the angle the short way round) and put back together. So a quarter turn
    /// animates as a turn, where mixing the matrix entries would shrink the view through the middle.
    public func interpolated(to other: AffineTransform, fraction: Double) -> AffineTransform {
        func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * fraction }
        guard let from = decomposed, let to = other.decomposed else {
            // A transform that flattens its first axis has no angle: mix the entries.
            return AffineTransform(
                a: mix(a, other.a), b: mix(b, other.b), c: mix(c, other.c), d: mix(d, other.d),
                tx: mix(tx, other.tx), ty: mix(ty, other.ty))
        }
        var turn = to.angle - from.angle
        if turn > Double.pi { turn -= 2 * Double.pi } else if turn < -Double.pi { turn += 2 * Double.pi }
        let angle = from.angle + turn * fraction
        let sx = mix(from.sx, to.sx), shear = mix(from.shear, to.shear), sy = mix(from.sy, to.sy)
        let (sine, cosine) = Self.exactSineCosine(angle)
        return AffineTransform(
            a: cosine * sx, b: sine * sx, c: cosine * shear - sine * sy, d: sine * shear + cosine * sy,
            tx: mix(tx, other.tx), ty: mix(ty, other.ty))
    }

    /// Rotation, scales and shear of the 2x2 part (A = R(θ)·[[sx, shear], [0, sy]]), or nil when the first
    /// axis is flattened (sx = 0).
    private var decomposed: (angle: Double, sx: Double, shear: Double, sy: Double)? {
        let sx = (a * a + b * b).squareRoot()
        guard sx > 0 else { return nil }
        let angle = atan2(b, a)
        let cosine = a / sx, sine = b / sx
        return (angle, sx, cosine * c + sine * d, -sine * c + cosine * d)
    }

    public var description: String {
        "[\(formatted(a)), \(formatted(b)), \(formatted(c)), \(formatted(d)), \(formatted(tx)), \(formatted(ty))]"
    }

    /// Sine and cosine with the quarter turns exact.
    private static func exactSineCosine(_ angle: Double) -> (Double, Double) {
        let quarters = angle / (Double.pi / 2)
        if quarters == quarters.rounded(), abs(quarters) < 1e9 {
            switch ((Int(quarters) % 4) + 4) % 4 {
            case 0: return (0, 1)
            case 1: return (1, 0)
            case 2: return (0, -1)
            default: return (-1, 0)
            }
        }
        return (sin(angle), cos(angle))
    }
}

extension Point {
    /// The point mapped by `transform` (as `CGPoint.applying`).
    @inlinable public func applying(_ t: AffineTransform) -> Point {
        Point(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}

extension Rect {
    /// The smallest rectangle holding the four corners mapped by `transform` (as `CGRect.applying`); the
    /// null rectangle stays null.
    public func applying(_ t: AffineTransform) -> Rect {
        guard !isNull else { return self }
        if t.isTranslation { return standardized.offsetBy(dx: t.tx, dy: t.ty) }
        let corners = [
            Point(x: minX, y: minY), Point(x: maxX, y: minY), Point(x: minX, y: maxY), Point(x: maxX, y: maxY),
        ].map { $0.applying(t) }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let left = xs.min()!, top = ys.min()!
        return Rect(x: left, y: top, width: xs.max()! - left, height: ys.max()! - top)
    }
}
