import CECControl
import DRMDisplay
import Dispatch
import FBDevDisplay
import Glibc
import HeadlessDisplay
import KioskBackend
import KioskConfig
import KioskKit
import LibInputBackend
import Logging
import SeatSession

/// The run loop of a kiosk, a thin orchestrator: it chooses the display backend, starts it with the
/// compositor, starts input beside real displays, launches the app, and runs the main queue until SIGTERM or
/// SIGINT. Backends own their hardware (discovery, hotplug, the seat's devices); the runtime routes the
/// session's disable and enable to them, applies reloads, and keeps the trace and systemd informed.
/// Everything happens on the main actor; the main queue sleeps when nothing changes.
@MainActor
public final class KioskRuntime {
    /// The display backends, in the order `backend = "auto"` tries them. A new backend is a type
    /// conforming to `DisplayBackend` and a line here.
    // An immutable list of types, read from any thread (the command line is parsed before the main actor
    // runs anything): metatypes of main-actor protocols are not `Sendable` to the compiler, but these hold no state.
    public nonisolated(unsafe) static let displayBackends: [any DisplayBackend.Type] = [
        DRMDisplay.self, FBDevDisplay.self, HeadlessDisplay.self,
    ]
    /// The input backend that runs beside real displays.
    public nonisolated(unsafe) static let inputBackend: any InputBackend.Type = LibInputBackend.self

    /// The names a configuration may use for this runtime: its backends, `apps` (nil: any) and the
    /// `[app-settings]` keys the app reads (nil: any table, unchecked).
    public nonisolated static func vocabulary(apps: [String]?, appSettings: [AppSetting]? = nil) -> Vocabulary {
        Vocabulary(apps: apps, backends: displayBackends.map { $0.name }, appSettings: appSettings)
    }

    public internal(set) var configuration: KioskConfiguration
    /// Where the configuration came from, read again on a reload; nil: reloads have nothing to read.
    public let source: ConfigurationSource?
    public let delegate: any ApplicationDelegate
    public let application: Application
    /// Touch calibration off (identity) on every device: `kiosk calibrate` records raw positions.
    public var calibrationOff = false
    /// When each phase of the start was reached (the trace's `startup` lines).
    public private(set) var timeline: StartupTimeline
    public private(set) var display: (any DisplayBackend)?
    public private(set) var compositor: Compositor?
    private var input: (any InputBackend)?
    private(set) var router: InputRouter?
    private var context: BackendContext!
    private var hasLaunched = false
    let service = ServiceManager()
    private(set) var trace: Trace?
    private(set) var power: PowerManager?
    /// Tells the power schedule when the wall clock is set.
    private var wallClockWatch: WallClockWatch?
    /// The screens' TVs following their power over HDMI-CEC (`KioskRuntime+CEC.swift`); real displays only.
    var cec: CECController?
    /// The control socket (`control-socket`), while it is open.
    private(set) var control: ControlServer?
    /// SIGTERM, SIGINT and SIGHUP, read on the main queue.
    private var stopSignals: StopSignals?
    /// Why `backend = "auto"` ended up headless on a machine meant to show something, for the status line.
    private var fallbackWarning: String?
    private var observations: [NotificationObservation] = []
    /// The compositor's frames, heard through the application's instrumentation.
    private var frames: InstrumentationToken?
    let log = Logger(label: "kiosk.runtime")

    /// Whether input was asked for at start (`requestInput`), and the latest time it starts at.
    private(set) var inputRequested = false
    var inputDeadline: FrameTimer?

    /// What input there is, said once: the devices found when input started, or why this kiosk opens none.
    /// Posted through the application's instrumentation as `.runtime(InputOutcome)` (`kiosk calibrate`
    /// hears it to stop at once when there is no touchscreen to tap).
    public enum InputOutcome: Sendable {
        case started([InputDeviceInfo])
        case unavailable(String)
    }

    /// Text's start-up work, started before the configuration was read when `main` made it, else by `start()`.
    private var fonts: FontPreparation?
    /// The launch screen the app ships (`KioskRuntime.main(launchScreen:)`), used unless the configuration's
    /// `launch-screen` names another or off.
    private let appLaunchScreen: String?

    /// `fonts`: a preparation already under way (`KioskRuntime.main` starts one before reading the
    /// configuration); nil starts one in `start()`.
    public init(
        configuration: KioskConfiguration, source: ConfigurationSource? = nil, delegate: any ApplicationDelegate,
        application: Application = .shared, timeline: StartupTimeline = StartupTimeline(), fonts: FontPreparation? = nil,
        appLaunchScreen: String? = nil
    ) {
        self.fonts = fonts
        self.appLaunchScreen = appLaunchScreen
        self.timeline = timeline
        self.configuration = configuration
        self.source = source
        self.delegate = delegate
        self.application = application
    }

