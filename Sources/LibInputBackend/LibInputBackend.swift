import Dispatch
import Geometry
import KioskBackend
import KioskConfig
import LibInput
import Logging
import XKB

/// The libinput input backend: the devices of the configuration's udev seat, opened through the session,
/// read in the main queue. Touches, pointer motion and buttons go to the router as they are; keys go
/// through xkbcommon (`XKB_DEFAULT_*`, and the locale's Compose sequences for dead keys and the Compose
/// key) first, so the router gets keysyms and text; calibration matrices are set through libinput's
/// calibration API.
@MainActor
public final class LibInputBackend: InputBackend {
    public nonisolated static let name = "libinput"

    public let router: InputRouter
    private let seat: String
    private let session: any DeviceSession
    private var libinput: LibInput?
    private var source: (any DispatchSourceRead)?
    /// The devices present, by libinput's handle, with what the router knows them as.
    private var devices: [InputDevice: InputDeviceInfo] = [:]
    private var keyboards: [InputDevice: KeyboardState] = [:]
    private var keymap: Keymap?
    /// Why the keymap could not be made, once it failed (it is not tried again for each keyboard).
    private var keymapFailure: String?
    /// The locale's Compose sequences, shared by the keyboards (each has its own place in a sequence);
    /// asked for once, with the first keyboard, so a locale without any is said once.
    private var composeTable: ComposeTable?
    private var composeTableAsked = false
    /// Device fds opened through the session, to close through it.
    private var opened: [Int32: OpenedDevice] = [:]
    private var nextID = 0
    private let log = Logger(label: "kiosk.input")

    public init(context: BackendContext, router: InputRouter) throws(BackendError) {
        self.router = router
        seat = context.configuration.seat
        session = try context.session()
        router.backend = self
    }

    /// libinput's own lines (what it would print to stderr itself: "client bug: event processing lagging
    /// behind ...", "kernel bug: Touch jump detected"), in the kiosk's log: warnings, as input goes on after
    /// each (the kiosk says its own failures itself).
    static var libinputLog: (priority: LibInput.LogPriority, handler: (LibInput.LogPriority, String) -> Void) {
        let log = Logger(label: "kiosk.libinput")
        return (.error, { _, line in log.warning("\(line)") })
    }

    /// Creates the libinput context on the seat and reads what is there.
    public func start() throws(BackendError) {
        let input: LibInput
        do {
            // Loaded here, after the first frame (LazyLink): said by name if the installation lacks them.
            try LibInputLibrary.shared.load()
            try XKBCommonLibrary.shared.load()
            input = try LibInput(
                seat: seat,
                openDevice: { [weak self] path, _ in
                    MainActor.assumeIsolated { self?.open(path) ?? -ENODEV }
                },
                closeDevice: { [weak self] fd in
                    MainActor.assumeIsolated { self?.close(fd) }
                },
                log: Self.libinputLog)
        } catch {
            throw .failed(Self.name, "\(error)")
        }
        libinput = input
        let source = DispatchSource.makeReadSource(fileDescriptor: input.fileDescriptor, queue: .main)
        source.setEventHandler { [weak self] in MainActor.assumeIsolated { self?.read() } }
        source.resume()
        self.source = source
        read()
        if devices.isEmpty { log.info("no input devices on \(seat) (fine for a display-only kiosk)") }
    }

    public func setCalibration(_ matrix: [Double]?, of info: InputDeviceInfo) throws(BackendError) {
        guard let device = devices.first(where: { $0.value == info })?.key else { return }
        do {
            if let matrix {
                try device.setCalibrationMatrix(matrix.map { Float($0) })
            } else if device.hasCalibrationMatrix, device.calibrationMatrix != device.defaultCalibrationMatrix {
                // No configured matrix (any more): udev's LIBINPUT_CALIBRATION_MATRIX, or none.
                try device.setCalibrationMatrix(device.defaultCalibrationMatrix)
            }
        } catch {
            throw .failed(Self.name, "\(error)")
        }
    }

    /// The session went away: what is down is cancelled, libinput closes its devices. What libinput
    /// queues as it does (a release for each key held, each device removed) is handled now, as weston
    /// does, rather than whenever the descriptor next polls readable: a held key's repeat ends with the
    /// session.
    public func pause() {
        router.cancelAll(reason: "session disabled")
        guard let libinput else { return }
        libinput.suspend()
        for event in libinput.events() { handle(event) }
    }

    /// The session is back: libinput opens the devices again, and their arrival is handled at once (as
    /// weston does), so a touchscreen has its calibration before its first touch (libinput transforms a
    /// touch as it reads it). They waited in libinput's queue until the next input event was read.
    public func resume() {
        do { try libinput?.resume() } catch { log.error("resuming input failed: \(error)") }
        read()
    }

    /// Releases the context, which closes every device through the session.
    public func stop() {
        source?.cancel()
        source = nil
        libinput = nil
    }

    // MARK: Devices

    private func open(_ path: String) -> Int32 {
        do {
            let device = try session.openDevice(path: path)
            opened[device.fileDescriptor] = device
            return device.fileDescriptor
        } catch {
            log.warning("cannot open \(path): \(error.reason)")
            return -EACCES
        }
    }

