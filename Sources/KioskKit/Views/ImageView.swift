import Geometry

/// A view that shows an `Image` scaled by its content mode (as `UIImageView`), within its bounds. An
/// animated image plays on its own (see `ImageView+Animation`); an SVG is drawn at the size it is shown
/// at, so it stays crisp at any size and rotation.
@MainActor
open class ImageView: View {
    /// How the image fills the bounds (as `UIView.ContentMode`).
    public enum ContentMode: Sendable {
        /// Stretched to the bounds.
        case scaleToFill
        /// As large as fits whole, centred, aspect ratio kept.
        case scaleAspectFit
        /// Covers the bounds, centred, aspect ratio kept; the overflow is cut at the bounds.
        case scaleAspectFill
        /// Unscaled, centred.
        case center
    }

    open var image: Image? {
        didSet {
            guard image !== oldValue else { return }
            vectorRendering = nil
            imageDidChange()
            setNeedsDisplay()
            if image?.size != oldValue?.size { invalidateIntrinsicContentSize() }
        }
    }
    /// How the image fills the bounds: stretched by default (UIKit's `scaleToFill`).
    open var contentMode: ContentMode = .scaleToFill { didSet { if contentMode != oldValue { setNeedsDisplay() } } }

    /// The animation's state (`ImageView+Animation`).
    var animation = ImageAnimationState()
    /// An SVG drawn at the size it was last shown at, and that size.
    var vectorRendering: (bitmap: Bitmap, width: Int, height: Int)?
    /// The file `load(contentsOfFile:)` reads now; a newer load or an `image` set meanwhile wins.
    var loadingPath: String?

    /// An image view; it takes no touches (`isUserInteractionEnabled` false, as UIKit's), so an icon on a
    /// button lets the button have them.
    override public init(frame: Rect = .zero) {
        super.init(frame: frame)
        isUserInteractionEnabled = false
        observesComposition = true
    }

    /// An image view sized to `image`.
    public convenience init(image: Image?) {
        self.init(frame: Rect(size: image?.size ?? .zero))
        self.image = image
        // An initializer's own assignments run no observer.
        imageDidChange()
    }

    /// The image's size (as `UIImageView`'s), else the current size.
    override open func sizeThatFits(_ size: Size) -> Size { image?.size ?? bounds.size }

    /// The image's size (as `UIImageView`'s); none without an image.
    override open var intrinsicContentSize: Size {
        image?.size ?? Size(width: View.noIntrinsicMetric, height: View.noIntrinsicMetric)
    }

    /// Where the image lands in bounds coordinates.
    public func imageRect() -> Rect? {
        guard let image, image.size.width > 0, image.size.height > 0 else { return nil }
        let box = bounds
        let scaleX = box.width / image.size.width, scaleY = box.height / image.size.height
        let size: Size
        switch contentMode {
        case .scaleToFill: return box
        case .scaleAspectFit:
            size = Size(width: image.size.width * min(scaleX, scaleY), height: image.size.height * min(scaleX, scaleY))
        case .scaleAspectFill:
            size = Size(width: image.size.width * max(scaleX, scaleY), height: image.size.height * max(scaleX, scaleY))
        case .center: size = image.size
        }
        return Rect(x: box.midX - size.width / 2, y: box.midY - size.height / 2, width: size.width, height: size.height)
    }

    override open func draw(_ rect: Rect) {
        guard let image, let target = imageRect(), let context = DrawingContext.current else { return }
        switch image.content {
        case .frames(let frames, _):
            context.draw(frames[min(animation.frame, frames.count - 1)].bitmap, in: target)
            animationDidDraw()
        case .vector(let document, _):
            // Drawn at the pixels it covers, so never scaled up from a smaller rendering.
            let width = Int(target.width.rounded()), height = Int(target.height.rounded())
            guard width > 0, height > 0 else { return }
            if vectorRendering?.width != width || vectorRendering?.height != height {
                do {
                    vectorRendering = (try document.render(width: width, height: height), width, height)
                } catch {
                    Log.app.error("ImageView: \(error)")
                    vectorRendering = nil
                }
            }
            if let bitmap = vectorRendering?.bitmap {
                context.draw(bitmap, in: Rect(x: target.minX, y: target.minY, width: Double(width), height: Double(height)))
            }
        }
    }

    override func willBeComposed(onScreen: Bool) {
        guard onScreen else { return }
        animationWasComposedOnScreen()
    }

    override open func didMoveToWindow() {
        super.didMoveToWindow()
        animationWindowDidChange()
    }
}
