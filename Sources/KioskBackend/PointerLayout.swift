import Geometry

/// Where a mouse's relative motion takes the pointer among screens laid out by their `position`
/// (`[screens.NAME] position`, in points, top-left origin), as weston's and wlroots' output layouts do: a
/// pointer on a placed screen crosses onto the placed screen its motion reaches, and otherwise stops at its
/// own screen's edge. A screen without a position stands alone: the pointer stays on it. Pure: table tests.
public enum PointerLayout {
    /// A connected screen: its name, its place in the layout (nil: none) and its logical size.
    public struct Screen: Equatable, Sendable {
        public var name: String
        public var position: Point?
        public var size: Size

        public init(name: String, position: Point?, size: Size) {
            self.name = name
            self.position = position
            self.size = size
        }

        /// Its rectangle in the layout.
        var frame: Rect? { position.map { Rect(origin: $0, size: size) } }
    }

    /// The screen and the point on it (its logical coordinates) after moving `delta` from `location` on the
    /// screen named `current`, among `screens`. A screen that is not among them leaves the pointer where it is.
    public static func move(from location: Point, on current: String, by delta: Point, among screens: [Screen]) -> (
        screen: String, location: Point
    ) {
        guard let here = screens.first(where: { $0.name == current }) else { return (current, location) }
        let moved = Point(x: location.x + delta.x, y: location.y + delta.y)
        if let frame = here.frame {
            let target = Point(x: frame.minX + moved.x, y: frame.minY + moved.y)
            // The screen the point lands on: this one first, then the others in their order.
            for screen in [here] + screens.filter({ $0.name != current }) {
                guard let other = screen.frame, other.contains(target) else { continue }
                return (screen.name, Point(x: target.x - other.minX, y: target.y - other.minY))
            }
        }
        return (current, clamped(moved, to: here.size))
    }

    /// Inside a screen of `size`: from 0 to its last pixel on each axis.
    static func clamped(_ point: Point, to size: Size) -> Point {
        Point(x: min(max(point.x, 0), max(size.width - 1, 0)), y: min(max(point.y, 0), max(size.height - 1, 0)))
    }
}
