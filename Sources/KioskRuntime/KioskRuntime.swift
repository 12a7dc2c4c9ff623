import Dispatch
import DRM
import DRMDisplay
import FBDevDisplay
import Foundation
import HeadlessDisplay
import KioskConfig
import Seat
import Udev
import KioskKit
import Logging

/// How `kiosk run` was asked to run.
public struct RuntimeOptions: Sendable {
    /// Which display backend drives the screens.
    public enum Backend: String, CaseIterable, Sendable {
        /// The display hardware when there is a usable one, else headless (said in the log).
        case auto
        /// A DRM/KMS card; failing to find a usable one is an error.
        case drm
        /// A Linux framebuffer device (`/dev/fb0`), for boards without KMS.
        case fbdev
        /// Screens in memory, frames written as PNG snapshots.
        case headless
    }

    /// The DRM card to use (`/dev/dri/card1`); nil: `KIOSK_DRM_DEVICE`, else the first usable card.
    public var drmDevice: String?
    /// The config file's screens (matched by connector name or EDID); `modeRequests` and `rotations`
    /// from the command line win over them.
    public var screens: [ScreenConfiguration] = []
    /// Per connector name: the mode asked for on the command line.
    public var modeRequests: [String: ModeRequest] = [:]
    /// Per connector name: the rotation asked for on the command line.
    public var rotations: [String: Rotation] = [:]
    /// The config file read at start, re-read on SIGHUP; nil: none.
    public var configurationPath: String?
    /// Use the legacy modesetting API even where atomic works (`KIOSK_NO_ATOMIC=1`).
    public var noAtomic = false
    /// The framebuffer device for the fbdev backend; nil: `KIOSK_FBDEV_DEVICE`, else `/dev/fb0`.
    public var fbdevDevice: String?
    /// The connector that is the main screen whenever it is connected.
    public var primary: String?
    /// The udev seat whose input devices the kiosk reads.
    public var seat = "seat0"
    /// The mouse cursor: `auto` (while a pointer moves), `hidden`, `always`.
    public var cursor = "auto"
    /// Touch device → screen rules (the config's `[[touch]]`), first match wins.
    public var touchRules: [TouchMapping.Rule] = []
    /// Calibration matrices of those rules, applied through libinput.
    public var touchCalibrations: [TouchMapping.Rule: [Double]] = [:]
    /// Touch devices with calibration off (identity), for `kiosk calibrate`.
    public var rawTouch = false
    /// Hotplug events closer together than this are coalesced and only the final state is acted on.
    public var hotplugDebounce: TimeInterval = 0.3

