import Dispatch
import Foundation
import HeadlessDisplay
import KioskKit
import Logging

/// How `kiosk run` was asked to run.
public struct RuntimeOptions: Sendable {
    /// Which display backend drives the screens.
    public enum Backend: String, CaseIterable, Sendable {
        /// The display hardware when there is a usable one, else headless (said in the log).
        case auto
        /// Screens in memory, frames written as PNG snapshots.
        case headless
    }

    public var backend: Backend = .auto
    /// Where the headless backend writes `<screen>.png`; nil: `./snapshots`.
    public var snapshotDirectory: String?
    /// The headless screens' modes, `WxH` or `WxH@Hz`, one screen each (`HEADLESS-1`, `HEADLESS-2`, ...).
    public var headlessScreens: [String] = ["1280x800"]
    /// `--trace FILE`.
    public var tracePath: String?
    /// Stop after this many seconds (demos, tests); nil: run until SIGTERM or SIGINT.
    public var exitAfter: Double?

    public init() {}
}

/// The run loop of a kiosk: picks the display backend, brings up the screens, starts the compositor and
/// the app, and runs the main queue until SIGTERM or SIGINT. Everything happens on the main actor; the
/// main queue sleeps when nothing changes (no polling, no timers of our own).
@MainActor
public final class KioskRuntime {
    public let options: RuntimeOptions
    public let delegate: any ApplicationDelegate
    public let application: Application
    private var headless: HeadlessDisplay?
    private(set) var compositor: Compositor?
    private var trace: Trace?
    private var signalSources: [DispatchSourceSignal] = []
    private var tokens: [NSObjectProtocol] = []
    private let log = Logger(label: "kiosk.runtime")

    public init(options: RuntimeOptions, delegate: any ApplicationDelegate, application: Application = .shared) {
        self.options = options
        self.delegate = delegate
        self.application = application
    }

    /// Starts everything; throws, before touching any display, what the user must fix.
    public func start() throws(RuntimeError) {
        let specs = try headlessSpecs()
        if let tracePath = options.tracePath {
            trace = try Trace(path: tracePath, application: application)
        }
        switch options.backend {
        case .headless:
            log.info("headless backend (requested)")
        case .auto:
            let cards = Self.drmCards()
            if cards.isEmpty {
                log.notice("no display device found (/dev/dri has no card*): using the headless backend")
            } else {
                log.notice("found \(cards.joined(separator: ", ")), but this build has no DRM/KMS backend yet: using the headless backend")
            }
        }
        let directory = URL(fileURLWithPath: options.snapshotDirectory ?? "snapshots",
                            relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .cannotWrite(path: directory.path, what: "snapshot folder", reason: "\(error)")
        }
        let display = HeadlessDisplay(screens: specs, snapshotDirectory: directory)
        headless = display

        let compositor = Compositor(output: display, application: application)
        display.compositor = compositor
        self.compositor = compositor
        compositor.frameObserver = { [weak self] screen in
            guard let self else { return }
            self.trace?.recordFrame(on: screen, number: compositor.framesComposed(on: screen))
        }
        observeScreens()
        display.start()
        for screen in display.screens {
            log.info("screen \(screen.name): \(screen.currentMode.map { "\($0)" } ?? "off"), snapshots in \(display.snapshotPath(of: screen) ?? "-")")
        }
        installSignalHandlers()
        delegate.applicationDidFinishLaunching(application)
        if let seconds = options.exitAfter {
            DispatchQueue.main.asyncAfter(deadline: .now() + seconds) {
                MainActor.assumeIsolated { () -> Void in self.stop(reason: "--exit-after \(seconds) s elapsed") }
            }
        }
    }

    /// Starts and runs the main queue forever (until a signal stops the process).
    public func run() throws(RuntimeError) -> Never {
        try start()
        dispatchMain()
    }

    /// Writes the last frames, closes the trace and exits.
    public func stop(reason: String) -> Never {
        log.info("stopping: \(reason)")
        compositor?.composePendingFrames()
        headless?.writeSnapshots()
        trace?.stop()
        exit(0)
    }

    private func headlessSpecs() throws(RuntimeError) -> [HeadlessDisplay.ScreenSpec] {
        var specs: [HeadlessDisplay.ScreenSpec] = []
        for (index, text) in options.headlessScreens.enumerated() {
            guard let spec = HeadlessDisplay.ScreenSpec.parse(text, name: "HEADLESS-\(index + 1)") else {
                throw .invalidOption("--headless-screen", value: text, valid: "WxH or WxH@Hz, e.g. 1920x1080 or 1280x800@60")
            }
            specs.append(spec)
        }
        return specs
    }

    private func observeScreens() {
        let center = application.notificationCenter
        tokens.append(center.addObserver(forName: Screen.didConnectNotification, object: nil, queue: nil) { [weak self] note in
            nonisolated(unsafe) let object = note.object
            MainActor.assumeIsolated {
                if let screen = object as? Screen { self?.delegate.screenDidConnect(screen) }
            }
        })
        tokens.append(center.addObserver(forName: Screen.didDisconnectNotification, object: nil, queue: nil) { [weak self] note in
            nonisolated(unsafe) let object = note.object
            MainActor.assumeIsolated {
                if let screen = object as? Screen { self?.delegate.screenDidDisconnect(screen) }
            }
        })
    }

    private func installSignalHandlers() {
        for (number, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
            // The default action would kill the process before the snapshots are written.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler {
                MainActor.assumeIsolated { () -> Void in self.stop(reason: name) }
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// `/dev/dri/card*` nodes present on this machine.
    static func drmCards() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/dri")) ?? []
        return names.filter { $0.hasPrefix("card") }.sorted().map { "/dev/dri/\($0)" }
    }
}
