/// The scene: the windows' views walked in order into layers, each with its placement on the screen.
extension Compositor {
    /// Walks the windows back to front and their views in tree order, redrawing the caches of views that
    /// asked for it (their dirty rects join `damage`), and returns the layers to paint.
    /// The views that asked for a plane (`View.planePreference`) are `planeGroups`, each with its layers
    /// and what its views redrew kept apart: it joins `damage` only if the group is composed.
    func collectLayers(of windows: [Window], damage: inout Region) -> [Layer] {
        var layers: [Layer] = []
        planeGroups.removeAll(keepingCapacity: true)
        for window in windows {
            window.compositionSerial &+= 1
            walk(window, toScreen: window.shownTransformToSuperview, clip: nil, alpha: 1, into: &layers, damage: &damage)
        }
        return layers
    }

    /// `toScreen` maps the view's coordinates (its presentation values) onto the screen.
    func walk(
        _ view: View, toScreen: AffineTransform, clip: PixelRect?, alpha: Double,
        into layers: inout [Layer], damage: inout Region
    ) {
        // A transition shows in place of the subtree, before the view's own hiding counts: hiding it in
        // the transition's block is how a view fades or flips away. Composed, not on a plane, meanwhile.
        if let transition = view.presentation.transition, let progress = view.presentation.transitionProgress,
            liveSnapshotRoot != ObjectIdentifier(view)
        {
            return walkTransition(
                of: view, transition, progress: progress, toScreen: toScreen, clip: clip, alpha: alpha, into: &layers, damage: &damage)
        }
        guard !view.isHidden else { return }
        if view.planePreference != .composited, !isWalkingPlaneGroup {
            // Its subtree is one layer a plane may take: walked as any other, its redraws kept apart.
            isWalkingPlaneGroup = true
            let start = layers.count
            var redrawn = Region()
            walk(view, toScreen: toScreen, clip: clip, alpha: alpha, into: &layers, damage: &redrawn)
            isWalkingPlaneGroup = false
            planeGroups.append(PlaneGroup(view: view, layers: start..<layers.count, redrawn: redrawn, clip: clip))
            return
        }
        let alpha = alpha * view.shownAlpha
        guard alpha > 0 else { return }
        let shown = view.shownBounds, model = view.bounds
        // The content is drawn at the model size; the shown bounds stretch it (UIKit's default content
        // mode, scale to fill), so a size animation never redraws.
        let scaleX = model.width > 0 ? shown.width / model.width : 1
        let scaleY = model.height > 0 ? shown.height / model.height : 1
        let contentToScreen = AffineTransform(scaleX: scaleX, y: scaleY)
            .concatenating(AffineTransform(translationX: shown.minX, y: shown.minY)).concatenating(toScreen)
        let whole = PixelRect(enclosing: Rect(size: Size(width: model.width.rounded(.up), height: model.height.rounded(.up))))
        let size = (width: whole.width, height: whole.height)
        let (rect, transform) = Self.place(model.size, through: contentToScreen)
        if view.observesComposition {
            // Before its rendering, so a view that learns it is back on screen can mark itself for this frame.
            let shown = clip.map { rect.intersection($0) } ?? rect
            view.willBeComposed(onScreen: !shown.intersection(composedScreenRect).isEmpty)
        }
        let content = render(view, at: rect, size: size, transform: transform, clip: clip, damage: &damage)
        // A scroll view whose own layer is one opaque colour over its whole clipped rect, not transformed or
        // faded: what it shows can be moved by a scroll (`ScrollRegion`).
        let scrollStart = layers.count
        let scrolls =
            view is ScrollView && transform == nil && alpha >= 1 && view.clipsToBounds && content.isOpaqueFill
            && contentToScreen.tx.rounded() == contentToScreen.tx && contentToScreen.ty.rounded() == contentToScreen.ty
        if !content.isEmpty {
            let contentIsOpaque = view.isOpaque || content.isOpaqueFill
            let opaque = alpha >= 1 && transform == nil && contentIsOpaque
            // A cache cropped to what the view drew lands where that part of the view is.
            var (layerRect, layerTransform, layerSize) = (rect, transform, model.size)
            if case .bitmap(let bitmap) = content, view.rendering.isCropped {
                let origin = view.rendering.origin
                layerSize = Size(width: Double(bitmap.width), height: Double(bitmap.height))
                if let transform {
                    let cropToScreen = AffineTransform(translationX: Double(origin.x), y: Double(origin.y)).concatenating(transform)
                    layerTransform = cropToScreen
                    layerRect = PixelRect(enclosing: Rect(size: layerSize).applying(cropToScreen))
                } else {
                    layerRect = PixelRect(
                        x: rect.x + origin.x, y: rect.y + origin.y, width: Int32(bitmap.width), height: Int32(bitmap.height))
                }
            }
            layers.append(
                Layer(
                    view: view, content: content, size: layerSize, contentIsOpaque: contentIsOpaque,
                    placement: Placement(
                        rect: layerRect, clip: clip, alpha: alpha, content: content.identity,
                        index: layers.count, opaque: opaque, transform: layerTransform)))
        }
        guard !view.subviews.isEmpty else { return }
        var childClip = clip
        if view.clipsToBounds {
            // Under a rotation the clip is the box around the turned bounds (pixman clips to rectangles).
            let bounds = transform == nil ? rect : PixelRect(enclosing: shown.applying(toScreen))
            childClip = clip.map { $0.intersection(bounds) } ?? bounds
        }
        if let childClip, childClip.isEmpty { return }
        for subview in view.subviews {
            walk(
                subview, toScreen: subview.shownTransformToSuperview.concatenating(toScreen), clip: childClip, alpha: alpha,
                into: &layers, damage: &damage)
        }
        if scrolls, let childClip {
            scrollRegions.append(
                ScrollRegion(
                    view: ObjectIdentifier(view), rect: childClip, origin: view.shownBounds.origin, layers: scrollStart..<layers.count))
        }
    }

    /// Where content of `size` points lands on the screen through `contentToScreen`: a translation lands
    /// on whole pixels, as UIKit rounds views to the screen's pixel grid, and is painted without a transform;
    /// anything else is the box around the mapped content, painted through the map.
    static func place(_ size: Size, through contentToScreen: AffineTransform) -> (rect: PixelRect, transform: AffineTransform?) {
        guard contentToScreen.isTranslation else {
            return (PixelRect(enclosing: Rect(size: size).applying(contentToScreen)), contentToScreen)
        }
        let x = contentToScreen.tx.rounded(), y = contentToScreen.ty.rounded()
        // Clamped: content parked far off the screen (or with a non-finite frame) has no pixels to show,
        // and must not trap on the way to pixman's Int32 coordinates.
        guard x.isFinite && y.isFinite else { return (.zero, nil) }
        return (PixelRect(enclosing: Rect(x: x, y: y, width: size.width.rounded(.up), height: size.height.rounded(.up))), nil)
    }

    /// Brings `view`'s cached content up to date and says what to paint for it.
    /// `rect` is where it lands on screen (the box around it when `transform` is given: the map from its
}
