/// The kiosk's configuration: `/etc/kiosk/kiosk.toml` validated into typed values, with `KIOSK_*`
/// environment overrides applied. Every field has a default, so an absent file or key means "as shipped".
///
/// Read it with `load(path:environment:)` (or `parse(text:path:environment:)`); both return every problem
/// at once (`ConfigErrors`) instead of the first.
public struct KioskConfiguration: Sendable, Equatable {
    /// Which display backend drives the screens (the same names as `kiosk run --backend`).
    public enum Backend: String, CaseIterable, Sendable {
        /// DRM/KMS when a usable card exists, else fbdev, else headless.
        case auto
        case drm
        case fbdev
        case headless
    }

    /// swift-log's levels, with its raw values, so `Logger.Level(rawValue:)` takes them as they are.
    public enum LogLevel: String, CaseIterable, Sendable {
        case trace, debug, info, notice, warning, error, critical
    }

    /// When the mouse cursor shows (CONVENTIONS: touch kiosks hide it unless a pointer is used).
    public enum Cursor: String, CaseIterable, Sendable {
        /// Hidden until a pointer device moves; hidden again on touch.
        case auto
        case hidden
        case always
    }

    /// The file this was read from; nil for the defaults (no file).
    public var path: String?
    public var backend: Backend = .auto
    /// The DRM card (`/dev/dri/card0`); nil: the first usable card udev lists.
    public var drmDevice: String?
    /// The framebuffer device for the fbdev backend; nil: `/dev/fb0`.
    public var fbdevDevice: String?
    /// The seat whose devices the kiosk uses (udev's `ID_SEAT`, libseat).
    public var seat = "seat0"
    public var logLevel: LogLevel = .info
    public var cursor: Cursor = .auto
    /// Hotplug events closer together than this are coalesced and only the final state is acted on
    /// (TVs power-cycle and HDMI links flap). 0 to 60000.
    public var hotplugDebounceMilliseconds = 300
    /// The screen that is the main screen whenever it is connected: a connector name or the label of a
    /// screen of the file. The environment (`KIOSK_PRIMARY`) wins over the top-level `primary` key, which
    /// wins over a screen's `primary = true`. nil: the runtime's choice.
    public var primary: String?
    /// Which app runs: one of `knownApps` (`builtInApps` unless the caller adds its own).
    public var app = "demo"
    /// The free-form `[app-settings]` table, handed to the app.
    public var appSettings: [String: ConfigValue] = [:]
    /// The `[screens.*]` tables, in file order.
    public var screens: [ScreenConfiguration] = []
    /// The `[[touch]]` entries, in file order (the first that matches a device wins).
    public var touch: [TouchConfiguration] = []

    public init() {}

    /// Everything as shipped: what an absent file means.
    public static let `default` = KioskConfiguration()

    /// Where the file is unless `--config` or `KIOSK_CONFIG` says otherwise.
    public static let defaultPath = "/etc/kiosk/kiosk.toml"

    /// The apps this build can run, by the name `app = "..."` uses. The one list: the runtime maps these
    /// names to app delegates, and a runtime with more apps passes its own list to `load`/`parse`.
    public static let builtInApps = ["demo"]

    /// `--config` aside, the file to read: `KIOSK_CONFIG` when set and not empty, else `defaultPath`.
    public static func path(environment: [String: String]) -> String {
        if let path = environment["KIOSK_CONFIG"], !path.isEmpty { return path }
        return defaultPath
    }

    /// `hotplugDebounceMilliseconds` as a `Duration`.
    public var hotplugDebounce: Duration { .milliseconds(hotplugDebounceMilliseconds) }

    /// The screen configured under `name` (a connector name or a label).
    public func screen(named name: String) -> ScreenConfiguration? {
        screens.first { $0.name == name }
    }
}
