import CLazyPNG

/// A PNG file decoded into 8-bit BGRA with straight alpha (libpng's simplified API, `png_image`): rows of
/// `width * 4` bytes, top to bottom, each pixel blue, green, red, alpha.
public struct PNGImage: Sendable {
    public let width: Int
    public let height: Int
    public let bgra: [UInt8]

    /// The largest side read (a launch screen for an 8K display is 7680 wide): a bigger file is refused
    /// before its pixels are allocated.
    public static let maximumSide = 16384

    /// Reads and decodes `path`. Throws a `PNGError` naming the path and libpng's reason (`png_image`'s
    /// message, e.g. "Not a PNG file"), or why libpng could not be loaded.
    /// Calls `png_image_begin_read_from_file`, `png_image_finish_read` and `png_image_free`.
    public init(contentsOfFile path: String) throws(PNGError) {
        do {
            try PNGLibrary.shared.load()
        } catch {
            throw PNGError(path: path, operation: "dlopen", reason: error.description)
        }
        var image = png_image()
        image.version = kiosk_png_image_version()
        defer { png_image_free(&image) }
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            throw PNGError(path: path, operation: "png_image_begin_read_from_file", reason: Self.message(of: image))
        }
        let width = Int(image.width), height = Int(image.height)
        guard (1...Self.maximumSide).contains(width), (1...Self.maximumSide).contains(height) else {
            throw PNGError(
                path: path, operation: "png_image_begin_read_from_file",
                reason: "\(width)x\(height) is larger than \(Self.maximumSide) on a side")
        }
        image.format = kiosk_png_format_bgra()
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let finished = pixels.withUnsafeMutableBytes { buffer in
            // Row stride 0: libpng's own, width * 4 bytes for BGRA.
            png_image_finish_read(&image, nil, buffer.baseAddress, 0, nil)
        }
        guard finished != 0 else {
            throw PNGError(path: path, operation: "png_image_finish_read", reason: Self.message(of: image))
        }
        self.width = width
        self.height = height
        bgra = pixels
    }

    /// `png_image.message`, the reason libpng wrote (64 bytes, NUL-ended).
    private static func message(of image: png_image) -> String {
        withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }
}

/// A PNG that could not be read: `cannot read /etc/kiosk/launch.png: png_image_begin_read_from_file: Not a
/// PNG file`.
public struct PNGError: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    /// The C function that failed (`dlopen` when libpng itself could not be loaded).
    public let operation: String
    public let reason: String

    public var description: String { "cannot read \(path): \(operation): \(reason)" }
}
