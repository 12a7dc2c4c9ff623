/// A device node opened through the session: its file descriptor, and what closing it needs.
public struct OpenedDevice: Hashable, Sendable {
    public let fileDescriptor: Int32
    public let path: String
    /// The session's own handle for it (libseat's device id); -1 for a device opened directly.
    public let id: Int32

    public init(fileDescriptor: Int32, path: String, id: Int32) {
        self.fileDescriptor = fileDescriptor
        self.path = path
        self.id = id
    }
}

/// The seat session the hardware backends open their devices through (libseat: logind, seatd, builtin), so
/// the kiosk runs unprivileged and survives a session switch. The runtime opens one when a backend first
/// asks for it and routes its disable (VT switch away) and enable to every backend.
@MainActor
public protocol DeviceSession: AnyObject {
    /// `seat0`.
    var seatName: String { get }
    /// How devices are opened, for the log: `libseat (builtin)`, `directly`.
    var kind: String { get }
    /// Called when the session goes away (the devices must not be used until `onEnable`) and comes back.
    var onDisable: @MainActor () -> Void { get set }
    var onEnable: @MainActor () -> Void { get set }
    func openDevice(path: String) throws(BackendError) -> OpenedDevice
    func closeDevice(_ device: OpenedDevice)
}
