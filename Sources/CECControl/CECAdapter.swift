import CEC
import Dispatch
import Logging

/// What the CEC controller needs of an HDMI-CEC adapter: the kernel's (`CECDeviceAdapter`, a `/dev/cecN`)
/// or the in-memory twin (`InMemoryCECAdapter`), which behaves as the kernel does for the calls the
/// controller makes.
@MainActor
public protocol CECAdapter: AnyObject {
    /// `/dev/cec0`.
    var path: String { get }
    var capabilities: CECCapabilities { get }
    /// The connector the kernel ties it to; `.none` when it ties it to none or cannot say.
    func connector() -> CECConnector
    func physicalAddress() throws(CECError) -> CECPhysicalAddress
    func logicalAddresses() throws(CECError) -> CECLogicalAddressState
    /// Starts claiming one logical address of the request's kind (the claim finishes in the background).
    func claim(_ request: CECLogicalAddressRequest) throws(CECError)
    /// Queues `message` and returns its sequence number; its result reaches `transmitted` later.
    func transmit(_ message: CECMessage) throws(CECError) -> UInt32
    /// Told the result of each transmission: its sequence number and how it ended.
    var transmitted: ((UInt32, CECTransmitStatus) -> Void)? { get set }
    /// Stops reading results and closes the device.
    func close()
}

/// A `/dev/cecN` for the controller: the device, opened non-blocking, and a read source on the main queue
/// that hands each transmission's result to `transmitted` (results make the descriptor readable).
@MainActor
public final class CECDeviceAdapter: CECAdapter {
    public let path: String
    public let capabilities: CECCapabilities
    public var transmitted: ((UInt32, CECTransmitStatus) -> Void)?
    private var device: CECDevice?
    private var source: (any DispatchSourceRead)?

    /// Opens `path` (directly: see `CECDevice.open`) and reads its capabilities.
    public init(path: String) throws(CECError) {
        let device = try CECDevice.open(path: path)
        capabilities = try device.capabilities()
        self.path = path
        self.device = device
    }

    public func connector() -> CECConnector {
        guard let device, capabilities.flags.contains(.connectorInfo) else { return .none }
        return (try? device.connector()) ?? .none
    }

    public func physicalAddress() throws(CECError) -> CECPhysicalAddress {
        try opened().physicalAddress()
    }

    public func logicalAddresses() throws(CECError) -> CECLogicalAddressState {
        try opened().logicalAddresses()
    }

    public func claim(_ request: CECLogicalAddressRequest) throws(CECError) {
        try opened().setLogicalAddresses(request)
    }

    public func transmit(_ message: CECMessage) throws(CECError) -> UInt32 {
        let device = try opened()
        let sequence = try device.transmit(message).sequence
        // After the transmission: an adapter that went away fails it, and is not watched again. Its result
        // waits in the descriptor's queue, which keeps it readable until it is read.
        watch(device)
        return sequence
    }

    public func close() {
        source?.cancel()
        source = nil
        device = nil
    }

    private func opened() throws(CECError) -> CECDevice {
        guard let device else { throw CECError(operation: "CEC", errno: EBADF, detail: path) }
        return device
    }

    /// The read source, made with the first transmission (an adapter that never sends is never read).
    private func watch(_ device: CECDevice) {
        guard source == nil else { return }
        let source = DispatchSource.makeReadSource(fileDescriptor: device.fileDescriptor, queue: .main)
        source.setEventHandler { [weak self] in
            MainActor.assumeIsolated { self?.drain(device) }
        }
        // The descriptor stays open until the source is done with it.
        source.setCancelHandler { _ = device }
        source.resume()
        self.source = source
    }

    private func drain(_ device: CECDevice) {
        do {
            // Events (state changes) make the descriptor poll POLLPRI, which the read source does not watch:
            // they are dropped here so they never pile up; the controller asks for the state when it needs it.
            while try device.dequeueEvent() != nil {}
            while let received = try device.receive() {
                if received.isTransmitResult { transmitted?(received.sequence, received.transmitStatus) }
            }
        } catch {
            // The adapter went away (a USB one unplugged: ENODEV): its descriptor would poll readable for ever.
            Logger(label: "kiosk.cec").error("\(path): reading results failed: \(error); no more results from it")
            source?.cancel()
            source = nil
        }
    }
}

#if canImport(Glibc)
    import Glibc
#endif
