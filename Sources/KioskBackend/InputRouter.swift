import Glibc
import KioskConfig
import KioskKit
import Logging

/// Turns an input backend's device events into the window model's: contacts by slot become `Touch` objects
/// grouped in one event per evdev frame, on the screen the mapping policy picked for the device, through
/// its rotation; keys become presses for the key window's first responder; the primary mouse button acts
/// as a single touch under the pointer, which moves the cursor. Pure Swift on the main actor: the same for
/// libinput and the in-memory twin, so slot handling, cancellation and the cursor have unit tests.
@MainActor
public final class InputRouter {
    /// Finds a screen by connector name, connected or not (the display backend's screens), or by a label of
    /// the configuration (matched by EDID among the connected ones). A connector's screen must be the same
    /// object for as long as the backend has it: the router keeps it from one mapping decision to the next.
    public typealias ScreenLookup = @MainActor (String) -> Screen?

    private struct DeviceState {
        var device: InputDeviceInfo
        var decision: TouchMapping.Decision?
        /// The screen `decision` names, found when the decision was made (`screen(for:)`).
        var screen: Screen?
        /// The contacts down now, by the device's slot.
        var touches: [Int32: Touch] = [:]
        /// Slots changed since the last frame.
        var changed: Set<Int32> = []
    }

    public let application: Application
    /// The configuration's touch rules (first match wins) and their calibrations.
    public private(set) var rules: [TouchConfiguration]
    public let cursor: Cursor
    /// Calibration off (identity) on every touch device: `kiosk calibrate` records where the digitizer
    /// really reports.
    public var calibrationOff = false
    /// The backend whose devices these are (for calibration).
    public weak var backend: (any InputBackend)?
    /// The device of the last touch-down (for `kiosk calibrate --write`).
    public private(set) var lastTouchDevice: InputDeviceInfo?
    private let screenNamed: ScreenLookup
    /// Where a screen sits in the layout a mouse's pointer crosses (`[screens.NAME] position`, resolved by
    /// the runtime by connector and EDID); nil: it stands alone.
    public var screenPosition: @MainActor (Screen) -> Point? = { _ in nil }
    private var devices: [InputDeviceInfo: DeviceState] = [:]
    private var pointer: (screen: Screen, location: Point)?
    private var pointerTouch: Touch?
    /// How many devices hold the primary button down: the touch begins with the first press and ends
    /// with the last release, as the seat-wide button count of weston and mutter (a mouse and a tablet,
    /// or a touch panel that is also a mouse, may both press it).
    private var primaryButtonsDown = 0
    private let log = Logger(label: "kiosk.input")

    public init(
        application: Application, configuration: KioskConfiguration, cursor: Cursor? = nil,
        screenNamed: @escaping ScreenLookup
    ) {
        self.application = application
        rules = configuration.touch
        self.cursor = cursor ?? Cursor(mode: configuration.cursor)
        self.screenNamed = screenNamed
    }

    /// The devices present now.
    public var presentDevices: [InputDeviceInfo] { devices.keys.sorted { $0.id < $1.id } }

    /// The screen a device's absolute positions go to, and why; nil for devices that map to none.
    public func decision(for device: InputDeviceInfo) -> TouchMapping.Decision? { devices[device]?.decision }

    /// New settings (a reload): rules, calibrations and the cursor, applied to every device present.
    public func reconfigure(_ configuration: KioskConfiguration) {
        rules = configuration.touch
        cursor.mode = configuration.cursor
        for device in devices.keys where device.capabilities.contains(.touch) { applyCalibration(to: device) }
        remap()
        for state in devices.values {
            if let decision = state.decision {
                log.notice("\(state.device.sysname) \"\(state.device.name)\" -> \(decision.screen ?? "no screen") (\(decision.reason))")
            }
        }
    }

    /// Screens changed (connect, disconnect, mode): mapping decisions depend on which screens exist.
    public func remap() {
        for (device, state) in devices where state.device.mapsToAScreen {
            let decision = decide(state.device)
            devices[device]?.decision = decision
            devices[device]?.screen = decision.screen.flatMap(screenNamed)
        }
    }

    // MARK: Devices

    /// A device appeared (at start, plugged in, or back after a session switch). `detail` joins the log line.
    public func deviceAdded(_ device: InputDeviceInfo, detail: String? = nil) {
        var state = DeviceState(device: device)
        var line = "\(device): \(device.capabilities)"
        if device.mapsToAScreen {
            let decision = decide(device)
            state.decision = decision
            state.screen = decision.screen.flatMap(screenNamed)
            line += " -> \(decision.screen ?? "no screen") (\(decision.reason))"
        }
        if let detail { line += ", " + detail }
        devices[device] = state
        if device.capabilities.contains(.touch) { applyCalibration(to: device) }
        if device.capabilities.contains(.pointer) { cursor.hasPointerDevice = true }
        updateHardwareKeyboard()
        // Notice, not info: which screen a device drives is the first thing to check when touch misbehaves.
        log.notice("added \(line)")
    }

