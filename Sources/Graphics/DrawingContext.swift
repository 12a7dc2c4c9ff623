import CLazyPangoCairo

/// Drawing into a `Bitmap` with cairo, in the bitmap's pixel coordinates (y down) unless translated or
/// scaled. Colours are blended over what is there (`CAIRO_OPERATOR_OVER`) except in `clear(_:)`.
///
/// cairo records the first error on the context and ignores every later call, so each method checks
/// `cairo_status` and traps with the cairo text at the call that caused it: the errors a context can
/// reach are programmer errors (an unbalanced `restore()`, a scale of 0) or out of memory.
public final class DrawingContext {
    /// The bitmap and its `cairo_t *`, once there is one.
    private var target: (bitmap: Bitmap, cr: OpaquePointer)?
    /// For a context that makes its bitmap (or, cropping, its recording) on first drawing: the bitmap's
    /// maker (nil when cropping), and what it draws first.
    private var deferred: (make: (() -> Bitmap)?, prepare: (DrawingContext) -> Void)?
    /// For a cropping context: the full size, and how to make the bitmap of the part drawn.
    private var cropping: (width: Int, height: Int, make: (_ width: Int, _ height: Int) -> Bitmap)?
    /// A cropping context's recording surface and its `cairo_t *`, once something is drawn.
    private var recording: (surface: OpaquePointer, cr: OpaquePointer)?
    /// State changes made before the bitmap was made, replayed on it then.
    private var pending: [StateChange] = []
    /// `save()`s in `pending` not yet restored (an unbalanced `restore()` traps as cairo's would).
    private var pendingDepth = 0

    /// Calls `cairo_create` on the bitmap's surface.
    public init(bitmap: Bitmap) {
        target = (bitmap, cairo_create(bitmap.surface)!)
        check("cairo_create")
    }

    /// A context that makes its bitmap only when something is first drawn into it: `make` makes it, then
    /// `prepare` draws what goes under everything else (a background), then the state changes made so
    /// far (saves, transforms, clips) are applied to it. A view whose `draw(_:)` draws nothing then costs
    /// no bitmap at all (`hasBitmap` says whether one was made): a window or a container view the size
    /// of the screen would otherwise have allocated, cleared and filled a screen-sized bitmap only to
    /// learn that.
    public init(makingBitmapOnFirstDrawing make: @escaping () -> Bitmap, prepare: @escaping (DrawingContext) -> Void) {
        deferred = (make, prepare)
    }

    /// A context of `width` x `height` pixels that records what is drawn (from the first drawing, with
    /// `prepare` and the state changes made before it, as `init(makingBitmapOnFirstDrawing:prepare:)`),
    /// and makes its bitmap at `finishCropping()` only as large as the box around the pixels the drawing
    /// marked: `make` gets that box's size. A label the width of the screen whose text takes a tenth of
    /// it then costs a tenth of the memory; a row-major bitmap of its full width would have had a page
    /// touched in nearly every row the text crosses.
    public init(
        croppingTo width: Int, height: Int, make: @escaping (_ width: Int, _ height: Int) -> Bitmap,
        prepare: @escaping (DrawingContext) -> Void
    ) {
        deferred = (nil, prepare)
        cropping = (width, height, make)
    }

    deinit {
        if let target { cairo_destroy(target.cr) }
        if let recording {
            cairo_destroy(recording.cr)
            cairo_surface_destroy(recording.surface)
        }
    }

    /// The bitmap drawn into (made now if it was deferred and nothing was drawn yet). A cropping context
    /// has none: its bitmap comes from `finishCropping()`.
    public var bitmap: Bitmap {
        if let target { return target.bitmap }
        precondition(cropping == nil, "DrawingContext: a cropping context's bitmap comes from finishCropping()")
        _ = makeTarget()
        return target!.bitmap
    }

    /// Whether the context has its bitmap: always, unless made with `init(makingBitmapOnFirstDrawing:prepare:)`
    /// and nothing has been drawn into it yet, or made cropping.
    public var hasBitmap: Bool { target != nil }

    /// Whether the context was made with `init(croppingTo:height:make:prepare:)`.
    public var isCropping: Bool { cropping != nil }

    /// `cairo_t *`; makes the bitmap (or the recording) if it was deferred (every drawing call goes through here).
    private var cr: OpaquePointer { target?.cr ?? recording?.cr ?? makeTarget() }

    private enum StateChange {
        case save, restore
        case translate(x: Double, y: Double)
        case scale(x: Double, y: Double)
        case rotate(Double)
        case clip(Rect)
        case clipRoundedRect(Rect, radius: Double)
    }

