import Backlight
import DRM
import Dispatch
import Geometry
import Glibc
import KioskBackend
import KioskConfig
import KioskKit
import Logging
import Udev

/// The DRM/KMS display backend: each connector of one card is a `Screen`. It owns the card from discovery
/// to shutdown: it finds the card (udev), opens it through the seat, reads the connectors, has
/// `OutputPlanner` decide (mode policy, CRTC allocation), lights the outputs (atomic with a TEST_ONLY
/// check first, or legacy `SetCrtc`) and connects, updates or disconnects their screens; a udev monitor
/// re-probes on every (debounced) hotplug. Frames go to two dumb buffers per output, page-flipped on
/// vblank; the flip event allows the next frame.
@MainActor
public final class DRMDisplay: DisplayBackend {
    public nonisolated static let name = "drm"

    /// The card's KMS calls (`KMSCard`): the `DRMDevice` opened, or in unit tests an in-memory card.
    let card: any KMSCard
    /// The card as the wrapper opened it, whose fd's page-flip events `start()` reads; nil for a display
    /// the tests made on a card of theirs (`init(card:...)`).
    private let openedDevice: DRMDevice?
    /// `card0`.
    public let cardName: String
    /// The card's DRM minor number (the N of `/dev/dri/cardN`), as the kernel names the card to other
    /// subsystems (a CEC adapter's connector info); nil if `fstat` could not say.
    public let cardNumber: UInt32?
    /// Whether modesetting goes through atomic commits (else the legacy API).
    public let usesAtomic: Bool
    /// Whether frames are composed straight into the dumb buffers (`shadow-buffer`: as the driver asks,
    /// or as configured), else in a shadow in RAM and copied.
    public let buffersAreCachedMemory: Bool
    public weak var compositor: Compositor?
    /// How long a page flip may take before it is declared lost and recovered.
    public var flipTimeout: TimeInterval = 1
    public var drivesDisplays: Bool { true }

    let application: Application
    private(set) var configuration: KioskConfiguration
    /// Shown at an output's first modeset while the app starts (`launch-screen`); else what a display
    /// shows stays until the app's first frame (`DRMDisplay+FirstFrame.swift`).
    let launchScreen: LaunchScreen?
    private let session: (any DeviceSession)?
    private let seatDevice: OpenedDevice?
    /// Screens in the order they were made (the kernel's connector order), one per connector name.
    var madeScreens: [Screen] = []
    var outputs: [DRMConnectorID: Output] = [:]
    /// The connectors as last read.
    var probed: [DRMConnectorID: DRMConnector] = [:]
    /// The EDID identity of each connected display as last read, by connector name.
    var displayIdentities: [String: EDID] = [:]
    /// Each connector's settings, resolved once per probe (with its display's EDID identity) and on a reload.
    var screenSettings = ScreenSettingsStore()
    private var initialCRTCs: [DRMCRTCState] = []
    private var initialConnectorsOfCRTC: [DRMCRTCID: [DRMConnectorID]] = [:]
    var planes: [DRMPlane] = []
    var crtcProperties: [DRMCRTCID: [String: DRMPropertyID]] = [:]
    private var eventSource: (any DispatchSourceRead)?
    private var hotplugSource: (any DispatchSourceRead)?
    private var hotplugMonitor: UdevMonitor?
    private var reprobe: Debouncer?
    var isPaused = false
    /// The panels' backlights (`DRMDisplay+Backlight.swift`): the class, the device of each lit screen by
    /// connector name, why a screen has none as last logged, the levels found at start and which the
    /// kiosk changed (put back at stop).
    let backlightClass: any BacklightClass
    var panelBacklights: [String: PanelBacklight] = [:]
    var reportedBacklight: [String: String] = [:]
    var levelsFound: [String: Int] = [:]
    var changedBacklights: Set<String> = []
    let log: Logger
    let hotplugLog: Logger
    /// What a reload (`reconfigure`) changes is logged as the configuration's.
    private let reloadLog: Logger

    /// Finds the card (the configured `drm-device`, else the first usable one udev lists), opens it through
    /// the seat, and records the CRTC state found, to restore it on `stop()`. A card the configuration
    /// names that cannot be used is `.failed` (the kiosk stops with the reason rather than fall back to
    /// another backend); no usable card among those udev lists is `.unavailable`.
    public convenience init(context: BackendContext) throws(BackendError) {
        let opened = try Self.openCard(context)
        self.init(
            card: opened.device, path: opened.path, cardNumber: DRMCards.cardNumber(of: opened.device), usesAtomic: opened.usesAtomic,
            resources: opened.resources, application: context.application, configuration: context.configuration,
            launchScreen: context.launchScreen, seat: (opened.session, opened.seatDevice), openedDevice: opened.device)
    }

