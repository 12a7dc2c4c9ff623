import KioskConfig
import KioskKit

/// A display backend: DRM/KMS, fbdev, headless. It owns its hardware from discovery to shutdown (for DRM:
/// the card, its udev monitor and debounce, the probe, the output plan, lighting) and tells the window
/// model what happened in one call per screen (`Screen.connect`, `update`, `disconnect`), which posts the
/// notifications the runtime and the app hear. The runtime only chooses one, starts, reconfigures, pauses,
/// resumes and stops it.
@MainActor
public protocol DisplayBackend: ScreenDriver, FrameOutput {
    /// The name the configuration's `backend` uses (`drm`, `fbdev`, `headless`).
    nonisolated static var name: String { get }

    /// Opens the hardware without lighting anything. `BackendError.unavailable`: nothing to drive here
    /// (`backend = "auto"` tries the next backend); `.failed`: what was asked for by name cannot run.
    init(context: BackendContext) throws(BackendError)

    /// Whether the screens are real displays with input devices beside them (false for headless, where
    /// taking the seat's input devices on a developer's machine would take over its console).
    var drivesDisplays: Bool { get }

    /// The compositor whose frames this shows; set before `start()`.
    var compositor: Compositor? { get set }

    /// Connects the screens found now (each `Screen.connect` posts `didConnectNotification`); hotplug
    /// connects and disconnects others later.
    func start()

    /// Every screen this backend made, connected or not, each the same object for the life of the process.
    var screens: [Screen] { get }

    /// New settings (a reload): each screen's settings resolved again (`settings(of:)`), then modes,
    /// rotation, the primary screen, debounce; other screens are left alone.
    func reconfigure(_ configuration: KioskConfiguration)

    /// What the configuration says about `screen` (`[screens.NAME]`, `--mode`, ...), as this backend
    /// resolved it once when it last read the screen's display or had a reload (`ScreenSettingsStore`): by
    /// its connector name and, where the backend reads one, its display's EDID identity. The rest of the
    /// kiosk (power, HDMI-CEC, the pointer's layout, touch rules) reads this rather than resolving it again.
    func settings(of screen: Screen) -> ResolvedScreen

    /// The session went away (VT switch): stop showing frames. Called before the seat's disable is acknowledged.
    func pause()

    /// The session is back: light the outputs again and repaint everything.
    func resume()

    /// On the way out: writes what must be written, puts back what was found at start, releases the devices.
    func stop()

    /// The kernel's connector behind `screen`, for devices the kernel ties to a connector (an HDMI output's
    /// CEC adapter); nil where screens are no DRM connectors (fbdev, headless) or `screen` is not connected.
    func connectorIdentity(of screen: Screen) -> ConnectorIdentity?
}

extension DisplayBackend {
    public func connectorIdentity(of screen: Screen) -> ConnectorIdentity? { nil }
}

/// Where the kernel knows a screen's display: its DRM card and connector, and the display's EDID identity
/// (what per-screen settings match by).
public struct ConnectorIdentity: Sendable, Hashable {
    /// The N of `/dev/dri/cardN` (the card's DRM minor number).
    public var card: UInt32
    /// The connector's KMS object id.
    public var connector: UInt32
    public var edid: ScreenConfiguration.EDIDMatch?

    public init(card: UInt32, connector: UInt32, edid: ScreenConfiguration.EDIDMatch? = nil) {
        self.card = card
        self.connector = connector
        self.edid = edid
    }
}