    private func close(_ fd: Int32) {
        guard let device = opened.removeValue(forKey: fd) else { return }
        session.closeDevice(device)
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
            guard let info = devices.removeValue(forKey: device) else { return }
            keyboards[device] = nil
            router.deviceRemoved(info)
        case let .touchDown(device, slot, _, x, y, _, _, time):
            guard let info = devices[device] else { return }
            router.touchDown(info, slot: slot, x: x, y: y, time: time)
        case let .touchMotion(device, slot, _, x, y, _, _, time):
            guard let info = devices[device] else { return }
            router.touchMotion(info, slot: slot, x: x, y: y, time: time)
        case let .touchUp(device, slot, _, time):
            guard let info = devices[device] else { return }
            router.touchUp(info, slot: slot, time: time)
        case let .touchCancel(device, slot, _, time):
            guard let info = devices[device] else { return }
            router.touchCancel(info, slot: slot, time: time)
        case let .touchFrame(device, time):
            guard let info = devices[device] else { return }
            router.touchFrame(info, time: time)
        case let .keyboardKey(device, key, pressed, time):
            guard let info = devices[device], let keyboard = keyboards[device] else { return }
            let (keysym, text) = keyboard.update(evdevKey: key, pressed: pressed)
            // A key that went into a Compose sequence (a dead key, the Compose key) gives nothing, pressed
            // or released: the app sees the press that completes the sequence, with its text, as an input
            // method hides the keys it consumes. (A key the keymap gives no keysym gives nothing either:
            // there is nothing an app could tell it by.)
            guard keysym != 0 || !text.isEmpty else { return }
            router.key(
                info, keysym: keysym, text: text, pressed: pressed, time: time, keyCode: key,
                repeats: pressed && keymap?.keyRepeats(evdevKey: key) == true)
        case let .pointerMotion(_, dx, dy, time):
            router.pointerMotion(dx: dx, dy: dy, time: time)
        case let .pointerMotionAbsolute(device, x, y, _, _, time):
            guard let info = devices[device] else { return }
            router.pointerMotionAbsolute(info, x: x, y: y, time: time)
        case let .pointerButton(_, button, pressed, time):
            router.pointerButton(button, pressed: pressed, time: time)
        case .other:
            break
        }
    }

    private func added(_ device: InputDevice) {
        nextID += 1
        var info = Self.info(device, id: nextID)
        var detail: String?
        if device.capabilities.contains(.keyboard) {
            if let keymap = makeKeymap() {
                let composeTable = askForComposeTable()
                keyboards[device] = KeyboardState(keymap: keymap, composeTable: composeTable)
                detail = "keymap \(keymap.layoutNames.joined(separator: ", "))" + (composeTable.map { ", compose \($0.locale)" } ?? "")
            } else {
                // Its keys are ignored, so it is no keyboard to the kiosk: one that counted as a typing
                // keyboard kept the on-screen keyboard away (in `auto`), and nothing could type.
                info.capabilities.remove(.keyboard)
                detail = "no keymap (\(keymapFailure ?? "?")): its keys are ignored"
            }
        }
        devices[device] = info
        router.deviceAdded(info, detail: detail)
    }

    /// The environment's keymap (`XKB_DEFAULT_LAYOUT`, ...), made for the first keyboard; nil when it
    /// cannot be made, which is logged once with the reason.
    private func makeKeymap() -> Keymap? {
        if let keymap { return keymap }
        guard keymapFailure == nil else { return nil }
        do {
            let keymap = try Keymap()
            self.keymap = keymap
            return keymap
        } catch {
            keymapFailure = "\(error)"
            log.error("no keymap: \(error); the keys of keyboards are ignored, and the on-screen keyboard stands in (in auto)")
            return nil
        }
    }

    /// The Compose table of the environment's locale, made the first time a keyboard comes. A locale
    /// without one (no libX11 locale data installed, a locale `compose.dir` does not list) is logged
    /// once, and keys type without Compose: dead keys type nothing, every other key as usual.
    private func askForComposeTable() -> ComposeTable? {
        if !composeTableAsked {
            composeTableAsked = true
            do { composeTable = try ComposeTable() } catch {
                log.warning("no Compose sequences: \(error); dead keys and the Compose key type nothing")
            }
        }
        return composeTable
    }

    /// The keysym's name for a trace or a log line, which must never spell what was typed (it can be a
    /// PIN): `Return`, `BackSpace`, `Shift_L`, `dead_acute`, `F1` for keysyms that stand for no printable
    /// character; nil for those that do (`a`, `1`, `KP_1`, `eacute`, `space`), whose names are their text,
    /// and when xkbcommon cannot be loaded.
    public static func loggableKeysymName(_ keysym: UInt32) -> String? {
        guard (try? XKBCommonLibrary.shared.load()) != nil else { return nil }
        if let character = KeyboardState.keysymCharacter(keysym), character.properties.generalCategory != .control { return nil }
        return KeyboardState.keysymName(keysym)
    }

    /// What the router and the mapping policy read of a libinput device: its name, ids, every path udev
    /// knows it by (devnode, syspath, `ID_PATH`, the `DEVLINKS` such as `/dev/input/by-path/...`),
    /// properties and size.
    static func info(_ device: InputDevice, id: Int) -> InputDeviceInfo {
        let properties = device.udevProperties
        var paths = [device.devnode, device.syspath, properties["ID_PATH"]].compactMap { $0 }
        paths += (properties["DEVLINKS"] ?? "").split(separator: " ").map(String.init)
        var capabilities: InputDeviceInfo.Capabilities = []
        if device.capabilities.contains(.keyboard) { capabilities.insert(.keyboard) }
        if device.capabilities.contains(.pointer) { capabilities.insert(.pointer) }
        if device.capabilities.contains(.touch) { capabilities.insert(.touch) }
        return InputDeviceInfo(
            id: id, name: device.name, sysname: device.sysname,
            vendorID: UInt16(truncatingIfNeeded: device.vendorID), productID: UInt16(truncatingIfNeeded: device.productID),
            capabilities: capabilities, size: device.size.map { Size(width: $0.width, height: $0.height) },
            udevProperties: properties, paths: paths)
    }
}

#if canImport(Glibc)
    import Glibc
#endif
