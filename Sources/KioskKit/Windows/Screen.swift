import Glibc
import Logging

/// One display output: on a board, one DRM/KMS connector (`HDMI-A-1`, `DSI-1`), named as the kernel names it.
///
/// Screens are made by a display backend, which keeps one `Screen` object per connector for the life of
/// the process: a connector that is unplugged and plugged in again is the same object. `Screen.screens`
/// lists the connected ones, the main screen first.
@MainActor
public final class Screen {
    /// A display mode: size in pixels, refresh rate, pixel aspect ratio (as `UIScreenMode`); `1920x1080@60.000`
    /// when printed.
    public typealias Mode = DisplayMode

    /// The connector name, e.g. `HDMI-A-1`.
    public let name: String
    public private(set) var isConnected = false
    /// The modes the display offers, as the backend read them (for DRM: from the EDID, in the kernel's order).
    public private(set) var availableModes: [Mode] = []
    /// The display's preferred (native) mode, when it names one.
    public private(set) var preferredMode: Mode?
    private var storedCurrentMode: Mode?
    /// Physical size of the visible area in millimetres, when the display reports it.
    public private(set) var physicalSize: Size?
    /// How the content is turned on the panel; `bounds` is the logical size after the turn.
    public var rotation: Rotation = .normal {
        didSet {
            guard rotation != oldValue else { return }
            Log.screen.info("rotation changed", metadata: ["screen": "\(name)", "rotation": "\(rotation)"])
            geometryDidChange()
        }
    }
    /// The edges of the picture a television may not show (`[screens.NAME] overscan`): windows' safe areas
    /// leave them out (`View.safeAreaInsets`), so constrained content stays in sight. Zero by default.
    public var overscanInsets = EdgeInsets.zero {
        didSet {
            guard overscanInsets != oldValue else { return }
            Log.screen.info("overscan changed", metadata: ["screen": "\(name)", "insets": "\(overscanInsets)"])
            Application.shared.safeAreaMayHaveChanged(on: self)
        }
    }
    /// Applies modes for real; nil for screens that only exist in the model (the placeholder, tests).
    public private(set) weak var driver: (any ScreenDriver)?

    /// A screen for `name` driven by `driver`. It is not connected until `connect(...)`.
    public init(name: String, driver: (any ScreenDriver)?) {
        self.name = name
        self.driver = driver
        Application.shared.register(self)
    }

    /// The application's placeholder screen, which is not one of its screens.
    init(name: String, driver: (any ScreenDriver)?, registered: Bool) {
        self.name = name
        self.driver = driver
        if registered { Application.shared.register(self) }
    }

    // MARK: Queries

    /// The screens, the main screen first, then the other connected ones in the order their backends
    /// registered them (for DRM: the kernel's connector order). Never empty, as in UIKit: with no display
    /// connected it holds the main screen alone, disconnected (`isConnected == false`).
    public static var screens: [Screen] { Application.shared.screens }

    /// The main screen: the configured primary when it is connected, else the first connected screen.
    /// With nothing connected it is the last main screen, or a placeholder screen (no modes, zero bounds) when
    /// no display was ever seen: windows made on it move to the first display that connects.
    public static var main: Screen { Application.shared.mainScreen }

    /// The mode shown now; nil while disconnected or turned off.
    ///
    /// Setting it to one of `availableModes` applies the mode through the backend and posts
    /// `modeDidChangeNotification`; any other value is refused with an error log naming the modes that
    /// are offered, and the mode stays as it was. `setCurrentMode(_:)` is the throwing form.
    public var currentMode: Mode? {
        get { storedCurrentMode }
        set {
            guard let newValue else {
                Log.screen.error("\(name): currentMode cannot be set to nil; use the config's mode = \"off\" to turn a connector off")
                return
            }
            do { try setCurrentMode(newValue) } catch {
                Log.screen.error("\(error)")
            }
        }
    }

    /// Applies `mode`, which must be one of `availableModes`.
    public func setCurrentMode(_ mode: Mode) throws(ScreenError) {
        guard isConnected else { throw .notConnected(screen: name) }
        guard availableModes.contains(mode) else {
            throw .modeNotAvailable(screen: name, requested: mode, available: availableModes)
        }
        guard mode != storedCurrentMode else { return }
        if let driver {
            do { try driver.apply(mode, to: self) } catch {
                throw .backendFailed(screen: name, mode: mode, reason: "\(error)")
            }
        }
        storedCurrentMode = mode
        Log.screen.info("mode changed", metadata: ["screen": "\(name)", "mode": "\(mode)"])
        geometryDidChange()
    }

