/// A device opened through the seat: DRM cards, evdev input nodes.
///
/// The file descriptor belongs to the `Seat` that opened it: hand it to libdrm or libinput, but do not
/// close it yourself; `Seat.closeDevice(_:)` (or the seat going away) closes it.
public struct SeatDevice: Hashable, Sendable {
    /// libseat's device id, the handle for `libseat_close_device`. (The noop backend uses the fd as id.)
    public let id: Int32
    /// The open file descriptor: read-write, close-on-exec (noop opens with `O_CLOEXEC`; seatd and builtin
    /// receive with `MSG_CMSG_CLOEXEC`) and non-blocking (ensured by `Seat.openDevice(path:)`).
    public let fileDescriptor: Int32
    /// The path it was opened from, e.g. `/dev/dri/card0`.
    public let path: String

    public init(id: Int32, fileDescriptor: Int32, path: String) {
        self.id = id
        self.fileDescriptor = fileDescriptor
        self.path = path
    }
}
