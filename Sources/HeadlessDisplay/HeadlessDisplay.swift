import Dispatch
import Geometry
import Glibc
import KioskBackend
import KioskConfig
import KioskKit
import Logging

/// A display backend with no hardware: screens that live in memory, for machines without a display (CI,
/// development) and for `--backend headless`. Each presented frame is written as `<screen>.png` into the
/// snapshot folder, and the last frame of every screen once more on `stop()`.
///
/// It honours the per-screen settings as a board would (`[screens.NAME]` or `--mode`/`--rotate` for its
/// screens' names: a mode, `off`, a rotation, the primary), so the PNG shows what the board will show. A
/// memory buffer has every mode: a configured `WxH@Hz` is taken as it is.
///
/// Frames complete on the next turn of the main queue, as a page flip would complete on the next vblank,
/// so the compositor's one-frame-in-flight rule is exercised the same way as on DRM.
@MainActor
public final class HeadlessDisplay: DisplayBackend {
    public nonisolated static let name = "headless"

    private final class Output {
        let screen: Screen
        let spec: HeadlessScreen
        var buffer: Bitmap?
        var framesPresented = 0
        init(screen: Screen, spec: HeadlessScreen) {
            self.screen = screen
            self.spec = spec
        }
    }

    /// Where PNG snapshots go; nil writes none.
    public var snapshotDirectory: String? { snapshots?.path }
    private let snapshots: SnapshotFolder?
    /// Write a PNG after every presented frame (else only on `writeSnapshots()`).
    public let writesEveryFrame: Bool
    public weak var compositor: Compositor?
    public var drivesDisplays: Bool { false }
    private let application: Application
    private var configuration: KioskConfiguration
    private var outputs: [Output] = []
    /// Each screen's settings, resolved once at start and on each reload (by name: memory has no EDID).
    private var screenSettings = ScreenSettingsStore()
    private let log = Logger(label: "kiosk.headless")

    /// The configuration's `headless-screens`, snapshots in its `snapshot-dir` (made when missing).
    public convenience init(context: BackendContext) throws(BackendError) {
        var directory = context.configuration.snapshotDirectory
        if !directory.hasPrefix("/") {
            // Absolute, so the log says where the pictures are whatever the reader's folder.
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
            if getcwd(&buffer, buffer.count) != nil {
                let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                directory = directory == "." ? cwd : cwd + "/" + (directory.hasPrefix("./") ? String(directory.dropFirst(2)) : directory)
            }
        }
        let snapshots: SnapshotFolder
        do { snapshots = try SnapshotFolder(path: directory) } catch {
            throw .failed(Self.name, "cannot write into the snapshot folder \(directory): \(error)")
        }
        self.init(configuration: context.configuration, application: context.application, snapshots: snapshots)
    }

    /// Screens from `configuration` without a runtime; `snapshotDirectory` nil writes no PNG (one that
    /// cannot be written into throws, as at a kiosk's start).
    public convenience init(
        configuration: KioskConfiguration, application: Application = .shared, snapshotDirectory: String?,
        writesEveryFrame: Bool = true
    ) throws(BackendError) {
        var snapshots: SnapshotFolder?
        if let snapshotDirectory {
            do { snapshots = try SnapshotFolder(path: snapshotDirectory) } catch {
                throw .failed(Self.name, "cannot write into the snapshot folder \(snapshotDirectory): \(error)")
            }
        }
        self.init(configuration: configuration, application: application, snapshots: snapshots, writesEveryFrame: writesEveryFrame)
    }

    private init(
        configuration: KioskConfiguration, application: Application, snapshots: SnapshotFolder?, writesEveryFrame: Bool = true
    ) {
        self.configuration = configuration
        self.application = application
        self.snapshots = snapshots
        self.writesEveryFrame = writesEveryFrame
    }

    /// Connects each screen in its configured mode (its own unless configured; none when `off`).
    public func start() {
        for spec in configuration.headlessScreens {
            let screen = outputs.first { $0.spec.name == spec.name }?.screen ?? Screen(name: spec.name, driver: self)
            if !outputs.contains(where: { $0.screen === screen }) { outputs.append(Output(screen: screen, spec: spec)) }
        }
        apply(log: log)
        for output in outputs where output.screen.isConnected {
            let mode = output.screen.currentMode.map { "\($0)" } ?? "off"
            log.info(
                "screen \(output.spec.name): \(mode), rotation \(output.screen.rotation), snapshots in \(snapshotPath(of: output.screen) ?? "-")"
            )
        }
    }