    /// Starts everything; throws what the user must fix (a backend asked for by name that cannot run).
    public func start() throws(RuntimeError) {
        // Text's libraries, fontconfig and the system font load on threads of their own while the seat and
        // the displays are opened; the app's launch waits for the libraries and fontconfig, its first text
        // for the rest.
        let fonts = self.fonts ?? FontPreparation(released: false)
        self.fonts = fonts
        // Before pango's libraries load (35 of them, under the dynamic loader's lock throughout), what would
        // wait for all of them: the first dispatch source, which starts libdispatch's event thread (a new
        // thread's TLS takes that lock), and libseat, which the displays need first: on a cold disk the
        // seat waited 170 ms behind pango's load, and the displays (with the launch screen) and the app's
        // launch with it. (A SIGTERM sent before this point, blocked since exec, or during the rest of the
        // start is handled once the start is done, as a stop: the seat's wait for its session is the
        // longest, 10 s at most.)
        installSignalHandlers()
        let launchScreen = try makeLaunchScreen()
        if configuration.backend != HeadlessDisplay.name { SeatSessions.preload() }
        if let launchScreen {
            // libpng first, then its reading thread (a new thread's TLS takes the loader's lock too).
            LaunchScreen.preload()
            launchScreen.startReading()
        }
        fonts.release()
        if let tracePath = configuration.tracePath {
            let readFiles =
                [(path: "/proc/self/exe", what: "the kiosk's own binary")]
                + (configuration.path.map { [(path: $0, what: "the config file")] } ?? [])
            trace = try Trace(path: tracePath, readFiles: readFiles, application: application)
        }
        for (phase, _) in timeline.reached { trace?.recordStartup(phase, milliseconds: timeline.milliseconds(phase) ?? 0) }
        let seatName = configuration.seat
        let environment = source?.environment ?? ProcessEnvironment.current()
        context = BackendContext(configuration: configuration, application: application, launchScreen: launchScreen) {
            [weak self] () throws(BackendError) in
            let session = try SeatSessions.open(seatName: seatName, environment: environment)
            self?.reached(.seat)
            return session
        }
        let display = try makeDisplay()
        self.display = display
        reached(.backend)
        let compositor = Compositor(output: display, application: application)
        self.compositor = compositor
        display.compositor = compositor
        frames = observeFrames(of: compositor, display: display, launchScreen: launchScreen)
        observeScreens()
        application.preferredMainScreenName = configuration.primary
        applyKeyboard(configuration)
        // Before the launch: the app may set its own in code, which then stands until a reload changes this.
        application.sessionIdleTimeout = TimeInterval(configuration.sessionTimeoutSeconds)
        display.start()
        reached(.displays)
        // HDMI-CEC first: it must hear the power changes the schedule makes at once (screens that start, or
        // connect, in a scheduled off), and it hears a screen's connection before the schedule acts on it.
        startCEC(display: display, trace: trace)
        power = PowerManager(
            application: application, idleTimeout: TimeInterval(configuration.idleTimeoutSeconds),
            dimAfter: TimeInterval(configuration.dimAfterSeconds), dimBrightness: configuration.dimBrightness, power: configuration.power)
        power?.screenIdleTimeout = screenIdleTimeouts()
        do {
            wallClockWatch = try WallClockWatch { [weak self] in self?.power?.wallClockWasSet() }
        } catch {
            log.warning("\(error): a wall clock set while the kiosk runs reaches the power schedule only at its next change")
        }
        power?.wakeDisconnected = { [weak self] name, reason in self?.cec?.wakeDisconnected(name, reason: reason) ?? false }
        routeSessionEvents()
        openControlSocket()
        // The launch waits for text's libraries and fontconfig, not for the system font's drawing: that
        // goes on while the app makes its windows, and the first text laid out here waits for the rest.
        do {
            try fonts.waitUntilLoaded()
        } catch {
            throw .cannotDrawText(error.description)
        }
        reached(.fonts)
        if !display.drivesDisplays {
            application.instrumentation.post(
                .runtime(
                    InputOutcome.unavailable(
                        "the \(type(of: display).name) backend opens no input devices (input runs beside real displays only)")))
        }
        fonts.finishOnFirstText()
        delegate.applicationDidFinishLaunching(application)
        hasLaunched = true
        reached(.launched)
        // Input comes with real displays only (the headless backend runs on development machines, where
        // opening a seat as root would take over the console), after the first frame is on the display;
        // with no display connected there is no first frame to wait for.
        if display.drivesDisplays && application.connectedScreens.isEmpty { requestInput(because: "no screen to show a first frame") }
        service.start()
        if application.connectedScreens.isEmpty { service.ready(status: statusLine()) }
        if let seconds = configuration.exitAfter {
            DispatchQueue.main.asyncAfter(deadline: .now() + seconds) {
                MainActor.assumeIsolated { () -> Void in self.stop(reason: "--exit-after \(seconds) s elapsed") }
            }
        }
    }

