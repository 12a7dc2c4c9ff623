/// One event from libinput, copied out of the C event (which is destroyed right after).
///
/// Coordinates: `x`/`y` of touches and absolute pointer motion are normalized to 0...1 of the device's
/// area (`libinput_event_touch_get_x_transformed(event, 1)`), the millimetre values are from the device's
/// top-left corner (`libinput_event_touch_get_x`). Both come after the device's calibration matrix (udev's
/// `LIBINPUT_CALIBRATION_MATRIX` or `InputDevice.setCalibrationMatrix(_:)`): libinput transforms the
/// point in device units before converting it either way (observed with libinput 1.22: a touch at
/// 64/40 mm reads 192/120 mm on a 256×160 mm device rotated 180°). A calibrated point may fall slightly
/// outside the device's area.
///
/// `time` is the kernel's timestamp of the evdev frame in microseconds of `CLOCK_MONOTONIC`
/// (`libinput_event_*_get_time_usec`), so latency is `clock_gettime(CLOCK_MONOTONIC)` minus it.
///
/// Touch slots: `slot` is the device's own (-1 for single-touch devices), `seatSlot` is unique across
/// every touch device of the seat; either identifies a contact from down to up or cancel.
public enum InputEvent: CustomStringConvertible {
    /// A device appeared (`LIBINPUT_EVENT_DEVICE_ADDED`): at start for each present device, on hotplug,
    /// after `resume()`, and for `addDevice(path:)`.
    case deviceAdded(InputDevice)
    /// A device went away (`LIBINPUT_EVENT_DEVICE_REMOVED`): unplugged, on `suspend()`, on
    /// `removeDevice(_:)`. Before it libinput ends what was still down on the device: a `touchCancel`
    /// per contact and a `touchFrame`, a release per key (observed with libinput 1.22 on uinput devices
    /// unplugged mid-touch and with a key held).
    case deviceRemoved(InputDevice)
    /// A finger touched (`LIBINPUT_EVENT_TOUCH_DOWN`).
    case touchDown(
        InputDevice, slot: Int32, seatSlot: Int32, x: Double, y: Double,
        xMillimeters: Double, yMillimeters: Double, time: UInt64)
    /// A finger moved (`LIBINPUT_EVENT_TOUCH_MOTION`).
    case touchMotion(
        InputDevice, slot: Int32, seatSlot: Int32, x: Double, y: Double,
        xMillimeters: Double, yMillimeters: Double, time: UInt64)
    /// A finger lifted (`LIBINPUT_EVENT_TOUCH_UP`); no position (libinput gives none).
    case touchUp(InputDevice, slot: Int32, seatSlot: Int32, time: UInt64)
    /// The contact is void (`LIBINPUT_EVENT_TOUCH_CANCEL`), e.g. the kernel's palm detection took it.
    case touchCancel(InputDevice, slot: Int32, seatSlot: Int32, time: UInt64)
    /// The end of one evdev frame of touch changes (`LIBINPUT_EVENT_TOUCH_FRAME`): act on the contacts
    /// as a set here (two fingers that moved together arrive as two motions and one frame).
    case touchFrame(InputDevice, time: UInt64)
    /// Relative pointer motion, accelerated (`LIBINPUT_EVENT_POINTER_MOTION`), in libinput's
    /// normalized units (about a 1000 dpi mouse's pixels).
    case pointerMotion(InputDevice, dx: Double, dy: Double, time: UInt64)
    /// Absolute pointer motion (`LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE`): a virtual tablet, a touchscreen
    /// that reports itself as a pointer.
    case pointerMotionAbsolute(
        InputDevice, x: Double, y: Double,
        xMillimeters: Double, yMillimeters: Double, time: UInt64)
    /// A button (`LIBINPUT_EVENT_POINTER_BUTTON`); `button` is the evdev code (`BTN_LEFT` 0x110).
    case pointerButton(InputDevice, button: UInt32, pressed: Bool, time: UInt64)
    /// A key (`LIBINPUT_EVENT_KEYBOARD_KEY`); `key` is the evdev code (`KEY_A` 30), for xkbcommon.
    case keyboardKey(InputDevice, key: UInt32, pressed: Bool, time: UInt64)
    /// Anything else (scroll, gestures, tablets, switches), with its `enum libinput_event_type` value.
    case other(type: Int32)

    /// The device the event came from; nil for `other`.
    public var device: InputDevice? {
        switch self {
        case .deviceAdded(let device), .deviceRemoved(let device),
            .touchDown(let device, _, _, _, _, _, _, _), .touchMotion(let device, _, _, _, _, _, _, _),
            .touchUp(let device, _, _, _), .touchCancel(let device, _, _, _), .touchFrame(let device, _),
            .pointerMotion(let device, _, _, _), .pointerMotionAbsolute(let device, _, _, _, _, _),
            .pointerButton(let device, _, _, _), .keyboardKey(let device, _, _, _):
            return device
        case .other:
            return nil
        }
    }

    /// One line in the spirit of `libinput debug-events`, for logs and test failures.
    public var description: String {
        func point(_ x: Double, _ y: Double, _ xmm: Double, _ ymm: Double) -> String {
            "\(x.formatted3)/\(y.formatted3) (\(xmm.formatted3)/\(ymm.formatted3) mm)"
        }
        switch self {
        case .deviceAdded(let device): return "\(device.sysname) DEVICE_ADDED \(device.name)"
        case .deviceRemoved(let device): return "\(device.sysname) DEVICE_REMOVED \(device.name)"
        case let .touchDown(device, slot, seatSlot, x, y, xmm, ymm, time):
            return "\(device.sysname) TOUCH_DOWN +\(time)us \(slot) (\(seatSlot)) \(point(x, y, xmm, ymm))"
        case let .touchMotion(device, slot, seatSlot, x, y, xmm, ymm, time):
            return "\(device.sysname) TOUCH_MOTION +\(time)us \(slot) (\(seatSlot)) \(point(x, y, xmm, ymm))"
        case let .touchUp(device, slot, seatSlot, time):
            return "\(device.sysname) TOUCH_UP +\(time)us \(slot) (\(seatSlot))"
        case let .touchCancel(device, slot, seatSlot, time):
            return "\(device.sysname) TOUCH_CANCEL +\(time)us \(slot) (\(seatSlot))"
        case let .touchFrame(device, time):
            return "\(device.sysname) TOUCH_FRAME +\(time)us"
        case let .pointerMotion(device, dx, dy, time):
            return "\(device.sysname) POINTER_MOTION +\(time)us \(dx.formatted3)/\(dy.formatted3)"
        case let .pointerMotionAbsolute(device, x, y, xmm, ymm, time):
            return "\(device.sysname) POINTER_MOTION_ABSOLUTE +\(time)us \(point(x, y, xmm, ymm))"
        case let .pointerButton(device, button, pressed, time):
            return "\(device.sysname) POINTER_BUTTON +\(time)us \(button) \(pressed ? "pressed" : "released")"
        case let .keyboardKey(device, key, pressed, time):
            return "\(device.sysname) KEYBOARD_KEY +\(time)us \(key) \(pressed ? "pressed" : "released")"
        case let .other(type):
            return "event type \(type)"
        }
    }
}

private extension Double {
    /// Three decimals without Foundation: enough to read coordinates in a log line.
    var formatted3: String {
        let thousandths = (self * 1000).rounded()
        guard thousandths.isFinite, abs(thousandths) < 1e15 else { return "\(self)" }
        let value = Int64(thousandths)
        let sign = value < 0 ? "-" : ""
        let magnitude = value.magnitude
        let fraction = String(magnitude % 1000)
        return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }
}