    public var backend: Backend = .auto
    /// Where the headless backend writes `<screen>.png`; nil: `./snapshots`.
    public var snapshotDirectory: String?
    /// The headless screens' modes, `WxH`, `WxH@Hz` or `NAME=WxH@Hz`, one screen each (`HEADLESS-1`, `HEADLESS-2`, ... unless named).
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
    public private(set) var options: RuntimeOptions
    public let delegate: any ApplicationDelegate
    public let application: Application
    private var headless: HeadlessDisplay?
    private var drm: DRMDisplay?
    private var drmScreens: DRMScreens?
    private var fbdev: FBDevDisplay?
    private var session: Session?
    private var input: InputManager?
    private var drmSeatDevice: SeatDevice?
    private var hasLaunched = false
    private let service = ServiceManager()
    private var hotplugSource: (any DispatchSourceRead)?
    private var hotplugMonitor: UdevMonitor?
    private var reprobe: Debouncer?
    private let hotplugLog = Logger(label: "kiosk.hotplug")
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
        // auto: DRM/KMS, else fbdev, else headless; an explicit backend that cannot run is an error.
        let output: any FrameOutput
        if [.auto, .drm].contains(options.backend), let display = try openDRM() {
            drm = display
            output = display
        } else if [.auto, .fbdev].contains(options.backend), let display = try openFBDev() {
            fbdev = display
            output = display
        } else {
            output = try makeHeadless(specs: specs)
        }
        let compositor = Compositor(output: output, application: application)
        self.compositor = compositor
        headless?.compositor = compositor
        drm?.compositor = compositor
        fbdev?.compositor = compositor
        compositor.frameObserver = { [weak self] screen in
            guard let self else { return }
            self.trace?.recordFrame(on: screen, number: compositor.framesComposed(on: screen))
            self.service.ready(status: self.statusLine())
        }
        observeScreens()
        application.preferredMainScreenName = options.primary
        if let drm {
            let screens = DRMScreens(display: drm, configurations: options.screens, modeRequests: options.modeRequests,
                                     rotations: options.rotations)
            screens.primary = options.primary
            drmScreens = screens
            screens.update(logger: Logger(label: "kiosk.drm"))
            watchHotplug(card: drm.cardName)
            if Screen.screens.isEmpty { log.notice("\(drm.cardName): no display connected yet; waiting for one") }
        } else if let fbdev {
            fbdev.start()
        } else if let headless {
            headless.start()
            for screen in headless.screens {
                log.info("screen \(screen.name): \(screen.currentMode.map { "\($0)" } ?? "off"), snapshots in \(headless.snapshotPath(of: screen) ?? "-")")
            }
        }
        // Input comes with real displays only: the headless backend runs on development machines, where
        // opening a seat as root would take over the console (libseat's builtin backend).
        if drm != nil || fbdev != nil { startInput() }
        routeSessionEvents()
        installSignalHandlers()
        delegate.applicationDidFinishLaunching(application)
        hasLaunched = true
        service.start()
        if application.screens.isEmpty { service.ready(status: statusLine()) }
        if let seconds = options.exitAfter {
            DispatchQueue.main.asyncAfter(deadline: .now() + seconds) {
                MainActor.assumeIsolated { () -> Void in self.stop(reason: "--exit-after \(seconds) s elapsed") }
            }
        }
    }

    private func startInput() {
        if session == nil {
            do { session = try Session.open() } catch { log.warning("\(error); opening input devices directly") }
        }
        let mode = Cursor.Mode(rawValue: options.cursor) ?? .auto
        let input = InputManager(application: application, session: session, rules: options.touchRules,
                                 calibrations: options.touchCalibrations, cursor: Cursor(mode: mode)) { [weak self] name in
            guard let self else { return nil }
            if let drm = self.drm { return drm.screen(named: name) }
            if let fbdev = self.fbdev, fbdev.screen.name == name { return fbdev.screen }
            return nil
        }
        input.rawTouch = options.rawTouch
        do {
            try input.start(seat: options.seat)
            self.input = input
        } catch {
            log.error("input is off: \(error)")
            return
        }
        let center = application.notificationCenter
        for name in [Screen.didConnectNotification, Screen.didDisconnectNotification, Screen.modeDidChangeNotification] {
            tokens.append(center.addObserver(forName: name, object: nil, queue: nil) { [weak self] _ in
                MainActor.assumeIsolated { self?.input?.remap() }
            })
        }
    }

    /// The session's disable and enable reach every device user.
    private func routeSessionEvents() {
        session?.onDisable = { [weak self] in
            self?.drm?.pause()
            self?.input?.suspend()
        }
        session?.onEnable = { [weak self] in
            self?.drm?.resume()
            self?.input?.resume()
        }
    }

    /// The DRM backend on the chosen card, or nil (auto: no usable card, said in the log).
    private func openDRM() throws(RuntimeError) -> DRMDisplay? {
        let requested = options.drmDevice ?? ProcessInfo.processInfo.environment["KIOSK_DRM_DEVICE"]
        let candidates = requested.map { [$0] } ?? DRMCards.nodes()
        var rejections: [String] = []
        if !candidates.isEmpty && session == nil {
            do {
                session = try Session.open()
            } catch {
                // Without a seat the devices can still be opened by root or the video group; say so.
                log.warning("\(error); opening devices directly")
            }
        }
        for path in candidates {
            let device: DRMDevice
            var seatDevice: SeatDevice?
            do {
                if let session {
                    let opened = try session.openDevice(path: path)
                    seatDevice = opened
                    device = DRMDevice(fileDescriptor: opened.fileDescriptor, path: path)
                } else {
                    device = try DRMDevice.open(path: path)
                }
            } catch {
                rejections.append("\(path): \(error)")
                continue
            }
            if let reason = DRMCards.rejection(of: device) {
                rejections.append("\(path): \(reason)")
                if let seatDevice { session?.closeDevice(seatDevice) }
                continue
            }
            let noAtomic = options.noAtomic || ProcessInfo.processInfo.environment["KIOSK_NO_ATOMIC"] == "1"
            do {
                let display = try DRMDisplay(device: device, cardName: DRMCards.name(of: path), atomic: !noAtomic)
                for rejection in rejections { log.info("skipped \(rejection)") }
                log.notice("using \(path)")
                drmSeatDevice = seatDevice
                return display
            } catch {
                rejections.append("\(path): \(error)")
                if let seatDevice { session?.closeDevice(seatDevice) }
            }
        }
        for rejection in rejections { log.notice("skipped \(rejection)") }
        let reason = candidates.isEmpty ? "no DRM card (udev lists no drm card*)" : "no usable DRM card among \(candidates.joined(separator: ", "))"
        if options.backend == .drm { throw .backendUnavailable("drm", reason: reason) }
        log.notice("\(reason)")
        return nil
    }

    /// The fbdev backend, or nil (auto: no framebuffer device, said in the log).
    private func openFBDev() throws(RuntimeError) -> FBDevDisplay? {
        let path = options.fbdevDevice ?? ProcessInfo.processInfo.environment["KIOSK_FBDEV_DEVICE"] ?? "/dev/fb0"
        guard options.backend == .fbdev || FileManager.default.fileExists(atPath: path) else {
            log.notice("no framebuffer device (\(path)): using the headless backend")
            return nil
        }
        do {
            let display = try FBDevDisplay(path: path)
            log.notice("using the fbdev backend on \(path)")
            return display
        } catch {
            if options.backend == .fbdev { throw .backendUnavailable("fbdev", reason: "\(error)") }
            log.notice("\(error): using the headless backend")
            return nil
        }
    }

    /// A udev monitor on `drm` in the main queue: a `change` with `HOTPLUG=1` for our card re-probes its
    /// connectors, debounced, so a flapping link is acted on once, in its final state.
    private func watchHotplug(card: String) {
        let monitor: UdevMonitor
        do {
            monitor = try UdevMonitor(udev: try Udev(), subsystems: ["drm"])
        } catch {
            hotplugLog.error("cannot watch for display hotplug: \(error); screens stay as found at start")
            return
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: monitor.fileDescriptor, queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated {
                guard let self else { return }
                let events: [UdevDevice]
                do { events = try monitor.receiveAll() } catch {
                    // ENOBUFS: events were lost; re-probing covers whatever they said.
                    self.hotplugLog.warning("udev monitor: \(error); re-probing")
                    self.scheduleReprobe(reason: "lost udev events")
                    return
                }
                for event in events where event.sysname == card && event.action == "change" && event.properties["HOTPLUG"] == "1" {
                    let connector = event.properties["CONNECTOR"].map { " (connector \($0))" } ?? ""
                    self.scheduleReprobe(reason: "uevent HOTPLUG=1 on \(card)\(connector)")
                }
            }
        }
        source.resume()
        hotplugSource = source
        hotplugMonitor = monitor
    }

    private func scheduleReprobe(reason: String) {
        hotplugLog.debug("\(reason); acting in \(Int(options.hotplugDebounce * 1000)) ms unless more events come")
        let debouncer = reprobe ?? Debouncer(delay: options.hotplugDebounce) { [weak self] in
            guard let self else { return }
            self.drmScreens?.update(logger: self.hotplugLog)
        }
        reprobe = debouncer
        debouncer.signal()
    }

    private func makeHeadless(specs: [HeadlessDisplay.ScreenSpec]) throws(RuntimeError) -> HeadlessDisplay {
        if options.backend == .headless { log.info("headless backend (requested)") }
        let directory = URL(fileURLWithPath: options.snapshotDirectory ?? "snapshots",
                            relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw .cannotWrite(path: directory.path, what: "snapshot folder", reason: "\(error)")
        }
        let display = HeadlessDisplay(screens: specs, snapshotDirectory: directory)
        headless = display
        return display
    }

    /// SIGHUP: re-reads the config file and applies modes, rotation, touch mapping, the primary screen
    /// and the cursor without restarting the app; a file with problems is rejected whole, its problems
    /// logged, and the running configuration kept.
    public func reload() {
        guard let path = options.configurationPath else {
            log.notice("SIGHUP: no config file to re-read (started without one)")
            return
        }
        service.reloading()
        let configLog = Logger(label: "kiosk.config")
        switch KioskConfiguration.load(path: path, requireFile: true) {
        case .failure(let errors):
            for problem in errors.problems { configLog.error("\(problem)") }
            configLog.error("SIGHUP: \(path) has \(errors.problems.count) problem(s); keeping the running configuration")
        case .success(let configuration):
            var updated = options
            updated.apply(configuration)
            // What the command line set still wins.
            updated.modeRequests = options.modeRequests
            updated.rotations = options.rotations
            options = updated
            application.preferredMainScreenName = options.primary
            drmScreens?.configurations = options.screens
            drmScreens?.primary = options.primary
            drmScreens?.update(logger: configLog)
            input?.rules = options.touchRules
            input?.calibrations = options.touchCalibrations
            input?.reconfigure()
            input?.cursor.mode = Cursor.Mode(rawValue: options.cursor) ?? .auto
            configLog.notice("SIGHUP: applied \(path)")
        }
        service.reloaded(status: statusLine())
    }

    /// What `systemctl status` shows: the screens and their modes.
    private func statusLine() -> String {
        let screens = application.screens.map { "\($0.name) \($0.currentMode.map { "\($0)" } ?? "off")" }
        return screens.isEmpty ? "running, no display connected" : "running on " + screens.joined(separator: ", ")
    }

    /// The name of the device of the last touch-down.
    public var lastTouchDeviceName: String? { input?.lastTouchDeviceName }

    /// Starts and runs the main queue forever (until a signal stops the process).
    public func run() throws(RuntimeError) -> Never {
        try start()
        dispatchMain()
    }

    /// Writes the last frames, closes the trace and exits with `status`.
    public func stop(reason: String, status: Int32 = 0) -> Never {
        log.info("stopping: \(reason)")
        service.stopping()
        compositor?.composePendingFrames()
        headless?.writeSnapshots()
        // Reverse order of opening: input, the displays' state, then the devices, then the seat.
        input = nil
        drm?.restoreInitialState()
        fbdev?.restore()
        if let drmSeatDevice { session?.closeDevice(drmSeatDevice) }
        session = nil
        trace?.stop()
        exit(status)
    }

    private func headlessSpecs() throws(RuntimeError) -> [HeadlessDisplay.ScreenSpec] {
        var specs: [HeadlessDisplay.ScreenSpec] = []
        for (index, text) in options.headlessScreens.enumerated() {
            // `NAME=WxH@Hz` names the screen (to mirror a real connector); else HEADLESS-n.
            let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
            let (name, mode) = parts.count == 2 ? (parts[0], parts[1]) : ("HEADLESS-\(index + 1)", text)
            // The config's mode spelling; a headless screen needs a size (not preferred/current/off), within
            // what a memory buffer sensibly holds, and gets 60 Hz when none is given.
            guard !name.isEmpty, case let .size(width, height, refresh)? = ModeRequest(mode),
                  width <= 16384, height <= 16384, (refresh ?? 60) < 1000 else {
                throw .invalidOption("--headless-screen", value: text,
                                     valid: "WxH, WxH@Hz or NAME=WxH@Hz, e.g. 1920x1080, 1280x800@60 or HDMI-A-1=1920x1080@60")
            }
            specs.append(HeadlessDisplay.ScreenSpec(name: name, modes: [Screen.Mode(width: width, height: height,
                                                                                refreshRate: refresh ?? 60)]))
        }
        return specs
    }

    private func observeScreens() {
        let center = application.notificationCenter
        tokens.append(center.addObserver(forName: Screen.didConnectNotification, object: nil, queue: nil) { [weak self] note in
            nonisolated(unsafe) let object = note.object
            MainActor.assumeIsolated {
                // Screens found at start are the app's to see in applicationDidFinishLaunching (Screen.screens);
                // only later connects are news.
                guard let self, self.hasLaunched, let screen = object as? Screen else { return }
                self.delegate.screenDidConnect(screen)
            }
        })
        tokens.append(center.addObserver(forName: Screen.didDisconnectNotification, object: nil, queue: nil) { [weak self] note in
            nonisolated(unsafe) let object = note.object
            MainActor.assumeIsolated {
                guard let self, self.hasLaunched, let screen = object as? Screen else { return }
                self.delegate.screenDidDisconnect(screen)
            }
        })
    }

    private func installSignalHandlers() {
        signal(SIGHUP, SIG_IGN)
        let hangup = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .main)
        hangup.setEventHandler { MainActor.assumeIsolated { self.reload() } }
        hangup.resume()
        signalSources.append(hangup)
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

}
