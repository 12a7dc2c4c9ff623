import Glibc

/// A libdrm call that failed: the C function, the errno it reported, and what it was about.
public struct DRMError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The C function, e.g. `drmModeSetCrtc`.
    public let operation: String
    public let errno: Int32
    /// What the call was about (`CRTC 41`, `/dev/dri/card0`), when known.
    public let detail: String?

    public init(operation: String, errno: Int32, detail: String? = nil) {
        self.operation = operation
        self.errno = errno
        self.detail = detail
    }

    public var description: String {
        let reason = String(cString: strerror(errno))
        return detail.map { "\(operation)(\($0)): \(reason) (errno \(errno))" } ?? "\(operation): \(reason) (errno \(errno))"
    }

    /// True when the caller lost DRM master or the device went away: the session is paused or the card unplugged.
    public var isAccessLost: Bool { errno == EACCES || errno == EPERM || errno == ENODEV }
}

/// libdrm's setters return a negative number on failure: mostly -1 with `errno` set (they are thin
/// `drmIoctl` calls), a few `-errno` (`drmModeCreateDumbBuffer` and friends). Both come out as the
/// right errno here, so no call site reads return codes by hand.
@inline(__always)
func drmCheck(_ result: Int32, _ operation: @autoclosure () -> String, _ detail: @autoclosure () -> String? = nil) throws(DRMError) {
    guard result < 0 else { return }
    let code = result == -1 ? Glibc.errno : -result
    throw DRMError(operation: operation(), errno: code, detail: detail())
}

/// libdrm's getters return NULL and set `errno` on failure.
@inline(__always)
func drmRequire<T>(_ pointer: T?, _ operation: @autoclosure () -> String, _ detail: @autoclosure () -> String? = nil) throws(DRMError) -> T
{
    guard let pointer else {
        throw DRMError(operation: operation(), errno: Glibc.errno == 0 ? ENOENT : Glibc.errno, detail: detail())
    }
    return pointer
}
