import Glibc

extension TimeZone {
    /// The system's zone, as glibc's `localtime` finds it: `TZ` when it names a zone of the tz database
    /// (`Europe/Berlin` or `:Europe/Berlin`), else `/etc/localtime` (named by the zone its link points
    /// to, else `localtime`), else UTC. Read again at each call: a kiosk asks once, at start or for a picker.
    public static func system(
        environment: String? = getenv("TZ").map { String(cString: $0) }, localTime: String = "/etc/localtime",
        directory: String = TimeZone.systemZoneDirectory
    ) -> TimeZone {
        if var name = environment, !name.isEmpty {
            if name.hasPrefix(":") { name.removeFirst() }
            if let zone = try? TimeZone(named: name, directory: directory) { return zone }
        }
        guard let bytes = try? ZoneFile.read(path: localTime) else { return .utc }
        return (try? TimeZone(tzifData: bytes, name: linkedZoneName(localTime, directory: directory) ?? "localtime")) ?? .utc
    }

    /// The zone `path` links to, `Europe/Berlin` for `/usr/share/zoneinfo/Europe/Berlin` (Debian's
    /// `/etc/localtime` is such a link): nil when it is no link into `directory`. Calls `realpath`.
    static func linkedZoneName(_ path: String, directory: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        let target = String(cString: resolved)
        let prefix = directory.hasSuffix("/") ? directory : directory + "/"
        guard target.hasPrefix(prefix) else { return nil }
        return String(target.dropFirst(prefix.count))
    }
}
