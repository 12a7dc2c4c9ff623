/// A compositor's cached rendering of one view.
struct LayerState {
    var cache: Bitmap?
    var content: LayerContent = .none
    /// False until the first render, and after anything that invalidates the whole cache.
    var isValid = false
    /// The view's size in pixels when the cache was drawn.
    var drawnSize = PixelSize(width: 0, height: 0)
    /// Where the cache's top-left pixel sits in the view's content: (0, 0) unless the cache was cropped to
    /// what `draw(_:)` marked.
    var origin: (x: Int32, y: Int32) = (0, 0)
    /// The view redrew a part of itself while its cache was cropped: its caches are the whole size since.
    var drawsInParts = false

    /// Whether the cache holds only a part of the view (the box around what its drawing marked).
    var isCropped: Bool {
        guard let cache else { return false }
        return origin != (0, 0) || PixelSize(width: Int32(cache.width), height: Int32(cache.height)) != drawnSize
    }
}

/// A size in whole pixels.
struct PixelSize: Equatable {
    var width: Int32
    var height: Int32

    init(width: Int32, height: Int32) {
        self.width = width
        self.height = height
    }

    init(_ size: (width: Int32, height: Int32)) {
        self.init(width: size.width, height: size.height)
    }
}

enum LayerContent {
    case none
    case fill(Color)
    case bitmap(Bitmap)

    var isEmpty: Bool { if case .none = self { true } else { false } }
    var isOpaqueFill: Bool { if case .fill(let color) = self { color.isOpaque } else { false } }

    /// What a placement compares: the fill colour, or the bitmap object.
    var identity: ContentIdentity {
        switch self {
        case .none: .none
        case .fill(let color): .fill(color)
        case .bitmap(let bitmap): .bitmap(ObjectIdentifier(bitmap))
        }
    }
}

enum ContentIdentity: Equatable {
    case none
    case fill(Color)
    case bitmap(ObjectIdentifier)
}

/// Where a view was painted in a frame. A difference between two frames damages both places.
struct Placement: Equatable {
    var rect: PixelRect
    var clip: PixelRect?
    var alpha: Double
    var content: ContentIdentity
    /// Position in the frame's back-to-front order (re-stacking is a change of order among the layers
    /// of both frames, not of this number: see `isPainted(like:)`).
    var index: Int
    var opaque: Bool
    /// The map from the content's pixels to the screen when it is not a whole-pixel translation (then
    /// `rect` is the box around the transformed content).
    var transform: AffineTransform?

    var visibleRect: PixelRect { clip.map { rect.intersection($0) } ?? rect }

    /// The same placement moved by `(dx, dy)`, its clip with it (a plane's buffer has its own origin).
    func offsetBy(dx: Int32, dy: Int32) -> Placement {
        var moved = self
        moved.rect = rect.offsetBy(dx: dx, dy: dy)
        moved.clip = clip?.offsetBy(dx: dx, dy: dy)
        return moved
    }

    /// Whether `other` paints the same pixels in the same place, wherever each is in its frame's order.
    func isPainted(like other: Placement) -> Bool {
        var other = other
        other.index = index
        return self == other
    }

    /// Whether `new` is this placement moved by `(dx, dy)` and nothing else (the same content, clip and
    /// alpha; its position in the frame's order may differ when views before it came or went).
    func movedExactly(by dx: Int32, _ dy: Int32, to new: Placement) -> Bool {
        transform == nil && new.transform == nil && rect.offsetBy(dx: dx, dy: dy) == new.rect && clip == new.clip
            && alpha == new.alpha && content == new.content && opaque == new.opaque
    }
}

/// One view in a frame's scene: what to paint for it, and where.
struct Layer {
    let view: View
    let content: LayerContent
    /// The content's size in points (its model bounds): what a transform maps.
    let size: Size
    /// Every pixel of the content is opaque (declared `isOpaque`, or an opaque colour), whatever the
    /// layer's alpha: faded over the black background it can be written with SRC and the alpha as mask.
    let contentIsOpaque: Bool
    let placement: Placement
}
