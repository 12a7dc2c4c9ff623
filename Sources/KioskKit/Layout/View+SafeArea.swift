/// Where a view's content is safe from what covers it (as `UIView.safeAreaInsets`): a window's safe area
/// leaves out the screen's overscan (`Screen.overscanInsets`) and the visible windows at the status bar's
/// levels (from `.statusBar` up to, not including, `.alert`) that lie along one of its edges, across its
/// whole side; a view's is the part of its superview's unsafe area it overlaps, plus its view controller's
/// `additionalSafeAreaInsets` when it is a controller's root view.
extension View {
    /// The distances from the edges inside which the view's content is not covered.
    public var safeAreaInsets: EdgeInsets {
        if let window = self as? Window { return window.windowSafeAreaInsets.adding(additionalSafeAreaInsets) }
        guard let superview else { return additionalSafeAreaInsets }
        let parentInsets = superview.safeAreaInsets
        var insets = EdgeInsets.zero
        if parentInsets != .zero {
            // The superview's safe rectangle in this view's coordinates (the box around it under a transform).
            let safe = superview.convert(superview.bounds.inset(by: parentInsets), to: self)
            let mine = bounds
            insets = EdgeInsets(
                top: Self.clamped(safe.minY - mine.minY, mine.height), left: Self.clamped(safe.minX - mine.minX, mine.width),
                bottom: Self.clamped(mine.maxY - safe.maxY, mine.height), right: Self.clamped(mine.maxX - safe.maxX, mine.width))
            // A side where the superview has no unsafe band has nothing unsafe beyond its edge either: a view
            // sliding out past it (a navigation's pop, a page of a scroll view) keeps its safe area, which
            // its required constraints depend on, instead of seeing its off-screen part as covered.
            if transform.b == 0, transform.c == 0, transform.a > 0, transform.d > 0 {
                if parentInsets.top == 0 { insets.top = 0 }
                if parentInsets.left == 0 { insets.left = 0 }
                if parentInsets.bottom == 0 { insets.bottom = 0 }
                if parentInsets.right == 0 { insets.right = 0 }
            }
        }
        return insets.adding(additionalSafeAreaInsets)
    }

    private static func clamped(_ inset: Double, _ length: Double) -> Double { min(max(inset, 0), max(length, 0)) }

    /// The insets a view controller adds to its root view's safe area.
    private var additionalSafeAreaInsets: EdgeInsets { owningViewController?.additionalSafeAreaInsets ?? .zero }

    /// How far the on-screen keyboard, while it is shown (or sliding), covers the view from its bottom edge.
    var keyboardOverlap: Double {
        guard let window, let keyboard = Application.shared.keyboard.window, keyboard !== window, !keyboard.isHidden,
            keyboard.screen === window.screen
        else { return 0 }
        // In screen coordinates, against the keyboard's model frame: where it is going when it slides.
        let mine = convert(bounds, to: nil).offsetBy(dx: window.frame.minX, dy: window.frame.minY)
        let covered = mine.intersection(keyboard.frame)
        guard !covered.isNull, !covered.isEmpty else { return 0 }
        return max(mine.maxY - covered.minY, 0)
    }
}

extension Window {
    /// The window's own insets: the screen's overscan where the window reaches into it, and the status
    /// bar's windows along its edges (a window at those levels is not inset by itself or by one below it).
    var windowSafeAreaInsets: EdgeInsets {
        let frame = self.frame
        let screen = self.screen
        let overscan = screen.overscanInsets
        let safe = screen.bounds.inset(by: overscan)
        var insets = EdgeInsets(
            top: max(safe.minY - frame.minY, 0), left: max(safe.minX - frame.minX, 0), bottom: max(frame.maxY - safe.maxY, 0),
            right: max(frame.maxX - safe.maxX, 0))
        for bar in Application.shared.visibleWindows(on: screen) where bar !== self && bar.isSafeAreaBar(over: self) {
            let box = bar.frame
            let across = box.minX <= frame.minX && box.maxX >= frame.maxX
            let along = box.minY <= frame.minY && box.maxY >= frame.maxY
            if across, box.minY <= frame.minY, box.maxY > frame.minY { insets.top = max(insets.top, box.maxY - frame.minY) }
            if across, box.maxY >= frame.maxY, box.minY < frame.maxY { insets.bottom = max(insets.bottom, frame.maxY - box.minY) }
            if along, box.minX <= frame.minX, box.maxX > frame.minX { insets.left = max(insets.left, box.maxX - frame.minX) }
            if along, box.maxX >= frame.maxX, box.minX < frame.maxX { insets.right = max(insets.right, frame.maxX - box.minX) }
        }
        return insets
    }

    /// Whether this window, at a status bar's level and above `window`'s, takes from its safe area.
    private func isSafeAreaBar(over window: Window) -> Bool {
        windowLevel >= .statusBar && windowLevel < .alert && windowLevel > window.windowLevel && !isSystemOverlay
    }
}

extension EdgeInsets {
    func adding(_ other: EdgeInsets) -> EdgeInsets {
        guard other != .zero else { return self }
        return EdgeInsets(top: top + other.top, left: left + other.left, bottom: bottom + other.bottom, right: right + other.right)
    }
}

extension Rect {
    /// The rectangle with `insets` taken off its edges (never less than empty).
    func inset(by insets: EdgeInsets) -> Rect {
        Rect(
            x: minX + insets.left, y: minY + insets.top, width: max(width - insets.left - insets.right, 0),
            height: max(height - insets.top - insets.bottom, 0))
    }
}

extension Application {
    /// Something that bounds safe areas on `screen` changed (its overscan): its windows lay out again, and
    /// their guides take the new insets at that pass.
    func safeAreaMayHaveChanged(on screen: Screen) {
        for window in visibleWindows(on: screen) { window.setNeedsLayout() }
    }

    /// The on-screen keyboard is moving on `screen` (inside its slide's animation block): the keyboard guides
    /// there take its new place now, so their views slide with it.
    func keyboardDidMove(on screen: Screen) {
        guard LayoutEngine.inUse else { return }
        for window in visibleWindows(on: screen) where window.layoutStateIfMade?.engine != nil {
            window.layoutIfNeeded()
        }
    }
}