    /// A device went away: whatever it still had down is cancelled.
    public func deviceRemoved(_ device: InputDeviceInfo) {
        // libinput cancels the contacts itself before removing (observed with 1.22); cancel whatever is left.
        let leftover = Set(devices[device]?.touches.values.map { $0 } ?? [])
        if !leftover.isEmpty {
            application.cancelTouches(reason: "input device \(device.sysname) removed") { leftover.contains($0) }
        }
        devices[device] = nil
        // A key held on it never comes up.
        if device.capabilities.contains(.keyboard) { application.releaseHeldKeys() }
        cursor.hasPointerDevice = devices.keys.contains { $0.capabilities.contains(.pointer) }
        updateHardwareKeyboard()
        log.notice("removed \(device.sysname) \"\(device.name)\"")
    }

    /// With a typing keyboard attached, the on-screen keyboard (in `auto`) stays away.
    private func updateHardwareKeyboard() {
        application.keyboard.hasHardwareKeyboard = devices.keys.contains(where: \.isTypingKeyboard)
    }

    /// The session went away: every touch in progress is cancelled.
    public func cancelAll(reason: String) {
        let all = Set(devices.values.flatMap { $0.touches.values })
        application.cancelTouches(reason: reason) { all.contains($0) || $0 === self.pointerTouch }
        for device in devices.keys { devices[device]?.touches = [:] }
        pointerTouch = nil
        primaryButtonsDown = 0
    }

    private func decide(_ device: InputDeviceInfo) -> TouchMapping.Decision {
        let screens = application.connectedScreens.map { screen in
            TouchMapping.Screen(name: screen.name, physicalSize: screen.physicalSize, isMain: screen === Screen.main)
        }
        return TouchMapping.map(device, rules: rules, screens: screens)
    }

    /// The configuration's calibration for a device replaces udev's `LIBINPUT_CALIBRATION_MATRIX`; without
    /// one (any more) the device's own is put back.
    private func applyCalibration(to device: InputDeviceInfo) {
        let matrix: [Double]?
        if calibrationOff {
            matrix = [1, 0, 0, 0, 1, 0]
        } else {
            matrix = TouchMapping.rule(for: device, in: rules).flatMap { rules[$0].calibration }
        }
        do {
            try backend?.setCalibration(matrix, of: device)
            if let matrix, !calibrationOff { log.info("\(device.sysname): calibration \(matrix) from the config") }
        } catch {
            log.error("\(device.sysname): cannot set the calibration matrix \(matrix.map { "\($0)" } ?? "back"): \(error)")
        }
    }

    /// The screen a device's touches go to: the one found with its mapping decision, which holds until the
    /// next decision (`remap`, at every screen connected, disconnected or changed, and on a reload) when it
    /// is the connector's of that name. That spares every touch a call through the runtime into the display
    /// backend (4 module transitions a touch instead of 8). A label's screen, which the displays' EDIDs
    /// decide, and a name no screen had are looked up again at each touch-down, as before.
    private func screen(for device: InputDeviceInfo) -> Screen? {
        guard let state = devices[device], let name = state.decision?.screen else { return nil }
        if let screen = state.screen, screen.name == name { return screen }
        return screenNamed(name)
    }

    // MARK: Touch

    /// A contact went down at (x, y), normalized 0...1 on the device (calibration applied); `time` in
    /// microseconds of `CLOCK_MONOTONIC`, as the kernel stamped the event.
    public func touchDown(_ device: InputDeviceInfo, slot: Int32, x: Double, y: Double, time: UInt64) {
        guard let screen = screen(for: device) else {
            log.debug("\(device.sysname): touch dropped, no screen")
            return
        }
        let touch = Touch(screen: screen, location: point(x, y, on: screen), timestamp: seconds(time))
        lastTouchDevice = device
        devices[device]?.touches[slot] = touch
        devices[device]?.changed.insert(slot)
    }

    public func touchMotion(_ device: InputDeviceInfo, slot: Int32, x: Double, y: Double, time: UInt64) {
        guard let touch = devices[device]?.touches[slot] else { return }
        // On the screen it went down on, whatever the device maps to since (a screen connected meanwhile).
        touch.update(phase: .moved, location: point(x, y, on: touch.screen), timestamp: seconds(time))
        devices[device]?.changed.insert(slot)
    }

    public func touchUp(_ device: InputDeviceInfo, slot: Int32, time: UInt64) {
        end(device, slot: slot, phase: .ended, time: time)
    }

    /// The contact is void (palm detection, or the device is going away).
    public func touchCancel(_ device: InputDeviceInfo, slot: Int32, time: UInt64) {
        end(device, slot: slot, phase: .cancelled, time: time)
    }

    private func end(_ device: InputDeviceInfo, slot: Int32, phase: Touch.Phase, time: UInt64) {
        guard let touch = devices[device]?.touches[slot] else { return }
        touch.update(phase: phase, location: touch.locationOnScreen, timestamp: seconds(time))
        devices[device]?.changed.insert(slot)
    }

