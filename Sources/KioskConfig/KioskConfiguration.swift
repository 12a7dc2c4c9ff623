import Geometry
import KioskTypes

/// The kiosk's configuration: the one model behind the file (`/etc/kiosk/kiosk.toml`), the `KIOSK_*`
/// environment variables and the command-line flags. Every setting is declared once, in `settings`
/// (`KioskConfiguration+Settings.swift`): its key, flag, variable, parser, valid values and help; its value
/// lives in a stored property here. Every field has a default, so an absent file or key means "as shipped".
///
/// Read it with `ConfigurationSource.load()` (file, then environment, then command line) or, for the file
/// alone, `load(path:environment:)` and `parse(text:path:environment:)`; all return every problem at once
/// (`ConfigErrors`) instead of the first.
public struct KioskConfiguration: Sendable, Equatable {
    /// swift-log's levels, with its raw values, so `Logger.Level(rawValue:)` takes them as they are.
    public enum LogLevel: String, CaseIterable, Sendable {
        case trace, debug, info, notice, warning, error, critical
    }

    /// When the mouse cursor shows (CONVENTIONS: touch kiosks hide it unless a pointer is used).
    public enum Cursor: String, CaseIterable, Sendable {
        /// Hidden until a pointer device moves; hidden again after a few seconds without motion.
        case auto
        case hidden
        case always
    }

    /// Where the DRM backend composes frames (weston's `pixman-shadow`, X's `ShadowFB`).
    public enum ShadowBuffer: String, CaseIterable, Sendable {
        /// As the driver asks (`DRM_CAP_DUMB_PREFER_SHADOW`): in a shadow in RAM where reading its dumb
        /// buffers is slow, straight into them where it is not.
        case auto
        /// Always in a shadow in RAM, copied into the scanout buffer (what changed only): for a driver
        /// that maps its dumb buffers uncached without saying so.
        case always
        /// Always straight into the scanout buffers: no shadow, no copy.
        case never
    }

