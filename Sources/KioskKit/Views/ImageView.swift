/// A view that shows a bitmap (a PNG loaded with `Bitmap(contentsOfPNGFile:)`), scaled by its content
/// mode (as `UIImageView`). The image is drawn within the view's bounds.
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

    open var image: Bitmap? {
        didSet {
            guard image !== oldValue else { return }
            setNeedsDisplay()
            if image?.size != oldValue?.size { invalidateIntrinsicContentSize() }
        }
    }
    /// How the image fills the bounds: stretched by default (UIKit's `scaleToFill`).
    open var contentMode: ContentMode = .scaleToFill { didSet { if contentMode != oldValue { setNeedsDisplay() } } }

    /// An image view; it takes no touches (`isUserInteractionEnabled` false, as UIKit's), so an icon on a
    /// button lets the button have them.
    override public init(frame: Rect = .zero) {
        super.init(frame: frame)
        isUserInteractionEnabled = false
    }

    /// An image view sized to `image`.
    public convenience init(image: Bitmap?) {
        self.init(frame: Rect(size: image?.size ?? .zero))
        self.image = image
    }

    /// The image's size (as `UIImageView`'s), else the current size.
    override open func sizeThatFits(_ size: Size) -> Size { image?.size ?? bounds.size }

    /// The image's size (as `UIImageView`'s); none without an image.
    override open var intrinsicContentSize: Size {
        image?.size ?? Size(width: View.noIntrinsicMetric, height: View.noIntrinsicMetric)
    }

    /// Where the image lands in bounds coordinates.
    public func imageRect() -> Rect? {
        guard let image, image.width > 0, image.height > 0 else { return nil }
        let box = bounds
        let scaleX = box.width / Double(image.width), scaleY = box.height / Double(image.height)
        let size: Size
        switch contentMode {
        case .scaleToFill: return box
        case .scaleAspectFit:
            size = Size(width: Double(image.width) * min(scaleX, scaleY), height: Double(image.height) * min(scaleX, scaleY))
        case .scaleAspectFill:
            size = Size(width: Double(image.width) * max(scaleX, scaleY), height: Double(image.height) * max(scaleX, scaleY))
        case .center: size = image.size
        }
        return Rect(x: box.midX - size.width / 2, y: box.midY - size.height / 2, width: size.width, height: size.height)
    }

    override open func draw(_ rect: Rect) {
        guard let image, let target = imageRect(), let context = DrawingContext.current else { return }
        context.draw(image, in: target)
    }
}