    /// The display on a card already opened and checked, whose `resources()` are `resources`: what
    /// `init(context:)` makes, and the unit tests on an in-memory card (no udev, no seat: `seat` and
    /// `openedDevice` nil, the backlights and the logs theirs). Records the CRTC state found.
    init(
        card: any KMSCard, path: String, cardNumber: UInt32?, usesAtomic: Bool,
        resources: (crtcs: [DRMCRTCID], connectors: [DRMConnectorID]), application: Application,
        configuration: KioskConfiguration, launchScreen: LaunchScreen?, backlights: any BacklightClass = SysfsBacklightClass(),
        logger: (String) -> Logger = { Logger(label: $0) }, seat: (session: any DeviceSession, device: OpenedDevice)? = nil,
        openedDevice: DRMDevice? = nil
    ) {
        self.card = card
        self.openedDevice = openedDevice
        self.cardNumber = cardNumber
        // The kernel's name, not the path's: `drm-device` may be a link (`/dev/dri/by-path/...-card`).
        cardName = DRMCards.name(number: cardNumber, path: path)
        self.usesAtomic = usesAtomic
        let prefersShadow = card.prefersShadowBuffer
        switch configuration.shadowBuffer {
        case .auto: buffersAreCachedMemory = !prefersShadow
        case .always: buffersAreCachedMemory = false
        case .never: buffersAreCachedMemory = true
        }
        self.application = application
        self.launchScreen = launchScreen
        self.configuration = configuration
        session = seat?.session
        seatDevice = seat?.device
        backlightClass = backlights
        log = logger("kiosk.drm")
        hotplugLog = logger("kiosk.hotplug")
        reloadLog = logger("kiosk.config")
        recordInitialState(resources)
        log.notice(
            "using \(path): driver \(card.driverName ?? "?"), \(usesAtomic ? "atomic" : "legacy") modesetting, \(resources.connectors.count) connectors, \(resources.crtcs.count) CRTCs, frames composed \(buffersAreCachedMemory ? "in the scanout buffers" : "in a shadow") (shadow-buffer = \(configuration.shadowBuffer.rawValue); the driver \(prefersShadow ? "prefers" : "does not prefer") a shadow)"
        )
    }

    private func recordInitialState(_ resources: (crtcs: [DRMCRTCID], connectors: [DRMConnectorID])) {
        initialCRTCs = resources.crtcs.compactMap { try? card.crtcState($0) }
        for id in resources.connectors {
            guard let connector = try? card.connector(id, crtcs: resources.crtcs), let encoder = connector.encoderID,
                let crtc = card.crtc(ofEncoder: encoder)
            else { continue }
            initialConnectorsOfCRTC[crtc, default: []].append(id)
        }
        if usesAtomic {
            planes = (try? card.planes()) ?? []
            for crtc in resources.crtcs {
                let properties = (try? card.crtcProperties(crtc)) ?? []
                crtcProperties[crtc] = Dictionary(properties.map { ($0.name, $0.id) }, uniquingKeysWith: { first, _ in first })
            }
        }
    }

    // MARK: Life cycle

    /// Lights what is connected, connects those screens, and starts following hotplug.
    public func start() {
        if let openedDevice {
            let source = DispatchSource.makeReadSource(fileDescriptor: openedDevice.fileDescriptor, queue: .main)
            source.setEventHandler { [weak self] in
                MainActor.assumeIsolated { self?.readEvents() }
            }
            source.resume()
            eventSource = source
        }
        update(log: log)
        watchHotplug()
        if !madeScreens.contains(where: \.isConnected) { log.notice("\(cardName): no display connected yet; waiting for one") }
    }

    public var screens: [Screen] { madeScreens }

    /// This card's number and the id of the connector `screen` is, with its display's EDID identity.
    public func connectorIdentity(of screen: Screen) -> ConnectorIdentity? {
        guard let cardNumber, screen.isConnected, let connector = probed.values.first(where: { $0.name == screen.name }) else {
            return nil
        }
        return ConnectorIdentity(card: cardNumber, connector: connector.id.rawValue, edid: displayIdentities[screen.name].map(Self.match))
    }