    private func makeTarget() -> OpaquePointer {
        guard let deferred else { preconditionFailure("DrawingContext: no bitmap and none to make") }
        self.deferred = nil
        let made: OpaquePointer
        if let make = deferred.make {
            let bitmap = make()
            made = cairo_create(bitmap.surface)!
            target = (bitmap, made)
        } else {
            let (width, height) = (cropping?.width ?? 0, cropping?.height ?? 0)
            var bounds = cairo_rectangle_t(x: 0, y: 0, width: Double(width), height: Double(height))
            let surface = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, &bounds)!
            made = cairo_create(surface)!
            recording = (surface, made)
        }
        check("cairo_create")
        deferred.prepare(self)
        let changes = pending
        pending = []
        for change in changes {
            switch change {
            case .save: save()
            case .restore: restore()
            case .translate(let x, let y): translateBy(x: x, y: y)
            case .scale(let x, let y): scaleBy(x: x, y: y)
            case .rotate(let angle): rotate(by: angle)
            case .clip(let rect): clip(to: rect)
            case .clipRoundedRect(let rect, let radius): clip(toRoundedRect: rect, radius: radius)
            }
        }
        return made
    }

    /// Keeps `change` for the bitmap to come, if there is none yet; false if there is one. Traps where
    /// cairo would have put the context in error: an unbalanced restore, a transform that is not invertible.
    private func deferring(_ change: StateChange) -> Bool {
        guard target == nil, recording == nil else { return false }
        switch change {
        case .save: pendingDepth += 1
        case .restore:
            if pendingDepth == 0 { fatalError("cairo_restore: invalid restore") }
            pendingDepth -= 1
        case .translate(let x, let y):
            if !x.isFinite || !y.isFinite { fatalError("cairo_translate: invalid matrix (not invertible)") }
        case .scale(let x, let y):
            if !(x * y != 0) || !x.isFinite || !y.isFinite { fatalError("cairo_scale: invalid matrix (not invertible)") }
        case .rotate(let angle):
            if !angle.isFinite { fatalError("cairo_rotate: invalid matrix (not invertible)") }
        case .clip, .clipRoundedRect: break
        }
        pending.append(change)
        return true
    }

    // MARK: State

    /// Pushes the transform, clip and drawing state. Calls `cairo_save`.
    public func save() {
        if deferring(.save) { return }
        cairo_save(cr)
        check("cairo_save")
    }

    /// Pops the state pushed by the matching `save()`; an unbalanced call traps. Calls `cairo_restore`.
    public func restore() {
        if deferring(.restore) { return }
        cairo_restore(cr)
        check("cairo_restore")
    }

    /// Calls `cairo_translate`.
    public func translateBy(x: Double, y: Double) {
        if deferring(.translate(x: x, y: y)) { return }
        cairo_translate(cr, x, y)
        check("cairo_translate")
    }

    /// A scale of 0 (or not finite) traps: cairo would invalidate the context. Calls `cairo_scale`.
    public func scaleBy(x: Double, y: Double) {
        if deferring(.scale(x: x, y: y)) { return }
        cairo_scale(cr, x, y)
        check("cairo_scale")
    }

    /// Turns later drawing by `angle` radians about the origin, from the x axis towards the y axis (clockwise
    /// on the screen, whose y axis points down), as `CGContext.rotate(by:)` in UIKit's coordinates. An angle
    /// that is not finite traps: cairo would invalidate the context. Calls `cairo_rotate`.
    public func rotate(by angle: Double) {
        if deferring(.rotate(angle)) { return }
        cairo_rotate(cr, angle)
        check("cairo_rotate")
    }

    /// Limits later drawing to `rect` (intersected with the current clip). Calls `cairo_clip`.
    public func clip(to rect: Rect) {
        if deferring(.clip(rect)) { return }
        cairo_new_path(cr)
        addRect(rect)
        cairo_clip(cr)
        check("cairo_clip")
    }

    /// Limits later drawing to a rounded rectangle (antialiased edges). Calls `cairo_clip`.
    public func clip(toRoundedRect rect: Rect, radius: Double) {
        if deferring(.clipRoundedRect(rect, radius: radius)) { return }
        cairo_new_path(cr)
        addRoundedRect(rect, radius: radius)
        cairo_clip(cr)
        check("cairo_clip")
    }

    // MARK: Shapes

    /// Calls `cairo_rectangle` and `cairo_fill`.
    public func fill(_ rect: Rect, color: Color) {
        setSource(color)
        cairo_new_path(cr)
        addRect(rect)
        cairo_fill(cr)
        check("cairo_fill")
    }

    /// A rectangle with circular corners of `radius`, clamped to half the shorter side (as Core
    /// Animation's `cornerRadius`). Calls `cairo_arc` and `cairo_fill`.
    public func fillRoundedRect(_ rect: Rect, radius: Double, color: Color) {
        setSource(color)
        cairo_new_path(cr)
        addRoundedRect(rect, radius: radius)
        cairo_fill(cr)
        check("cairo_fill")
    }

    /// A border drawn inside `rect`, as a `CALayer` border: the outer edge follows the rounded rect of
    /// `radius`, the inner edge is the rect inset by `lineWidth` with radius `radius − lineWidth`.
    /// Drawn as an even-odd fill between the two edges (rather than a stroke of the middle line) so the
    /// corners match Core Animation's even when the radius is smaller than the line width.
    /// Calls `cairo_set_fill_rule(CAIRO_FILL_RULE_EVEN_ODD)` and `cairo_fill`.
    public func strokeRoundedRect(_ rect: Rect, radius: Double, lineWidth: Double, color: Color) {
        let outer = rect.standardized
        guard !outer.isEmpty, lineWidth > 0 else { return }
        let outerRadius = clampedRadius(radius, in: outer)
        cairo_save(cr)
        setSource(color)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        cairo_new_path(cr)
        addRoundedRect(outer, radius: outerRadius)
        let inner = outer.insetBy(dx: lineWidth, dy: lineWidth)
        if !inner.isEmpty { addRoundedRect(inner, radius: max(outerRadius - lineWidth, 0)) }
        cairo_fill(cr)
        cairo_restore(cr)
        check("cairo_fill")
    }

    /// The ellipse inscribed in `rect`. Calls `cairo_arc` (in a scaled space) and `cairo_fill`.
    public func fillEllipse(in rect: Rect, color: Color) {
        let r = rect.standardized
        guard !r.isEmpty else { return }  // a zero scale would invalidate the context
        setSource(color)
        cairo_save(cr)
        cairo_translate(cr, r.midX, r.midY)
        cairo_scale(cr, r.width / 2, r.height / 2)
        cairo_new_path(cr)
        cairo_arc(cr, 0, 0, 1, 0, 2 * Double.pi)
        cairo_restore(cr)  // the path keeps its shape; the fill then uses the unscaled transform
        cairo_fill(cr)
        check("cairo_fill")
    }

    /// Makes `rect` transparent (black for `.xrgb8888`). Calls `cairo_set_operator(CAIRO_OPERATOR_CLEAR)`.
    public func clear(_ rect: Rect) {
        cairo_save(cr)
        cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
        cairo_new_path(cr)
        addRect(rect)
        cairo_fill(cr)
        cairo_restore(cr)
        check("cairo_fill")
    }

    // MARK: Images and text

    /// Draws all of `bitmap` scaled into `rect`, with `CAIRO_FILTER_GOOD` (box-filtered when shrinking,
    /// bilinear when enlarging) and `CAIRO_EXTEND_PAD` so the edges stay sharp instead of fading into the
    /// transparent outside. Calls `cairo_set_source_surface` and `cairo_fill` (`cairo_paint_with_alpha`
    /// when `opacity < 1`).
    public func draw(_ image: Bitmap, in rect: Rect, opacity: Double = 1) {
        precondition(image !== target?.bitmap, "DrawingContext.draw: a bitmap cannot be drawn into itself")
        let r = rect.standardized
        guard !r.isEmpty, image.width > 0, image.height > 0, opacity > 0 else { return }
        cairo_save(cr)
        cairo_translate(cr, r.minX, r.minY)
        cairo_scale(cr, r.width / Double(image.width), r.height / Double(image.height))
        cairo_set_source_surface(cr, image.surface, 0, 0)
        let pattern = cairo_get_source(cr)
        cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        cairo_new_path(cr)
        cairo_rectangle(cr, 0, 0, Double(image.width), Double(image.height))
        if opacity >= 1 {
            cairo_fill(cr)
        } else {
            cairo_clip(cr)
            cairo_paint_with_alpha(cr, opacity)
        }
        // Restoring also drops the pattern's reference to `image`'s surface.
        cairo_restore(cr)
        check("cairo_paint")
    }

    /// Draws `layout` in its colour with the top-left of its layout box at `point`.
    /// Calls `pango_cairo_show_layout`, deliberately without `pango_cairo_update_layout`: that would re-lay
    /// the text out for this context's transform, so a label's measured size could change when drawn
    /// scaled. The layout keeps the metrics it was measured with; a scale only scales the glyph outlines.
    public func draw(_ layout: TextLayout, at point: Point) {
        cairo_save(cr)
        if let clip = layout.drawingClip {
            // Set before the move: cairo_clip consumes the path, current point included.
            cairo_new_path(cr)
            cairo_rectangle(cr, point.x + clip.minX, point.y + clip.minY, clip.width, clip.height)
            cairo_clip(cr)
        }
        setSource(layout.color)
        cairo_move_to(cr, point.x + layout.leadingIndent, point.y)
        pango_cairo_show_layout(cr, layout.layout)
        cairo_restore(cr)
        check("pango_cairo_show_layout")
    }

    /// Ends a cropping context's drawing: the bitmap of the box around the pixels the drawing marked, and
    /// where that box sits in the full size; nil when nothing marked a pixel. Its pixels are those the same
    /// drawing makes in a bitmap of the full size (text, images and shapes; under a rounded clip, the
    /// antialiased edge of a translucent shape may come out 1 apart in a channel, as cairo replays a
    /// recording through an image of its own). Calls `cairo_recording_surface_ink_extents`, then replays
    /// the recording into the bitmap (`cairo_set_source_surface`, `cairo_paint`).
    public func finishCropping() -> (bitmap: Bitmap, x: Int, y: Int)? {
        guard let cropping else { preconditionFailure("DrawingContext.finishCropping: not a cropping context") }
        guard let recording else { return nil }
        var (x, y, width, height) = (0.0, 0.0, 0.0, 0.0)
        cairo_recording_surface_ink_extents(recording.surface, &x, &y, &width, &height)
        let minX = max(0, Int(x.rounded(.down))), minY = max(0, Int(y.rounded(.down)))
        let maxX = min(cropping.width, Int((x + width).rounded(.up)))
        let maxY = min(cropping.height, Int((y + height).rounded(.up)))
        guard maxX > minX, maxY > minY else { return nil }
        let bitmap = cropping.make(maxX - minX, maxY - minY)
        let replay = cairo_create(bitmap.surface)!
        defer { cairo_destroy(replay) }
        cairo_set_source_surface(replay, recording.surface, Double(-minX), Double(-minY))
        cairo_paint(replay)
        Self.check("cairo_paint", replay)
        cairo_surface_flush(bitmap.surface)
        return (bitmap, minX, minY)
    }

    /// Finishes pending drawing so the pixels can be read (nothing to do without a bitmap yet). Calls
    /// `cairo_surface_flush`.
    public func flush() {
        if let target { cairo_surface_flush(target.bitmap.surface) }
    }

    // MARK: Helpers

    private func setSource(_ color: Color) {
        cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha)
    }

    /// Appends to the path; callers start with `cairo_new_path` (the path is not part of the saved state
    /// and `pango_cairo_show_layout` leaves its current point in it).
    private func addRect(_ rect: Rect) {
        if rect.isNull { return }  // an empty path: fills nothing, clips everything
        let r = rect.standardized
        cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
    }

    private func clampedRadius(_ radius: Double, in rect: Rect) -> Double {
        max(0, min(radius, rect.width / 2, rect.height / 2))
    }

    private func addRoundedRect(_ rect: Rect, radius: Double) {
        if rect.isNull { return }
        let r = rect.standardized
        let radius = clampedRadius(radius, in: r)
        if radius == 0 {
            cairo_rectangle(cr, r.minX, r.minY, r.width, r.height)
            return
        }
        // Clockwise from the top-right corner (angles in cairo's y-down space).
        cairo_new_sub_path(cr)
        cairo_arc(cr, r.maxX - radius, r.minY + radius, radius, -Double.pi / 2, 0)
        cairo_arc(cr, r.maxX - radius, r.maxY - radius, radius, 0, Double.pi / 2)
        cairo_arc(cr, r.minX + radius, r.maxY - radius, radius, Double.pi / 2, Double.pi)
        cairo_arc(cr, r.minX + radius, r.minY + radius, radius, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }

    /// Traps on a cairo error of this context, naming the call and cairo's text (`cairo_status_to_string`).
    private func check(_ operation: StaticString) { Self.check(operation, cr) }

    /// Traps on an error of the `cairo_t *` `cr`, naming the call and cairo's text.
    private static func check(_ operation: StaticString, _ cr: OpaquePointer) {
        let status = cairo_status(cr)
        if status != CAIRO_STATUS_SUCCESS {
            fatalError("\(operation): \(String(cString: cairo_status_to_string(status)!))")
        }
    }
}
