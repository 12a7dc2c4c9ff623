import Dispatch
import Glibc
import Logging

/// Where composed frames go: a display backend's buffers for one screen (DRM dumb buffers, an fbdev
/// mapping, the headless backend's memory).
@MainActor
public protocol FrameOutput: AnyObject {
    /// The buffer to put the next frame of `screen` in, sized to the screen's current mode (physical,
    /// unrotated pixels), or nil when the screen cannot show frames now. The compositor writes every
    /// pixel of the region it was told about and nothing else.
    func nextBuffer(for screen: Screen) -> FrameBuffer?
    /// Shows `buffer`; `damage` (physical pixels) is what changed since the frame before. The output calls
    /// `Compositor.framePresented(on:)` when the frame is on screen (after the page flip), which allows
    /// the next one: at most one frame is in flight per screen.
    func present(_ buffer: FrameBuffer, for screen: Screen, damage: Region)
    /// True when the buffers are ordinary cached memory (headless, tests): the compositor may then paint an
    /// unrotated screen straight into them instead of into a shadow it copies from. Scanout memory (DRM
    /// dumb buffers, fbdev) is write-combined and slow to read, so those outputs say false (the default).
    var buffersAreCachedMemory: Bool { get }
}

extension FrameOutput {
    public var buffersAreCachedMemory: Bool { false }
}

/// A buffer to draw a frame into, and its age: 0 when its contents are unknown, n when it holds the
/// frame presented n frames ago (1 for the previous frame, as EGL's buffer age).
public struct FrameBuffer {
    public let bitmap: Bitmap
    public let age: Int

    public init(bitmap: Bitmap, age: Int) {
        self.bitmap = bitmap
        self.age = age
    }
}

/// Composes the visible windows of each screen into frames: level order, then order shown, then each
/// window's views in tree order, with alpha and `clipsToBounds`, redrawing only damaged regions.
///
/// Every view has a cached rendering (its background and `draw(_:)` output); `draw(_:)` runs only after
/// `setNeedsDisplay`. Each frame records where every view was placed; a view that moved, changed alpha,
/// was hidden, re-stacked or removed damages where it was and where it is, so moving things never redraws
/// them. A frame paints only the damage: front to back, regions under opaque views (declared with
/// `isOpaque` or an opaque background) are skipped, then the layers are composited back to front with
/// pixman into a RAM shadow of the screen's logical size. The damaged part of the shadow (grown by the
/// output buffer's age) is copied through the screen's rotation into the output's buffer.
@MainActor
public final class Compositor: WindowChangeObserver {
    public let application: Application
    public let output: any FrameOutput
    /// Skip what opaque views cover. Off only to prove in tests and benchmarks that it changes nothing.
    public var isOpaqueCullingEnabled = true
    /// Called after a frame was composed for a screen (the runtime uses it for sd_notify READY=1).
    public var frameObserver: ((Screen) -> Void)?
    /// Called when a frame of a screen is on the display (after its page flip), with the screen.
    public var presentationObserver: ((Screen) -> Void)?

    private var states: [ObjectIdentifier: ScreenState] = [:]
    private var frameScheduled = false
    /// How many buffers' worth of damage to remember; an older buffer is repainted whole.
    static let damageRingLength = 4
    private static let log = Logger(label: "kiosk.compositor")

    public init(output: any FrameOutput, application: Application = .shared) {
        self.output = output
        self.application = application
        application.changeObserver = self
        for screen in application.connectedScreens { scheduleFrame(for: screen) }
    }

    // MARK: Queries (tests, snapshots, benchmarks)

    /// Frames composed for `screen` so far.
    public func framesComposed(on screen: Screen) -> Int { states[ObjectIdentifier(screen)]?.framesComposed ?? 0 }

    /// The logical-size shadow of `screen` (what apps see, before rotation).
    public func shadow(of screen: Screen) -> Bitmap? { states[ObjectIdentifier(screen)]?.shadow }

    /// Whether a frame is waiting for `framePresented(on:)`.
    public func isFrameInFlight(on screen: Screen) -> Bool { states[ObjectIdentifier(screen)]?.inFlight ?? false }

    /// Whether `screen` has changes not yet composed.
    public func needsFrame(on screen: Screen) -> Bool { states[ObjectIdentifier(screen)]?.needsFrame ?? false }

    // MARK: Scheduling

    /// The output finished showing the last frame of `screen`; the next one may start.
    public func framePresented(on screen: Screen) {
        guard let state = states[ObjectIdentifier(screen)] else { return }
        presentationObserver?(screen)
        state.inFlight = false
        if state.needsFrame { scheduleRun() }
    }

