import CLazyLibInput
import Glibc

/// A libinput context: the input devices of a seat, with their events turned into `InputEvent`s.
///
/// **Threading.** Main actor only, like libinput itself (one thread per context). The open/close
/// closures and the log handler run synchronously inside the call that needs them, on the main actor;
/// they are not `@Sendable` and need not be.
///
/// **Life cycle.**
/// 1. `init(seat:openDevice:closeDevice:)` follows udev: every device of the seat (udev `ID_SEAT`,
///    `seat0` when unset) is opened through `openDevice` (libinput asks for `O_RDWR | O_NONBLOCK`;
///    the runtime opens through libseat), and hotplug adds and removes devices. `path(...)` makes a
///    context without udev whose devices are added by hand (`addDevice(path:)`), for tests and tools.
/// 2. Watch `fileDescriptor` with a `DispatchSource` read source on the main queue; when it is readable
///    call `dispatch()`, then `events()`. Do both once right after `init` too: the `deviceAdded` events
///    of the devices present at start are already queued and the fd may never signal them.
/// 3. `suspend()` when the session goes away (libseat disable): libinput closes every device through
///    `closeDevice`. `resume()` when it comes back: devices are opened again and reported as new
///    `deviceAdded`s (new `InputDevice` values).
/// 4. Releasing the context closes the devices (`closeDevice` runs from `deinit`) and invalidates every
///    `InputDevice` of it.
///
/// On a seat without devices (or a container without `/dev/input`) everything works and reports nothing.
@MainActor
public final class LibInput {
    /// The `struct libinput *`, released in `deinit`.
    let context: OpaquePointer
    /// The C interface libinput points at; freed after the context is destroyed.
    private let cInterface: UnsafeMutablePointer<libinput_interface>
    /// Receives the C callbacks; kept alive by this reference for as long as `context` exists.
    let callbacks: LibInputCallbacks
    /// Shared with every device handle, which must not touch libinput once the context is gone.
    private let lifetime = ContextLifetime()
    /// One handle per device while libinput reports it, so every event of a device gives equal values.
    private var devices: [OpaquePointer: InputDevice.Handle] = [:]
    /// Whether this is a path context (`addDevice`/`removeDevice` allowed) rather than a udev one.
    private let isPathContext: Bool

    /// The fd to watch for readability (`libinput_get_fd`); call `dispatch()` when it is readable.
    /// It is libinput's epoll fd (close-on-exec; not `O_NONBLOCK`, which an epoll fd does not need:
    /// `libinput_dispatch` waits on it with a zero timeout). Owned by libinput: do not close it.
    public let fileDescriptor: Int32

    /// The seat name given to the udev context, nil for a path context.
    public let seat: String?

    /// Creates a context on udev's seat `seat` (`udev_new`, `libinput_udev_create_context` with a
    /// `libinput_interface` whose `open_restricted`/`close_restricted` reach `openDevice`/`closeDevice`
    /// through libinput's user_data, then `libinput_udev_assign_seat`).
    ///
    /// `openDevice(path, flags)` returns an open fd or a negative errno; `closeDevice(fd)` closes one it
    /// returned. Devices that fail to open are skipped by libinput (it logs them) until `resume()`. The
    /// defaults open and close directly, for tools that run with access to `/dev/input`.
    ///
    /// A seat no device belongs to is not an error: the context just reports no devices.
    ///
    /// `log` routes libinput's own lines from the start, as `setLogHandler` does later: assigning the seat
    /// already logs (a device that cannot be opened), and those lines would go to stderr in libinput's format.
    public convenience init(
        seat: String = "seat0",
        openDevice: @escaping (String, Int32) -> Int32 = LibInput.openDirectly,
        closeDevice: @escaping (Int32) -> Void = LibInput.closeDirectly,
        log: (priority: LogPriority, handler: (LogPriority, String) -> Void)? = nil
    ) throws(LibInputError) {
        try self.init(openDevice: openDevice, closeDevice: closeDevice, seat: seat) { (interface, userdata) throws(LibInputError) in
            let udev = try inputCreate("udev_new") { udev_new() }
            // libinput takes its own reference to the udev context.
            defer { udev_unref(udev) }
            return try inputCreate("libinput_udev_create_context") { libinput_udev_create_context(interface, userdata, udev) }
        }
        if let log { setLogHandler(priority: log.priority, log.handler) }
        // After the stored properties: assigning the seat opens the present devices, which calls back.
        // On failure deinit releases the context.
        try inputCheckErrno("libinput_udev_assign_seat", detail: seat) { libinput_udev_assign_seat(context, seat) }
    }

