extension Compositor {
    // MARK: Scroll copies

    /// For each scroll view that only scrolled since the last frame (same place on the screen, its own
    /// layer one opaque colour, an offset changed by whole pixels), the pixels that stay in view are moved
    /// by the offset's change instead of composited again, and only what that cannot give is damaged: the
    /// strip that came into view, the content that did not simply move with the offset (changed, new or
    /// gone views, the indicators, anything whose stacking changed) where it was and where it is, and the
    /// layers in front of the scroll view over it (a copy moves their pixels too). Views that moved exactly
    /// with the offset damage nothing. The plan's `moved` is what the copies change (for the output).
    func planScrollCopies(layers: [Layer], state: ScreenState, screenRect: PixelRect) -> ScrollPlan {
        var plan = ScrollPlan()
        lazy var shownNow = Set(layers.map { ObjectIdentifier($0.view) })
        for region in scrollRegions {
            guard let old = state.scrolls[region.view], old.rect == region.rect else { continue }
            let deltaX = region.origin.x - old.origin.x, deltaY = region.origin.y - old.origin.y
            // Only what is on the screen has pixels to move.
            let rect = region.rect.intersection(screenRect)
            guard deltaX != 0 || deltaY != 0, deltaX.rounded() == deltaX, deltaY.rounded() == deltaY,
                abs(deltaX) < Double(rect.width), abs(deltaY) < Double(rect.height)
            else { continue }
            let dx = Int32(deltaX), dy = Int32(deltaY)
            // New pixel p is old pixel p + (dx, dy) where that stays inside the scroll view.
            let destination = rect.intersection(rect.offsetBy(dx: -dx, dy: -dy))
            var damage = Region(rect).subtracting(destination)
            // Old and new layers of the scroll view's content, matched by view.
            let subtree = region.layers.dropFirst()
            let oldContent = old.layers.dropFirst()
            var previousOldIndex = -1
            for index in subtree {
                let layer = layers[index]
                let id = ObjectIdentifier(layer.view)
                let new = layer.placement
                if let before = state.placements[id], !oldContent.contains(before.index) {
                    // It joined the content from elsewhere: the main pass damages where it was and where it
                    // is; here, what the copy moved of it (it may have been in front of the scroll view).
                    damage.formUnion(before.visibleRect.offsetBy(dx: -dx, dy: -dy))
                    continue
                }
                plan.handled.insert(id)
                if let before = state.placements[id] {
                    if before.movedExactly(by: -dx, -dy, to: new), before.index > previousOldIndex {
                        previousOldIndex = before.index
                        continue
                    }
                    damage.formUnion(before.visibleRect.offsetBy(dx: -dx, dy: -dy))
                    damage.formUnion(before.visibleRect)
                }
                damage.formUnion(new.visibleRect)
            }
            // Content of the last frame that is gone: from the screen, or elsewhere now (the main pass damages
            // where it is, and where it was outside the scroll view).
            // A loop, not `map`: a closure passed from main-actor code checks its actor at every call.
            var newIDs = Set<ObjectIdentifier>(minimumCapacity: subtree.count)
            for index in subtree { newIDs.insert(ObjectIdentifier(layers[index].view)) }
            for (id, before) in state.placements where oldContent.contains(before.index) && !newIDs.contains(id) {
                if !shownNow.contains(id) { plan.handled.insert(id) }
                damage.formUnion(before.visibleRect.offsetBy(dx: -dx, dy: -dy))
                damage.formUnion(before.visibleRect)
            }
            // Whatever is in front of the scroll view over it, now or in the last frame.
            for layer in layers[region.layers.upperBound...] where !layer.placement.visibleRect.intersection(rect).isEmpty {
                damage.formUnion(layer.placement.visibleRect)
            }
            for (_, before) in state.placements where before.index >= old.layers.upperBound {
                let over = before.visibleRect.intersection(rect)
                guard !over.isEmpty else { continue }
                damage.formUnion(over)
                damage.formUnion(before.visibleRect.offsetBy(dx: -dx, dy: -dy).intersection(rect))
            }
            plan.damage.formUnion(damage.intersection(rect))
            plan.moved.formUnion(rect)
            plan.copies.append(ScrollCopy(destination: destination, dx: dx, dy: dy))
        }
        return plan
    }

}

/// A scroll view of a frame: its clipped rect on the screen, its bounds' origin (the content offset) and
/// the range of the frame's layers that are its own and its content's.
struct ScrollRegion {
    let view: ObjectIdentifier
    let rect: PixelRect
    let origin: Point
    let layers: Range<Int>
}

/// Pixels a scroll moves within the frame: each of `destination` takes the one `(dx, dy)` away.
struct ScrollCopy {
    let destination: PixelRect
    let dx: Int32
    let dy: Int32
}

/// What the scroll copies of a frame do: the copies, what they leave to paint, the layers whose damage
/// they account for, and all they change.
struct ScrollPlan {
    var copies: [ScrollCopy] = []
    var damage = Region()
    var handled: Set<ObjectIdentifier> = []
    var moved = Region()
}
