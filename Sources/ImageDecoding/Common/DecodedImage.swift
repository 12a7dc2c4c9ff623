import Graphics

/// A decoded raster image: one frame, or an animation's frames, each a full canvas (what the screen shows
/// at that moment, earlier frames' pixels included), premultiplied.
///
/// Not `Sendable`, as its bitmaps are not: an image decoded on another thread is handed over whole
/// (`ImageDecoder.decode` returns it `sending`), and belongs to the thread it is handed to.
public final class DecodedImage {
    /// One frame of an animation, shown for `duration` seconds.
    public struct Frame {
        public let bitmap: Bitmap
        /// Seconds; 0 for a still image.
        public let duration: Double

        public init(bitmap: Bitmap, duration: Double) {
            self.bitmap = bitmap
            self.duration = duration
        }
    }

    public let format: ImageFormat
    /// At least one.
    public let frames: [Frame]
    /// How many times an animation plays; 0 is forever (GIF's and WebP's convention).
    public let loopCount: Int
    /// The size the file declares, before any reduced-size decoding (`DecodingOptions.fitting`) and before
    /// the EXIF orientation: the frames may be smaller.
    public let sourceWidth: Int
    public let sourceHeight: Int
    /// What the decoder warned of and decoded past (libjpeg's "Corrupt JPEG data: 3 extraneous bytes before
    /// marker 0xd9", which many cameras' files give): the caller logs them.
    public let warnings: [String]

    public init(
        format: ImageFormat, frames: [Frame], loopCount: Int = 0, sourceWidth: Int, sourceHeight: Int, warnings: [String] = []
    ) {
        precondition(!frames.isEmpty, "DecodedImage: an image has at least one frame")
        self.format = format
        self.frames = frames
        self.loopCount = loopCount
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.warnings = warnings
    }

    /// The first frame's bitmap.
    public var bitmap: Bitmap { frames[0].bitmap }
    public var isAnimated: Bool { frames.count > 1 }
}
