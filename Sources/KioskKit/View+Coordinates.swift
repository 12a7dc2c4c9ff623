extension View {
    /// Converts `point` from this view's coordinates to `view`'s; nil means this view's window. Exact
    /// between any two views of one window and, through screen coordinates, between windows.
    public func convert(_ point: Point, to view: View?) -> Point {
        let (root, inRoot) = pointInRoot(point)
        guard let view else { return inRoot }
        return view.pointFromRoot(inRoot, of: root)
    }

    /// Converts `point` from `view`'s coordinates (nil: this view's window) to this view's.
    public func convert(_ point: Point, from view: View?) -> Point {
        guard let view else {
            let (root, _) = pointInRoot(.zero)
            return pointFromRoot(point, of: root)
        }
        return view.convert(point, to: self)
    }

    /// Converts a rectangle; views have no transforms, so only the origin moves.
    public func convert(_ rect: Rect, to view: View?) -> Rect {
        rect.movingOrigin { convert($0, to: view) }
    }

    public func convert(_ rect: Rect, from view: View?) -> Rect {
        rect.movingOrigin { convert($0, from: view) }
    }

    /// The topmost ancestor (a window, or the top of a detached tree) and `point` in its coordinates.
    func pointInRoot(_ point: Point) -> (View, Point) {
        var view = self
        var p = point
        while !(view is Window), let superview = view.superview {
            p = Point(x: p.x - view.bounds.minX + view.frame.minX, y: p.y - view.bounds.minY + view.frame.minY)
            view = superview
        }
        return (view, p)
    }

    /// `point` given in `root`'s coordinates, in this view's; crosses between windows through screen coordinates.
    func pointFromRoot(_ point: Point, of root: View) -> Point {
        let (myRoot, originInRoot) = pointInRoot(.zero)
        var p = point
        if myRoot !== root, let from = root as? Window, let to = myRoot as? Window {
            p = from.convert(p, to: to)
        }
        // This view's origin sits at `originInRoot`; the mapping is a pure translation.
        return Point(x: p.x - originInRoot.x, y: p.y - originInRoot.y)
    }
}

extension Rect {
    /// The rectangle with its origin mapped and its size kept: how rectangles convert between views and
    /// windows, which have no transforms. The null rectangle stays null.
    func movingOrigin(_ map: (Point) -> Point) -> Rect {
        guard !isNull else { return self }
        let standard = standardized
        return Rect(origin: map(standard.origin), size: standard.size)
    }
}
