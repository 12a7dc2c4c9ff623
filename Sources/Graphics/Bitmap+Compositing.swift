import CPixman
import Glibc

/// Composition with pixman: windows over the screen's shadow buffer, background fills, and the rotated
/// copy into a panel's buffer.
extension Bitmap {
    /// How a clip region reaches pixman; both give identical pixels (tested), they differ in speed.
    ///
    /// Measured on the 2-core x86-64 build machine (release, 1920x1080, best of 5, machine shared with
    /// other builds): the same for one rectangle (200x200 ARGB OVER 27 µs either way), then the destination
    /// clip pulls ahead as rectangles multiply, because each `pixman_image_composite32` call costs its own
    /// region setup and fast-path lookup (~50 ns plain, ~0.3 µs with a rotation transform):
    ///
    ///     clip (pixman rects)   OVER argb: clip / per-rect   copy 90°: clip / per-rect
    ///     20 × 32² (37)         16.8 / 19.2 µs               14 / 38 µs
    ///     200 × 16² (1101)      76 / 125 µs                  114 / 437 µs
    ///     2000 × 4² (7720)      268 / 1003 µs
    ///
    /// So the public API uses `.destinationClip`; `.perRectangle` stays for that comparison.
    enum ClipStrategy {
        /// `pixman_image_set_clip_region32` on the destination, one `pixman_image_composite32`.
        case destinationClip
        /// One `pixman_image_composite32` per rectangle of `clip ∩ destination`.
        case perRectangle
    }

    /// Draws `source` so that its pixel `sourceOrigin` lands on `destination`'s origin, covering at most
    /// `destination`, only where the source has pixels (a `.source` composite never clears around a
    /// small source), only inside `clip` when given, and with `opacity` applied through a solid mask.
    ///
    /// `opacity` becomes an 8-bit mask alpha the way pixman converts colours (`UInt16(o * 65535 + 0.5) >> 8`,
    /// so 0.5 is 128/255); each source component is then multiplied by it with pixman's rounding
    /// (`(s * m + 128) * 257 >> 16`, exact rounding of `s * m / 255`) before the operator.
    ///
    /// `source` must not be `self` (pixman's result for overlapping source and destination is undefined).
    /// Calls `pixman_image_create_solid_fill`, `pixman_image_set_clip_region32`, `pixman_image_composite32`.
    public func composite(
        _ source: Bitmap, operation: CompositeOperation = .over,
        sourceOrigin: (x: Int32, y: Int32) = (0, 0), destination: PixelRect,
        opacity: Double = 1, clip: Region? = nil
    ) {
        composite(
            source, operation: operation, sourceOrigin: sourceOrigin, destination: destination,
            opacity: opacity, clip: clip, strategy: .destinationClip)
    }

    func composite(
        _ source: Bitmap, operation: CompositeOperation, sourceOrigin: (x: Int32, y: Int32),
        destination: PixelRect, opacity: Double, clip: Region?, strategy: ClipStrategy
    ) {
        precondition(source !== self, "Bitmap.composite: source and destination are the same bitmap")
        let maskAlpha = Self.maskAlpha(opacity)
        // An 8-bit mask alpha of 0: OVER and ADD draw nothing (SRC would still clear).
        if operation != .source && maskAlpha < 0x100 { return }

        // Where the source's pixels land, in destination coordinates (64-bit: origins may be far apart).
        let dx = Int64(destination.x) - Int64(sourceOrigin.x), dy = Int64(destination.y) - Int64(sourceOrigin.y)
        let sourceArea = PixelRect(edges: dx, dy, dx + Int64(source.width), dy + Int64(source.height))
        let area = destination.intersection(sourceArea).intersection(bounds)
        if area.isEmpty { return }
        let clipRegion = clip.map { $0.intersection(area) }
        if let clipRegion, clipRegion.isEmpty { return }

        let mask = Self.opacityMask(maskAlpha)
        defer { if let mask { pixman_image_unref(mask) } }

        source.beginDirectAccess()
        beginDirectAccess()
        defer { endDirectWrite() }

        func draw(_ r: PixelRect) {
            pixman_image_composite32(
                operation.pixmanOp, source.image, mask, image,
                Int32(Int64(r.x) - dx), Int32(Int64(r.y) - dy), 0, 0,
                r.x, r.y, r.width, r.height)
        }
        guard let clipRegion else { return draw(area) }
        switch strategy {
        case .destinationClip:
            withDestinationClip(clipRegion) { draw(area) }
        case .perRectangle:
            clipRegion.forEachBox { draw(PixelRect(box: $0)) }
        }
    }

