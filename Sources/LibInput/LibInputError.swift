import CLazyLibInput
import Glibc

/// An environment error from libinput: a device path that does not exist or is not an input device, a
/// seat whose udev monitor could not be created, a calibration the device refuses. It names the C
/// function, the errno and what the call was about:
///
///     libinput_path_add_device("/dev/input/event9"): No such file or directory (errno 2)
///     libinput_device_config_calibration_set_matrix("event4 (ILITEK Multi-Touch)"): Operation not supported (errno 95)
///
/// libinput explains more in its log than errno can ("client bug: Invalid path ..."); route its lines
/// to the application's log with `LibInput.setLogHandler(priority:_:)`.
///
/// Programmer errors (a calibration matrix without 6 values, removing a device from a udev context, a
/// device used after its context was released) trap instead.
public struct LibInputError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The C function that failed, e.g. `libinput_path_add_device`.
    public let operation: String
    /// The errno: as libinput reported it (`-errno` returns are turned positive, `errno` read after
    /// NULL or -1), or chosen for a config status (`EOPNOTSUPP` for unsupported, `EINVAL` for invalid).
    /// 0 when libinput failed without saying why.
    public let errno: Int32
    /// What the call was about: a device path, a seat name, a device (`event4 (name)`).
    public let detail: String?

    private init(operation: String, errno: Int32, detail: String?) {
        self.operation = operation
        self.errno = errno
        self.detail = detail
    }

    public var description: String {
        let call = detail.map { "\(operation)(\"\($0)\")" } ?? operation
        let reason =
            errno == 0
            ? "failed without setting errno"
            : "\(String(cString: strerror(errno))) (errno \(errno))"
        return "\(call): \(reason)"
    }

    /// A failed libinput call that reported `code` (a positive errno).
    static func failed(_ operation: String, errno code: Int32, detail: String? = nil) -> LibInputError {
        LibInputError(operation: operation, errno: code, detail: detail)
    }
}

// MARK: - libinput's return conventions, one helper each

/// Constructors (`libinput_udev_create_context`, `libinput_path_create_context`, and libudev's
/// `udev_new` under them) return NULL and set errno. errno is cleared first so a stale value is never
/// blamed; NULL without errno is reported as `ENOMEM`, the only failure they leave unexplained.
func inputCreate(
    _ operation: String, detail: String? = nil,
    _ body: () -> OpaquePointer?
) throws(LibInputError) -> OpaquePointer {
    Glibc.errno = 0
    if let pointer = body() { return pointer }
    let code = Glibc.errno
    throw LibInputError.failed(operation, errno: code == 0 ? ENOMEM : code, detail: detail)
}

/// `libinput_dispatch` returns 0 or `-errno` (from `epoll_wait`).
func inputCheck(_ result: Int32, _ operation: String, detail: String? = nil) throws(LibInputError) {
    if result < 0 { throw LibInputError.failed(operation, errno: -result, detail: detail) }
}

/// `libinput_udev_assign_seat` and `libinput_resume` return -1 and leave errno as the failing call
/// under them set it (a udev monitor that could not be created, a device that could not be reopened),
/// or not at all; errno is cleared first so a stale value is never blamed.
func inputCheckErrno(_ operation: String, detail: String? = nil, _ body: () -> Int32) throws(LibInputError) {
    Glibc.errno = 0
    if body() < 0 { throw LibInputError.failed(operation, errno: Glibc.errno, detail: detail) }
}

/// Configuration setters (`libinput_device_config_*_set_*`) return a `libinput_config_status`, not an
/// errno; the two failures map to the errno that says the same thing.
func configCheck(_ status: libinput_config_status, _ operation: String, device: String) throws(LibInputError) {
    switch status {
    case LIBINPUT_CONFIG_STATUS_SUCCESS: return
    case LIBINPUT_CONFIG_STATUS_UNSUPPORTED: throw LibInputError.failed(operation, errno: EOPNOTSUPP, detail: device)
    default: throw LibInputError.failed(operation, errno: EINVAL, detail: device)
    }
}
