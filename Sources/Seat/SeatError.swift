import CLazyLibSeat
import Glibc

/// An environment error from libseat: no seat daemon to talk to, a session without a seat, a device the
/// seat will not hand out. It names the C function, the errno and the device or backend involved:
///
///     libseat_open_seat(LIBSEAT_BACKEND=seatd): No such file or directory (errno 2)
///     libseat_open_device("/dev/dri/card0"): Operation not permitted (errno 1)
///
/// libseat's errno alone is often cryptic (logind without a session gives `ENODATA`); its own log
/// lines say why, so route them to the application's log with `Seat.setLogHandler(level:_:)`.
///
/// Programmer errors (closing a device twice, a device of another seat) trap instead.
public struct SeatError: Error, CustomStringConvertible {
    /// The C function that failed, e.g. `libseat_open_device`.
    public let operation: String
    /// The `errno` libseat left. 0 when libseat failed without setting one, which it does: the noop
    /// backend's `libseat_switch_session`, the builtin backend's `libseat_close_device` of an unknown id
    /// (both observed with libseat 0.7.0 on Debian 12).
    public let errno: Int32
    /// The device path, for `libseat_open_device`.
    public let path: String?
    /// The value of `LIBSEAT_BACKEND` when the seat was opened (nil if unset, i.e. libseat tried seatd,
    /// logind and builtin in that order), for `libseat_open_seat`.
    public let backend: String?

    private init(operation: String, errno: Int32, path: String?, backend: String?) {
        self.operation = operation
        self.errno = errno
        self.path = path
        self.backend = backend
    }

    public var description: String {
        var call = operation
        if let path {
            call += "(\"\(path)\")"
        } else if operation == "libseat_open_seat" {
            call += "(LIBSEAT_BACKEND=\(backend ?? "unset"))"
        }
        let reason =
            errno == 0
            ? "failed without setting errno"
            : "\(String(cString: strerror(errno))) (errno \(errno))"
        return "\(call): \(reason)"
    }

    /// A failed libseat call that left `code` in errno.
    static func failed(
        _ operation: String, errno code: Int32, path: String? = nil,
        backend: String? = nil
    ) -> SeatError {
        SeatError(operation: operation, errno: code, path: path, backend: backend)
    }
}

// MARK: - libseat's return conventions, one helper each

/// `libseat_open_seat` returns NULL and sets errno. errno is cleared first so a stale value is never
/// reported as the cause.
func seatCreate(
    _ operation: String, backend: String?,
    _ body: () -> OpaquePointer?
) throws(SeatError) -> OpaquePointer {
    Glibc.errno = 0
    if let pointer = body() { return pointer }
    throw SeatError.failed(operation, errno: Glibc.errno, backend: backend)
}

/// Every other libseat call returns -1 and (usually) sets errno, or a non-negative result. errno is
/// cleared first because some backends return -1 without touching it (see `SeatError.errno`).
@discardableResult
func seatCheck(_ operation: String, path: String? = nil, _ body: () -> Int32) throws(SeatError) -> Int32 {
    Glibc.errno = 0
    let result = body()
    if result < 0 { throw SeatError.failed(operation, errno: Glibc.errno, path: path) }
    return result
}