    /// A context without udev seat handling (`libinput_path_create_context`): devices come only from
    /// `addDevice(path:)`. Hotplug is not followed. libinput still reads each device's udev properties
    /// (calibration, size fixes), so a device must be known to udev (udevd running) to be added.
    public static func path(
        openDevice: @escaping (String, Int32) -> Int32 = LibInput.openDirectly,
        closeDevice: @escaping (Int32) -> Void = LibInput.closeDirectly
    ) throws(LibInputError) -> LibInput {
        try LibInput(openDevice: openDevice, closeDevice: closeDevice, seat: nil) { (interface, userdata) throws(LibInputError) in
            try inputCreate("libinput_path_create_context") { libinput_path_create_context(interface, userdata) }
        }
    }

    /// The part both kinds of context share: the callbacks behind libinput's interface (reached through
    /// its user data), the context `create` makes with them, and its fd. A seat name makes a udev context.
    private init(
        openDevice: @escaping (String, Int32) -> Int32, closeDevice: @escaping (Int32) -> Void, seat: String?,
        create: (UnsafePointer<libinput_interface>, UnsafeMutableRawPointer) throws(LibInputError) -> OpaquePointer
    ) throws(LibInputError) {
        let callbacks = LibInputCallbacks(openDevice: openDevice, closeDevice: closeDevice)
        let cInterface = LibInputCallbacks.makeCInterface()
        let userdata = Unmanaged.passUnretained(callbacks).toOpaque()
        let context: OpaquePointer
        do {
            context = try create(cInterface, userdata)
        } catch {
            cInterface.deinitialize(count: 1)
            cInterface.deallocate()
            throw error
        }
        self.context = context
        self.cInterface = cInterface
        self.callbacks = callbacks
        self.fileDescriptor = libinput_get_fd(context)
        self.seat = seat
        self.isPathContext = seat == nil
    }

    isolated deinit {
        // Devices first learn the context is gone: libinput_unref frees them whatever their references.
        lifetime.isAlive = false
        // Closes every open device through close_restricted, so `callbacks` must still be alive here.
        _ = libinput_unref(context)
        cInterface.deinitialize(count: 1)
        cInterface.deallocate()
    }

    /// Opens `path` with `open(2)`, adding `O_CLOEXEC` to libinput's flags; returns the fd or `-errno`.
    /// The default `openDevice` for tools with direct access to the devices.
    public nonisolated static func openDirectly(path: String, flags: Int32) -> Int32 {
        let fd = open(path, flags | O_CLOEXEC)
        return fd >= 0 ? fd : -errno
    }

    /// Closes an fd from `openDirectly(path:flags:)` (`close(2)`).
    public nonisolated static func closeDirectly(_ fd: Int32) {
        close(fd)
    }

    // MARK: Events

    /// Reads what the devices and udev have sent and turns it into queued events (`libinput_dispatch`).
    /// Never blocks: with nothing to read it returns at once. Call it when `fileDescriptor` is readable,
    /// then drain `events()`.
    public func dispatch() throws(LibInputError) {
        try inputCheck(libinput_dispatch(context), "libinput_dispatch")
    }

