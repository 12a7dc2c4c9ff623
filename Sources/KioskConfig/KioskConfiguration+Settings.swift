extension KioskConfiguration {
    /// The keys of the file's top level, in the order the example file documents them.
    static let topLevelKeys = Setting.allCases.map(\.rawValue) + ["app-settings", "screens", "touch"]

    /// The top-level keys that hold one value, which the environment can override too (`KIOSK_` + the key
    /// in capitals with `_` for `-`): one parser per key for both, so a value means the same in either.
    enum Setting: String, CaseIterable {
        case backend
        case drmDevice = "drm-device"
        case fbdevDevice = "fbdev-device"
        case seat
        case logLevel = "log-level"
        case cursor
        case hotplugDebounce = "hotplug-debounce-ms"
        case primary
        case app

        /// `KIOSK_HOTPLUG_DEBOUNCE_MS` for `hotplug-debounce-ms`.
        var environmentVariable: String {
            "KIOSK_" + String(rawValue.uppercased().map { $0 == "-" ? "_" : $0 })
        }

        /// The one setting written as a TOML integer; the others are strings.
        var isInteger: Bool { self == .hotplugDebounce }

        /// The range of `hotplug-debounce-ms`: up to a minute, since a longer wait for a display that was
        /// plugged in looks like a broken kiosk.
        static let debounceRange = 0...60_000

        /// What would be valid, for messages.
        func valid(knownApps: [String]) -> String {
            switch self {
            case .backend: Backend.allCases.map(\.rawValue).joined(separator: ", ")
            case .drmDevice: "an absolute device path, e.g. /dev/dri/card0"
            case .fbdevDevice: "an absolute device path, e.g. /dev/fb0"
            case .seat: "a seat name, e.g. seat0"
            case .logLevel: LogLevel.allCases.map(\.rawValue).joined(separator: ", ")
            case .cursor: Cursor.allCases.map(\.rawValue).joined(separator: ", ")
            case .hotplugDebounce: "\(Self.debounceRange.lowerBound) to \(Self.debounceRange.upperBound) (milliseconds)"
            case .primary: ConnectorName.validSpelling + " or the label of a screen of the file"
            case .app: knownApps.joined(separator: ", ")
            }
        }

        /// Sets the value written as `text` (an integer setting parses it); false when it is not valid.
        /// `primary` is only checked for being non-empty here: whether it names a screen is known once the
        /// whole file is read.
        func apply(_ text: String, to configuration: inout KioskConfiguration, knownApps: [String]) -> Bool {
            // Names are matched without regard to case (KIOSK_LOG_LEVEL=DEBUG is how people type it); paths
            // and names of things are taken as written.
            let lowered = text.lowercased()
            switch self {
            case .backend:
                guard let backend = Backend(rawValue: lowered) else { return false }
                configuration.backend = backend
            case .drmDevice:
                guard text.hasPrefix("/") && text.count > 1 else { return false }
                configuration.drmDevice = text
            case .fbdevDevice:
                guard text.hasPrefix("/") && text.count > 1 else { return false }
                configuration.fbdevDevice = text
            case .seat:
                guard !text.isEmpty else { return false }
                configuration.seat = text
            case .logLevel:
                guard let level = LogLevel(rawValue: lowered) else { return false }
                configuration.logLevel = level
            case .cursor:
                guard let cursor = Cursor(rawValue: lowered) else { return false }
                configuration.cursor = cursor
            case .hotplugDebounce:
                guard let milliseconds = Int(text), Self.debounceRange.contains(milliseconds) else { return false }
                configuration.hotplugDebounceMilliseconds = milliseconds
            case .primary:
                guard !text.isEmpty else { return false }
                configuration.primary = text
            case .app:
                guard knownApps.contains(text) else { return false }
                configuration.app = text
            }
            return true
        }
    }
}
