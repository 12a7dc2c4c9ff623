import Glibc

/// A call on a CEC adapter that failed: the ioctl (or `open`), the errno it reported, and the device.
///
///     CEC_TRANSMIT(/dev/cec0): Machine is not on the network (errno 64)
public struct CECError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The ioctl request (`CEC_TRANSMIT`, `CEC_ADAP_G_CAPS`) or the system call (`open`).
    public let operation: String
    public let errno: Int32
    /// What the call was about: the device path.
    public let detail: String?

    public init(operation: String, errno: Int32, detail: String? = nil) {
        self.operation = operation
        self.errno = errno
        self.detail = detail
    }

    public var description: String {
        let reason = errno == 0 ? "failed without setting errno" : "\(String(cString: strerror(errno))) (errno \(errno))"
        return detail.map { "\(operation)(\($0)): \(reason)" } ?? "\(operation): \(reason)"
    }

    /// Nothing to read now on a non-blocking descriptor (`EAGAIN`), or a transmit queue that is full.
    public var wouldBlock: Bool { errno == EAGAIN || errno == EWOULDBLOCK }

    /// The adapter has no logical address (`ENONET`): it claimed none yet, or lost its physical address
    /// because the HDMI link went down (many TVs drop hotplug detect in standby).
    public var isUnconfigured: Bool { errno == ENONET }

    /// The adapter cannot do this (`ENOTTY`): `CEC_ADAP_G_CONNECTOR_INFO` on an adapter without
    /// `CEC_CAP_CONNECTOR_INFO` or on a kernel before 5.5.
    public var isUnsupported: Bool { errno == ENOTTY }
}

/// The kernel's CEC API has one return convention: `open(2)` and every `ioctl(2)` return -1 and set
/// `errno` on failure, 0 (or a descriptor) on success.
@inline(__always)
func cecCheck(_ result: Int32, _ operation: @autoclosure () -> String, _ detail: @autoclosure () -> String?) throws(CECError) {
    guard result < 0 else { return }
    throw CECError(operation: operation(), errno: Glibc.errno, detail: detail())
}

/// The dequeuing ioctls (`CEC_RECEIVE`, `CEC_DQEVENT`) on a non-blocking descriptor: -1 with `EAGAIN`
/// means nothing is queued (false); any other -1 is an error.
@inline(__always)
func cecDequeued(_ result: Int32, _ operation: @autoclosure () -> String, _ detail: @autoclosure () -> String?) throws(CECError)
    -> Bool
{
    guard result < 0 else { return true }
    let error = CECError(operation: operation(), errno: Glibc.errno, detail: detail())
    if error.wouldBlock { return false }
    throw error
}
