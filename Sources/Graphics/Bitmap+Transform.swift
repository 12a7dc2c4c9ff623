import CPixman

/// Drawing through an affine transform with pixman: a bitmap scaled, turned or sheared onto another with
/// bilinear filtering, and a transformed rectangle filled with antialiased edges (a view's content and
/// background while a transform animates).
extension Bitmap {
    /// Draws the whole of `source` with OVER, its pixel space mapped into this bitmap by `transform`
    /// (source point → destination point; source pixel (i, j) covers [i, i+1)×[j, j+1) before the
    /// transform), filtered bilinearly and transparent outside the source, so its edges come out
    /// antialiased. Only pixels inside `clip` (when given), the transformed source's bounding box rounded
    /// out, and the bitmap change. `opacity` goes through a solid mask as in
    /// `composite(_:operation:sourceOrigin:destination:opacity:clip:)`. A transform that flattens the plane
    /// (determinant 0) or is not finite draws nothing.
    ///
    /// A translation by whole pixels is that plain composite (exact, and pixman's fastest path); every other
    /// transform goes to pixman with its inverse, since pixman maps destination to source. pixman samples
    /// at destination pixel centres, `inverse · (x + ½, y + ½)`, and interpolates between the four
    /// nearest source pixel centres; a quarter turn or mirror with whole-pixel translation maps centres
    /// onto centres, so it copies pixels exactly.
    ///
    /// `source` must not be `self`. Its pixman image is shared by every composite from it, so the
    /// transform and filter set here are reset before returning, as is this bitmap's clip.
    /// Calls `pixman_transform_from_pixman_f_transform`, `pixman_image_set_transform`,
    /// `pixman_image_set_filter` (`PIXMAN_FILTER_BILINEAR`), `pixman_image_create_solid_fill`,
    /// `pixman_image_set_clip_region32` and `pixman_image_composite32`.
    public func composite(_ source: Bitmap, transform: AffineTransform, opacity: Double = 1, clip: Region? = nil) {
        composite(source, transform: transform, opacity: opacity, clip: clip, wholePixelFastPath: true)
    }

    /// `wholePixelFastPath: false` sends whole-pixel translations through pixman's bilinear path too, for
    /// the test that it lands on the same pixels as the plain composite (no half-pixel shift).
    func composite(
        _ source: Bitmap, transform: AffineTransform, opacity: Double, clip: Region?, wholePixelFastPath: Bool
    ) {
        precondition(source !== self, "Bitmap.composite(_:transform:): source and destination are the same bitmap")
        if wholePixelFastPath, transform.isTranslation,
            let dx = Int32(exactly: transform.tx), let dy = Int32(exactly: transform.ty)
        {
            let destination = PixelRect(
                edges: Int64(dx), Int64(dy), Int64(dx) + Int64(source.width), Int64(dy) + Int64(source.height))
            return composite(source, destination: destination, opacity: opacity, clip: clip)
        }
        let maskAlpha = Self.maskAlpha(opacity)
        if maskAlpha < 0x100 { return }  // an 8-bit mask alpha of 0: nothing to draw
        let determinant = transform.determinant
        guard determinant != 0, determinant.isFinite, transform.tx.isFinite, transform.ty.isFinite else { return }

        let area = PixelRect(enclosing: Rect(size: source.size).applying(transform)).intersection(bounds)
        if area.isEmpty { return }
        let clipRegion = clip.map { $0.intersection(area) }
        if let clipRegion, clipRegion.isEmpty { return }

        // pixman samples source point `matrix · (src_x + i + ½, src_y + j + ½)` for destination pixel
        // (dest_x + i, dest_y + j). With src = (0, 0) and dest = the area's corner, the matrix is the inverse
        // after a shift by that corner: its translation is then a point near the source (in the range of
        // 16.16 fixed point) however far the source is moved.
        let inverse = AffineTransform(translationX: Double(area.x), y: Double(area.y))
            .concatenating(transform.inverted())
        var matrix = pixman_f_transform(
            m: ((inverse.a, inverse.c, inverse.tx), (inverse.b, inverse.d, inverse.ty), (0, 0, 1)))
        var fixedMatrix = pixman_transform_t()
        // Rounds each entry to the nearest 1/65536 and refuses entries beyond ±32767 (a scale-down of more
        // than 32767 times: nothing would show anyway). pixman_double_to_fixed would truncate and wrap.
        guard pixman_transform_from_pixman_f_transform(&fixedMatrix, &matrix) != 0 else { return }

        let mask = Self.opacityMask(maskAlpha)
        defer { if let mask { pixman_image_unref(mask) } }

        source.beginDirectAccess()
        beginDirectAccess()
        defer { endDirectWrite() }
        // The repeat stays pixman's default, PIXMAN_REPEAT_NONE (nothing here sets another): transparent
        // outside the source, which the bilinear filter blends into the edge pixels.
        pixmanRequire(pixman_image_set_transform(source.image, &fixedMatrix), "pixman_image_set_transform")
        pixmanRequire(
            pixman_image_set_filter(source.image, PIXMAN_FILTER_BILINEAR, nil, 0), "pixman_image_set_filter")
        withDestinationClip(clipRegion) {
            pixman_image_composite32(
                PIXMAN_OP_OVER, source.image, mask, image, 0, 0, 0, 0, area.x, area.y, area.width, area.height)
        }
        // Back to what every other composite from `source` expects: no transform, the default filter
        // (PIXMAN_FILTER_NEAREST).
        pixmanRequire(pixman_image_set_transform(source.image, nil), "pixman_image_set_transform")
        pixmanRequire(pixman_image_set_filter(source.image, PIXMAN_FILTER_NEAREST, nil, 0), "pixman_image_set_filter")
    }

