import Geometry

/// One `[screens.NAME]` table: what to do with a screen, found by connector name, by EDID, or by both.
public struct ScreenConfiguration: Sendable, Equatable {
    /// Which display a screen entry applies to, by the EDID identity the kernel reads from it, so a config
    /// survives moving a cable. Fields left nil match anything; at least one is set.
    public struct EDIDMatch: Sendable, Hashable, CustomStringConvertible {
        /// The three-letter PNP manufacturer ID (`SAM`, `DEL`, `GSM`).
        public var make: String?
        /// The monitor name descriptor (`SAMSUNG`, `DELL U2720Q`).
        public var model: String?
        /// The serial number descriptor, else the numeric serial as text.
        public var serial: String?

        public init(make: String? = nil, model: String? = nil, serial: String? = nil) {
            self.make = make
            self.model = model
            self.serial = serial
        }

        /// Exact comparison of each field that is set: EDID strings are short ASCII identifiers that
        /// `kiosk screens` prints as they are, so there is nothing to normalize.
        public func matches(make: String?, model: String?, serial: String?) -> Bool {
            (self.make == nil || self.make == make) && (self.model == nil || self.model == model)
                && (self.serial == nil || self.serial == serial)
        }

        /// TOML spelling: `{ make = "SAM", model = "SAMSUNG" }`.
        public var description: String {
            let fields = [("make", make), ("model", model), ("serial", serial)].compactMap { key, value in
                value.map { "\(key) = \(ConfigKeyPath.quote($0, limit: .max))" }
            }
            return "{ " + fields.joined(separator: ", ") + " }"
        }
    }

    /// Where a screen sits in a multi-screen layout, in points, top-left origin.
    public struct Position: Sendable, Hashable {
        public var x: Int
        public var y: Int

        public init(x: Int, y: Int) {
            self.x = x
            self.y = y
        }
    }

    /// The table's key: a connector name (`HDMI-A-1`) or a free label matched by `edid` (`lobby-tv`).
    public var name: String
    /// `name` when it is a connector name; nil for a label.
    public var connector: String? { ConnectorName.isValid(name) ? name : nil }
    /// The display's identity; with a connector name it narrows the match to that display on that connector.
    public var edid: EDIDMatch?
    /// nil: the runtime's policy (preferred, else current, else largest).
    public var mode: ModeRequest?
    /// nil: the connector's `panel orientation` when the kernel sets one, else normal.
    public var rotation: Rotation?
    /// Whether this is the main screen (see `KioskConfiguration.primary`, which has the final say).
    public var primary = false
    public var position: Position?
    /// The HDMI-CEC adapter that follows the screen's power; nil: `auto`.
    public var cec: CECSetting?
    /// Where the entry starts in the file (its `[screens.NAME]` header), for messages at run time; nil
    /// when not from a file.
    public var location: FilePosition?
    /// Where `mode` was written, for "a mode the connector does not offer" found after a hotplug.
    public var modeLocation: FilePosition?
    /// The panel's backlight, a device name in `/sys/class/backlight` (`intel_backlight`); nil: the one
    /// the display backend matches to the connector. Whether it exists is known only on the board.
    public var backlight: String?
    /// Seconds without input on this screen before it turns off (`[screens.NAME] idle-timeout`, 0 never);
    /// nil: the global `idle-timeout`.
    public var idleTimeoutSeconds: Int?
    /// The edges a television does not show, which the app's safe area leaves out; nil: none.
    public var overscan: Overscan?

    /// Set by a command-line flag (`--mode`, `--rotate`) rather than the file: such entries come first in
    /// `KioskConfiguration.screens`, so they win, and are made again after every reload.
    public var isFromCommandLine = false

    /// The line where the entry starts.
    public var line: Int? { location?.line }

