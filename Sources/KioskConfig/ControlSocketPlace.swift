/// `control-socket`: where the running kiosk answers `kiosk status`, `power`, `brightness`, `screenshot` and
/// `reload`.
public enum ControlSocket: Sendable, Equatable, CustomStringConvertible {
    /// The first of `ControlSocketPlace`'s places that applies (the default): the kiosk and its clients
    /// find the same one without a path written anywhere.
    case auto
    /// A path the configuration names; it wins over the places, wherever the kiosk runs.
    case path(String)
    /// No socket.
    case off

    /// As the setting is written.
    public var description: String {
        switch self {
        case .auto: "auto"
        case .path(let path): path
        case .off: KioskConfiguration.offSpelling
        }
    }
}

/// Where the control socket is under `control-socket = "auto"`: the places, in order, declared once for
/// both ends. The kiosk listens at the first place that applies to it; a client looks at each place in the
/// same order and asks the first one that is there. A kiosk under systemd is where its unit puts it; one run
/// by hand (`scripts/run`) is where its user can reach it, as Wayland compositors put their sockets.
public enum ControlSocketPlace: CaseIterable, Sendable {
    /// `/run/kiosk/control`, in the folder the unit's `RuntimeDirectory=kiosk` makes (0750, the kiosk's
    /// group: the control group's members reach it). Taken when systemd says it made that folder for this
    /// process (`RUNTIME_DIRECTORY` lists it), not because the folder exists: under the unit the kiosk has an
    /// `XDG_RUNTIME_DIR` too (its `PAMName=` opens a session), so this place comes first.
    case service
    /// `$XDG_RUNTIME_DIR/kiosk-control`: the user's runtime folder (pam_systemd's `/run/user/UID`, 0700),
    /// beside `wayland-0`: a kiosk run by hand in a login session.
    case session
    /// `$TMPDIR/kiosk-UID/control` (`/tmp` without TMPDIR): a folder of the user's own (0700, made by the
    /// kiosk, as tmux makes `/tmp/tmux-UID`), where there is no `XDG_RUNTIME_DIR` (sudo, su, a console
    /// without logind).
    case temporary

    /// The folder systemd makes for the unit.
    public static let serviceFolder = "/run/kiosk"

    /// The socket's path here for a process with `environment` and the (effective) user `uid`; nil where
    /// this place has none (no absolute `XDG_RUNTIME_DIR`).
    public func path(environment: [String: String], uid: UInt32) -> String? {
        switch self {
        case .service: Self.serviceFolder + "/control"
        case .session: Self.folder(environment["XDG_RUNTIME_DIR"]).map { $0 + "/kiosk-control" }
        case .temporary: (Self.folder(environment["TMPDIR"]) ?? "/tmp") + "/kiosk-\(uid)/control"
        }
    }

    /// Whether a kiosk with `environment` listens here (when no place before this one applies).
    public func applies(to environment: [String: String]) -> Bool {
        switch self {
        case .service:
            // Colon-separated when a unit names several folders.
            (environment["RUNTIME_DIRECTORY"] ?? "").split(separator: ":").contains { Self.folder(String($0)) == Self.serviceFolder }
        case .session: Self.folder(environment["XDG_RUNTIME_DIR"]) != nil
        case .temporary: true
        }
    }

    /// Where a kiosk with `environment`, run by `uid`, listens: the first place that applies.
    public static func chosen(environment: [String: String], uid: UInt32) -> (place: ControlSocketPlace, path: String) {
        for place in allCases where place.applies(to: environment) {
            if let path = place.path(environment: environment, uid: uid) { return (place, path) }
        }
        // `temporary` always applies and has a path.
        return (.temporary, ControlSocketPlace.temporary.path(environment: environment, uid: uid)!)
    }

    /// Where a client with `environment`, run by `uid`, looks for a kiosk, in order.
    public static func candidates(environment: [String: String], uid: UInt32) -> [String] {
        allCases.compactMap { $0.path(environment: environment, uid: uid) }
    }

    /// Why a kiosk listens here, for its log line.
    public var reason: String {
        switch self {
        case .service: "systemd made \(Self.serviceFolder) for it (RuntimeDirectory=kiosk)"
        case .session: "in XDG_RUNTIME_DIR"
        case .temporary: "no XDG_RUNTIME_DIR: in a folder of its user's own"
        }
    }

    /// The places in words, for `--help`, the example file and messages.
    public static let spelled =
        "\(serviceFolder)/control under systemd (RUNTIME_DIRECTORY=\(serviceFolder)), else $XDG_RUNTIME_DIR/kiosk-control, else /tmp/kiosk-UID/control (TMPDIR for /tmp)"

    /// An absolute folder without its trailing slashes; nil for unset, empty or relative (the XDG base
    /// directory specification: a relative path in these variables is to be ignored).
    private static func folder(_ value: String?) -> String? {
        guard var value, value.hasPrefix("/") else { return nil }
        while value.count > 1, value.hasSuffix("/") { value.removeLast() }
        return value == "/" ? nil : value
    }
}