    /// The screen's rectangle in points: the current mode's pixel size turned by `rotation` (one point is
    /// one pixel on these displays). Zero while disconnected or without a mode.
    public var bounds: Rect {
        guard let mode = storedCurrentMode else { return .zero }
        return Rect(size: rotation.logicalSize(forPhysical: mode.size))
    }

    // MARK: Power and brightness

    /// Whether the display shows anything (as a kiosk's display power, which UIKit has no word for).
    public enum PowerState: String, Sendable {
        case on, off
    }

    /// On, or turned off on purpose (`setPower`): an off screen is still connected, keeps its windows and
    /// mode, and gets no frames until it is on again (then it is repainted whole).
    public private(set) var powerState = PowerState.on

    /// Turns the display off (blank: its CRTC inactive) or on again, with `powerStateDidChangeNotification`
    /// (its `userInfo["reason"]` is `reason`). Throws when the backend refuses; the state is then unchanged.
    public func setPower(_ state: PowerState, reason: String = "app") throws(ScreenError) {
        guard isConnected else { throw .notConnected(screen: name) }
        guard state != powerState else { return }
        if let driver {
            do { try driver.setPower(state == .on, for: self) } catch {
                throw .powerFailed(screen: name, on: state == .on, reason: "\(error)")
            }
        }
        powerState = state
        Log.screen.notice("power \(state.rawValue): \(reason)", metadata: ["screen": "\(name)"])
        Application.shared.screenPowerDidChange(self, reason: reason)
    }

    /// Whether the display has a backlight the kiosk drives (`brightness` then means something).
    public var hasBacklight: Bool { driver?.hasBacklight(self) ?? false }

    private var storedBrightness = 1.0

    /// The backlight's level, 0...1 (as `UIScreen.brightness`); setting it drives the backlight and posts
    /// `brightnessDidChangeNotification`. A display without a backlight stays at 1 (the setting is logged
    /// and ignored; `setBrightness` throws instead).
    public var brightness: Double {
        get { hasBacklight ? storedBrightness : 1 }
        set {
            do { try setBrightness(newValue) } catch { Log.screen.error("\(error)") }
        }
    }

    /// Sets the backlight (clamped to 0...1), throwing when there is none or the backend refuses.
    public func setBrightness(_ value: Double) throws(ScreenError) {
        let clamped = min(max(value.isNaN ? 1 : value, 0), 1)
        guard let driver, driver.hasBacklight(self) else { throw .noBacklight(screen: name) }
        guard clamped != storedBrightness else { return }
        do { try driver.setBrightness(clamped, for: self) } catch {
            throw .brightnessFailed(screen: name, value: clamped, reason: "\(error)")
        }
        storedBrightness = clamped
        Application.shared.notificationCenter.post(name: Screen.brightnessDidChangeNotification, object: self)
    }

    /// Whether this is the stand-in main screen used before any display appeared.
    public var isPlaceholder: Bool { Application.shared.isPlaceholder(self) }

    // MARK: Driven by backends

    /// The display behind this screen appeared (or was there at start): records what it offers and the
    /// mode the backend lit, joins `Screen.screens` and posts `didConnectNotification`.
    public func connect(modes: [Mode], preferredMode: Mode?, currentMode: Mode?, physicalSize: Size? = nil) {
        availableModes = modes
        self.preferredMode = preferredMode
        storedCurrentMode = currentMode
        self.physicalSize = physicalSize
        guard !isConnected else {
            geometryDidChange()
            return
        }
        isConnected = true
        Log.screen.info("connected", metadata: ["screen": "\(name)", "mode": "\(currentMode.map { "\($0)" } ?? "off")"])
        Application.shared.screenDidConnect(self)
    }

    /// The display went away: leaves `Screen.screens`, cancels touches on it and posts
    /// `didDisconnectNotification`. Its windows keep their views and come back with it.
    public func disconnect() {
        guard isConnected else { return }
        isConnected = false
        storedCurrentMode = nil
        // A display that comes back is lit: the power state is the connector's, not the screen object's.
        powerState = .on
        Log.screen.info("disconnected", metadata: ["screen": "\(name)"])
        Application.shared.screenDidDisconnect(self)
    }

