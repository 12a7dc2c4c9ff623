/// The bottom layer of a fade: a translucent window over the black behind every window.
extension Bitmap {
    /// Writes `source` faded by `opacity` into `clip ∩ destination` (clipped to the bitmap), where the
    /// source's pixel (0, 0) lands on `destination`'s origin: each pixel becomes the source pixel with
    /// every component multiplied by the 8-bit mask alpha, exactly what `composite(_:operation: .over,
    /// destination:opacity:clip:)` leaves over black, in one pass that reads the source and only writes
    /// the destination.
    ///
    /// Why not pixman: the frame of a cross-fade otherwise fills the screen black and then composites
    /// the bottom window OVER it, and pixman has no fast path for SRC through a constant mask (its general
    /// path took 58 M instructions and 4.1 ms for a 1920x1080 frame, against 1.5 ms for the OVER and 0.14 ms
    /// for the fill; Benchmarks/README.md). Written on 16-bit lanes, which SSE2 and NEON multiply
    /// natively; `BitmapFadedCopyTests` holds it to pixman's fill plus OVER, pixel for pixel.
    public func copyFaded(_ source: Bitmap, destination: PixelRect, opacity: Double, clip: Region) {
        precondition(source !== self, "Bitmap.copyFaded: source and destination are the same bitmap")
        precondition(source.format == .argb32Premultiplied || source.format == .xrgb8888, "copyFaded: 32-bit sources only")
        let area = destination.intersection(bounds).intersection(
            PixelRect(x: destination.x, y: destination.y, width: Int32(source.width), height: Int32(source.height)))
        let region = clip.intersection(area)
        if region.isEmpty { return }
        // pixman's conversion of the mask colour to 8 bits (see `composite`).
        let mask = UInt16(Self.maskAlpha(opacity) >> 8)
        // An opaque source (xrgb) has alpha 0xFF wherever its top byte says otherwise, as pixman reads it.
        let forceAlpha: UInt32 = source.format == .xrgb8888 ? 0xFF00_0000 : 0
        source.beginDirectAccess()
        beginDirectAccess()
        defer { endDirectWrite() }
        let sourceWords = UnsafePointer(source.data.assumingMemoryBound(to: UInt32.self))
        let destinationWords = data.assumingMemoryBound(to: UInt32.self)
        let sourceStride = source.stride / 4, destinationStride = stride / 4
        let dx = Int(destination.x), dy = Int(destination.y)
        region.forEachBox { box in
            let x1 = Int(box.x1), x2 = Int(box.x2)
            for y in Int(box.y1)..<Int(box.y2) {
                let from = sourceWords + (y - dy) * sourceStride + (x1 - dx)
                let to = destinationWords + y * destinationStride + x1
                Self.fadeRow(from: from, to: to, count: x2 - x1, mask: mask, forceAlpha: forceAlpha)
            }
        }
    }

    /// `count` pixels: each byte `c` becomes `(t + t >> 8) >> 8` with `t = c · mask + 128`, pixman's
    /// exact rounding of `c · mask / 255`. Four pixels at a time on 16-bit lanes, the rest one by one.
    @inline(__always)
    static func fadeRow(
        from source: UnsafePointer<UInt32>, to destination: UnsafeMutablePointer<UInt32>, count: Int, mask: UInt16,
        forceAlpha: UInt32
    ) {
        var index = 0
        let m = SIMD16<UInt16>(repeating: mask)
        let half = SIMD16<UInt16>(repeating: 128)
        let alpha = SIMD4<UInt32>(repeating: forceAlpha)
        while index + 4 <= count {
            let words = UnsafeRawPointer(source + index).loadUnaligned(as: SIMD4<UInt32>.self) | alpha
            let bytes = unsafeBitCast(words, to: SIMD16<UInt8>.self)
            let t = SIMD16<UInt16>(truncatingIfNeeded: bytes) &* m &+ half
            let faded = SIMD16<UInt8>(truncatingIfNeeded: (t &+ (t &>> 8)) &>> 8)
            UnsafeMutableRawPointer(destination + index).storeBytes(
                of: unsafeBitCast(faded, to: SIMD4<UInt32>.self), as: SIMD4<UInt32>.self)
            index += 4
        }
        while index < count {
            let pixel = source[index] | forceAlpha
            var result: UInt32 = 0
            for shift in Swift.stride(from: 0 as UInt32, to: 32, by: 8) {
                let t = UInt32(pixel >> shift & 0xFF) * UInt32(mask) + 128
                result |= ((t + (t >> 8)) >> 8) << shift
            }
            destination[index] = result
            index += 1
        }
    }
}
