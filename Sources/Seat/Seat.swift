import CLazyLibSeat
import Glibc

/// Access to the devices of a seat (DRM cards, input devices) without being root, through libseat:
/// logind or seatd hand out the device fds and tell us when another session takes the seat over
/// (a VT switch). `LIBSEAT_BACKEND` (`seatd`, `logind`, `builtin`, `noop`) picks the backend; unset,
/// libseat tries seatd, logind, then builtin (libseat 0.7.0 on Debian 12; noop is never picked
/// automatically).
///
/// **Threading.** Main actor only. The enable/disable callbacks run synchronously inside `dispatch()`
/// (or inside `openDevice`/`closeDevice`, which read the same connection), on the caller's thread; the
/// closures are not `@Sendable` and need not be.
///
/// **Life cycle.**
/// 1. `init` opens the seat. No callback fires during `init` (one that libseat delivers there is held
///    for the first `dispatch()`).
/// 2. Call `dispatch()` once right away, then whenever `fileDescriptor` is readable (a `DispatchSource`
///    on the main queue). The first enable may already sit in libseat's buffer after `init`, where
///    the fd would never signal it (wlroots' `libseat_session_init` dispatches once after opening for
///    the same reason).
/// 3. `onEnable`: open devices (`openDevice(path:)`), modeset, draw.
/// 4. `onDisable`: stop using the devices (no page flips, no DRM master), then `acknowledgeDisable()`.
///    Devices stay open; after the next `onEnable` they work again.
/// 5. The seat closes its devices and itself when released.
///
/// **Backends seen on Debian 12 (libseat 0.7.0).**
/// - `noop`: no session at all; `openDevice` simply `open(2)`s the path (any file, `/dev/null`
///   included) and uses the fd as id; `closeDevice` does nothing in libseat (the fd is closed here);
///   `switchSession` fails without errno; the fd never becomes readable; the seat is named `noop`. Its
///   enable callback never fires (0.7.0 forgets to set `initial_setup`; fixed upstream later), so the
///   first `dispatch()` reports the enable itself when `LIBSEAT_BACKEND=noop`, as later libseat does.
/// - `builtin` (root only): forks an embedded seatd that takes the current VT (KD_GRAPHICS, VT_PROCESS);
///   enable arrives on the first dispatch; only device types seatd knows (DRM, evdev) may be opened
///   (`/dev/null` gives `ENOENT`, logged as "not a supported device type"); `switchSession(n)` really
///   switches the VT.
/// - `seatd` without a running seatd: `libseat_open_seat` fails with `ENOENT` (no `/run/seatd.sock`,
///   or `SEATD_SOCK`).
/// - `logind` without a logind session: fails with `ENODATA`.
@MainActor
public final class Seat {
    /// The `struct libseat *`, closed in `deinit`.
    private let handle: OpaquePointer
    /// The C listener libseat points at; freed after the handle is closed.
    private let cListener: UnsafeMutablePointer<libseat_seat_listener>
    /// Receives the callbacks; kept alive by this reference for as long as `handle` is open.
    private let listener: SeatListener
    /// `LIBSEAT_BACKEND` as libseat saw it when opening.
    private let requestedBackend: String?
    /// Devices opened and not yet closed, by id, so `closeDevice` can catch misuse and `deinit` can
    /// close what is left.
    private var openDevices: [Int32: SeatDevice] = [:]

    /// The seat's name, e.g. `seat0` (`libseat_seat_name`). The noop backend of libseat 0.7.0 says `noop`.
    public let name: String

    /// The connection to watch for readability (`libseat_get_fd`); call `dispatch()` when it is readable.
    /// Owned by libseat: do not close it. If `dispatch()` throws, libseat may have closed it (the seatd
    /// backend does on a broken connection): cancel the read source then.
    public let fileDescriptor: Int32

    /// Whether the seat is ours now: true from an enable callback until the next disable callback.
    public var isEnabled: Bool { listener.isEnabled }

    /// Opens the seat (`libseat_open_seat`) with a listener whose C callbacks reach `onEnable` and
    /// `onDisable` through libseat's userdata pointer. Then reads the seat's name (`libseat_seat_name`)
    /// and connection fd (`libseat_get_fd`).
    ///
    /// Never call this in a process that must not touch the console without setting `LIBSEAT_BACKEND`:
    /// run as root with no seatd or logind session, libseat falls back to `builtin`, which takes over
    /// the current VT.
    public init(onEnable: @escaping () -> Void, onDisable: @escaping () -> Void) throws(SeatError) {
        let listener = SeatListener(onEnable: onEnable, onDisable: onDisable)
        let cListener = SeatListener.makeCListener()
        let backend = getenv("LIBSEAT_BACKEND").map { String(cString: $0) }
        let userdata = Unmanaged.passUnretained(listener).toOpaque()
        let handle: OpaquePointer
        do {
            handle = try seatCreate("libseat_open_seat", backend: backend) {
                libseat_open_seat(cListener, userdata)
            }
        } catch {
            cListener.deinitialize(count: 1)
            cListener.deallocate()
            throw error
        }
        let fd: Int32
        do {
            fd = try seatCheck("libseat_get_fd") { libseat_get_fd(handle) }
        } catch {
            _ = libseat_close_seat(handle)
            cListener.deinitialize(count: 1)
            cListener.deallocate()
            throw error
        }
        self.handle = handle
        self.cListener = cListener
        self.listener = listener
        self.requestedBackend = backend
        self.fileDescriptor = fd
        self.name = libseat_seat_name(handle).map { String(cString: $0) } ?? ""
    }