    /// Fills `region` (clipped to the bitmap) with `color`: `.source` replaces the pixels with the
    /// colour's premultiplied value (`color.premultipliedARGB32`; for `.xrgb8888` the alpha lands in the
    /// ignored top byte, so a translucent colour shows darkened), `.over` blends it over them.
    /// Calls `pixman_image_fill_boxes`.
    public func fill(_ color: Color, operation: CompositeOperation = .source, in region: Region) {
        // pixman_image_fill_boxes does not clip SRC fills to the image (pixman_fill writes blindly), so the
        // bounds intersection here is what keeps writes inside the buffer.
        let clipped = region.intersection(bounds)
        if clipped.isEmpty { return }
        let c = color.premultipliedShorts
        if operation == .over && c.alpha < 0x100 { return }
        var pixmanColor = pixman_color_t(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
        beginDirectAccess()
        defer { endDirectWrite() }
        clipped.withUnsafeRegion { region in
            var count: Int32 = 0
            let boxes = pixman_region32_rectangles(region, &count)
            pixmanRequire(
                pixman_image_fill_boxes(operation.pixmanOp, image, &pixmanColor, count, boxes),
                "pixman_image_fill_boxes")
        }
    }

    /// Multiplies every component inside `region` by `opacity`'s 8-bit mask alpha `m`, as compositing
    /// through a mask of `opacity` does (`(c * m + 128) * 257 >> 16`): black at alpha `255 - m` OVER the
    /// pixels, pixman's solid OVER (`over_n_8888`, a fast path). Copying opaque content and darkening it
    /// gives, pixel for pixel, what a black fill and that content OVER it through the mask give.
    /// Calls `pixman_image_fill_boxes`.
    public func darken(by opacity: Double, in region: Region) {
        let m = Self.maskAlpha(opacity) >> 8
        if m == 0xFF { return }
        if m == 0 { return fill(.black, operation: .source, in: region) }
        let clipped = region.intersection(bounds)
        if clipped.isEmpty { return }
        // 257 × (255 - m) in 16 bits is 255 - m in pixman's 8 (it keeps the top byte).
        var black = pixman_color_t(red: 0, green: 0, blue: 0, alpha: (0xFF - m) * 257)
        beginDirectAccess()
        defer { endDirectWrite() }
        clipped.withUnsafeRegion { region in
            var count: Int32 = 0
            let boxes = pixman_region32_rectangles(region, &count)
            pixmanRequire(pixman_image_fill_boxes(PIXMAN_OP_OVER, image, &black, count, boxes), "pixman_image_fill_boxes")
        }
    }

    /// Fills `rect` (clipped to the bitmap) with `color`; see `fill(_:operation:in:)` for a region.
    public func fill(_ color: Color, operation: CompositeOperation = .source, in rect: PixelRect) {
        fill(color, operation: operation, in: Region(rect))
    }

    /// Copies the part of `logical` that shows in `region` onto this bitmap, the panel's buffer, turned by
    /// `rotation`. `region` is in physical (this bitmap's) coordinates; each of its pixels becomes the
    /// logical pixel that `rotation` maps onto it, exactly (no filtering), and no other pixel changes.
    /// This bitmap's size must be `logical`'s size turned by `rotation`.
    ///
    /// pixman samples the source at `transform · (x + ½, y + ½)`; the inverse of a quarter turn or mirror
    /// with whole-pixel translation maps pixel centres onto pixel centres, and `PIXMAN_FILTER_NEAREST`
    /// picks exactly that pixel.
    ///
    /// Cost of a full 1080x1920 XRGB frame, release, one run on the shared 2-core build machine (where a
    /// plain full-frame SRC composite took 0.6 ms): 90° 1.5 ms (pixman's tiled rotate fast path);
    /// flipped-90°/-270° 5.6-5.9 ms through pixman (a transpose: no fast path, its general affine fetcher
    /// takes a cache miss per pixel) and 1.9-2.0 ms through the tiled Swift copy used instead
    /// (`copyTransposed`). An earlier, busier run: normal 1 ms, 180° and flipped 1.7 ms.
    /// Calls `pixman_image_set_transform`, `pixman_image_set_filter` and `pixman_image_composite32` with
    /// `PIXMAN_OP_SRC`.
    public func copy(from logical: Bitmap, rotation: Rotation, region: Region) {
        copy(from: logical, rotation: rotation, region: region, strategy: .destinationClip, transposeInSwift: true)
    }

    /// `transposeInSwift: false` forces pixman for every rotation, for the exactness test of the Swift path.
    func copy(
        from logical: Bitmap, rotation: Rotation, region: Region, strategy: ClipStrategy,
        transposeInSwift: Bool
    ) {
        precondition(logical !== self, "Bitmap.copy(from:): source and destination are the same bitmap")
        let expected = rotation.swapsAxes ? (logical.height, logical.width) : (logical.width, logical.height)
        precondition(
            expected == (width, height),
            "Bitmap.copy(from:rotation:): \(width)x\(height) is not \(logical.width)x\(logical.height) "
                + "turned by \(rotation)")
        let area = region.intersection(bounds)
        if area.isEmpty { return }
        if transposeInSwift, rotation == .flipped90 || rotation == .flipped270,
            logical.format == format || format == .xrgb8888
        {
            return copyTransposed(from: logical, rotation: rotation, region: area)
        }

        // A private pixman image over the logical pixels, so the transform never leaks into other
        // composites that use `logical.image`.
        guard
            let source = pixman_image_create_bits(
                logical.format.pixmanFormat, Int32(logical.width),
                Int32(logical.height),
                logical.data.assumingMemoryBound(to: UInt32.self),
                Int32(logical.stride))
        else { fatalError("pixman_image_create_bits failed: out of memory") }
        defer { pixman_image_unref(source) }

        // physical → logical; the entries are 0, ±1 and whole translations, exact in 16.16 fixed point.
        let t = rotation.logicalToPhysical(logicalSize: logical.size).inverted()
        func fixed(_ v: Double) -> pixman_fixed_t { cpixman_int_to_fixed(Int32(v.rounded())) }
        var transform = pixman_transform_t(
            matrix: (
                (fixed(t.a), fixed(t.c), fixed(t.tx)),
                (fixed(t.b), fixed(t.d), fixed(t.ty)),
                (0, 0, cpixman_int_to_fixed(1))
            ))
        pixmanRequire(pixman_image_set_transform(source, &transform), "pixman_image_set_transform")
        pixmanRequire(pixman_image_set_filter(source, PIXMAN_FILTER_NEAREST, nil, 0), "pixman_image_set_filter")

        logical.beginDirectAccess()
        beginDirectAccess()
        defer { endDirectWrite() }
        // Source coordinates equal destination coordinates before the transform: src_x = dest_x.
        func draw(_ r: PixelRect) {
            pixman_image_composite32(PIXMAN_OP_SRC, source, nil, image, r.x, r.y, 0, 0, r.x, r.y, r.width, r.height)
        }
        switch strategy {
        case .destinationClip:
            withDestinationClip(area) { draw(area.extents) }
        case .perRectangle:
            area.forEachBox { draw(PixelRect(box: $0)) }
        }
    }

    /// `copy(from:rotation:region:)` for the two rotations that are transposes (flipped-90 maps logical
    /// (x, y) to physical (h−1−y, w−1−x), flipped-270 to (y, x)), which pixman runs through its general
    /// affine fetcher one destination row at a time: each row walks a source column, a cache miss per
    /// pixel. Copying 32x32 tiles keeps both sides in cache: about 3x faster (numbers in
    /// `copy(from:rotation:region:)`; 16x16 tiles measured slightly slower). Words are copied as they are, which is pixman's SRC
    /// result for equal formats and for an `.xrgb8888` destination (whose top byte is unspecified);
    /// `BitmapRotationTests` checks it against the per-pixel reference.
    private func copyTransposed(from logical: Bitmap, rotation: Rotation, region: Region) {
        // physical (px, py) ← logical (lx, ly): flipped-270: (py, px); flipped-90: (w−1−py, h−1−px),
        // with w, h the logical size (physical is h wide, w high).
        let reversed = rotation == .flipped90
        let lastX = logical.width - 1, lastY = logical.height - 1
        let sourceStride = logical.stride / 4, destinationStride = stride / 4
        logical.beginDirectAccess()
        beginDirectAccess()
        defer { endDirectWrite() }
        let source = UnsafePointer(logical.data.assumingMemoryBound(to: UInt32.self))
        let destination = data.assumingMemoryBound(to: UInt32.self)
        let tile = 32
        region.forEachBox { box in
            for tileY in Swift.stride(from: Int(box.y1), to: Int(box.y2), by: tile) {
                let endY = min(tileY + tile, Int(box.y2))
                for tileX in Swift.stride(from: Int(box.x1), to: Int(box.x2), by: tile) {
                    let endX = min(tileX + tile, Int(box.x2))
                    for py in tileY..<endY {
                        let row = destination + py * destinationStride
                        let lx = reversed ? lastX - py : py
                        if reversed {
                            for px in tileX..<endX { row[px] = source[(lastY - px) * sourceStride + lx] }
                        } else {
                            for px in tileX..<endX { row[px] = source[px * sourceStride + lx] }
                        }
                    }
                }
            }
        }
    }

    /// Runs `body` with `clip` (when given) as this bitmap's destination clip, then drops it again: our
    /// pixman image is shared by every later composite into this bitmap. Calls
    /// `pixman_image_set_clip_region32`.
    func withDestinationClip(_ clip: Region?, _ body: () -> Void) {
        guard let clip else { return body() }
        clip.withUnsafeRegion { region in
            pixmanRequire(pixman_image_set_clip_region32(image, region), "pixman_image_set_clip_region32")
        }
        body()
        pixmanRequire(pixman_image_set_clip_region32(image, nil), "pixman_image_set_clip_region32")
    }

    /// The solid mask that applies `maskAlpha` (see `maskAlpha(_:)`), or nil when its 8-bit value is 255,
    /// which multiplies exactly by 1. The caller unrefs it. Calls `pixman_image_create_solid_fill`.
    static func opacityMask(_ maskAlpha: UInt16) -> OpaquePointer? {
        guard maskAlpha < 0xFF00 else { return nil }
        var color = pixman_color_t(red: 0, green: 0, blue: 0, alpha: maskAlpha)
        guard let mask = pixman_image_create_solid_fill(&color) else {
            fatalError("pixman_image_create_solid_fill failed: out of memory")
        }
        return mask
    }

    /// The 16-bit mask alpha for `opacity`, converted as `pixman_color_t` components are; shared with
    /// `composite(_:transform:opacity:clip:)`, so both apply an opacity alike.
    static func maskAlpha(_ opacity: Double) -> UInt16 {
        let o = opacity.isNaN ? 0 : min(max(opacity, 0), 1)
        return UInt16(o * 65535 + 0.5)
    }
}

extension Bitmap {
    /// Moves pixels within the bitmap: each pixel of `destination` takes the value of the pixel
    /// `(dx, dy)` away (`destination` offset by `(dx, dy)` must lie inside the bitmap), the overlap handled
    /// as `memmove` does. A scroll moves what stays in view this way instead of compositing it again.
    /// pixman_blt does not allow its source and destination to overlap, so the rows are moved here, in
    /// the order that reads each row before it is written.
    public func move(_ destination: PixelRect, from dx: Int32, _ dy: Int32) {
        let target = destination.intersection(bounds)
        let source = PixelRect(x: target.x + dx, y: target.y + dy, width: target.width, height: target.height)
        precondition(source.intersection(bounds) == source, "Bitmap.move: the source \(source) is outside \(bounds)")
        guard !target.isEmpty, dx != 0 || dy != 0 else { return }
        // Both formats are 32-bit words.
        let bytesPerPixel = 4
        let rowBytes = Int(target.width) * bytesPerPixel
        beginDirectAccess()
        defer { endDirectWrite() }
        let rows = Array(0..<Int(target.height))
        for row in dy > 0 ? rows : rows.reversed() {
            let to = data + (Int(target.y) + row) * stride + Int(target.x) * bytesPerPixel
            let from = data + (Int(source.y) + row) * stride + Int(source.x) * bytesPerPixel
            memmove(to, from, rowBytes)
        }
    }
}
