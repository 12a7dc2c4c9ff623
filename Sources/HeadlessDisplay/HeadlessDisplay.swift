import Dispatch
import Foundation
import KioskKit
import Logging

/// A display backend with no hardware: screens that live in memory, for machines without a display
/// (CI, development) and for `--backend headless`. Each presented frame can be written as a PNG per
/// screen into a folder, and the last frame of every screen is written on `writeSnapshots()`.
///
/// Frames complete on the next turn of the main queue, as a page flip would complete on the next vblank,
/// so the compositor's one-frame-in-flight rule is exercised the same way as on DRM.
@MainActor
public final class HeadlessDisplay: DisplayBackend, FrameOutput {
    /// One headless screen: its connector-style name (`HEADLESS-1`, as wlroots names them) and modes.
    public struct ScreenSpec: Sendable, Equatable {
        public var name: String
        public var modes: [Screen.Mode]

        public init(name: String, modes: [Screen.Mode]) {
            self.name = name
            self.modes = modes
        }
    }

    private final class Output {
        let screen: Screen
        var buffer: Bitmap?
        var framesPresented = 0
        init(screen: Screen) { self.screen = screen }
    }

    private let specs: [ScreenSpec]
    /// Where PNG snapshots go; nil writes none.
    public let snapshotDirectory: URL?
    /// Write a PNG after every presented frame (else only on `writeSnapshots()`).
    public let writesEveryFrame: Bool
    public weak var compositor: Compositor?
    private var outputs: [String: Output] = [:]
    private let log = Logger(label: "kiosk.headless")

    public init(screens: [ScreenSpec], snapshotDirectory: URL?, writesEveryFrame: Bool = true) {
        specs = screens
        self.snapshotDirectory = snapshotDirectory
        self.writesEveryFrame = writesEveryFrame
    }

    /// Connects the screens (each with its first mode).
    public func start() {
        for spec in specs {
            let screen = outputs[spec.name]?.screen ?? Screen(name: spec.name, backend: self)
            outputs[spec.name] = Output(screen: screen)
            screen.connect(modes: spec.modes, preferredMode: spec.modes.first, currentMode: spec.modes.first)
        }
    }

    public var screens: [Screen] { specs.compactMap { outputs[$0.name]?.screen } }

    /// The last frame presented on `screen`.
    public func lastFrame(of screen: Screen) -> Bitmap? { outputs[screen.name]?.buffer }

    public func framesPresented(on screen: Screen) -> Int { outputs[screen.name]?.framesPresented ?? 0 }

    // MARK: DisplayBackend

    public func apply(_ mode: Screen.Mode, to screen: Screen) throws {
        // Memory has every mode; the buffer is re-made at the new size on the next frame.
        outputs[screen.name]?.buffer = nil
    }

    // MARK: FrameOutput

    /// Plain memory: the compositor paints unrotated frames straight into it.
    public var buffersAreCachedMemory: Bool { true }

    public func nextBuffer(for screen: Screen) -> FrameBuffer? {
        guard let output = outputs[screen.name], let mode = screen.currentMode else { return nil }
        if let buffer = output.buffer, buffer.width == mode.width, buffer.height == mode.height {
            // One buffer, always holding the previous frame.
            return FrameBuffer(bitmap: buffer, age: 1)
        }
        let buffer = Bitmap(width: mode.width, height: mode.height, format: .xrgb8888)
        output.buffer = buffer
        return FrameBuffer(bitmap: buffer, age: 0)
    }

    public func present(_ buffer: FrameBuffer, for screen: Screen, damage: Region) {
        guard let output = outputs[screen.name] else { return }
        output.framesPresented += 1
        if writesEveryFrame { writeSnapshot(of: output) }
        DispatchQueue.main.async {
            MainActor.assumeIsolated { self.compositor?.framePresented(on: screen) }
        }
    }

    /// Writes the last frame of every screen as `<snapshot dir>/<screen name>.png`.
    public func writeSnapshots() {
        for spec in specs { if let output = outputs[spec.name] { writeSnapshot(of: output) } }
    }

    /// The PNG path of `screen`'s snapshots.
    public func snapshotPath(of screen: Screen) -> String? {
        snapshotDirectory?.appendingPathComponent("\(screen.name).png").path
    }

    private func writeSnapshot(of output: Output) {
        guard let buffer = output.buffer, let path = snapshotPath(of: output.screen) else { return }
        // Write beside and rename, so a reader never sees half a PNG.
        let temporary = path + ".tmp"
        do {
            try buffer.writePNG(to: temporary)
            if rename(temporary, path) != 0 {
                log.error("could not rename \(temporary) to \(path): \(String(cString: strerror(errno)))")
            }
        } catch {
            log.error("could not write snapshot of \(output.screen.name): \(error)")
        }
    }
}