    /// Every queued event, oldest first, converted to `InputEvent` (`libinput_get_event`, then
    /// `libinput_event_destroy` for each). Empty when nothing is queued.
    public func events() -> [InputEvent] {
        var events: [InputEvent] = []
        while let event = libinput_get_event(context) {
            events.append(convert(event))
            libinput_event_destroy(event)
        }
        return events
    }

    // MARK: Session

    /// Closes every device (through `closeDevice`) and stops reading, for a session that went away
    /// (`libinput_suspend`). `deviceRemoved` events for them are queued, after the releases of what was
    /// down.
    public func suspend() {
        libinput_suspend(context)
    }

    /// Opens the devices again after `suspend()` (`libinput_resume`); they come back as new `deviceAdded`
    /// events. A udev context rescans the seat. Resuming a context that is not suspended does nothing.
    public func resume() throws(LibInputError) {
        try inputCheckErrno("libinput_resume", detail: seat) { libinput_resume(context) }
    }

    // MARK: Path contexts

    /// Adds the evdev node at `path`, e.g. `/dev/input/event4`, to a path context
    /// (`libinput_path_add_device`); a `deviceAdded` event for it is queued too.
    ///
    /// Throws `ENOENT` for a missing path, `ENODEV` for a file that is no input device, the errno of
    /// `openDevice` when it refused (libinput only logs these, "client bug: Invalid path"). Calling this
    /// on a udev context is a programmer error and traps.
    ///
    /// Blocks for up to 2 s when udev has not initialized the node yet: libinput 1.22 polls udev's
    /// database in 10 ms steps before giving up ("udev device never initialized"; every character
    /// device takes the full 2 s on a machine without udevd, observed here with `/dev/null`).
    @discardableResult
    public func addDevice(path: String) throws(LibInputError) -> InputDevice {
        precondition(isPathContext, "LibInput.addDevice(path:) needs a context made with LibInput.path()")
        callbacks.lastOpenFailure = nil
        Glibc.errno = 0
        guard let device = libinput_path_add_device(context, path) else {
            // libinput returns NULL without an errno of its own: openDevice's refusal says most, else
            // the errno of libinput's stat/udev lookup of the path, else ENODEV (a node libevdev refused).
            let openFailure = callbacks.lastOpenFailure.flatMap { $0.path == path ? $0.errno : nil }
            let code = openFailure ?? (Glibc.errno != 0 ? Glibc.errno : ENODEV)
            throw LibInputError.failed("libinput_path_add_device", errno: code, detail: path)
        }
        return self.device(device)
    }

    /// Removes a device added with `addDevice(path:)` (`libinput_path_remove_device`): its fd is closed
    /// and a `deviceRemoved` event queued. Removing from a udev context is a programmer error and traps;
    /// removing a device twice does nothing.
    public func removeDevice(_ device: InputDevice) {
        precondition(isPathContext, "LibInput.removeDevice(_:) needs a context made with LibInput.path()")
        libinput_path_remove_device(device.handle.pointer)
    }

    // MARK: Conversion

    /// The one handle for `pointer`, made when a device is first seen.
    private func device(_ pointer: OpaquePointer) -> InputDevice {
        if let handle = devices[pointer] { return InputDevice(handle) }
        let handle = InputDevice.Handle(pointer, lifetime: lifetime)
        devices[pointer] = handle
        return InputDevice(handle)
    }

