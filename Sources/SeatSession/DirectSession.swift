import Glibc
import KioskBackend

/// Devices opened with `open(2)`, without a seat: for root or the video and input groups when no seat
/// (logind, seatd) can be had. There is no session to switch away from, so disable and enable never come.
@MainActor
public final class DirectSession: DeviceSession {
    public let seatName: String
    public let kind = "directly"
    public var onDisable: @MainActor () -> Void = {}
    public var onEnable: @MainActor () -> Void = {}

    public init(seatName: String) {
        self.seatName = seatName
    }

    /// Read-write, non-blocking (libinput asks for it; a DRM fd is only read when readable), close-on-exec.
    public func openDevice(path: String) throws(BackendError) -> OpenedDevice {
        let fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .failed("seat", "open(\"\(path)\"): \(String(cString: strerror(errno))) (errno \(errno))") }
        return OpenedDevice(fileDescriptor: fd, path: path, id: -1)
    }

    public func closeDevice(_ device: OpenedDevice) {
        close(device.fileDescriptor)
    }
}
