/// What a view asks of the display (`View.planePreference`): to be composed with the rest of its screen, or
/// scanned out from a buffer of its own on a hardware plane, as weston, wlroots and Qt's eglfs hand video,
/// static layers and the pointer to a display's overlay and cursor planes. UIKit has no such option; a kiosk
/// needs it on boards whose memory cannot compose a full-screen layer at the display's rate.
///
/// A view with a preference other than `composited` and its subviews form one layer. It goes on a plane when
/// the screen's display has a free one that fits it (`PlaneAssignment`) and the display's driver accepts the
/// proposal (DRM's atomic TEST_ONLY commit); otherwise it is composed, with the same pixels. It is placed
/// only while it is shown untransformed and unclipped by its superviews, and nothing composed is in front of
/// it (an overlay plane is in front of everything composed).
public enum PlanePreference: Sendable, Hashable {
    /// Composed into the screen's frame with everything else (the default).
    case composited
    /// On an overlay plane where one is free: a video, a full-window static layer. Moving it composes
    /// nothing; changing its content paints only its own buffer.
    case overlay
    /// On the display's cursor plane (else an overlay plane): the mouse cursor the runtime shows. Moving it
    /// composes nothing.
    @_spi(KioskRuntime) case cursor
}

/// A hardware plane of a screen's display, as a display backend describes it (`FrameOutput.planes(for:)`):
/// DRM's overlay and cursor planes that the screen's CRTC can use. The primary plane is not one of these:
/// it always shows the composed frame.
public struct DisplayPlane: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        case overlay, cursor
    }

    /// A buffer size in pixels.
    public struct BufferSize: Sendable, Hashable {
        public var width: Int
        public var height: Int

        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// The backend's name for it (DRM: the plane's object id).
    public let id: UInt32
    public let kind: Kind
    /// The pixel formats it scans out, of those the compositor paints (`argb32Premultiplied` is DRM's
    /// ARGB8888 with its default premultiplied blending, `xrgb8888` its XRGB8888).
    public let formats: Set<PixelFormat>
    /// Its place in the stacking of the screen's planes: higher is in front (DRM's `zpos`; the primary plane
    /// is behind every one of these).
    public let zOrder: Int
    /// The one buffer size it takes (cursor planes: DRM's `DRM_CAP_CURSOR_WIDTH` and `_HEIGHT`); nil: any
    /// size up to `maximumSize`. A smaller layer fills the buffer's top-left corner, transparent around it.
    public let requiredSize: BufferSize?
    /// The largest buffer it takes; nil: as large as the screen.
    public let maximumSize: BufferSize?

    public init(
        id: UInt32, kind: Kind, formats: Set<PixelFormat>, zOrder: Int, requiredSize: BufferSize? = nil,
        maximumSize: BufferSize? = nil
    ) {
        self.id = id
        self.kind = kind
        self.formats = formats
        self.zOrder = zOrder
        self.requiredSize = requiredSize
        self.maximumSize = maximumSize
    }

    public var description: String { "\(kind.rawValue) plane \(id)" }
}

/// One layer a frame puts on a plane: the plane, where its buffer lands on the screen (physical pixels, the
/// buffer's size; it may reach past the screen's edges, which the display clips), and the buffer's pixels
/// when they changed since the last frame on this plane (nil: the plane shows the pixels it has). The
/// content is in the plane's format, turned as the screen is (physical orientation).
public struct PlaneLayer {
    public let plane: DisplayPlane
    public let destination: PixelRect
    public let format: PixelFormat
    public let content: Bitmap?

    public init(plane: DisplayPlane, destination: PixelRect, format: PixelFormat, content: Bitmap?) {
        self.plane = plane
        self.destination = destination
        self.format = format
        self.content = content
    }
}