    private func convert(_ event: OpaquePointer) -> InputEvent {
        let type = libinput_event_get_type(event)
        switch type {
        case LIBINPUT_EVENT_DEVICE_ADDED:
            return .deviceAdded(device(libinput_event_get_device(event)!))
        case LIBINPUT_EVENT_DEVICE_REMOVED:
            let pointer = libinput_event_get_device(event)!
            let removed = device(pointer)
            // Values already handed out keep the device (and their reference) alive; no new event of it
            // can come, and a device plugged again is a new libinput_device.
            devices[pointer] = nil
            return .deviceRemoved(removed)
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION:
            let touch = libinput_event_get_touch_event(event)
            let device = device(libinput_event_get_device(event)!)
            let slot = libinput_event_touch_get_slot(touch)
            let seatSlot = libinput_event_touch_get_seat_slot(touch)
            // Width/height 1 normalizes to 0...1 after the calibration matrix; the mm values are raw.
            let x = libinput_event_touch_get_x_transformed(touch, 1)
            let y = libinput_event_touch_get_y_transformed(touch, 1)
            let xmm = libinput_event_touch_get_x(touch)
            let ymm = libinput_event_touch_get_y(touch)
            let time = libinput_event_touch_get_time_usec(touch)
            return type == LIBINPUT_EVENT_TOUCH_DOWN
                ? .touchDown(
                    device, slot: slot, seatSlot: seatSlot, x: x, y: y,
                    xMillimeters: xmm, yMillimeters: ymm, time: time)
                : .touchMotion(
                    device, slot: slot, seatSlot: seatSlot, x: x, y: y,
                    xMillimeters: xmm, yMillimeters: ymm, time: time)
        case LIBINPUT_EVENT_TOUCH_UP, LIBINPUT_EVENT_TOUCH_CANCEL:
            // No coordinates: libinput logs a client bug for get_x on these.
            let touch = libinput_event_get_touch_event(event)
            let device = device(libinput_event_get_device(event)!)
            let slot = libinput_event_touch_get_slot(touch)
            let seatSlot = libinput_event_touch_get_seat_slot(touch)
            let time = libinput_event_touch_get_time_usec(touch)
            return type == LIBINPUT_EVENT_TOUCH_UP
                ? .touchUp(device, slot: slot, seatSlot: seatSlot, time: time)
                : .touchCancel(device, slot: slot, seatSlot: seatSlot, time: time)
        case LIBINPUT_EVENT_TOUCH_FRAME:
            let touch = libinput_event_get_touch_event(event)
            return .touchFrame(
                device(libinput_event_get_device(event)!),
                time: libinput_event_touch_get_time_usec(touch))
        case LIBINPUT_EVENT_POINTER_MOTION:
            let pointer = libinput_event_get_pointer_event(event)
            return .pointerMotion(
                device(libinput_event_get_device(event)!),
                dx: libinput_event_pointer_get_dx(pointer),
                dy: libinput_event_pointer_get_dy(pointer),
                time: libinput_event_pointer_get_time_usec(pointer))
        case LIBINPUT_EVENT_POINTER_MOTION_ABSOLUTE:
            let pointer = libinput_event_get_pointer_event(event)
            return .pointerMotionAbsolute(
                device(libinput_event_get_device(event)!),
                x: libinput_event_pointer_get_absolute_x_transformed(pointer, 1),
                y: libinput_event_pointer_get_absolute_y_transformed(pointer, 1),
                xMillimeters: libinput_event_pointer_get_absolute_x(pointer),
                yMillimeters: libinput_event_pointer_get_absolute_y(pointer),
                time: libinput_event_pointer_get_time_usec(pointer))
        case LIBINPUT_EVENT_POINTER_BUTTON:
            let pointer = libinput_event_get_pointer_event(event)
            return .pointerButton(
                device(libinput_event_get_device(event)!),
                button: libinput_event_pointer_get_button(pointer),
                pressed: libinput_event_pointer_get_button_state(pointer) == LIBINPUT_BUTTON_STATE_PRESSED,
                time: libinput_event_pointer_get_time_usec(pointer))
        case LIBINPUT_EVENT_KEYBOARD_KEY:
            let keyboard = libinput_event_get_keyboard_event(event)
            return .keyboardKey(
                device(libinput_event_get_device(event)!),
                key: libinput_event_keyboard_get_key(keyboard),
                pressed: libinput_event_keyboard_get_key_state(keyboard) == LIBINPUT_KEY_STATE_PRESSED,
                time: libinput_event_keyboard_get_time_usec(keyboard))
        default:
            return .other(type: Int32(bitPattern: type.rawValue))
        }
    }
}
