import Glibc
import Graphics

/// Reads an image file of any of the formats in `ImageFormat` but SVG (which is drawn at the size it is
/// shown at: `SVGDocument`) into a `DecodedImage`. Safe to call on any thread; each call has its own
/// decoder state.
public enum ImageDecoder {
    /// Reads and decodes `path`, its format told by its first bytes. Throws an `ImageDecodingError` naming
    /// the file and the reason: missing, unreadable, a format it does not know, SVG, over a limit, or the
    /// decoder's own words for a truncated or corrupt file.
    public static func decode(
        contentsOfFile path: String, options: DecodingOptions = DecodingOptions()
    ) throws(ImageDecodingError) -> sending DecodedImage {
        try decode(bytes: readFile(path, limit: options.limits.maximumFileBytes), name: path, options: options)
    }

    /// What a file holds: pixels, or an SVG to draw at the size it is shown at.
    public enum Contents {
        case raster(DecodedImage)
        case vector(SVGDocument)
    }

    /// Reads `path` once and decodes it, or, for an SVG, parses it (its references resolved in its own
    /// folder only). Throws as `decode(contentsOfFile:options:)`.
    public static func read(
        contentsOfFile path: String, options: DecodingOptions = DecodingOptions()
    ) throws(ImageDecodingError) -> sending Contents {
        let bytes = try readFile(path, limit: options.limits.maximumFileBytes)
        if ImageFormat(sniffing: bytes) == .svg {
            return .vector(try SVGDocument(bytes: bytes, name: path, baseFile: path, limits: options.limits))
        }
        return .raster(try decode(bytes: bytes, name: path, options: options))
    }

    /// Decodes the bytes of an image file; `name` stands for the file in errors.
    public static func decode(
        bytes: [UInt8], name: String, options: DecodingOptions = DecodingOptions()
    ) throws(ImageDecodingError) -> sending DecodedImage {
        guard let format = ImageFormat(sniffing: bytes) else {
            throw ImageDecodingError(
                path: name, format: nil,
                reason: bytes.isEmpty
                    ? "the file is empty" : "not an image of a known format (PNG, JPEG, WebP, GIF or SVG) by its first bytes")
        }
        switch format {
        case .jpeg: return try JPEGDecoder.decode(bytes, name: name, options: options)
        case .webp: return try WebPDecoder.decode(bytes, name: name, options: options)
        case .gif: return try GIFDecoder.decode(bytes, name: name, options: options)
        case .png: return try decodePNG(bytes, name: name, options: options)
        case .svg:
            throw ImageDecodingError(
                path: name, format: .svg, reason: "an SVG is drawn at the size it is shown at: read it as an SVGDocument")
        }
    }

    /// PNG through cairo's reader (Graphics), its size checked from the header first.
    private static func decodePNG(_ bytes: [UInt8], name: String, options: DecodingOptions) throws(ImageDecodingError) -> DecodedImage {
        // IHDR is the first chunk: width and height, big-endian, at bytes 16 and 20.
        guard bytes.count >= 24 else {
            throw ImageDecodingError(path: name, format: .png, reason: "the file ends inside its header")
        }
        func bigEndian(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        try options.limits.check(width: bigEndian(16), height: bigEndian(20), path: name, format: .png)
        let bitmap: Bitmap
        do {
            bitmap = try Bitmap(pngData: bytes)
        } catch {
            throw ImageDecodingError(path: name, format: .png, reason: "\(error)")
        }
        return DecodedImage(
            format: .png, frames: [.init(bitmap: bitmap, duration: 0)], sourceWidth: bitmap.width, sourceHeight: bitmap.height)
    }

    /// The whole file, refused above `limit` bytes. Calls `open`, `fstat`, `read` and `close`.
    static func readFile(_ path: String, limit: Int) throws(ImageDecodingError) -> [UInt8] {
        func failure(_ operation: String) -> ImageDecodingError {
            ImageDecodingError(path: path, format: nil, reason: "\(operation): \(String(cString: strerror(errno)))")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open") }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw failure("fstat") }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw ImageDecodingError(path: path, format: nil, reason: "not a regular file")
        }
        let size = Int(status.st_size)
        guard size <= limit else {
            throw ImageDecodingError(path: path, format: nil, reason: "the file is \(size) bytes, over the limit of \(limit)")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var filled = 0
        while filled < size {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + filled, size - filled) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw failure("read") }
            if count == 0 { break }  // the file shrank while read: decode what there is
            filled += count
        }
        return filled == size ? bytes : Array(bytes[..<filled])
    }
}