    public var screens: [Screen] { outputs.map(\.screen) }

    public func reconfigure(_ configuration: KioskConfiguration) {
        self.configuration = configuration
        apply(log: Logger(label: "kiosk.config"))
    }

    public func settings(of screen: Screen) -> ResolvedScreen { screenSettings[screen.name] }

    /// Brings each screen to what the configuration says: its mode (or off) and rotation; the primary.
    private func apply(log: Logger) {
        screenSettings.resolve(outputs.map { ($0.spec.name, nil) }, in: configuration)
        for output in outputs {
            let spec = output.spec, screen = output.screen
            let settings = screenSettings[spec.name]
            if settings.isPrimary { application.preferredMainScreenName = spec.name }
            let mode: DisplayMode
            switch settings.mode {
            case .off:
                if screen.isConnected {
                    log.info("\(spec.name): off")
                    screen.disconnect()
                }
                continue
            case let .size(width, height, refresh)?:
                mode =
                    width == spec.mode.width && height == spec.mode.height && refresh == nil
                    ? spec.mode
                    : DisplayMode(width: width, height: height, refreshRate: refresh ?? spec.mode.refreshRate)
            case .preferred?, .current?, nil:
                mode = spec.mode
            }
            let modes = mode == spec.mode ? [spec.mode] : [spec.mode, mode]
            screen.rotation = settings.rotation ?? .normal
            screen.apply(overscan: settings.overscan)
            if screen.isConnected {
                screen.update(modes: modes, preferredMode: spec.mode, currentMode: mode)
            } else {
                screen.connect(modes: modes, preferredMode: spec.mode, currentMode: mode)
            }
        }
    }

    /// The last frame presented on `screen`.
    public func lastFrame(of screen: Screen) -> Bitmap? { output(screen)?.buffer }

    public func framesPresented(on screen: Screen) -> Int { output(screen)?.framesPresented ?? 0 }

    private func output(_ screen: Screen) -> Output? { outputs.first { $0.screen === screen } }

    // MARK: ScreenDriver

    public func apply(_ mode: Screen.Mode, to screen: Screen) throws {
        // Memory has every mode; the buffer is re-made at the new size on the next frame.
        output(screen)?.buffer = nil
    }

    // MARK: FrameOutput

    /// Plain memory: the compositor paints unrotated frames straight into it.
    public var buffersAreCachedMemory: Bool { true }

    public func nextBuffer(for screen: Screen) -> FrameBuffer? {
        guard let output = output(screen), let mode = screen.currentMode else { return nil }
        if let buffer = output.buffer, buffer.width == mode.width, buffer.height == mode.height {
            // One buffer, always holding the previous frame.
            return FrameBuffer(bitmap: buffer, age: 1)
        }
        let buffer = Bitmap(width: mode.width, height: mode.height, format: .xrgb8888)
        output.buffer = buffer
        return FrameBuffer(bitmap: buffer, age: 0)
    }

    public func present(_ buffer: FrameBuffer, for screen: Screen, damage: Region) {
        guard let output = output(screen) else { return }
        output.framesPresented += 1
        if writesEveryFrame { writeSnapshot(of: output) }
        DispatchQueue.main.async {
            MainActor.assumeIsolated { self.compositor?.framePresented(on: screen) }
        }
    }

    // MARK: Session and shutdown

    /// No session to lose.
    public func pause() {}
    public func resume() {}

    /// Writes the last frame of every screen.
    public func stop() { writeSnapshots() }

    /// Writes the last frame of every screen as `<snapshot dir>/<screen name>.png`.
    public func writeSnapshots() {
        for output in outputs { writeSnapshot(of: output) }
    }

    /// The PNG path of `screen`'s snapshots.
    public func snapshotPath(of screen: Screen) -> String? { snapshots?.file(of: screen.name) }

    private func writeSnapshot(of output: Output) {
        guard let buffer = output.buffer, let snapshots else { return }
        snapshots.write(buffer, of: output.screen.name)
    }
}
