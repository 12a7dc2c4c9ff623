import Geometry
import ImageDecoding

/// An image (as `UIImage`): a bitmap, the frames of an animation (an animated GIF or WebP, or frames
/// given with `animatedImage(with:duration:)`), or an SVG drawn at the size it is shown at. Immutable;
/// `ImageView` shows it. Sizes are in points, which are pixels on every kiosk screen (scale 1).
///
/// Files are read by their content, not their name: PNG, JPEG (turned by its EXIF orientation), WebP,
/// GIF and SVG. Not `Sendable`: an image belongs to the main thread, as the views that show it.
public final class Image {
    /// What the image is made of.
    enum Content {
        case frames([DecodedImage.Frame], loopCount: Int)
        case vector(SVGDocument, size: Size)
    }

    let content: Content
    /// The format of the file it was read from, nil for one made from bitmaps.
    public let format: ImageFormat?

    init(content: Content, format: ImageFormat?) {
        self.content = content
        self.format = format
    }

    /// An image of one bitmap.
    public convenience init(bitmap: Bitmap) {
        self.init(content: .frames([.init(bitmap: bitmap, duration: 0)], loopCount: 0), format: nil)
    }

    /// An image read from `path`. Throws an `ImageDecodingError` naming the file and the reason: missing,
    /// not an image, truncated or corrupt, or over a limit (`DecodingLimits`: 50 megapixels a frame). A
    /// warning of the decoder's on a whole picture is logged. Large photos are better read off the main
    /// thread at the size they are shown: `Image.load(contentsOfFile:fitting:)`.
    public convenience init(contentsOfFile path: String, options: DecodingOptions = DecodingOptions()) throws(ImageDecodingError) {
        self.init(contents: try ImageDecoder.read(contentsOfFile: path, options: options), path: path)
    }

    /// An image of what `ImageDecoder.read` gave.
    convenience init(contents: ImageDecoder.Contents, path: String) {
        switch contents {
        case .raster(let decoded): self.init(decoded: decoded, path: path)
        case .vector(let document): self.init(document: document)
        }
    }

    /// An image of what a decoder read.
    convenience init(decoded: DecodedImage, path: String) {
        for warning in decoded.warnings {
            Log.app.warning("image \(path): \(warning) (decoded anyway)")
        }
        self.init(content: .frames(decoded.frames, loopCount: decoded.loopCount), format: decoded.format)
    }

    /// An SVG shown at its intrinsic size, or 100x100 when it declares none (as browsers show an
    /// `<img>` of such an SVG at a default size; here the image view's size usually decides).
    convenience init(document: SVGDocument) {
        let intrinsic = document.intrinsicSize.map { Size(width: $0.width, height: $0.height) }
        self.init(content: .vector(document, size: intrinsic ?? Size(width: 100, height: 100)), format: .svg)
    }

    /// The image from the app's resources named `name` (`"logo"` finds `logo.png`, `logo.svg`...; see
    /// `ImageResources` for the folders and extensions), or nil, as `UIImage(named:)`. Why it is nil (not
    /// found, with the paths tried, or not readable) is logged as an error, once per name. Images read are
    /// kept by name, as UIKit's cache does: a second call returns the same image.
    @MainActor public convenience init?(named name: String) {
        guard let image = Image.named(name, in: Image.resourceFolders) else { return nil }
        self.init(content: image.content, format: image.format)
    }

    /// The folders `Image(named:)` searches, in order (`ImageResources.defaultFolders` unless set).
    @MainActor public static var resourceFolders = ImageResources.defaultFolders {
        didSet { namedCache.removeAll() }
    }

    /// The image's size in points: the first frame's, or an SVG's intrinsic size.
    public var size: Size {
        switch content {
        case .frames(let frames, _): frames[0].bitmap.size
        case .vector(_, let size): size
        }
    }

    /// Points per pixel of its bitmaps: 1 (as `UIImage.scale`; kiosk screens have no scale factor).
    public var scale: Double { 1 }

    /// The frames' bitmaps of an animated image, nil for a still one (as `UIImage.images`).
    public var images: [Bitmap]? {
        guard case .frames(let frames, _) = content, frames.count > 1 else { return nil }
        return frames.map(\.bitmap)
    }

    /// The time one play of the animation takes, 0 for a still image (as `UIImage.duration`).
    public var duration: Double {
        guard case .frames(let frames, _) = content, frames.count > 1 else { return 0 }
        return frames.reduce(0) { $0 + $1.duration }
    }

    /// How many times the animation plays before it stays on its last frame: the file's count (an
    /// animated GIF's or WebP's), 0 for forever. An animated `UIImage` always repeats; a file that says
    /// how often to play is played that often here, as browsers do.
    public var loopCount: Int {
        guard case .frames(_, let loopCount) = content else { return 0 }
        return loopCount
    }

    /// An animation of `images` (at least one), each shown for `duration / images.count` seconds, repeating
    /// forever (as `UIImage.animatedImage(with:duration:)`); nil if `images` is empty.
    public static func animatedImage(with images: [Image], duration: Double) -> Image? {
        let bitmaps = images.compactMap { image -> Bitmap? in
            guard case .frames(let frames, _) = image.content else { return nil }
            return frames[0].bitmap
        }
        guard !bitmaps.isEmpty, bitmaps.count == images.count else { return nil }
        let each = bitmaps.count > 1 ? max(duration, 0) / Double(bitmaps.count) : 0
        return Image(content: .frames(bitmaps.map { .init(bitmap: $0, duration: each) }, loopCount: 0), format: nil)
    }
}