    public init(
        name: String, edid: EDIDMatch? = nil, mode: ModeRequest? = nil, rotation: Rotation? = nil,
        primary: Bool = false, position: Position? = nil, location: FilePosition? = nil,
        modeLocation: FilePosition? = nil
    ) {
        self.name = name
        self.edid = edid
        self.mode = mode
        self.rotation = rotation
        self.primary = primary
        self.position = position
        self.location = location
        self.modeLocation = modeLocation
    }

    /// The entry without where it was written: two entries are the same settings when these are equal (a
    /// reload that only moved lines or edited comments changes nothing).
    public var ignoringWhereWritten: ScreenConfiguration {
        var copy = self
        copy.location = nil
        copy.modeLocation = nil
        return copy
    }

    /// Whether this entry applies to the display on `connector` with the given EDID identity.
    public func matches(connector: String, make: String?, model: String?, serial: String?) -> Bool {
        if let ownConnector = self.connector, ownConnector != connector { return false }
        return edid?.matches(make: make, model: model, serial: serial) ?? true
    }
}

/// What the configuration says about one display, resolved from every `[screens.*]` entry that matches it
/// (by connector name or EDID): each setting from the first entry that sets it, so the command line's
/// entries (first in the list) win over the file's, and a connector's own section and a label matched by
/// EDID can each contribute.
public struct ResolvedScreen: Sendable, Equatable {
    /// nil: the backend's policy (preferred, else current, else largest).
    public var mode: ModeRequest?
    /// nil: the panel's orientation, else normal.
    public var rotation: Rotation?
    /// Whether the configuration's `primary` names this display (by connector name or by a label it matches).
    public var isPrimary = false
    /// The HDMI-CEC adapter that follows the display's power (`auto` unless an entry says otherwise).
    public var cec = CECSetting.auto
    /// The backlight device the configuration names for this display; nil: the backend's match.
    public var backlight: String?
    /// The display's own idle timeout in seconds (0 never); nil: the global `idle-timeout`.
    public var idleTimeoutSeconds: Int?
    /// The edges of the picture the display does not show (`overscan`), none unless an entry says so.
    public var overscan = Overscan.none
    /// Where the display sits in the layout of several (`position`), which a mouse's pointer crosses; nil:
    /// it stands alone.
    public var position: ScreenConfiguration.Position?
    /// The labels of the file's `[screens.LABEL]` entries that match the display by EDID: names a touch
    /// rule or `primary` may give it besides its connector's.
    public var labels: [String] = []

    public init(mode: ModeRequest? = nil, rotation: Rotation? = nil, isPrimary: Bool = false) {
        self.mode = mode
        self.rotation = rotation
        self.isPrimary = isPrimary
    }
}

extension KioskConfiguration {
    /// The connector a screen reference (a touch rule's `screen`) stands for among the displays connected
    /// now, each with the settings its backend resolved for it: itself when it is a connector name, else the
    /// first display a label of the file matches by EDID (`ResolvedScreen.labels`); nil when no connected
    /// display has that label.
    public static func connector(for reference: String, among displays: [(connector: String, settings: ResolvedScreen)]) -> String? {
        if ConnectorName.isValid(reference) { return reference }
        return displays.first { $0.settings.labels.contains(reference) }?.connector
    }

    /// The settings for the display on `connector`, whose EDID identity is `edid` (nil: none read): each of
    /// `screenSettings` resolved from the entries that match the display. A display backend resolves them
    /// once each time it reads the display and on a reload (`ScreenSettingsStore`, in KioskBackend), and the
    /// rest of the kiosk reads what it resolved.
    public func screen(connector: String, edid: ScreenConfiguration.EDIDMatch? = nil) -> ResolvedScreen {
        let matching = screens.filter { $0.matches(connector: connector, make: edid?.make, model: edid?.model, serial: edid?.serial) }
        var resolved = ResolvedScreen()
        for setting in Self.screenSettings { setting.resolve(matching, connector, self, &resolved) }
        return resolved
    }
}
