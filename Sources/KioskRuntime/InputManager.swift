import Dispatch
import Foundation
import KioskKit
import LibInput
import Logging
import Seat
import XKB

/// libinput on a udev seat, in the main queue: devices are opened through the session (libseat) and
/// mapped to screens (`TouchMapping`); touches become `Touch` objects grouped in one event per frame,
/// keys go to the key window with xkbcommon's keysym and text, and the primary mouse button acts as a
/// single touch on the screen under the pointer.
@MainActor
final class InputManager {
    /// Finds a screen by connector name (connected or not) in the display backend.
    typealias ScreenLookup = @MainActor (String) -> Screen?

    private struct DeviceState {
        var device: InputDevice
        var decision: TouchMapping.Decision?
        /// The contacts down now, by the device's slot.
        var touches: [Int32: Touch] = [:]
        /// Slots changed since the last frame.
        var changed: Set<Int32> = []
        var keyboard: KeyboardState?
    }

    let application: Application
    var rules: [TouchMapping.Rule]
    /// Calibration matrices from the config, per rule (same order as `rules`).
    var calibrations: [TouchMapping.Rule: [Double]]
    let cursor: Cursor
    /// Calibration off (identity) on every touch device: `kiosk calibrate` records where the digitizer
    /// really reports.
    var rawTouch = false
    /// The name of the device of the last touch-down (for `kiosk calibrate --write`).
    private(set) var lastTouchDeviceName: String?
    private let session: Session?
    private let screenNamed: ScreenLookup
    private var libinput: LibInput?
    private var source: (any DispatchSourceRead)?
    private var devices: [InputDevice: DeviceState] = [:]
    /// Device fds opened through the seat, to close through it.
    private var seatDevices: [Int32: SeatDevice] = [:]
    private var keymap: Keymap?
    private var pointer: (screen: Screen, location: Point)?
    private var pointerTouch: Touch?
    private let log = Logger(label: "kiosk.input")

    init(application: Application, session: Session?, rules: [TouchMapping.Rule], calibrations: [TouchMapping.Rule: [Double]],
         cursor: Cursor, screenNamed: @escaping ScreenLookup) {
        self.application = application
        self.session = session
        self.rules = rules
        self.calibrations = calibrations
        self.cursor = cursor
        self.screenNamed = screenNamed
    }

