import KioskKit

/// A display backend that lives in memory: tests (and apps' own tests) connect, disconnect and re-mode
/// screens by hand. It applies any offered mode and records what it applied.
@MainActor
public final class InMemoryDisplayBackend: ScreenDriver {
    /// One `Screen` per connector name, kept across reconnects as a real backend keeps them.
    public private(set) var screensByName: [String: Screen] = [:]
    /// Every mode applied through `apply(_:to:)`, in order.
    public private(set) var appliedModes: [(screen: String, mode: Screen.Mode)] = []
    /// When set, `apply` throws this error (to test a failing modeset).
    public var failure: (any Error)?

    public init() {}

    /// The screen for `name`, made on first use.
    public func screen(named name: String) -> Screen {
        if let screen = screensByName[name] { return screen }
        let screen = Screen(name: name, driver: self)
        screensByName[name] = screen
        return screen
    }

    /// Plugs in a display on `name` offering `modes`; it lights `current`, else the preferred mode, else the first.
    @discardableResult
    public func connect(
        _ name: String, modes: [Screen.Mode], preferred: Screen.Mode? = nil, current: Screen.Mode? = nil,
        physicalSize: Size? = nil
    ) -> Screen {
        let screen = screen(named: name)
        let preferredMode = preferred ?? modes.first
        screen.connect(modes: modes, preferredMode: preferredMode, currentMode: current ?? preferredMode, physicalSize: physicalSize)
        return screen
    }

    /// Unplugs the display on `name`.
    public func disconnect(_ name: String) {
        screensByName[name]?.disconnect()
    }

    /// The display on `name` now offers other modes (a new EDID) and shows `current`.
    public func changeModes(_ name: String, modes: [Screen.Mode], preferred: Screen.Mode? = nil, current: Screen.Mode?) {
        screen(named: name).update(modes: modes, preferredMode: preferred ?? modes.first, currentMode: current)
    }

    public func apply(_ mode: Screen.Mode, to screen: Screen) throws {
        if let failure { throw failure }
        appliedModes.append((screen.name, mode))
    }

    /// Every power change, as `"<screen> on"` / `"<screen> off"`, and the backlight levels set.
    public private(set) var powerLog: [String] = []
    /// Screens given a backlight (tests of brightness).
    public var backlights: Set<String> = []

    public func setPower(_ on: Bool, for screen: Screen) throws {
        if let failure { throw failure }
        powerLog.append("\(screen.name) \(on ? "on" : "off")")
    }

    public func hasBacklight(_ screen: Screen) -> Bool { backlights.contains(screen.name) }

    public func setBrightness(_ value: Double, for screen: Screen) throws {
        if let failure { throw failure }
        powerLog.append("\(screen.name) brightness \(value)")
    }
}