    /// One evdev frame: every contact of the device in one event (the unchanged ones as stationary).
    public func touchFrame(_ device: InputDeviceInfo, time: UInt64) {
        guard var state = devices[device], !state.changed.isEmpty else { return }
        for (slot, touch) in state.touches where !state.changed.contains(slot) {
            touch.update(phase: .stationary, location: touch.locationOnScreen, timestamp: seconds(time))
        }
        application.sendEvent(Event(touches: Set(state.touches.values), timestamp: seconds(time)))
        state.touches = state.touches.filter { $0.value.phase != .ended && $0.value.phase != .cancelled }
        state.changed = []
        devices[device] = state
    }

    private func point(_ x: Double, _ y: Double, on screen: Screen) -> Point {
        guard let mode = screen.currentMode else { return .zero }
        return TouchTransform.screenPoint(normalizedX: x, y: y, panelSize: mode.size, rotation: screen.rotation)
    }

    private func seconds(_ microseconds: UInt64) -> TimeInterval { Double(microseconds) / 1_000_000 }

    // MARK: Keyboard

    /// A key went down or up: `keysym` with the layout applied, `text` what it types (xkbcommon's UTF-8),
    /// `keyCode` the kernel's code of the key, `repeats` whether the keymap repeats it when held (the
    /// application repeats it, `Application.keyRepeat`: libinput passes no repeats on).
    public func key(
        _ device: InputDeviceInfo, keysym: UInt32, text: String, pressed: Bool, time: UInt64, keyCode: UInt32 = 0,
        repeats: Bool = false
    ) {
        // Control characters (Return's "\r", Ctrl+C's "\u{3}") are not text to insert: the keysym says it.
        let printable = text.unicodeScalars.contains { $0.properties.generalCategory == .control } ? "" : text
        let press = Press(
            phase: pressed ? .began : .ended, keysym: keysym, text: printable, timestamp: seconds(time), keyCode: keyCode,
            repeats: repeats)
        application.sendEvent(Event(presses: [press], timestamp: seconds(time)))
    }

    // MARK: Pointer

    /// Relative motion (a mouse), in libinput's normalized units (about a 1000 dpi mouse's pixels): the
    /// pointer crosses onto the screen its motion reaches among screens with a `position`
    /// (`PointerLayout`), else it stops at its screen's edge; while the button is down it stays on its screen.
    public func pointerMotion(dx: Double, dy: Double, time: UInt64) {
        let current = pointer ?? (Screen.main, Screen.main.bounds.center)
        let moved = Point(x: current.location.x + dx, y: current.location.y + dy)
        // Most motion stays inside its screen, where `PointerLayout` changes nothing: the layout (each
        // screen's position resolved from the configuration) is made only for motion that reaches an edge.
        if current.screen.isConnected, PointerLayout.clamped(moved, to: current.screen.bounds.size) == moved {
            return movePointer(to: moved, on: current.screen, time: time)
        }
        let connected = application.connectedScreens
        let screens = connected.map { screen in
            PointerLayout.Screen(name: screen.name, position: pointerTouch == nil ? screenPosition(screen) : nil, size: screen.bounds.size)
        }
        let (name, location) = PointerLayout.move(
            from: current.location, on: current.screen.name, by: Point(x: dx, y: dy), among: screens)
        let screen = connected.first { $0.name == name } ?? current.screen
        movePointer(to: location, on: screen, time: time)
    }

    /// Absolute motion (a tablet), normalized 0...1, on the device's screen.
    public func pointerMotionAbsolute(_ device: InputDeviceInfo, x: Double, y: Double, time: UInt64) {
        guard let screen = screen(for: device) ?? Optional(Screen.main), screen.isConnected else { return }
        movePointer(to: point(x, y, on: screen), on: screen, time: time)
    }

    private func movePointer(to location: Point, on screen: Screen, time: UInt64) {
        pointer = (screen, location)
        cursor.moved(to: location, on: screen)
        if let touch = pointerTouch {
            touch.update(phase: .moved, location: location, timestamp: seconds(time))
            application.sendEvent(Event(touches: [touch], timestamp: seconds(time)))
        }
    }

    /// `BTN_LEFT` (evdev 0x110): the primary button is a single touch under the pointer.
    public static let primaryButton: UInt32 = 0x110

    public func pointerButton(_ button: UInt32, pressed: Bool, time: UInt64) {
        guard button == Self.primaryButton else { return }
        let (screen, location) = pointer ?? (Screen.main, Screen.main.bounds.center)
        if pressed {
            primaryButtonsDown += 1
            guard primaryButtonsDown == 1 else { return }
            let touch = Touch(screen: screen, location: location, timestamp: seconds(time))
            pointerTouch = touch
            application.sendEvent(Event(touches: [touch], timestamp: seconds(time)))
        } else {
            primaryButtonsDown = max(primaryButtonsDown - 1, 0)
            guard primaryButtonsDown == 0, let touch = pointerTouch else { return }
            touch.update(phase: .ended, location: location, timestamp: seconds(time))
            application.sendEvent(Event(touches: [touch], timestamp: seconds(time)))
            pointerTouch = nil
        }
    }
}
