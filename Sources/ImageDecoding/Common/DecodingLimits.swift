/// What a decoder refuses before it allocates: a file's header can claim any size, and a few kilobytes
/// of JPEG or GIF can claim 60000x60000 pixels (14 GB decoded), so each decoder checks the size it is
/// about to decode into against these first and throws, naming the limit.
public struct DecodingLimits: Sendable, Equatable {
    /// The most pixels one decoded frame may have. 50 megapixels by default: a 48-megapixel phone photo
    /// decodes, at 200 MB; anything larger must be decoded at a reduced size (`DecodingOptions.fitting`).
    public var maximumPixels: Int
    /// The most bytes all frames of an animation may take decoded (each frame a full canvas, 4 bytes a
    /// pixel): 128 MiB by default, 8 seconds of a full-HD animation at 8 frames a second.
    public var maximumAnimationBytes: Int
    /// The largest file read, 256 MiB by default.
    public var maximumFileBytes: Int

    /// cairo's and pixman's largest image side; a bitmap cannot be larger.
    public static let maximumSide = 32767

    public init(maximumPixels: Int = 50_000_000, maximumAnimationBytes: Int = 128 << 20, maximumFileBytes: Int = 256 << 20) {
        self.maximumPixels = maximumPixels
        self.maximumAnimationBytes = maximumAnimationBytes
        self.maximumFileBytes = maximumFileBytes
    }

    /// Throws unless a `width` x `height` frame may be decoded.
    func check(width: Int, height: Int, path: String, format: ImageFormat) throws(ImageDecodingError) {
        guard width > 0, height > 0 else {
            throw ImageDecodingError(path: path, format: format, reason: "the image is \(width)x\(height), which has no pixels")
        }
        guard width <= Self.maximumSide, height <= Self.maximumSide else {
            throw ImageDecodingError(
                path: path, format: format,
                reason: "\(width)x\(height) is over the largest side a bitmap can have, \(Self.maximumSide)")
        }
        guard width * height <= maximumPixels else {
            throw ImageDecodingError(
                path: path, format: format,
                reason: "\(width)x\(height) is \(width * height) pixels, over the limit of \(maximumPixels) "
                    + "(a decompression bomb, or a picture to decode at a reduced size)")
        }
    }

    /// Throws unless `frames` canvases of `width` x `height` fit `maximumAnimationBytes`.
    func checkAnimation(frames: Int, width: Int, height: Int, path: String, format: ImageFormat) throws(ImageDecodingError) {
        let bytes = frames.multipliedReportingOverflow(by: width * height * 4)
        guard !bytes.overflow, bytes.partialValue <= maximumAnimationBytes else {
            throw ImageDecodingError(
                path: path, format: format,
                reason: "\(frames) frames of \(width)x\(height) take more than the limit of \(maximumAnimationBytes) bytes decoded")
        }
    }
}