    /// Composes now every screen that has changes and no frame in flight (the run loop does this once per
    /// turn after changes; tests call it directly).
    public func composePendingFrames() {
        frameScheduled = false
        for screen in application.connectedScreens {
            let state = state(for: screen)
            guard state.needsFrame, !state.inFlight else { continue }
            composeFrame(on: screen, state: state, reportedDamage: nil)
        }
    }

    /// Repaints the whole of `screen` on the next frame.
    public func setNeedsFullRepaint(_ screen: Screen) {
        let state = state(for: screen)
        state.fullRepaint = true
        scheduleFrame(for: screen)
    }

    /// Composes `screen` now, bringing every view's cache and placement up to date, but painting only
    /// `damage` (logical pixels), whatever really changed: the "lying damage" check of wlroots and weston,
    /// which proves that nothing outside the damage is ever touched.
    public func composeFrame(on screen: Screen, reportingOnly damage: Region) {
        composeFrame(on: screen, state: state(for: screen), reportedDamage: damage)
    }

    private func scheduleFrame(for screen: Screen) {
        guard screen.isConnected else { return }
        state(for: screen).needsFrame = true
        scheduleRun()
    }

    private func scheduleRun() {
        guard !frameScheduled else { return }
        frameScheduled = true
        // Once per run-loop turn, after the changes of this turn: many changes make one frame.
        DispatchQueue.main.async {
            MainActor.assumeIsolated { self.composePendingFrames() }
        }
    }

    private func state(for screen: Screen) -> ScreenState {
        if let state = states[ObjectIdentifier(screen)] { return state }
        let state = ScreenState()
        states[ObjectIdentifier(screen)] = state
        return state
    }

    // MARK: WindowChangeObserver

    func subtreeDidChange(_ view: View, in window: Window) { scheduleFrame(for: window.screen) }
    func subtreeWillLeave(_ view: View, in window: Window) { scheduleFrame(for: window.screen) }
    func contentDidChange(in view: View, rect: Rect, window: Window) { scheduleFrame(for: window.screen) }
    func frameRequested(by window: Window) { scheduleFrame(for: window.screen) }

    func screenDidChange(_ screen: Screen) {
        guard screen.isConnected else {
            // Its buffers belong to the backend; the shadow and placements go. Nothing is scheduled.
            states[ObjectIdentifier(screen)] = nil
            return
        }
        setNeedsFullRepaint(screen)
    }

    // MARK: Composing a frame

    private func composeFrame(on screen: Screen, state: ScreenState, reportedDamage: Region?) {
        state.needsFrame = false
        guard screen.isConnected, let mode = screen.currentMode else { return }
        let logical = screen.bounds.size
        let width = Int(logical.width), height = Int(logical.height)
        guard width > 0, height > 0 else { return }
        let screenRect = PixelRect(x: 0, y: 0, width: Int32(width), height: Int32(height))

        var damage = Region()
        if state.size != screenRect {
            state.size = screenRect
            state.shadow = nil
            state.fullRepaint = true
        }
        let windows = application.visibleWindows(on: screen)
        for window in windows { window.layoutIfNeeded() }
        let layers = collectLayers(of: windows, damage: &damage)

        // Placements: what moved, appeared, vanished or changed looks damages its old and new place.
        var placements: [ObjectIdentifier: Placement] = [:]
        placements.reserveCapacity(layers.count)
        for layer in layers {
            let id = ObjectIdentifier(layer.view)
            placements[id] = layer.placement
            if let old = state.placements[id] {
                if old != layer.placement {
                    damage.formUnion(old.visibleRect)
                    damage.formUnion(layer.placement.visibleRect)
                }
            } else {
                damage.formUnion(layer.placement.visibleRect)
            }
        }
        for (id, old) in state.placements where placements[id] == nil { damage.formUnion(old.visibleRect) }
        state.placements = placements

        if state.fullRepaint {
            damage = Region(screenRect)
            state.fullRepaint = false
        }
        if let reportedDamage { damage = reportedDamage }
        damage = damage.intersection(screenRect)
        guard !damage.isEmpty else { return }

        guard let buffer = output.nextBuffer(for: screen) else {
            // The output cannot take a frame now (e.g. the session is paused): paint it all when it can.
            state.fullRepaint = true
            state.damageRing.removeAll()
            return
        }
        let physicalRect = PixelRect(x: 0, y: 0, width: Int32(mode.width), height: Int32(mode.height))
        let physicalDamage = damage.transformed(by: screen.rotation, logicalSize: logical)
        // What this buffer missed: this frame's damage and that of every frame since it was last drawn.
        var bufferDamage = physicalDamage
        if buffer.age == 0 || buffer.age - 1 > state.damageRing.count {
            bufferDamage = Region(physicalRect)
        } else {
            for older in state.damageRing.prefix(buffer.age - 1) { bufferDamage.formUnion(older) }
        }
        if output.buffersAreCachedMemory && screen.rotation == .normal {
            // Paint in place: no shadow, no copy (what the benchmark's full frame is measured against).
            state.shadow = nil
            paint(layers, into: buffer.bitmap, damage: bufferDamage)
        } else {
            let shadow: Bitmap
            if let existing = state.shadow {
                shadow = existing
            } else {
                shadow = Bitmap(width: width, height: height, format: .xrgb8888)
                state.shadow = shadow
                // A new shadow holds nothing yet: paint all of it once.
                damage = Region(screenRect)
            }
            paint(layers, into: shadow, damage: damage)
            buffer.bitmap.copy(from: shadow, rotation: screen.rotation, region: bufferDamage)
        }
        state.damageRing.insert(physicalDamage, at: 0)
        if state.damageRing.count > Self.damageRingLength { state.damageRing.removeLast() }
        state.inFlight = true
        state.framesComposed += 1
        output.present(buffer, for: screen, damage: bufferDamage)
        frameObserver?(screen)
    }

