/// Views' cached renderings: `draw(_:)` into a cache (cropped to what it marked) when a view asks for it.
extension Compositor {
    /// cache's pixels to the screen); `size` is the cache's size.
    func render(
        _ view: View, at rect: PixelRect, size: (width: Int32, height: Int32), transform: AffineTransform?,
        clip: PixelRect?, damage: inout Region
    ) -> LayerContent {
        // A transition's old rendering is what the screen shows: the caches as last composed, nothing drawn
        // (a change waiting for the next frame is the new rendering's, and keeps its damage for it).
        if readsCachesOnly { return view.rendering.isValid ? view.rendering.content : .none }
        let dirty = view.takeDirtyRect()
        var sizeChanged = false
        if view.rendering.cache != nil { sizeChanged = view.rendering.drawnSize != PixelSize(size) }
        // Most views are clean in most frames (a scroll moves 100 of them): their content is read in place,
        // without copying the layer state out and back (a retain and release of the cache per copy).
        if dirty.isNull, !sizeChanged, view.rendering.isValid { return view.rendering.content }
        var layer = view.rendering
        defer { view.rendering = layer }

        guard size.width > 0, size.height > 0 else {
            layer.cache = nil
            layer.content = .none
            layer.isValid = true
            return .none
        }
        var redraw = dirty.isNull ? view.bounds : dirty
        let whole = dirty.isNull || dirty.contains(view.bounds)
        if layer.isCropped, !whole {
            // A view that redraws parts of itself (a canvas) keeps a cache of its whole size from now on,
            // so that each part is drawn alone.
            layer.drawsInParts = true
        }
        let squareAndBorderless = view.borderWidth <= 0 && view.cornerRadius <= 0
        let croppable = isCacheCroppingEnabled && squareAndBorderless && !view.isOpaque && !layer.drawsInParts
        // A cache cropped to what was drawn has no room for a change elsewhere: it is drawn anew, as is a
        // view drawn whole that can be cropped.
        let fresh = layer.cache == nil || sizeChanged || !layer.isValid || layer.isCropped || (whole && croppable)
        if fresh {
            layer.cache = nil
            layer.origin = (0, 0)
            redraw = view.bounds
        }
        // Dirty rect in the cache's pixels (the cache's origin is the bounds' origin).
        let local = Rect(
            x: redraw.minX - view.bounds.minX, y: redraw.minY - view.bounds.minY,
            width: redraw.width, height: redraw.height
        ).integral
        let full = Rect(x: 0, y: 0, width: view.bounds.width, height: view.bounds.height)
        let background = view.shownBackgroundColor.flatMap { $0.alpha > 0 ? $0 : nil }
        let cornerRadius = view.cornerRadius
        let prepare = { (context: DrawingContext) in
            context.clip(to: local)
            if !fresh { context.clear(local) }  // a new bitmap is clear already
            if let background {
                if cornerRadius > 0 {
                    context.fillRoundedRect(full, radius: cornerRadius, color: background)
                } else {
                    context.fill(full, color: background)
                }
            }
        }
        let context: DrawingContext
        if let cache = layer.cache {
            context = DrawingContext(bitmap: cache)
            prepare(context)
        } else {
            let (width, height) = (Int(size.width), Int(size.height))
            let makeSized = { Bitmap(width: $0, height: $1, format: .argb32Premultiplied) }
            let make = { makeSized(width, height) }
            if croppable {
                // The bitmap is made only if draw(_:) draws something, and only as large as what it
                // marks: a view that only has a background colour (a window, a container the size of the
                // screen) is filled straight into the frame, and a label the width of the screen caches
                // the box around its text.
                context = DrawingContext(
                    croppingTo: width, height: height,
                    make: makeSized, prepare: prepare)
            } else if squareAndBorderless {
                context = DrawingContext(makingBitmapOnFirstDrawing: make, prepare: prepare)
            } else {
                context = DrawingContext(bitmap: make())
                prepare(context)
            }
        }
        context.save()
        context.translateBy(x: -view.bounds.minX, y: -view.bounds.minY)
        let previous = DrawingContext.current
        DrawingContext.current = context
        view.draw(Rect(x: local.minX + view.bounds.minX, y: local.minY + view.bounds.minY, width: local.width, height: local.height))
        DrawingContext.current = previous
        context.restore()
        if view.borderWidth > 0 {
            context.strokeRoundedRect(full, radius: cornerRadius, lineWidth: view.borderWidth, color: view.borderColor)
        }
        let cropped = context.isCropping ? context.finishCropping() : nil
        layer.drawnSize = PixelSize(size)
        guard context.hasBitmap || cropped != nil else {
            layer.content = background.map { .fill($0) } ?? .none
            layer.isValid = true
            damage.formUnion(clipped(rect, to: clip))
            return layer.content
        }
        context.flush()
        if let cropped {
            layer.cache = cropped.bitmap
            layer.origin = (Int32(cropped.x), Int32(cropped.y))
        } else {
            layer.cache = context.bitmap
        }
        layer.isValid = true
        layer.content = .bitmap(layer.cache!)
        let dirtyOnScreen =
            transform.map { PixelRect(enclosing: local.applying($0)) }
            ?? PixelRect(
                x: rect.x + Int32(local.minX), y: rect.y + Int32(local.minY),
                width: Int32(local.width), height: Int32(local.height))
        damage.formUnion(clipped(dirtyOnScreen, to: clip))
        return layer.content
    }

    func clipped(_ rect: PixelRect, to clip: PixelRect?) -> PixelRect {
        clip.map { rect.intersection($0) } ?? rect
    }
}

extension DrawingContext {
    /// The context a view's `draw(_:)` draws into (as `UIGraphicsGetCurrentContext()`); nil outside drawing.
    @MainActor public static var current: DrawingContext?
}
