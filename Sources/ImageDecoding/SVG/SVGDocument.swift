import CLazyRSVG
import Graphics

/// An SVG document (librsvg), parsed once and drawn at the size it is shown at, so a logo is sharp at
/// every size rather than scaled from one bitmap. One thread at a time may use a document (librsvg's
/// handles are not thread-safe); the kiosk parses off the main thread and draws on it.
///
/// What a document may reach: librsvg's own policy, which resolves a reference (`<image href>`,
/// `xi:include`, a CSS `@import`) only to a file in the document's folder or below it, or to a `data:`
/// URL; never `http(s):`, an absolute path elsewhere or a way out through `..`. That is why the document
/// is read with its own path as its base: without one, librsvg refuses every file reference.
public final class SVGDocument {
    /// At most this many elements in a document. librsvg's own limit is 1,000,000, which takes about 2 s
    /// and 1.2 GB to reach here; a kiosk's logos and icons have hundreds. (Its limit of 500,000 elements
    /// referenced through `<use>` stays, which bounds a `<use>` bomb: librsvg 2.54 cannot be cancelled.)
    public static let maximumElements = 100_000

    /// librsvg's handle of the parsed document.
    private let handle: UnsafeMutablePointer<RsvgHandle>
    /// The file's name, for errors.
    public let name: String
    /// What a rendering may cost.
    private let limits: DecodingLimits

    /// Reads and parses the SVG file at `path` (at most `limits.maximumFileBytes`).
    public convenience init(contentsOfFile path: String, limits: DecodingLimits = DecodingLimits()) throws(ImageDecodingError) {
        let bytes = try ImageDecoder.readFile(path, limit: limits.maximumFileBytes)
        try self.init(bytes: bytes, name: path, baseFile: path, limits: limits)
    }

    /// Parses `bytes`, named `name` in errors. References resolve beside `baseFile`, the document's own path
    /// (librsvg allows the files in the base file's folder and below it); with nil, none resolve.
    /// Calls `g_memory_input_stream_new_from_data`, `g_file_new_for_path`, `rsvg_handle_new_from_stream_sync`
    /// and `rsvg_handle_set_dpi`.
    public init(bytes: [UInt8], name: String, baseFile: String?, limits: DecodingLimits = DecodingLimits()) throws(ImageDecodingError) {
        func failure(_ reason: String) -> ImageDecodingError { ImageDecodingError(path: name, format: .svg, reason: reason) }
        self.name = name
        self.limits = limits
        do {
            try SVGLibrary.shared.load()
        } catch {
            throw failure(error.description)
        }
        let elements = Self.countElements(bytes)
        guard elements <= Self.maximumElements else {
            throw failure("\(elements) elements, more than the \(Self.maximumElements) a document may have")
        }
        // The base is set before parsing: librsvg resolves `xi:include` while it parses.
        let base = baseFile.map { g_file_new_for_path($0) } ?? nil
        defer { if let base { g_object_unref(UnsafeMutableRawPointer(base)) } }
        var error: UnsafeMutablePointer<GError>?
        let parsed = bytes.withUnsafeBufferPointer { buffer -> UnsafeMutablePointer<RsvgHandle>? in
            // The stream reads our buffer without a copy; it is parsed to the end before this returns.
            guard let stream = g_memory_input_stream_new_from_data(buffer.baseAddress, gssize(buffer.count), nil) else { return nil }
            defer { g_object_unref(stream) }
            return rsvg_handle_new_from_stream_sync(stream, base, RSVG_HANDLE_FLAGS_NONE, nil, &error)
        }
        guard let parsed else { throw failure("rsvg_handle_new_from_stream_sync: \(Self.take(error))") }
        // CSS pixels: 96 to the inch, so `width="1in"` is 96 pixels as a browser draws it.
        rsvg_handle_set_dpi(parsed, 96)
        handle = parsed
    }

    deinit { g_object_unref(handle) }