    /// New settings: each screen's settings resolved again from its display as last read (what the rest
    /// of the kiosk reads at once, also while the session is away and nothing is read), then the screens
    /// are planned again (only what changed is touched), their displays read again.
    public func reconfigure(_ configuration: KioskConfiguration) {
        self.configuration = configuration
        screenSettings.resolveAgain(in: configuration)
        reprobe?.delay = Double(configuration.hotplugDebounceMilliseconds) / 1000
        update(log: reloadLog)
    }

    public func settings(of screen: Screen) -> ResolvedScreen { screenSettings[screen.name] }

    /// The `Screen` of a connector name, the same object for the life of the process.
    func screen(named name: String) -> Screen {
        if let screen = madeScreens.first(where: { $0.name == name }) { return screen }
        let screen = Screen(name: name, driver: self)
        madeScreens.append(screen)
        return screen
    }

    // MARK: Probe, plan, apply

    /// Reads every connector (a real probe: the kernel asks the displays), has the planner decide and
    /// carries the plan out: lighting, then the screens. Problems with one connector are logged and skipped.
    /// While the session is away nothing is read or lit (a modeset needs the DRM master the session gave
    /// up): `resume()` reads the connectors again, as wlroots does.
    func update(log: Logger) {
        guard !isPaused else {
            log.info("\(cardName): displays are read again when the session is back")
            return
        }
        let connectors: [DRMConnector]
        var current: [DRMConnectorID: DRMModeInfo] = [:]
        do {
            let resources = try card.resources()
            var read: [DRMConnector] = []
            for id in resources.connectors {
                do { read.append(try card.connector(id, crtcs: resources.crtcs)) } catch {
                    log.warning("\(cardName): skipping \(id): \(error)")
                }
            }
            connectors = read
        } catch {
            log.error("\(cardName): reading connectors failed: \(error)")
            return
        }
        var showing: [DRMConnectorID: DRMCRTCID] = [:]
        for connector in connectors {
            probed[connector.id] = connector
            if let output = outputs[connector.id] {
                current[connector.id] = output.mode
            } else if let encoder = connector.encoderID, let crtc = card.crtc(ofEncoder: encoder),
                let mode = try? card.crtcState(crtc).mode
            {
                // Lit by firmware, the console or a boot splash.
                current[connector.id] = mode
                showing[connector.id] = crtc
            }
        }
        var identities: [String: EDID] = [:]
        for connector in connectors where connector.status == .connected { identities[connector.name] = card.edid(of: connector) }
        displayIdentities = identities
        // Once per probe, for every connector: a connected one's with its display's (maybe new) EDID, the
        // others' by connector name alone. Planning, lighting, the launch screen and the screen read these.
        screenSettings.resolve(connectors.map { ($0.name, identities[$0.name].map(Self.match)) }, in: configuration)
        var requests: [String: ModeRequest] = [:]
        for connector in connectors where connector.status == .connected {
            let settings = screenSettings[connector.name]
            if let mode = settings.mode { requests[connector.name] = mode }
            // The primary may be a label matched by EDID: the connector its display is on now is main.
            if settings.isPrimary { application.preferredMainScreenName = connector.name }
        }
        let connectedScreens = Set(madeScreens.filter(\.isConnected).map(\.name))
        let lit = outputs.mapValues { OutputPlanner.LitOutput(crtc: $0.crtc, name: $0.name) }
        let plan = OutputPlanner.plan(
            connectors, current: current, lit: lit, connectedScreens: connectedScreens, requests: requests, showing: showing)
        for problem in plan.problems { log.error("\(problem)") }
        for decision in plan.decisions { log.info("\(decision)") }

        var failed: Set<String> = []
        for action in plan.actions {
            switch action {
            case let .turnOff(connector, _):
                turnOff(connector)
            case let .darken(connector, name, crtc):
                darken(connector, name: name, crtc: crtc, log: log)
            case let .light(connector, name, crtc, modeIndex):
                do { try light(connector: connector, crtc: crtc, modeIndex: modeIndex) } catch {
                    if let kept = outputs[connector] {
                        // A lit output whose new mode was refused goes on with the mode it had.
                        log.error("\(name): a new mode on \(crtc) failed: \(error); it keeps \(DisplayMode(kept.mode))")
                    } else {
                        log.error("\(name): lighting it on \(crtc) failed: \(error); it stays dark")
                        failed.insert(name)
                    }
                }
            case let .connectScreen(name), let .updateScreen(name):
                guard let connector = connectors.first(where: { $0.name == name }) else { continue }
                let screen = screen(named: name)
                guard !failed.contains(name), let output = outputs[connector.id] else {
                    panelBacklights[name] = nil
                    if screen.isConnected { screen.disconnect() }
                    continue
                }
                present(connector, edid: identities[name], mode: DisplayMode(output.mode), on: screen, log: log)
            case let .disconnectScreen(name):
                let screen = screen(named: name)
                panelBacklights[name] = nil
                if screen.isConnected {
                    log.info("\(name): screen disconnected")
                    screen.disconnect()
                }
            }
        }
    }