    /// The launch screen the configuration's `launch-screen` names, else the app's; nil for none, or on a
    /// backend that shows none (headless: its snapshots are the app's frames). A file named that cannot be
    /// read stops the start, naming it; one that reads but does not decode is logged, and the displays keep
    /// what they show until the app's first frame.
    private func makeLaunchScreen() throws(RuntimeError) -> LaunchScreen? {
        let path: String
        let what: String
        switch configuration.launchScreen {
        case .off: return nil
        case let .file(named): (path, what) = (named, "launch screen (launch-screen)")
        case .app:
            guard let app = appLaunchScreen else { return nil }
            (path, what) = (app, "app's launch screen (KioskRuntime.main(launchScreen:))")
        }
        // Checked on every backend: a path mistyped is found on the development machine, not on the board.
        guard access(path, R_OK) == 0 else { throw .cannotRead(path: path, what: what, reason: String(cString: strerror(errno))) }
        guard configuration.backend != HeadlessDisplay.name else {
            log.info("launch-screen: the headless backend shows none (its snapshots are the app's frames)")
            return nil
        }
        return LaunchScreen(path: path)
    }

    /// The backend the configuration names, or under `auto` the first of `displayBackends` that can run
    /// here, each one that cannot said in the log.
    private func makeDisplay() throws(RuntimeError) -> any DisplayBackend {
        let wanted = configuration.backend
        let automatic = wanted == KioskConfiguration.automaticBackend
        let candidates = automatic ? Self.displayBackends : Self.displayBackends.filter { $0.name == wanted }
        var skipped: [String] = []
        for type in candidates {
            do {
                let display = try type.init(context: context)
                for reason in skipped { log.notice("\(reason)") }
                if !automatic { log.info("\(type.name) backend (requested)") }
                if automatic, !display.drivesDisplays, !skipped.isEmpty {
                    // A kiosk that shows nothing must not look healthy: say it where systemd shows it too.
                    fallbackWarning = "no display hardware, running \(type.name)"
                    log.warning(
                        "no display hardware (\(skipped.joined(separator: "; "))): running the \(type.name) backend; set backend = \"drm\" on a board to stop instead"
                    )
                }
                return display
            } catch  where automatic && error.kind == .unavailable {
                skipped.append("\(type.name): \(error.reason)")
            } catch {
                throw .backendUnavailable(error.backend, reason: error.reason)
            }
        }
        throw .backendUnavailable(wanted, reason: skipped.isEmpty ? "not a backend of this program" : skipped.joined(separator: "; "))
    }

    /// Opens the input devices once (the launch settled, or its deadline came); `reason` is said in the log
    /// at debug level.
    func requestInput(because reason: String) {
        guard !inputRequested else { return }
        inputRequested = true
        log.debug("input: opening the devices: \(reason)")
        inputDeadline?.cancel()
        inputDeadline = nil
        startInput()
    }

    private func startInput() {
        guard let display, input == nil else { return }
        let router = InputRouter(application: application, configuration: configuration) { [weak display] name in
            // A touch rule's screen: a connector name, else a label of the file matched by EDID (the labels
            // the backend resolved for each display), looked for only then (this runs at every mapping
            // decision, and for a label at every touch-down).
            guard let display else { return nil }
            if let screen = display.screens.first(where: { $0.name == name }) { return screen }
            let connected = display.screens.filter(\.isConnected).map { ($0.name, display.settings(of: $0)) }
            guard let connector = KioskConfiguration.connector(for: name, among: connected) else { return nil }
            return display.screens.first { $0.name == connector }
        }
        router.calibrationOff = calibrationOff
        router.screenPosition = { [weak display] screen in
            guard let position = display?.settings(of: screen).position else { return nil }
            return Point(x: Double(position.x), y: Double(position.y))
        }
        do {
            let input = try Self.inputBackend.init(context: context, router: router)
            self.input = input
            self.router = router
            try input.start()
            reached(.input)
            application.instrumentation.post(.runtime(InputOutcome.started(router.presentDevices)))
        } catch {
            self.input = nil
            self.router = nil
            log.error("input is off: \(error)")
            application.instrumentation.post(.runtime(InputOutcome.unavailable("input is off: \(error)")))
        }
    }

