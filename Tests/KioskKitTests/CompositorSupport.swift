import Foundation
import GoldenImages
import KioskTesting
import Testing

@testable import KioskKit

/// A frame output with `bufferCount` buffers used in turn, like a page-flipping display: it reports each
/// buffer's age and holds every presented frame until the test calls `flip()`.
@MainActor
final class TestOutput: FrameOutput {
    let bufferCount: Int
    private var buffers: [ObjectIdentifier: [Bitmap]] = [:]
    private var lastUsed: [ObjectIdentifier: [Int]] = [:]
    private var frameNumber: [ObjectIdentifier: Int] = [:]
    private(set) var presented: [(screen: String, damage: Region, age: Int)] = []
    private(set) var lastFrame: [String: Bitmap] = [:]
    weak var compositor: Compositor?
    /// When true, `present` calls `framePresented` at once (a display with no vblank wait).
    var flipsImmediately = true

    /// Whether the compositor may paint straight into these buffers (as into the headless backend's).
    let buffersAreCachedMemory: Bool
    /// The rotations this display turns frames by in scanout (as a DRM plane with a `rotation` property).
    var scanoutRotations: Set<Rotation> = []

    func rotatesInScanout(_ rotation: Rotation, for screen: Screen) -> Bool { scanoutRotations.contains(rotation) }

    init(bufferCount: Int = 1, cachedMemory: Bool = false) {
        self.bufferCount = bufferCount
        buffersAreCachedMemory = cachedMemory
    }

    func nextBuffer(for screen: Screen) -> FrameBuffer? {
        guard let mode = screen.currentMode else { return nil }
        let id = ObjectIdentifier(screen)
        if buffers[id]?.first.map({ $0.width != mode.width || $0.height != mode.height }) ?? true {
            buffers[id] = (0..<bufferCount).map { _ in Bitmap(width: mode.width, height: mode.height, format: .xrgb8888) }
            lastUsed[id] = Array(repeating: 0, count: bufferCount)
        }
        let number = (frameNumber[id] ?? 0) + 1
        frameNumber[id] = number
        let index = number % bufferCount
        let used = lastUsed[id]![index]
        lastUsed[id]![index] = number
        return FrameBuffer(bitmap: buffers[id]![index], age: used == 0 ? 0 : number - used)
    }

    func present(_ buffer: FrameBuffer, for screen: Screen, damage: Region) {
        presented.append((screen.name, damage, buffer.age))
        lastFrame[screen.name] = buffer.bitmap
        if flipsImmediately { compositor?.framePresented(on: screen) }
    }

    func flip(_ screen: Screen) { compositor?.framePresented(on: screen) }
}

/// A test bed with a compositor on a small screen, so golden images stay small.
@MainActor
final class RenderBed {
    let bed: TestBed
    let output: TestOutput
    let compositor: Compositor

    init(
        width: Int = 320, height: Int = 240, rotation: Rotation = .normal, buffers: Int = 1, cachedMemory: Bool = false,
        refreshRate: Double = 60
    ) {
        bed = TestBed(screens: [])
        bed.backend.connect("Virtual-1", modes: [Screen.Mode(width: width, height: height, refreshRate: refreshRate)])
        Screen.main.rotation = rotation
        output = TestOutput(bufferCount: buffers, cachedMemory: cachedMemory)
        compositor = Compositor(output: output, application: bed.app)
        output.compositor = compositor
    }

    var screen: Screen { Screen.main }

    /// Composes what changed and returns the physical frame on the output.
    @discardableResult
    func render() -> Bitmap {
        compositor.composePendingFrames()
        return output.lastFrame[screen.name]!
    }
}

/// Compares `image` with `Tests/KioskKitTests/Golden/<name>.png` (`GoldenImages`).
@MainActor
func expectGolden(_ image: Bitmap, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    try GoldenImages.expectGolden(image, named: name, in: folder, sourceLocation: sourceLocation)
}

/// The colour of a pixel of an XRGB frame, without the undefined top byte.
func rgb(_ bitmap: Bitmap, _ x: Int, _ y: Int) -> UInt32 { bitmap.pixel(x: x, y: y) & 0xFFFFFF }

/// A view that counts its `draw(_:)` calls and fills itself with `color`.
@MainActor
final class CountingView: View {
    var draws = 0
    var color: Color
    init(frame: Rect, color: Color) {
        self.color = color
        super.init(frame: frame)
    }
    override func draw(_ rect: Rect) {
        draws += 1
        DrawingContext.current?.fill(bounds, color: color)
    }
}

/// Hides `view`, which animates itself, lets its next step come due at `due` and checks that no timer
/// follows and no frame comes until `until`; then shows it again (a view that paces itself by being seen).
@MainActor
func expectNothingRunsWhileHidden(
    _ view: View, bed: RenderBed, clock: ManualClock, due: TimeInterval, until: TimeInterval,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    view.isHidden = true
    bed.render()
    clock.advance(to: due)
    bed.render()
    #expect(clock.pendingTimers.isEmpty, "a timer while hidden", sourceLocation: sourceLocation)
    let presented = bed.output.presented.count
    clock.advance(to: until)
    bed.render()
    #expect(bed.output.presented.count == presented, "no frame while hidden", sourceLocation: sourceLocation)
    view.isHidden = false
}