    /// Walks the windows back to front and their views in tree order, redrawing the caches of views that
    /// asked for it (their dirty rects join `damage`), and returns the layers to paint.
    private func collectLayers(of windows: [Window], damage: inout Region) -> [Layer] {
        var layers: [Layer] = []
        for window in windows {
            let origin = window.frame.origin
            walk(window, origin: Point(x: origin.x, y: origin.y), clip: nil, alpha: 1, into: &layers, damage: &damage)
        }
        return layers
    }

    private func walk(
        _ view: View, origin: Point, clip: PixelRect?, alpha: Double,
        into layers: inout [Layer], damage: inout Region
    ) {
        guard !view.isHidden else { return }
        let alpha = alpha * view.alpha
        guard alpha > 0 else { return }
        // Pixel positions: views land on whole pixels, as UIKit rounds to the screen's pixel grid.
        let rect = PixelRect(
            x: Int32(origin.x.rounded()), y: Int32(origin.y.rounded()),
            width: Int32(view.bounds.width.rounded(.up)), height: Int32(view.bounds.height.rounded(.up)))
        let content = render(view, at: rect, clip: clip, damage: &damage)
        if !content.isEmpty {
            let opaque = alpha >= 1 && (view.isOpaque || content.isOpaqueFill)
            layers.append(
                Layer(
                    view: view, content: content,
                    placement: Placement(
                        rect: rect, clip: clip, alpha: alpha, content: content.identity,
                        index: layers.count, opaque: opaque)))
        }
        guard !view.subviews.isEmpty else { return }
        var childClip = clip
        if view.clipsToBounds { childClip = clip.map { $0.intersection(rect) } ?? rect }
        if let childClip, childClip.isEmpty { return }
        for subview in view.subviews {
            let frame = subview.frame
            let childOrigin = Point(x: origin.x - view.bounds.minX + frame.minX, y: origin.y - view.bounds.minY + frame.minY)
            walk(subview, origin: childOrigin, clip: childClip, alpha: alpha, into: &layers, damage: &damage)
        }
    }

