import CLazyPangoCairo

/// PNG through cairo's reader and writer (libpng underneath). cairo premultiplies on read and
/// un-premultiplies on write, with rounding that makes a write-then-read round trip exact.
extension Bitmap {
    /// Loads a PNG file. An image with an alpha channel becomes `.argb32Premultiplied`, one without
    /// becomes `.xrgb8888`. Throws a `GraphicsError` naming the path, e.g.
    /// `cairo_image_surface_create_from_png("/x/logo.png"): file not found`.
    /// Calls `cairo_image_surface_create_from_png`.
    public convenience init(contentsOfPNGFile path: String) throws {
        let png = cairo_image_surface_create_from_png(path)!
        defer { cairo_surface_destroy(png) }
        try cairoCheck(cairo_surface_status(png), "cairo_image_surface_create_from_png", path: path)
        self.init(copying: png)
    }

    /// Decodes PNG bytes. Calls `cairo_image_surface_create_from_png_stream`.
    public convenience init(pngData: [UInt8]) throws {
        let reader = PNGReader(bytes: pngData)
        let png = withExtendedLifetime(reader) {
            cairo_image_surface_create_from_png_stream(
                { closure, buffer, length in
                    let reader = Unmanaged<PNGReader>.fromOpaque(closure!).takeUnretainedValue()
                    return reader.read(into: buffer!, count: Int(length))
                }, Unmanaged.passUnretained(reader).toOpaque())!
        }
        defer { cairo_surface_destroy(png) }
        try cairoCheck(cairo_surface_status(png), "cairo_image_surface_create_from_png_stream")
        self.init(copying: png)
    }

    /// Writes the bitmap as a PNG file (RGBA for `.argb32Premultiplied`, RGB for `.xrgb8888`).
    /// Calls `cairo_surface_write_to_png`.
    public func writePNG(to path: String) throws {
        cairo_surface_flush(surface)
        try cairoCheck(cairo_surface_write_to_png(surface, path), "cairo_surface_write_to_png", path: path)
    }

    /// The bitmap encoded as PNG. Calls `cairo_surface_write_to_png_stream`.
    public func pngData() throws -> [UInt8] {
        cairo_surface_flush(surface)
        let writer = PNGWriter()
        let status = withExtendedLifetime(writer) {
            cairo_surface_write_to_png_stream(
                surface,
                { closure, bytes, length in
                    let writer = Unmanaged<PNGWriter>.fromOpaque(closure!).takeUnretainedValue()
                    writer.bytes.append(contentsOf: UnsafeBufferPointer(start: bytes, count: Int(length)))
                    return CAIRO_STATUS_SUCCESS
                }, Unmanaged.passUnretained(writer).toOpaque())
        }
        try cairoCheck(status, "cairo_surface_write_to_png_stream")
        return writer.bytes
    }

    /// A bitmap holding the pixels of a cairo image surface we do not own (cairo allocated it).
    /// Same layout: row copies. Another layout (A8 for grey PNGs...): cairo converts with a SOURCE paint.
    private convenience init(copying png: OpaquePointer) {
        let pngFormat = cairo_image_surface_get_format(png)
        self.init(
            width: Int(cairo_image_surface_get_width(png)), height: Int(cairo_image_surface_get_height(png)),
            format: pngFormat == CAIRO_FORMAT_RGB24 ? .xrgb8888 : .argb32Premultiplied)
        cairo_surface_flush(png)
        if pngFormat == format.cairoFormat, let source = cairo_image_surface_get_data(png) {
            let sourceStride = Int(cairo_image_surface_get_stride(png))
            for row in 0..<height {
                (data + row * stride).copyMemory(from: source + row * sourceStride, byteCount: width * 4)
            }
            endDirectWrite()
        } else {
            let cr = cairo_create(surface)!
            defer { cairo_destroy(cr) }
            cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
            cairo_set_source_surface(cr, png, 0, 0)
            cairo_paint(cr)
            precondition(cairo_status(cr) == CAIRO_STATUS_SUCCESS, "cairo_paint: converting a PNG failed")
        }
    }
}

/// The state of `cairo_image_surface_create_from_png_stream`'s read callback.
private final class PNGReader {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// cairo asks for exactly `count` bytes; fewer is a read error (truncated data).
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> cairo_status_t {
        guard count <= bytes.count - offset else { return CAIRO_STATUS_READ_ERROR }
        if count == 0 { return CAIRO_STATUS_SUCCESS }
        bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + offset, count: count) }
        offset += count
        return CAIRO_STATUS_SUCCESS
    }
}

/// The state of `cairo_surface_write_to_png_stream`'s write callback.
private final class PNGWriter {
    var bytes: [UInt8] = []
}