    /// The session's disable and enable reach every device user.
    private func routeSessionEvents() {
        guard let session = context.sessionIfOpened else { return }
        session.onDisable = { [weak self] in
            self?.display?.pause()
            self?.input?.pause()
        }
        session.onEnable = { [weak self] in
            self?.display?.resume()
            self?.input?.resume()
        }
    }

    /// Records a phase of the start (once), in the log and the trace.
    func reached(_ phase: StartupTimeline.Phase) {
        guard let milliseconds = timeline.record(phase) else { return }
        trace?.recordStartup(phase, milliseconds: milliseconds)
    }

    /// The device of the last touch-down.
    public var lastTouchDevice: InputDeviceInfo? { router?.lastTouchDevice }

    /// Each screen's own `idle-timeout`, as the display backend resolved its settings (a reload resolves
    /// them again: `power.screenSettingsChanged()` then restarts the timers whose timeout changed).
    func screenIdleTimeouts() -> @MainActor (Screen) -> TimeInterval? {
        { [weak self] screen in self?.display?.settings(of: screen).idleTimeoutSeconds.map(TimeInterval.init) }
    }

    /// What `systemctl status` shows: the screens and their modes, and a fallback to headless first.
    func statusLine() -> String {
        let screens = application.connectedScreens.map { "\($0.name) \($0.currentMode.map { "\($0)" } ?? "off")" }
        let line = screens.isEmpty ? "running, no display connected" : "running on " + screens.joined(separator: ", ")
        return fallbackWarning.map { "warning: \($0); " + line } ?? line
    }

    // MARK: Running and stopping

    /// Starts and runs the main queue on the main thread forever (until a signal stops the process).
    public func run() throws(RuntimeError) -> Never {
        try start()
        MainLoop.run()
    }

    /// Writes the last frames, closes the trace and exits with `status`.
    public func stop(reason: String, status: Int32 = 0) -> Never {
        log.info("stopping: \(reason)")
        service.stopping()
        compositor?.composePendingFrames()
        // Reverse order of opening: input, the display (its state put back, its device closed), the seat.
        control?.stop()
        input?.stop()
        power?.stop()
        wallClockWatch?.stop()
        cec?.stop()
        input = nil
        display?.stop()
        trace?.stop()
        // A start stopped before its first text: the process does not end while text's thread is inside
        // fontconfig or pango.
        try? fonts?.finish()
        exit(status)
    }

    /// The control socket, opened where `makeControlServer` (KioskRuntime+Control.swift) says.
    private func openControlSocket() {
        control = makeControlServer()
    }

    private func observeScreens() {
        let center = application.notificationCenter
        for name in [Screen.didConnectNotification, Screen.didDisconnectNotification, Screen.modeDidChangeNotification] {
            observations.append(
                center.addObserver(forName: name) { [weak self] note in
                    guard let self else { return }
                    // Mapping decisions depend on which screens exist.
                    self.router?.remap()
                    // Screens found at start are the app's to see in applicationDidFinishLaunching
                    // (Screen.screens); only later connects are news.
                    guard self.hasLaunched, let screen = note.object as? Screen else { return }
                    if name == Screen.didConnectNotification { self.delegate.screenDidConnect(screen) }
                    if name == Screen.didDisconnectNotification { self.delegate.screenDidDisconnect(screen) }
                })
        }
    }

    /// SIGHUP reloads, SIGTERM and SIGINT stop: read from the signals blocked since exec (`StopSignals`), so
    /// one sent before this point is handled now, not lost.
    private func installSignalHandlers() {
        do {
            stopSignals = try StopSignals { [weak self] number in
                guard let self else { return }
                switch number {
                case SIGHUP: _ = self.reload()
                case SIGINT: self.stop(reason: "SIGINT")
                default: self.stop(reason: "SIGTERM")
                }
            }
        } catch {
            // Blocked with no reader, they would never act: give them their default action back.
            StopSignals.restore()
            log.error("\(error): SIGTERM and SIGINT end the kiosk without putting the displays back, SIGHUP ends it too")
        }
    }
}