    /// Creates the libinput context on `seat` and starts reading it.
    func start(seat: String) throws(LibInputError) {
        let session = self.session
        let input = try LibInput(seat: seat, openDevice: { [weak self] path, flags in
            MainActor.assumeIsolated { self?.open(path: path, flags: flags, session: session) ?? -ENODEV }
        }, closeDevice: { [weak self] fd in
            MainActor.assumeIsolated { self?.close(fd: fd, session: session) }
        })
        libinput = input
        let source = DispatchSource.makeReadSource(fileDescriptor: input.fileDescriptor, queue: .main)
        source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.read() } }
        source.resume()
        self.source = source
        read()
        if devices.isEmpty { log.info("no input devices on \(seat) (fine for a display-only kiosk)") }
    }

    /// The session went away: libinput closes its devices; touches in progress are cancelled.
    func suspend() {
        cancelAll(reason: "session disabled")
        libinput?.suspend()
    }

    func resume() {
        do { try libinput?.resume() } catch { log.error("resuming input failed: \(error)") }
    }

    /// The config changed (SIGHUP): new rules and calibrations for every device present.
    func reconfigure() {
        for device in devices.keys where device.capabilities.contains(.touch) {
            applyCalibration(to: device)
        }
        remap()
        for (_, state) in devices {
            if let decision = state.decision {
                log.notice("\(state.device.sysname) \"\(state.device.name)\" -> \(decision.screen ?? "no screen") (\(decision.reason))")
            }
        }
    }

    /// Screens changed (connect, disconnect, mode): mapping decisions depend on which screens exist.
    func remap() {
        for (device, state) in devices where mapsToAScreen(state.device) {
            devices[device]?.decision = decide(state.device)
        }
    }

    // MARK: Devices

    private func open(path: String, flags: Int32, session: Session?) -> Int32 {
        guard let session else {
            let fd = Glibc.open(path, flags | O_CLOEXEC)
            return fd >= 0 ? fd : -errno
        }
        do {
            let device = try session.openDevice(path: path)
            seatDevices[device.fileDescriptor] = device
            return device.fileDescriptor
        } catch {
            log.warning("cannot open \(path): \(error)")
            return -EACCES
        }
    }

    private func close(fd: Int32, session: Session?) {
        if let device = seatDevices.removeValue(forKey: fd), let session {
            session.closeDevice(device)
        } else {
            Glibc.close(fd)
        }
    }

    private func read() {
        guard let libinput else { return }
        do { try libinput.dispatch() } catch {
            log.error("libinput dispatch failed: \(error)")
            return
        }
        for event in libinput.events() { handle(event) }
    }

    private func handle(_ event: InputEvent) {
        switch event {
        case .deviceAdded(let device):
            added(device)
        case .deviceRemoved(let device):
            removed(device)
        case let .touchDown(device, slot, _, x, y, _, _, time):
            touchDown(device, slot: slot, x: x, y: y, time: time)
        case let .touchMotion(device, slot, _, x, y, _, _, time):
            guard let touch = devices[device]?.touches[slot], let screen = screenFor(device) else { return }
            touch.update(phase: .moved, location: point(x, y, on: screen), timestamp: seconds(time))
            devices[device]?.changed.insert(slot)
        case let .touchUp(device, slot, _, time):
            guard let touch = devices[device]?.touches[slot] else { return }
            touch.update(phase: .ended, location: touch.locationOnScreen, timestamp: seconds(time))
            devices[device]?.changed.insert(slot)
        case let .touchCancel(device, slot, _, time):
            guard let touch = devices[device]?.touches[slot] else { return }
            touch.update(phase: .cancelled, location: touch.locationOnScreen, timestamp: seconds(time))
            devices[device]?.changed.insert(slot)
        case let .touchFrame(device, time):
            frame(device, time: time)
        case let .keyboardKey(device, key, pressed, time):
            keyboardKey(device, key: key, pressed: pressed, time: time)
        case let .pointerMotion(_, dx, dy, time):
            movePointer(by: dx, dy, time: time)
        case let .pointerMotionAbsolute(device, x, y, _, _, time):
            guard let screen = screenFor(device) ?? Optional(Screen.main), screen.isConnected else { return }
            movePointer(to: point(x, y, on: screen), on: screen, time: time)
        case let .pointerButton(_, button, pressed, time):
            pointerButton(button, pressed: pressed, time: time)
        case .other:
            break
        }
    }

    private func added(_ device: InputDevice) {
        var state = DeviceState(device: device)
        let capabilities = device.capabilities
        var line = "\(device.sysname) \"\(device.name)\" \(String(format: "%04x:%04x", device.vendorID, device.productID)): \(capabilities)"
        if mapsToAScreen(device) {
            // A relative mouse moves across screens by itself; the decision matters for absolute positions.
            let decision = decide(device)
            state.decision = decision
            line += " -> \(decision.screen ?? "no screen") (\(decision.reason))"
            applyCalibration(to: device)
        }
        if capabilities.contains(.keyboard) {
            do {
                let keymap = try self.keymap ?? Keymap()
                self.keymap = keymap
                state.keyboard = KeyboardState(keymap: keymap)
                line += ", keymap \(keymap.layoutNames.joined(separator: ", "))"
            } catch {
                log.error("\(device.sysname): no keymap: \(error); its keys are ignored")
            }
        }
        if capabilities.contains(.pointer) { cursor.hasPointerDevice = true }
        devices[device] = state
        // Notice, not info: which screen a device drives is the first thing to check when touch misbehaves.
        log.notice("added \(line)")
    }

    private func removed(_ device: InputDevice) {
        // libinput cancels the contacts itself before removing (observed with 1.22); cancel whatever is left.
        let leftover = Set(devices[device]?.touches.values.map { $0 } ?? [])
        if !leftover.isEmpty {
            application.cancelTouches(reason: "input device \(device.sysname) removed") { leftover.contains($0) }
        }
        devices[device] = nil
        cursor.hasPointerDevice = devices.keys.contains { $0.capabilities.contains(.pointer) }
        log.notice("removed \(device.sysname) \"\(device.name)\"")
    }

    /// Touchscreens get a screen, and so do pointers: an absolute one (a tablet, QEMU's virtio-tablet,
    /// which udev calls a mouse) maps its 0...1 position onto it.
    private func mapsToAScreen(_ device: InputDevice) -> Bool {
        device.capabilities.contains(.touch) || device.capabilities.contains(.pointer)
    }

    private func decide(_ device: InputDevice) -> TouchMapping.Decision {
        let screens = application.screens.map { screen in
            TouchMapping.Screen(name: screen.name, physicalSize: screen.physicalSize, isMain: screen === Screen.main)
        }
        return TouchMapping.map(TouchMapping.Device(device), rules: rules, screens: screens)
    }

    /// The config's calibration for a device replaces udev's `LIBINPUT_CALIBRATION_MATRIX`.
    private func applyCalibration(to device: InputDevice) {
        if rawTouch {
            do { try device.setCalibrationMatrix([1, 0, 0, 0, 1, 0]) } catch {
                log.warning("\(device.sysname): cannot reset the calibration for calibrating: \(error)")
            }
            return
        }
        guard let rule = rules.first(where: { TouchMapping.matches($0.match, TouchMapping.Device(device)) }),
              let matrix = calibrations[rule] else {
            // No config calibration (any more): udev's LIBINPUT_CALIBRATION_MATRIX, or none.
            if device.hasCalibrationMatrix, device.calibrationMatrix != device.defaultCalibrationMatrix {
                try? device.setCalibrationMatrix(device.defaultCalibrationMatrix)
            }
            return
        }
        do {
            try device.setCalibrationMatrix(matrix.map { Float($0) })
            log.info("\(device.sysname): calibration \(matrix) from the config")
        } catch {
            log.error("\(device.sysname): cannot set the calibration matrix \(matrix): \(error)")
        }
    }

    private func screenFor(_ device: InputDevice) -> Screen? {
        guard let name = devices[device]?.decision?.screen else { return nil }
        return screenNamed(name)
    }

    // MARK: Touch

    private func touchDown(_ device: InputDevice, slot: Int32, x: Double, y: Double, time: UInt64) {
        guard let screen = screenFor(device) else {
            log.debug("\(device.sysname): touch dropped, no screen")
            return
        }
        let touch = Touch(screen: screen, location: point(x, y, on: screen), timestamp: seconds(time))
        lastTouchDeviceName = device.name
        devices[device]?.touches[slot] = touch
        devices[device]?.changed.insert(slot)
    }

    /// One evdev frame: every contact of the device in one event (the unchanged ones as stationary).
    private func frame(_ device: InputDevice, time: UInt64) {
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

    private func cancelAll(reason: String) {
        let all = Set(devices.values.flatMap { $0.touches.values })
        application.cancelTouches(reason: reason) { all.contains($0) || $0 === self.pointerTouch }
        for device in devices.keys { devices[device]?.touches = [:] }
        pointerTouch = nil
    }

    // MARK: Keyboard

    private func keyboardKey(_ device: InputDevice, key: UInt32, pressed: Bool, time: UInt64) {
        guard let keyboard = devices[device]?.keyboard else { return }
        let (keysym, text) = keyboard.update(evdevKey: key, pressed: pressed)
        // Control characters (Return's "\r", Ctrl+C's "\u{3}") are not text to insert: the keysym says it.
        let printable = text.unicodeScalars.contains { $0.properties.generalCategory == .control } ? "" : text
        let press = Press(phase: pressed ? .began : .ended, keysym: keysym, text: printable, timestamp: seconds(time))
        application.sendEvent(Event(presses: [press], timestamp: seconds(time)))
    }

    // MARK: Pointer

    private func movePointer(by dx: Double, _ dy: Double, time: UInt64) {
        let current = pointer ?? (Screen.main, Screen.main.bounds.center)
        let bounds = current.screen.bounds
        let moved = Point(x: min(max(current.location.x + dx, bounds.minX), max(bounds.maxX - 1, 0)),
                          y: min(max(current.location.y + dy, bounds.minY), max(bounds.maxY - 1, 0)))
        movePointer(to: moved, on: current.screen, time: time)
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
    static let primaryButton: UInt32 = 0x110

    private func pointerButton(_ button: UInt32, pressed: Bool, time: UInt64) {
        guard button == Self.primaryButton else { return }
        let (screen, location) = pointer ?? (Screen.main, Screen.main.bounds.center)
        if pressed {
            let touch = Touch(screen: screen, location: location, timestamp: seconds(time))
            pointerTouch = touch
            application.sendEvent(Event(touches: [touch], timestamp: seconds(time)))
        } else if let touch = pointerTouch {
            touch.update(phase: .ended, location: location, timestamp: seconds(time))
            application.sendEvent(Event(touches: [touch], timestamp: seconds(time)))
            pointerTouch = nil
        }
    }
}

extension TouchMapping.Device {
    /// What the mapping policy reads of a libinput device: its name, ids, every path udev knows it by
    /// (devnode, syspath, `ID_PATH`, the `DEVLINKS` such as `/dev/input/by-path/...`), properties and size.
    init(_ device: InputDevice) {
        var paths = [device.devnode, device.syspath, device.udevProperties["ID_PATH"]].compactMap { $0 }
        paths += (device.udevProperties["DEVLINKS"] ?? "").split(separator: " ").map(String.init)
        self.init(name: device.name, vendorID: UInt16(truncatingIfNeeded: device.vendorID),
                  productID: UInt16(truncatingIfNeeded: device.productID), paths: paths,
                  udevProperties: device.udevProperties, size: device.size.map { Size(width: $0.width, height: $0.height) })
    }
}
