import Testing

@testable import KioskKit

/// A display with planes, as a DRM card with overlay and cursor planes is: one buffer for the composed
/// frame, a buffer per plane that takes a copy of what the compositor gives it, and a scanout that blends
/// them as the display does (each plane OVER the primary, back to front). It refuses what `refuses` says.
@MainActor
final class PlaneOutput: FrameOutput {
    let offered: [DisplayPlane]
    var refuses: ([PlaneLayer]) -> Bool = { _ in false }
    weak var compositor: Compositor?
    private var primary: [String: Bitmap] = [:]
    /// What each plane shows now: its buffer and where.
    private(set) var shown: [UInt32: (bitmap: Bitmap, destination: PixelRect)] = [:]
    private(set) var framesPresented = 0
    private(set) var planeMovesPresented = 0
    private(set) var proposalsTested: [[UInt32]] = []
    private(set) var lastDamage = Region()

    init(planes: [DisplayPlane]) { offered = planes }

    func nextBuffer(for screen: Screen) -> FrameBuffer? {
        guard let mode = screen.currentMode else { return nil }
        if primary[screen.name].map({ $0.width != mode.width || $0.height != mode.height }) ?? true {
            primary[screen.name] = Bitmap(width: mode.width, height: mode.height, format: .xrgb8888)
            return FrameBuffer(bitmap: primary[screen.name]!, age: 0)
        }
        return FrameBuffer(bitmap: primary[screen.name]!, age: 1)
    }

    func present(_ buffer: FrameBuffer, for screen: Screen, damage: Region) {
        present(buffer, for: screen, damage: damage, planes: [])
    }

    func planes(for screen: Screen) -> [DisplayPlane] { offered }

    func accepts(_ layers: [PlaneLayer], for screen: Screen) -> Bool {
        proposalsTested.append(layers.map(\.plane.id))
        return !refuses(layers)
    }

    func present(_ buffer: FrameBuffer?, for screen: Screen, damage: Region, planes: [PlaneLayer]) {
        if buffer != nil {
            framesPresented += 1
            lastDamage = damage
        } else {
            planeMovesPresented += 1
        }
        var now: [UInt32: (bitmap: Bitmap, destination: PixelRect)] = [:]
        for layer in planes {
            if let content = layer.content {
                // The display's own buffer: a copy, as DRM copies into its dumb buffer.
                let copy = Bitmap(width: content.width, height: content.height, format: content.format)
                copy.composite(content, operation: .source, destination: content.bounds)
                now[layer.plane.id] = (copy, layer.destination)
            } else {
                let old = shown[layer.plane.id]
                #expect(old != nil, "\(layer.plane) was given no pixels before it was moved")
                if let old { now[layer.plane.id] = (old.bitmap, layer.destination) }
            }
        }
        shown = now
        compositor?.framePresented(on: screen)
    }

    /// What the display shows: the composed frame with each plane over it, back to front.
    func scanout(of screen: Screen) -> Bitmap {
        let frame = primary[screen.name]!
        let image = Bitmap(width: frame.width, height: frame.height, format: .xrgb8888)
        image.composite(frame, operation: .source, destination: frame.bounds)
        for plane in offered.sorted(by: { $0.zOrder < $1.zOrder }) {
            guard let (bitmap, destination) = shown[plane.id] else { continue }
            image.composite(bitmap, operation: .over, destination: destination)
        }
        return image
    }
}

/// Whether two XRGB frames show the same colours (the top byte is undefined).
func sameColours(_ a: Bitmap, _ b: Bitmap) -> Bool {
    guard a.width == b.width, a.height == b.height else { return false }
    for y in 0..<a.height {
        for x in 0..<a.width where rgb(a, x, y) != rgb(b, x, y) { return false }
    }
    return true
}