    /// The backend read the level of the display's backlight: when it found the backlight (at connect, or a
    /// reload named another device). Posts `brightnessDidChangeNotification` when a connected screen's level
    /// changed; before it connects the level is only recorded, as its modes are.
    public func update(brightness value: Double) {
        let clamped = min(max(value.isNaN ? 1 : value, 0), 1)
        guard clamped != storedBrightness else { return }
        storedBrightness = clamped
        guard isConnected else { return }
        Application.shared.notificationCenter.post(name: Screen.brightnessDidChangeNotification, object: self)
    }

    /// The backend found a new mode list (a new EDID) or lit another mode by itself (a re-modeset after
    /// hotplug). Posts `modeDidChangeNotification` when the current mode changed.
    public func update(modes: [Mode], preferredMode: Mode?, currentMode: Mode?) {
        availableModes = modes
        self.preferredMode = preferredMode
        guard currentMode != storedCurrentMode else { return }
        storedCurrentMode = currentMode
        Log.screen.info("mode changed", metadata: ["screen": "\(name)", "mode": "\(currentMode.map { "\($0)" } ?? "off")"])
        geometryDidChange()
    }

    private func geometryDidChange() {
        guard isConnected else { return }
        Application.shared.screenGeometryDidChange(self)
    }
}

extension Screen {
    /// Posted after a screen connects; `object` is the screen.
    nonisolated public static let didConnectNotification = NotificationName("KioskScreenDidConnectNotification")
    /// Posted after a screen disconnects; `object` is the screen.
    nonisolated public static let didDisconnectNotification = NotificationName("KioskScreenDidDisconnectNotification")
    /// Posted after a connected screen's mode or rotation changed, so its bounds may differ; `object` is the screen.
    nonisolated public static let modeDidChangeNotification = NotificationName("KioskScreenModeDidChangeNotification")
    /// Posted after a screen was turned off or on (`powerState`); `object` is the screen.
    nonisolated public static let powerStateDidChangeNotification = NotificationName("KioskScreenPowerStateDidChangeNotification")
    /// Posted after `brightness` changed (as `UIScreen.brightnessDidChangeNotification`); `object` is the screen.
    nonisolated public static let brightnessDidChangeNotification = NotificationName("KioskScreenBrightnessDidChangeNotification")
}

extension Screen: CustomStringConvertible {
    nonisolated public var description: String {
        "Screen(\(name.isEmpty ? "placeholder" : name))"
    }
}

/// What can go wrong when a screen's mode is set by code.
public struct ScreenError: Error, CustomStringConvertible, Equatable {
    private enum Code: Equatable {
        case modeNotAvailable(requested: Screen.Mode, available: [Screen.Mode])
        case notConnected
        case backendFailed(mode: Screen.Mode, reason: String)
        case noBacklight
        case powerFailed(on: Bool, reason: String)
        case brightnessFailed(value: Double, reason: String)
    }

    private let code: Code
    public let screen: String

    public static func modeNotAvailable(screen: String, requested: Screen.Mode, available: [Screen.Mode]) -> ScreenError {
        ScreenError(code: .modeNotAvailable(requested: requested, available: available), screen: screen)
    }

    public static func notConnected(screen: String) -> ScreenError { ScreenError(code: .notConnected, screen: screen) }

    public static func backendFailed(screen: String, mode: Screen.Mode, reason: String) -> ScreenError {
        ScreenError(code: .backendFailed(mode: mode, reason: reason), screen: screen)
    }

    public static func noBacklight(screen: String) -> ScreenError { ScreenError(code: .noBacklight, screen: screen) }

    public static func powerFailed(screen: String, on: Bool, reason: String) -> ScreenError {
        ScreenError(code: .powerFailed(on: on, reason: reason), screen: screen)
    }

    public static func brightnessFailed(screen: String, value: Double, reason: String) -> ScreenError {
        ScreenError(code: .brightnessFailed(value: value, reason: reason), screen: screen)
    }

    public var description: String {
        switch code {
        case let .modeNotAvailable(requested, available):
            let offered = available.isEmpty ? "none" : available.map(\.description).joined(separator: ", ")
            return "\(screen): mode \(requested) is not offered by this display; it offers: \(offered)"
        case .notConnected:
            return "\(screen): cannot set a mode, the screen is not connected"
        case let .backendFailed(mode, reason):
            return "\(screen): applying mode \(mode) failed: \(reason)"
        case .noBacklight:
            return "\(screen): this display has no backlight the kiosk can set (brightness stays 1)"
        case let .powerFailed(on, reason):
            return "\(screen): turning the display \(on ? "on" : "off") failed: \(reason)"
        case let .brightnessFailed(value, reason):
            return "\(screen): setting the brightness to \(value) failed: \(reason)"
        }
    }
}