    /// The file this was read from; nil for the defaults (no file).
    public var path: String?
    /// Which display backend drives the screens: `auto` (the first of the runtime's backends that can run,
    /// in its order) or one of `Vocabulary.backends`.
    public var backend = KioskConfiguration.automaticBackend
    /// The DRM card (`/dev/dri/card0`); nil: the first usable card udev lists.
    public var drmDevice: String?
    /// Use the legacy modesetting API even where atomic works.
    public var noAtomic = false
    /// Whether DRM frames are composed in a shadow in RAM (4 bytes a pixel more memory and a copy a frame)
    /// or straight into the scanout buffers.
    public var shadowBuffer: ShadowBuffer = .auto
    /// The framebuffer device for the fbdev backend; nil: `/dev/fb0`.
    public var fbdevDevice: String?
    /// The seat whose devices the kiosk uses (udev's `ID_SEAT`, libseat).
    public var seat = "seat0"
    public var logLevel: LogLevel = .info
    public var cursor: Cursor = .auto
    public var keyboard: OnScreenKeyboardMode = .auto
    /// Seconds without input on a screen before it is turned off (a touch or key wakes it); 0: never.
    public var idleTimeoutSeconds = 0
    /// Whether idle blanking (`idle-timeout`) also puts a TV in standby over HDMI-CEC. Off by default: a TV
    /// in standby cannot be woken by a touch on it (a touch TV's own touch frame sleeps with it, and the
    /// kiosk then sees no touch), while a blanked picture on a TV that stays on still takes the waking touch.
    public var cecOnIdle = false
    /// Seconds without input on a screen before its backlight dims to `dimBrightness` (input restores it);
    /// 0: no dim stage. Less than `idleTimeoutSeconds` when both are set. Only screens with a backlight dim.
    public var dimAfterSeconds = 0
    /// The brightness a dimmed screen goes to, 0...1 (as `Screen.brightness`).
    public var dimBrightness = 0.2
    /// Seconds without input after which the app's session is idle (`Application.sessionIdleTimeout`: the
    /// app goes back to its start screen); 0: never. Apart from display power: no screen turns off for it.
    public var sessionTimeoutSeconds = 0
    public var keyboardLayout: KeyboardLanguage = .en
    /// How large text in a text style is drawn, kiosk-wide (large text for accessibility).
    public var textSize: ContentSizeCategory = .large
    /// Milliseconds a key is held before it repeats (hardware keys, the on-screen Backspace); Cage's 600.
    public var keyboardRepeatDelayMilliseconds = 600
    /// Repeats a second of a held key once it repeats; 0: keys do not repeat. Cage's 25.
    public var keyboardRepeatRate = 25
    /// Hotplug events closer together than this are coalesced and only the final state is acted on
    /// (TVs power-cycle and HDMI links flap). 0 to 60000.
    public var hotplugDebounceMilliseconds = 300
    /// The screen that is the main screen whenever it is connected: a connector name or the label of a
    /// screen of the file. The command line wins over the environment (`KIOSK_PRIMARY`), which wins over the
    /// top-level `primary` key, which wins over a screen's `primary = true`. nil: the runtime's choice.
    public var primary: String?
    /// Which app runs: one of `Vocabulary.apps`.
    public var app = "demo"
    /// What the displays show while the app starts (`launch-screen`).
    public var launchScreen = LaunchScreen.app
    /// The free-form `[app-settings]` table, handed to the app.
    public var appSettings: [String: ConfigValue] = [:]
    /// The `[screens.*]` tables in file order, after the command line's per-screen settings (`--mode`,
    /// `--rotate`), which come first so that they win (see `screen(connector:edid:)`).
    public var screens: [ScreenConfiguration] = []
    /// The `[[touch]]` entries in file order, after the command line's `--touch` rules: the first that
    /// matches a device wins.
    public var touch: [TouchConfiguration] = []
    /// `[power]`: schedules of display power, and whether a touch wakes a screen they turned off.
    public var power = PowerConfiguration()
    /// Where the headless backend writes `<screen>.png`.
    public var snapshotDirectory = "snapshots"
    /// The headless backend's screens, in order.
    public var headlessScreens = [HeadlessScreen(name: "HEADLESS-1", mode: DisplayMode(width: 1280, height: 800, refreshRate: 60))]
    /// `--trace FILE`: one JSON line per notification, touch and frame; nil: none (`trace = "off"`, the default).
    public var tracePath: String?
    /// The control socket the running kiosk listens on (`kiosk status`, `power`, `screenshot`, ...): by
    /// default the first of `ControlSocketPlace`'s places that applies, else the path named, or none.
    public var controlSocket: ControlSocket = .auto
    /// The group whose members (besides root and the kiosk's own user) the control socket answers.
    public var controlGroup = "kiosk"
    /// Stop after this many seconds (demos, tests); nil: run until SIGTERM or SIGINT.
    public var exitAfter: Double?

    public init() {}

    /// Everything as shipped: what an absent file means.
    public static let `default` = KioskConfiguration()

    /// Where the file is unless `--config` or `KIOSK_CONFIG` says otherwise.
    public static let defaultPath = "/etc/kiosk/kiosk.toml"

    /// The longest path a Unix socket can be bound at (`sockaddr_un.sun_path` is 108 bytes with the NUL).
    public static let maximumSocketPathBytes = 107

    /// The `backend` value that lets the runtime choose.
    public static let automaticBackend = "auto"

    /// `hotplugDebounceMilliseconds` as a `Duration`.
    public var hotplugDebounce: Duration { .milliseconds(hotplugDebounceMilliseconds) }

    /// The screen configured under `name` (a connector name or a label).
    public func screen(named name: String) -> ScreenConfiguration? {
        screens.first { $0.name == name }
    }
}

/// The names a configuration may use that only the program knows: the apps it can run, the display
/// backends it has and the `[app-settings]` its app reads. The runtime passes its own lists; nil accepts
/// any non-empty name, and any `[app-settings]` table (for checking a file without a runtime at hand).
public struct Vocabulary: Sendable, Equatable {
    public var apps: [String]?
    public var backends: [String]?
    /// The keys `[app-settings]` may hold, with their types; nil: any table, handed over unchecked.
    public var appSettings: [AppSetting]?

    public init(apps: [String]? = nil, backends: [String]? = nil, appSettings: [AppSetting]? = nil) {
        self.apps = apps
        self.backends = backends
        self.appSettings = appSettings
    }

    /// Accepts every name.
    public static let open = Vocabulary()

    /// The app that runs for a configuration's `app`: that one where the program has it (the default, `demo`,
    /// is the kiosk's), else the program's first; nil where the vocabulary names none.
    public func app(for configured: String) -> String? {
        guard let apps, let first = apps.first else { return nil }
        return apps.contains(configured) ? configured : first
    }
}