    /// Brings `view`'s cached content up to date and says what to paint for it.
    private func render(_ view: View, at rect: PixelRect, clip: PixelRect?, damage: inout Region) -> LayerContent {
        let dirty = view.takeDirtyRect()
        var layer = view.rendering
        defer { view.rendering = layer }
        let sizeChanged = layer.cache.map { $0.width != Int(rect.width) || $0.height != Int(rect.height) } ?? false
        guard !dirty.isNull || sizeChanged || !layer.isValid else { return layer.content }

        // Views that only have a background colour (no draw(_:), no border, square corners) need no
        // bitmap: they are filled straight into the frame.
        let plain = view.borderWidth <= 0 && view.cornerRadius <= 0
        if plain && layer.drawsNothing {
            layer.cache = nil
            layer.content = view.backgroundColor.map { $0.alpha > 0 ? .fill($0) : .none } ?? .none
            layer.isValid = true
            damage.formUnion(clipped(rect, to: clip))
            return layer.content
        }
        guard rect.width > 0, rect.height > 0 else {
            layer.cache = nil
            layer.content = .none
            layer.isValid = true
            return .none
        }
        var redraw = dirty.isNull ? view.bounds : dirty
        if layer.cache == nil || sizeChanged || !layer.isValid {
            layer.cache = Bitmap(width: Int(rect.width), height: Int(rect.height), format: .argb32Premultiplied)
            redraw = view.bounds
        }
        let cache = layer.cache!
        // Dirty rect in the cache's pixels (the cache's origin is the bounds' origin).
        let local = Rect(
            x: redraw.minX - view.bounds.minX, y: redraw.minY - view.bounds.minY,
            width: redraw.width, height: redraw.height
        ).integral
        let context = DrawingContext(bitmap: cache)
        context.clip(to: local)
        context.clear(local)
        let full = Rect(x: 0, y: 0, width: view.bounds.width, height: view.bounds.height)
        if let background = view.backgroundColor, background.alpha > 0 {
            if view.cornerRadius > 0 {
                context.fillRoundedRect(full, radius: view.cornerRadius, color: background)
            } else {
                context.fill(full, color: background)
            }
        }
        context.save()
        context.translateBy(x: -view.bounds.minX, y: -view.bounds.minY)
        view.reachedDefaultDraw = false
        let previous = DrawingContext.current
        DrawingContext.current = context
        view.draw(Rect(x: local.minX + view.bounds.minX, y: local.minY + view.bounds.minY, width: local.width, height: local.height))
        DrawingContext.current = previous
        context.restore()
        if view.borderWidth > 0 {
            context.strokeRoundedRect(full, radius: view.cornerRadius, lineWidth: view.borderWidth, color: view.borderColor)
        }
        context.flush()
        layer.drawsNothing = view.reachedDefaultDraw
        layer.isValid = true
        layer.content = .bitmap(cache)
        if plain && layer.drawsNothing {
            // Learned that this view draws nothing itself: next time it is a plain fill.
            layer.cache = nil
            layer.content = view.backgroundColor.map { $0.alpha > 0 ? .fill($0) : .none } ?? .none
        }
        let dirtyOnScreen = PixelRect(
            x: rect.x + Int32(local.minX), y: rect.y + Int32(local.minY),
            width: Int32(local.width), height: Int32(local.height))
        damage.formUnion(clipped(dirtyOnScreen, to: clip))
        return layer.content
    }

    private func clipped(_ rect: PixelRect, to clip: PixelRect?) -> PixelRect {
        clip.map { rect.intersection($0) } ?? rect
    }

    /// Paints `damage` of the shadow: front to back to find what opaque layers hide, then back to front.
    private func paint(_ layers: [Layer], into shadow: Bitmap, damage: Region) {
        var covered = Region()
        var regions = [Region](repeating: Region(), count: layers.count)
        for index in layers.indices.reversed() {
            let placement = layers[index].placement
            var visible = damage.intersection(placement.visibleRect)
            if isOpaqueCullingEnabled { visible = visible.subtracting(covered) }
            regions[index] = visible
            if isOpaqueCullingEnabled, placement.opaque, !visible.isEmpty {
                covered.formUnion(placement.visibleRect)
            }
        }
        // The screen behind every window is black.
        let background = isOpaqueCullingEnabled ? damage.subtracting(covered) : damage
        if !background.isEmpty { shadow.fill(.black, operation: .source, in: background) }
        for (layer, region) in zip(layers, regions) where !region.isEmpty {
            let placement = layer.placement
            switch layer.content {
            case .none:
                break
            case .fill(let color):
                let faded = color.withAlphaComponent(color.alpha * placement.alpha)
                shadow.fill(faded, operation: faded.isOpaque ? .source : .over, in: region)
            case .bitmap(let bitmap):
                shadow.composite(
                    bitmap, operation: placement.opaque ? .source : .over, destination: placement.rect,
                    opacity: placement.alpha, clip: region)
            }
        }
    }
}

extension DrawingContext {
    /// The context a view's `draw(_:)` draws into (as `UIGraphicsGetCurrentContext()`); nil outside drawing.
    @MainActor public static var current: DrawingContext?
}

/// A compositor's cached rendering of one view.
struct LayerState {
    var cache: Bitmap?
    var content: LayerContent = .none
    /// False until the first render, and after anything that invalidates the whole cache.
    var isValid = false
    /// Learned from the last draw: the view's `draw(_:)` is the default one.
    var drawsNothing = false
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
    /// Position in the frame's back-to-front order: re-stacking changes it.
    var index: Int
    var opaque: Bool

    var visibleRect: PixelRect { clip.map { rect.intersection($0) } ?? rect }
}

struct Layer {
    let view: View
    let content: LayerContent
    let placement: Placement
}

@MainActor
final class ScreenState {
    /// The logical size last composed; a change repaints everything.
    var size = PixelRect.zero
    var shadow: Bitmap?
    var placements: [ObjectIdentifier: Placement] = [:]
    /// Damage of the frames before, newest first, in physical pixels.
    var damageRing: [Region] = []
    var needsFrame = false
    var fullRepaint = true
    var inFlight = false
    var framesComposed = 0
}
