import KioskBackend
import KioskConfig
import KioskKit
import Logging

/// Reloads (SIGHUP, `kiosk reload`): the configuration read again, what changed applied where it can be.
extension KioskRuntime {
    /// What a reload did (for the control socket's `reload` answer).
    public enum ReloadOutcome: Equatable, Sendable {
        /// The runtime was made without a configuration source.
        case nothingToRead
        /// The file has problems (each as the log writes it); the running configuration is kept.
        case rejected(path: String, problems: [String])
        /// What was read, and the keys that changed: those applied and those that take a restart.
        case applied(ReloadSource, applied: [String], needsRestart: [String])
    }

    /// What a reload read: the file, or no file at the default path (the one path that may be missing).
    public enum ReloadSource: Equatable, Sendable {
        case file(String)
        /// `onDefaults`: every setting has its default; else the `KIOSK_*` variables or the command line set some.
        case noFile(String, onDefaults: Bool)

        /// What the log and `kiosk reload` say of a reload that `applied` these keys (none: nothing changed
        /// that applies live). Said the same on both sides: a reload without a file had said the default
        /// path was read.
        public func summary(applied: [String]) -> String {
            let keys = applied.joined(separator: ", ")
            switch self {
            case .file(let path):
                return applied.isEmpty ? "\(path) read, nothing changed that applies live" : "applied \(keys) from \(path)"
            case .noFile:
                return read + (applied.isEmpty ? "; nothing changed that applies live" : "; applied \(keys)")
            }
        }

        /// What was read: the file, or that there is none and what the kiosk runs on (said at the start too).
        public var read: String {
            switch self {
            case .file(let path): "\(path) read"
            case .noFile(let path, let onDefaults):
                "no configuration file at \(path): the kiosk runs on "
                    + (onDefaults ? "its defaults" : "its defaults and what its KIOSK_* variables and command line set")
            }
        }
    }

    /// SIGHUP (and the control socket's `reload`): reads the configuration again (file, environment, then
    /// the command line on top, so what the command line said still wins) and applies what can be applied
    /// live: modes, rotation, the primary screen, touch mapping and calibration, the cursor, the on-screen
    /// keyboard, the hotplug debounce, HDMI-CEC, the session timeout and the log level. Settings that need a
    /// restart are named in the log, the trace and the outcome. A configuration with problems is rejected
    /// whole, its problems logged, and the running one kept. `trigger` starts the log lines (`SIGHUP`,
    /// `kiosk reload`).
    @discardableResult
    public func reload(trigger: String = "SIGHUP") -> ReloadOutcome {
        let configLog = Logger(label: "kiosk.config")
        guard let source else {
            configLog.notice("\(trigger): no configuration to read again")
            return .nothingToRead
        }
        service.reloading()
        defer { service.reloaded(status: statusLine()) }
        let loaded: KioskConfiguration
        switch source.load() {
        case .failure(let errors):
            for problem in errors.problems { configLog.error("\(problem)") }
            configLog.error("\(trigger): \(source.path) has \(errors.problems.count) problem(s); keeping the running configuration")
            trace?.recordReload(applied: [], needsRestart: [], problems: errors.problems.count)
            return .rejected(path: source.path, problems: errors.problems.map(\.description))
        case .success(let configuration):
            loaded = configuration
        }
        let changes = Self.changes(from: configuration, to: loaded)
        configuration = loaded
        RuntimeLogging.level = loaded.logLevel
        application.preferredMainScreenName = loaded.primary
        applyKeyboard(loaded)
        power?.idleTimeout = TimeInterval(loaded.idleTimeoutSeconds)
        power?.power = loaded.power
        power?.dimBrightness = loaded.dimBrightness
        power?.dimAfter = TimeInterval(loaded.dimAfterSeconds)
        // Only a changed setting: what the app set in code stands over a reload that left it as it was.
        if changes.contains(where: { $0.key == "session-timeout" }) {
            application.sessionIdleTimeout = TimeInterval(loaded.sessionTimeoutSeconds)
        }
        // The backend resolves each screen's settings again first: HDMI-CEC's adapters and the screens' own
        // idle timeouts are read from what it resolved.
        display?.reconfigure(loaded)
        power?.screenSettingsChanged()
        cec?.reconfigure(loaded)
        router?.reconfigure(loaded)
        let applied = changes.filter { $0.reload == .live }.map(\.key)
        let restart = changes.filter { $0.reload == .restart }.map(\.key)
        // Only the default path may be missing: a file named by --config or KIOSK_CONFIG must be there.
        let read: ReloadSource = loaded.path.map { .file($0) } ?? .noFile(source.path, onDefaults: loaded == .default)
        var summary = "\(trigger): \(read.summary(applied: applied))"
        if !restart.isEmpty { summary += "; \(restart.joined(separator: ", ")) changed and need a restart" }
        configLog.notice("\(summary)")
        trace?.recordReload(applied: applied, needsRestart: restart, problems: 0)
        return .applied(read, applied: applied, needsRestart: restart)
    }

    /// The on-screen keyboard's mode and layout, and the text size, from the configuration.
    func applyKeyboard(_ configuration: KioskConfiguration) {
        application.preferredContentSizeCategory = configuration.textSize
        application.keyboard.mode = configuration.keyboard
        application.keyboard.language = configuration.keyboardLayout
        application.keyRepeat = KeyRepeat(
            delay: Double(configuration.keyboardRepeatDelayMilliseconds) / 1000, rate: Double(configuration.keyboardRepeatRate))
    }

    /// A setting that changed: its key, and whether a reload applies it.
    typealias Change = (key: String, reload: KioskConfiguration.Setting.Reload)

    /// What differs between two configurations.
    nonisolated static func changes(from old: KioskConfiguration, to new: KioskConfiguration) -> [Change] {
        var changes = KioskConfiguration.settings.filter { $0.value(in: old) != $0.value(in: new) }.map { ($0.key, $0.reload) }
        // What the settings' spelling does not show: whole screen sections (EDID, position), calibrations.
        // Where an entry was written is no setting: moved lines or edited comments change nothing. A
        // per-screen setting with a flag is reported by its own key (`screenFlag`).
        let screenFlags = KioskConfiguration.screenSettings.filter { $0.flag != nil }.map(\.key)
        if old.screens.map(\.ignoringWhereWritten) != new.screens.map(\.ignoringWhereWritten),
            !changes.contains(where: { screenFlags.contains($0.0) })
        {
            changes.append(("screens", .live))
        }
        if old.touch.map(\.ignoringWhereWritten) != new.touch.map(\.ignoringWhereWritten), !changes.contains(where: { $0.0 == "touch" }) {
            changes.append(("touch", .live))
        }
        if old.power.ignoringWhereWritten != new.power.ignoringWhereWritten { changes.append(("power", .live)) }
        if old.appSettings != new.appSettings { changes.append(("app-settings", .restart)) }
        return changes.map { (key: $0.0, reload: $0.1) }
    }
}