    /// Tells the screen its modes and the mode lit, connecting it when it was not.
    private func present(_ connector: DRMConnector, edid: EDID?, mode: DisplayMode, on screen: Screen, log: Logger) {
        let settings = screenSettings[connector.name]
        screen.rotation = settings.rotation ?? Self.rotation(panelOrientation: connector.panelOrientation) ?? .normal
        screen.apply(overscan: settings.overscan)
        let modes = connector.modes.map(DisplayMode.init)
        let preferred = connector.preferredModeIndex.map { modes[$0] }
        if screen.isConnected {
            screen.update(modes: modes, preferredMode: preferred, currentMode: mode)
            updateBacklight(of: connector, configured: settings.backlight, screen: screen, log: log)
            return
        }
        let physical =
            connector.physicalWidthMillimeters > 0
            ? Size(width: Double(connector.physicalWidthMillimeters), height: Double(connector.physicalHeightMillimeters)) : nil
        let identity = edid.map { " (\($0.make) \($0.model)\($0.serial.map { " \($0)" } ?? ""))" } ?? ""
        log.info("\(connector.name)\(identity): connected, \(mode), rotation \(screen.rotation)")
        // Before connecting: whoever is told of the new screen (the power policy's dim stage) asks whether
        // it has a backlight, and its brightness is part of what it is when it connects.
        updateBacklight(of: connector, configured: settings.backlight, screen: screen, log: log)
        screen.connect(modes: modes, preferredMode: preferred, currentMode: mode, physicalSize: physical)
    }

    nonisolated static func match(_ edid: EDID) -> ScreenConfiguration.EDIDMatch {
        ScreenConfiguration.EDIDMatch(make: edid.make, model: edid.model, serial: edid.serial)
    }

    /// The kernel's `panel orientation` names as rotations that turn the content upright.
    static func rotation(panelOrientation: String?) -> Rotation? {
        switch panelOrientation {
        case "Normal": .normal
        case "Upside Down": .rotated180
        case "Left Side Up": .rotated90
        case "Right Side Up": .rotated270
        default: nil
        }
    }

    // MARK: Hotplug

    /// A udev monitor on `drm` in the main queue: a `change` with `HOTPLUG=1` for our card re-probes its
    /// connectors, debounced, so a flapping link is acted on once, in its final state.
    private func watchHotplug() {
        let monitor: UdevMonitor
        do {
            monitor = try UdevMonitor(udev: try Udev(), subsystems: ["drm"])
        } catch {
            hotplugLog.error("cannot watch for display hotplug: \(error); screens stay as found at start")
            return
        }
        reprobe = Debouncer(delay: Double(configuration.hotplugDebounceMilliseconds) / 1000) { [weak self] in
            guard let self else { return }
            self.update(log: self.hotplugLog)
        }
        let card = cardName
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
        guard let reprobe else { return }
        hotplugLog.debug("\(reason); acting in \(Int(reprobe.delay * 1000)) ms unless more events come")
        reprobe.signal()
    }

    // MARK: Shutdown

    /// Puts back the CRTC state found at start (the console's framebuffer and mode), then frees our
    /// buffers, in that order so the console never shows a removed framebuffer; then closes the card.
    public func stop() {
        hotplugSource?.cancel()
        hotplugSource = nil
        eventSource?.cancel()
        eventSource = nil
        for state in initialCRTCs {
            do {
                if let framebuffer = state.framebuffer, let mode = state.mode {
                    try card.setCRTC(
                        state.id, framebuffer: framebuffer, x: state.x, y: state.y,
                        connectors: initialConnectorsOfCRTC[state.id] ?? [], mode: mode)
                } else if outputs.values.contains(where: { $0.crtc == state.id }) {
                    try card.setCRTC(state.id, framebuffer: nil, x: 0, y: 0, connectors: [], mode: nil)
                }
            } catch {
                log.warning("\(cardName): restoring \(state.id) failed: \(error)")
            }
        }
        for output in outputs.values {
            if let blob = output.modeBlob { card.destroyBlob(blob) }
            output.release()
        }
        outputs.removeAll()
        restoreBacklights()
        log.info("\(cardName): restored the display state found at start")
        if let seatDevice { session?.closeDevice(seatDevice) }
    }
}
