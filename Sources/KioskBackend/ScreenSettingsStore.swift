import KioskConfig

/// Each screen's settings as its display backend resolved them, by connector name: resolved once when the
/// backend reads the screen's display (at start, on a hotplug, where the EDID may be new) and again on a
/// reload, from the display as last read. Everything else reads these (the backend's own lighting and
/// launch screen, the power manager's idle timeouts, HDMI-CEC, the pointer's layout, touch rules naming a
/// label) instead of resolving them again, so a screen's settings are one value at any moment.
public struct ScreenSettingsStore: Sendable {
    /// What each screen's settings were resolved from: its display's EDID identity (nil: none read, or no
    /// display connected), kept so that a reload resolves them again without reading the display.
    private var identities: [String: ScreenConfiguration.EDIDMatch?] = [:]
    private var resolved: [String: ResolvedScreen] = [:]

    public init() {}

    /// Resolves the settings of each display in `configuration`: `name` is its connector (a screen's
    /// name), `edid` its identity as just read (nil: none, or nothing connected). Screens not named keep
    /// what they had.
    public mutating func resolve(
        _ displays: [(name: String, edid: ScreenConfiguration.EDIDMatch?)], in configuration: KioskConfiguration
    ) {
        for (name, edid) in displays {
            identities[name] = edid
            resolved[name] = configuration.screen(connector: name, edid: edid)
        }
    }

    /// A reload: every screen's settings resolved again in `configuration`, from the display each was last
    /// resolved with (read again only when the backend next reads its displays).
    public mutating func resolveAgain(in configuration: KioskConfiguration) {
        resolve(identities.map { (name: $0.key, edid: $0.value) }, in: configuration)
    }

    /// The settings of the screen on connector `name`; nothing configured for a screen never resolved.
    public subscript(name: String) -> ResolvedScreen { resolved[name] ?? ResolvedScreen() }
}
