extension KioskConfiguration {
    /// What is wrong with the dim stage as set: `dim-after` at or past `idle-timeout` (both set) would turn
    /// the screen off before it ever dims. nil when it is fine. `idleTimeoutWhere` follows the idle
    /// timeout's value (` (line 5)`).
    func dimStageProblem(idleTimeoutWhere: String = "") -> String? {
        guard dimAfterSeconds > 0, idleTimeoutSeconds > 0, dimAfterSeconds >= idleTimeoutSeconds else { return nil }
        return
            "\(dimAfterSeconds) is not less than idle-timeout = \(idleTimeoutSeconds)\(idleTimeoutWhere): a screen dims before it turns off"
    }

    /// The dim stage checked again after the environment or the command line set a value of it (a file's own
    /// contradiction is the file's problem, at its line): the problem names where the value came from.
    func dimStageProblem(origin: ConfigProblem.Origin) -> ConfigProblem? {
        dimStageProblem().map { ConfigProblem(.conflict, origin, keyPath: "dim-after", message: "dim-after " + $0) }
    }

    /// The keys whose values the dim stage's check compares.
    static let dimStageKeys: Set<String> = ["dim-after", "idle-timeout"]
}

extension ScreenConfiguration {
    /// What a screen's `backlight` may be.
    public static let backlightSpelling = "a device name of /sys/class/backlight, e.g. intel_backlight (`kiosk screens` shows them)"

    /// Why `name` cannot name a backlight device (one file name in `/sys/class/backlight`), or nil.
    public static func backlightProblem(_ name: String) -> String? {
        if name.isEmpty { return "empty" }
        if name == "." || name == ".." || name.contains("/") { return "\(ConfigKeyPath.quote(name)) is not a device name (one name, no /)" }
        return nil
    }
}
