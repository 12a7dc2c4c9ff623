/// View transitions in the scene (`View.transition(with:...)`, `ViewTransition`): a view's renderings taken
/// offscreen, and the layers that compose them in place of its subtree while its transition runs.
extension Compositor {
    /// The old rendering: what `view` and its subviews show now, from their caches as last composed.
    func snapshot(of view: View) -> Bitmap? { snapshot(of: view, live: false) }

    /// `view`'s subtree painted into a bitmap of its bounds' size (nil: no pixels), through the same walk
    /// and renderer as a frame, with its own alpha and without its place (its transform, centre) on the
    /// screen. `live`: as the model is now, caches drawn where they are due (the new rendering, taken while
    /// a frame is composed, after its layout); else as the screen shows it, nothing drawn (the old one:
    /// a cache drawn now would leave its damage out of the frame that should show it).
    func snapshot(of view: View, live: Bool) -> Bitmap? {
        let shown = view.shownBounds
        let width = shown.width.rounded(.up), height = shown.height.rounded(.up)
        guard width >= 1, height >= 1, width.isFinite, height.isFinite else { return nil }
        let area = PixelRect(x: 0, y: 0, width: Int32(width), height: Int32(height))
        // The walk's state, kept for the frame being composed when this runs inside one (a transition's
        // new rendering, or a nested transition's): views asking for a plane are walked inline here, and
        // the scroll views found here are no frame's.
        let saved = (isWalkingPlaneGroup, scrollRegions.count, liveSnapshotRoot, readsCachesOnly)
        isWalkingPlaneGroup = true
        liveSnapshotRoot = live ? ObjectIdentifier(view) : nil
        readsCachesOnly = !live
        defer {
            (isWalkingPlaneGroup, liveSnapshotRoot, readsCachesOnly) = (saved.0, saved.2, saved.3)
            scrollRegions.removeSubrange(saved.1...)
        }
        var layers: [Layer] = []
        // What the new rendering's caches redrew belongs to no frame: its views are not shown while the
        // transition runs, and appear (all damage) when it ends.
        var redrawn = Region()
        walk(
            view, toScreen: AffineTransform(translationX: -shown.minX, y: -shown.minY), clip: area, alpha: 1, into: &layers,
            damage: &redrawn)
        guard layers.contains(where: { !$0.content.isEmpty }) else { return nil }
        let bitmap = Bitmap(width: Int(width), height: Int(height), format: .argb32Premultiplied)
        paint(layers, into: bitmap, damage: Region(area), overBlack: false)
        return bitmap
    }

    /// The layers of `view`'s transition at `progress`, where its subtree would be (`toScreen` maps the
    /// view's coordinates onto the screen, `alpha` is its superviews'). Their places are compared from frame
    /// to frame as views' are, so a flip or a slide damages where each rendering was and is; the
    /// cross-fade's bitmap is redrawn in place and damages itself.
    func walkTransition(
        of view: View, _ transition: ViewTransition, progress: Double, toScreen: AffineTransform, clip: PixelRect?,
        alpha: Double, into layers: inout [Layer], damage: inout Region
    ) {
        guard alpha > 0 else { return }
        if !transition.hasNew {
            transition.new = snapshot(of: view, live: true)
            transition.hasNew = true
        }
        let shown = view.shownBounds
        // A rendering's pixel (0, 0) is the top left of the view's bounds.
        let renderingToScreen = AffineTransform(translationX: shown.minX, y: shown.minY).concatenating(toScreen)
        switch transition.style {
        case .crossDissolve:
            guard let blend = transition.crossDissolve(at: progress) else { return }
            let layer = transitionLayer(
                transition.newSide, blend.bitmap, through: renderingToScreen, clip: clip, alpha: alpha, index: layers.count)
            if blend.changed { damage.formUnion(layer.placement.visibleRect) }
            layers.append(layer)
        case .flip(let vertical):
            // The first half narrows the old rendering to nothing, the second widens the new one from it.
            let (side, stand) = progress < 0.5 ? (transition.old, transition.oldSide) : (transition.new, transition.newSide)
            let scale = abs(1 - 2 * progress)
            let extent = vertical ? shown.height : shown.width
            // Under half a pixel wide there is nothing to show (and a map through zero has no inverse).
            guard let side, scale * extent >= 0.5 else { return }
            let middle = AffineTransform(translationX: -shown.width / 2, y: -shown.height / 2)
                .concatenating(AffineTransform(scaleX: vertical ? 1 : scale, y: vertical ? scale : 1))
                .concatenating(AffineTransform(translationX: shown.width / 2, y: shown.height / 2))
            layers.append(
                transitionLayer(
                    stand, side, through: middle.concatenating(renderingToScreen), clip: clip, alpha: alpha, index: layers.count))
        case .slide(let dx, let dy):
            // Both move within the view's box on the screen: the old one out, the new one in behind it.
            let box = PixelRect(enclosing: Rect(size: shown.size).applying(renderingToScreen))
            let within = clip.map { $0.intersection(box) } ?? box
            let (width, height) = (shown.width * dx, shown.height * dy)
            let sides = [
                (transition.old, transition.oldSide, progress), (transition.new, transition.newSide, progress - 1),
            ]
            for case let (side?, stand, offset) in sides {
                let moved = AffineTransform(translationX: width * offset, y: height * offset).concatenating(renderingToScreen)
                layers.append(transitionLayer(stand, side, through: moved, clip: within, alpha: alpha, index: layers.count))
            }
        }
    }

    /// A layer of a transition's rendering, standing for `stand` in the placements.
    private func transitionLayer(
        _ stand: View, _ rendering: Bitmap, through renderingToScreen: AffineTransform, clip: PixelRect?, alpha: Double, index: Int
    ) -> Layer {
        let size = Size(width: Double(rendering.width), height: Double(rendering.height))
        let (rect, transform) = Self.place(size, through: renderingToScreen)
        let content = LayerContent.bitmap(rendering)
        return Layer(
            view: stand, content: content, size: size, contentIsOpaque: false,
            placement: Placement(
                rect: rect, clip: clip, alpha: alpha, content: content.identity, index: index, opaque: false, transform: transform))
    }
}