    isolated deinit {
        // Devices first: the fds are ours (libseat_close_device does not close them), and libseat must
        // still be open to be told.
        for device in openDevices.values {
            _ = libseat_close_device(handle, device.id)
            close(device.fileDescriptor)
        }
        // Errors cannot be reported from deinit; libseat frees the handle either way.
        _ = libseat_close_seat(handle)
        cListener.deinitialize(count: 1)
        cListener.deallocate()
    }

    /// Reads and handles what libseat has received (`libseat_dispatch`); the enable/disable callbacks run
    /// in here. `timeout` is in milliseconds: 0 returns at once (what a read source wants), -1 waits for
    /// an event, which would block the main actor. Returns how many messages were processed.
    @discardableResult
    public func dispatch(timeout: Int32 = 0) throws(SeatError) -> Int {
        listener.releaseHeld()
        let processed = try seatCheck("libseat_dispatch") { libseat_dispatch(handle, timeout) }
        // libseat 0.7.0's noop backend never sends its first enable (see the type's documentation);
        // later versions send it from their first dispatch, so a real one wins if it came.
        if requestedBackend == "noop" && !listener.hasBeenEnabled {
            listener.enable()
        }
        return Int(processed)
    }

    /// Opens the device at `path` through the seat (`libseat_open_device`), e.g. `/dev/dri/card0`
    /// (DRM master included where the backend grants it) or `/dev/input/event3`. Fails while the seat
    /// is disabled.
    ///
    /// The fd is made non-blocking if it is not: seatd, logind and later libseat's noop open with
    /// `O_NONBLOCK`, but 0.7.0's noop does not (observed on Debian 12), and a blocking evdev fd would
    /// hang libinput's read loop on the main actor.
    public func openDevice(path: String) throws(SeatError) -> SeatDevice {
        var fd: Int32 = -1
        let id = try seatCheck("libseat_open_device", path: path) { libseat_open_device(handle, path, &fd) }
        precondition(fd >= 0, "libseat_open_device(\"\(path)\") returned id \(id) without an fd")
        let flags = fcntl(fd, F_GETFL)
        precondition(flags >= 0, "fcntl(F_GETFL) failed on the fd libseat returned for \(path)")
        if flags & O_NONBLOCK == 0 {
            let result = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            precondition(result == 0, "fcntl(F_SETFL, O_NONBLOCK) failed on the fd for \(path)")
        }
        let device = SeatDevice(id: id, fileDescriptor: fd, path: path)
        openDevices[id] = device
        return device
    }

    /// Closes a device opened by this seat: tells libseat (`libseat_close_device`), then closes the fd,
    /// which libseat leaves open (as wlroots does after `libseat_close_device`). The fd is closed even
    /// when libseat reports an error, which is then thrown.
    ///
    /// Closing a device twice, or one of another seat, is a programmer error and traps.
    public func closeDevice(_ device: SeatDevice) throws(SeatError) {
        let known = openDevices.removeValue(forKey: device.id)
        precondition(known == device, "Seat.closeDevice: \(device.path) (id \(device.id)) is not open on this seat")
        defer { close(device.fileDescriptor) }
        try seatCheck("libseat_close_device", path: device.path) { libseat_close_device(handle, device.id) }
    }

    /// Tells libseat the devices are quiesced after `onDisable` (`libseat_disable_seat`). Call it from the
    /// disable callback or soon after; backends revoke the devices of a session that takes too long.
    public func acknowledgeDisable() throws(SeatError) {
        try seatCheck("libseat_disable_seat") { libseat_disable_seat(handle) }
    }

    /// Asks for a switch to session (VT) `session` (`libseat_switch_session`). Success means the request
    /// was sent, not that a switch will happen; a disable callback follows if it does. The noop backend
    /// always fails (errno 0).
    public func switchSession(_ session: Int32) throws(SeatError) {
        try seatCheck("libseat_switch_session") { libseat_switch_session(handle, session) }
    }
}