    /// Fills `rect` (in source coordinates) mapped by `transform` with `color`, OVER, its edges
    /// antialiased by the area each pixel has inside; only pixels inside `clip` (when given), the mapped
    /// rectangle's bounding box rounded out, and the bitmap change. An empty rectangle, or a transform that
    /// flattens it, fills nothing.
    ///
    /// A mapped rectangle that is axis-aligned with whole-pixel edges is `fill(_:operation:in:)` (`.source`
    /// for an opaque colour, else `.over`): exact and cheap. Anything else is clipped (in floating point) to
    /// the pixels that can change, cut into trapezoids with horizontal tops and bottoms, and rasterized by
    /// pixman into an 8-bit coverage mask (255 samples per pixel, so a pixel wholly inside gets exactly
    /// `color`) that `color` is composited through.
    /// Calls `pixman_image_create_solid_fill`, `pixman_image_set_clip_region32` and
    /// `pixman_composite_trapezoids` (`PIXMAN_a8` mask).
    public func fill(_ color: Color, rect: Rect, transform: AffineTransform, clip: Region? = nil) {
        fill(color, rect: rect, transform: transform, clip: clip, wholePixelFastPath: true)
    }

    /// `wholePixelFastPath: false` rasterizes whole-pixel rectangles too, for the test that pixman's
    /// coverage then equals the plain fill.
    func fill(_ color: Color, rect: Rect, transform: AffineTransform, clip: Region?, wholePixelFastPath: Bool) {
        let c = color.premultipliedShorts
        if c.alpha < 0x100 { return }  // an 8-bit alpha of 0: OVER changes nothing
        if rect.isEmpty || transform.determinant == 0 { return }
        let mapped = rect.applying(transform)
        let edges = [mapped.minX, mapped.minY, mapped.maxX, mapped.maxY]
        guard edges.allSatisfy(\.isFinite), transform.determinant.isFinite else { return }
        let drawn = PixelRect(enclosing: mapped)

        let axisAligned = (transform.b == 0 && transform.c == 0) || (transform.a == 0 && transform.d == 0)
        if wholePixelFastPath, axisAligned, edges.allSatisfy({ $0 == $0.rounded() }) {
            return fill(color, operation: color.isOpaque ? .source : .over, in: clip.map { $0.intersection(drawn) } ?? Region(drawn))
        }

        var area = drawn.intersection(bounds)
        if area.isEmpty { return }
        let clipRegion = clip.map { $0.intersection(area) }
        if let clipRegion {
            if clipRegion.isEmpty { return }
            area = clipRegion.extents
        }
        // Clipping to `area` keeps the coordinates inside the bitmap (in range for 16.16 fixed point) and
        // pixman's mask, which it sizes to the trapezoids, no larger than the pixels that can change. The
        // cut edges lie on pixel boundaries, so the pixels inside keep their coverage.
        let r = rect.standardized
        let corners = [
            Point(x: r.minX, y: r.minY), Point(x: r.maxX, y: r.minY), Point(x: r.maxX, y: r.maxY), Point(x: r.minX, y: r.maxY),
        ].map { $0.applying(transform) }
        let traps = Self.trapezoids(ofConvexPolygon: Self.clip(corners, to: area.rect))
        if traps.isEmpty { return }

        var pixmanColor = pixman_color_t(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
        guard let solid = pixman_image_create_solid_fill(&pixmanColor) else {
            fatalError("pixman_image_create_solid_fill failed: out of memory")
        }
        defer { pixman_image_unref(solid) }
        beginDirectAccess()
        defer { endDirectWrite() }
        withDestinationClip(clipRegion) {
            pixman_composite_trapezoids(PIXMAN_OP_OVER, solid, image, PIXMAN_a8, 0, 0, 0, 0, Int32(traps.count), traps)
        }
    }

    /// The part of the convex polygon `polygon` inside `rect` (Sutherland-Hodgman, one side of `rect` at a
    /// time); still convex, in the same order, empty when nothing is inside.
    static func clip(_ polygon: [Point], to rect: Rect) -> [Point] {
        var points = polygon
        let sides: [(vertical: Bool, limit: Double, keepsGreater: Bool)] = [
            (true, rect.minX, true), (true, rect.maxX, false), (false, rect.minY, true), (false, rect.maxY, false),
        ]
        for side in sides where !points.isEmpty {
            func coordinate(_ p: Point) -> Double { side.vertical ? p.x : p.y }
            func inside(_ p: Point) -> Bool { side.keepsGreater ? coordinate(p) >= side.limit : coordinate(p) <= side.limit }
            let input = points
            points = []
            for (index, current) in input.enumerated() {
                let previous = input[(index + input.count - 1) % input.count]
                if inside(current) != inside(previous) {
                    // The crossing, with the clipped coordinate set exactly to the side.
                    let t = (side.limit - coordinate(previous)) / (coordinate(current) - coordinate(previous))
                    let x = previous.x + (current.x - previous.x) * t, y = previous.y + (current.y - previous.y) * t
                    points.append(side.vertical ? Point(x: side.limit, y: y) : Point(x: x, y: side.limit))
                }
                if inside(current) { points.append(current) }
            }
        }
        return points
    }

    /// `polygon` (convex) as pixman trapezoids: one per band between successive vertex heights, bounded by
    /// the two polygon edges that cross it. Bands share only horizontal sides, which pixman samples
    /// half-open (top in, bottom out), so no sample is counted twice or missed; each edge keeps the same
    /// two points in every band it bounds.
    static func trapezoids(ofConvexPolygon polygon: [Point]) -> [pixman_trapezoid_t] {
        if polygon.count < 3 { return [] }
        func fixed(_ p: Point) -> pixman_point_fixed_t {
            pixman_point_fixed_t(x: cpixman_double_to_fixed(p.x), y: cpixman_double_to_fixed(p.y))
        }
        let heights = Set(polygon.map(\.y)).sorted()
        var traps: [pixman_trapezoid_t] = []
        for (top, bottom) in zip(heights, heights.dropFirst()) {
            let middle = (top + bottom) / 2
            var left: (x: Double, line: pixman_line_fixed_t)?
            var right: (x: Double, line: pixman_line_fixed_t)?
            for (index, p) in polygon.enumerated() {
                let q = polygon[(index + 1) % polygon.count]
                guard min(p.y, q.y) < middle, max(p.y, q.y) > middle else { continue }
                let x = p.x + (q.x - p.x) * (middle - p.y) / (q.y - p.y)
                let line = pixman_line_fixed_t(p1: fixed(p), p2: fixed(q))
                if left == nil || x < left!.x { left = (x, line) }
                if right == nil || x > right!.x { right = (x, line) }
            }
            guard let left, let right, left.x < right.x else { continue }
            traps.append(
                pixman_trapezoid_t(
                    top: cpixman_double_to_fixed(top), bottom: cpixman_double_to_fixed(bottom),
                    left: left.line, right: right.line))
        }
        return traps
    }
}
