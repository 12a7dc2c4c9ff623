extension View {
    /// Converts `point` from this view's coordinates to `view`'s; nil means this view's window. Exact
    /// between any two views of one window and, through screen coordinates, between windows; transforms
    /// included.
    public func convert(_ point: Point, to view: View?) -> Point {
        point.applying(transform(to: view))
    }

    /// Converts `point` from `view`'s coordinates (nil: this view's window) to this view's.
    public func convert(_ point: Point, from view: View?) -> Point {
        point.applying(transform(from: view))
    }

    /// Converts a rectangle: the box around its converted corners (the rectangle itself without
    /// rotations), as UIKit's `convert(_:to:)`.
    public func convert(_ rect: Rect, to view: View?) -> Rect {
        rect.applying(transform(to: view))
    }

    public func convert(_ rect: Rect, from view: View?) -> Rect {
        rect.applying(transform(from: view))
    }

    /// The map from this view's coordinates to `view`'s (nil: this view's window).
    func transform(to view: View?) -> AffineTransform {
        let (root, toRoot) = transformToRoot()
        guard let view else { return toRoot }
        let (otherRoot, otherToRoot) = view.transformToRoot()
        var map = toRoot
        if otherRoot !== root, let from = root as? Window, let to = otherRoot as? Window {
            // Between windows through screen coordinates.
            map = map.concatenating(from.transformToSuperview).concatenating(to.transformToSuperview.inverted())
        }
        return map.concatenating(otherToRoot.inverted())
    }

    /// The map from `view`'s coordinates (nil: this view's window) to this view's.
    func transform(from view: View?) -> AffineTransform {
        guard let view else { return transformToRoot().map.inverted() }
        return view.transform(to: self)
    }

    /// The topmost ancestor (a window, or the top of a detached tree) and the map from this view's
    /// coordinates into its.
    func transformToRoot() -> (root: View, map: AffineTransform) {
        var view = self
        var map = AffineTransform.identity
        while !(view is Window), let superview = view.superview {
            map = map.concatenating(view.transformToSuperview)
            view = superview
        }
        return (view, map)
    }
}