    /// The size the document asks for in pixels: its `width` and `height` (absolute units converted at 96
    /// dpi), else its `viewBox`'s size; nil when it has neither (percentages without a `viewBox`).
    /// Calls `rsvg_handle_get_intrinsic_size_in_pixels` and `rsvg_handle_get_intrinsic_dimensions`.
    public var intrinsicSize: (width: Double, height: Double)? {
        var width = 0.0, height = 0.0
        if rsvg_handle_get_intrinsic_size_in_pixels(handle, &width, &height) != 0, width > 0, height > 0 {
            return (width, height)
        }
        var hasViewBox: gboolean = 0
        var viewBox = RsvgRectangle()
        rsvg_handle_get_intrinsic_dimensions(handle, nil, nil, nil, nil, &hasViewBox, &viewBox)
        guard hasViewBox != 0, viewBox.width > 0, viewBox.height > 0 else { return nil }
        return (viewBox.width, viewBox.height)
    }

    /// The document drawn into a `width` x `height` bitmap (premultiplied, transparent where it draws
    /// nothing). Its intrinsic size is scaled to the bitmap's, in each direction on its own, as a bitmap
    /// is scaled to the rectangle it is drawn in (rsvg-convert's `-w` and `-h` too): the caller picks the
    /// aspect (ImageView's content mode). A document without an intrinsic size is fitted into the bitmap
    /// as its `preserveAspectRatio` says (centred, aspect kept, by default).
    /// Calls `cairo_image_surface_create_for_data`, `cairo_create`, `cairo_scale`,
    /// `rsvg_handle_render_document` and `cairo_surface_flush` (librsvg's cairo, whichever text stack the
    /// kiosk carries).
    public func render(width: Int, height: Int) throws(ImageDecodingError) -> Bitmap {
        func failure(_ reason: String) -> ImageDecodingError { ImageDecodingError(path: name, format: .svg, reason: reason) }
        try limits.check(width: width, height: height, path: name, format: .svg)
        let bitmap = Bitmap(width: width, height: height, format: .argb32Premultiplied)
        guard bitmap.stride >= Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width))) else {
            throw failure("a bitmap's rows of \(bitmap.stride) bytes are too short for cairo")
        }
        let outcome: String? = bitmap.withUnsafeMutableBytes { pixels in
            let surface = cairo_image_surface_create_for_data(
                pixels.baseAddress!.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, Int32(width), Int32(height),
                Int32(bitmap.stride))
            defer { cairo_surface_destroy(surface) }
            let context = cairo_create(surface)
            defer { cairo_destroy(context) }
            if let status = Self.failed(cairo_status(context)) { return "cairo_create: \(status)" }
            var viewport = RsvgRectangle(x: 0, y: 0, width: Double(width), height: Double(height))
            if let size = intrinsicSize {
                cairo_scale(context, Double(width) / size.width, Double(height) / size.height)
                viewport = RsvgRectangle(x: 0, y: 0, width: size.width, height: size.height)
            }
            var error: UnsafeMutablePointer<GError>?
            guard rsvg_handle_render_document(handle, context, &viewport, &error) != 0 else {
                return "rsvg_handle_render_document: \(Self.take(error))"
            }
            cairo_surface_flush(surface)
            return Self.failed(cairo_status(context)).map { "cairo: \($0)" }
        }
        if let outcome { throw failure(outcome) }
        return bitmap
    }

    /// How many elements `bytes` can hold at most: every `<` that starts a name (not `</`, `<!` or `<?`).
    /// A bound, not a parse: a comment's or CDATA's tags count too.
    static func countElements(_ bytes: [UInt8]) -> Int {
        var count = 0
        var index = bytes.startIndex
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "<")) {
            let next = bytes.index(after: open)
            guard next < bytes.endIndex else { break }
            let byte = bytes[next]
            if (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: ":") || byte >= 0x80
            {
                count += 1
            }
            index = next
        }
        return count
    }

    /// A GError's message, the error freed; "no reason given" without one.
    private static func take(_ error: UnsafeMutablePointer<GError>?) -> String {
        guard let error else { return "no reason given" }
        defer { g_error_free(error) }
        return error.pointee.message.map { String(cString: $0) } ?? "no reason given"
    }

    /// cairo's status in words, nil when it is success.
    private static func failed(_ status: cairo_status_t) -> String? {
        status == CAIRO_STATUS_SUCCESS ? nil : cairo_status_to_string(status).map { String(cString: $0) } ?? "status \(status.rawValue)"
    }
}
