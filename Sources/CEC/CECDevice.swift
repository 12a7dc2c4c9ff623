import CCEC
import Glibc

/// An open HDMI-CEC adapter (`/dev/cecN`) and the kernel CEC API's calls on it (`linux/cec.h`; no C
/// library is involved, only ioctls).
///
/// The descriptor is non-blocking: `transmit` returns at once and the transmission's result arrives later
/// through `receive()`, when the descriptor polls readable; `receive()` and `dequeueEvent()` return nil when
/// nothing is queued. Its mode is the kernel's default for a new descriptor: an initiator that follows
/// nothing, so messages from other devices are answered by the kernel and not queued here.
///
/// Not `Sendable`: one owner (the main actor) makes every call.
public final class CECDevice {
    public let fileDescriptor: Int32
    public let path: String

    private init(fileDescriptor: Int32, path: String) {
        self.fileDescriptor = fileDescriptor
        self.path = path
    }

    /// Opens `path` with `open(2)`, `O_RDWR | O_NONBLOCK | O_CLOEXEC`. Directly, not through the seat:
    /// CEC adapters belong to no seat (logind and libseat hand out DRM and input devices only), so access
    /// is the device node's permission (the kiosk's udev rule gives its group read and write).
    public static func open(path: String) throws(CECError) -> CECDevice {
        let descriptor = Glibc.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        try cecCheck(descriptor, "open", path)
        return CECDevice(fileDescriptor: descriptor, path: path)
    }

    deinit {
        close(fileDescriptor)
    }

    /// The adapter nodes in `directory` (`cec0`, `cec1`, ...), in number order (`cec2` before `cec10`).
    public static func nodes(in directory: String = "/dev") -> [String] {
        guard let folder = opendir(directory) else { return [] }
        defer { closedir(folder) }
        var numbers: [Int] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.hasPrefix("cec"), let number = Int(name.dropFirst(3)), number >= 0 { numbers.append(number) }
        }
        return numbers.sorted().map { "\(directory)/cec\($0)" }
    }

    // MARK: The adapter

    /// What the adapter is and can do. Calls `CEC_ADAP_G_CAPS`.
    public func capabilities() throws(CECError) -> CECCapabilities {
        var caps = cec_caps()
        try cecCheck(kiosk_cec_adap_g_caps(fileDescriptor, &caps), "CEC_ADAP_G_CAPS", path)
        let version = caps.version
        return CECCapabilities(
            driver: Self.string(caps.driver), name: Self.string(caps.name),
            availableLogicalAddresses: Int(caps.available_log_addrs), flags: .init(rawValue: caps.capabilities),
            version: "\(version >> 16).\((version >> 8) & 0xff).\(version & 0xff)")
    }

    /// Where the adapter sits in the HDMI tree; `.invalid` while hotplug detect is low. Calls
    /// `CEC_ADAP_G_PHYS_ADDR`.
    public func physicalAddress() throws(CECError) -> CECPhysicalAddress {
        var address: UInt16 = 0
        try cecCheck(kiosk_cec_adap_g_phys_addr(fileDescriptor, &address), "CEC_ADAP_G_PHYS_ADDR", path)
        return CECPhysicalAddress(rawValue: address)
    }

    /// The logical addresses it holds and what it was asked to claim. Calls `CEC_ADAP_G_LOG_ADDRS`.
    public func logicalAddresses() throws(CECError) -> CECLogicalAddressState {
        var raw = cec_log_addrs()
        try cecCheck(kiosk_cec_adap_g_log_addrs(fileDescriptor, &raw), "CEC_ADAP_G_LOG_ADDRS", path)
        return CECLogicalAddressState(raw)
    }

    /// Asks the adapter to claim one logical address of `request`'s kind. The descriptor being
    /// non-blocking, this returns at once and the kernel claims in the background (polling each candidate
    /// address; it claims again by itself whenever the physical address comes back); a `stateChange` event
    /// reports the result. Needs `CECCapabilities.Flags.logicalAddresses`; `EBUSY` when addresses are set
    /// already (clear them first). Calls `CEC_ADAP_S_LOG_ADDRS`.
    public func setLogicalAddresses(_ request: CECLogicalAddressRequest) throws(CECError) {
        var raw = request.raw
        try cecCheck(kiosk_cec_adap_s_log_addrs(fileDescriptor, &raw), "CEC_ADAP_S_LOG_ADDRS", path)
    }

    /// Gives up every logical address (the adapter goes silent). Calls `CEC_ADAP_S_LOG_ADDRS` with none.
    public func clearLogicalAddresses() throws(CECError) {
        var raw = cec_log_addrs()
        try cecCheck(kiosk_cec_adap_s_log_addrs(fileDescriptor, &raw), "CEC_ADAP_S_LOG_ADDRS", path)
    }

    /// The connector the adapter belongs to. `ENOTTY` (`CECError.isUnsupported`) on an adapter without
    /// `CECCapabilities.Flags.connectorInfo` and on kernels before 5.5. Calls `CEC_ADAP_G_CONNECTOR_INFO`.
    public func connector() throws(CECError) -> CECConnector {
        var info = cec_connector_info()
        try cecCheck(kiosk_cec_adap_g_connector_info(fileDescriptor, &info), "CEC_ADAP_G_CONNECTOR_INFO", path)
        switch info.type {
        case UInt32(CEC_CONNECTOR_TYPE_NO_CONNECTOR): return .none
        case UInt32(CEC_CONNECTOR_TYPE_DRM): return .drm(card: info.drm.card_no, connector: info.drm.connector_id)
        default: return .other(type: info.type)
        }
    }

    // MARK: Messages

    /// Queues `message` for the bus and returns at once with its sequence number; the result comes through
    /// `receive()`. `ENONET` (`CECError.isUnconfigured`): the adapter holds no logical address (only Image
    /// View On to the TV may then be sent, from `unregistered`). `EBUSY`: the transmit queue is full. Calls
    /// `CEC_TRANSMIT`.
    public func transmit(_ message: CECMessage) throws(CECError) -> CECTransmission {
        var raw = cec_msg()
        let bytes = message.bytes
        raw.len = UInt32(bytes.count)
        withUnsafeMutableBytes(of: &raw.msg) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        try cecCheck(kiosk_cec_transmit(fileDescriptor, &raw), "CEC_TRANSMIT", path)
        return CECTransmission(sequence: raw.sequence, status: CECTransmitStatus(rawValue: raw.tx_status))
    }

    /// The next queued message or transmission result; nil when there is none. Calls `CEC_RECEIVE`.
    public func receive() throws(CECError) -> CECReceived? {
        var raw = cec_msg()
        guard try cecDequeued(kiosk_cec_receive(fileDescriptor, &raw), "CEC_RECEIVE", path) else { return nil }
        let length = Int(min(raw.len, UInt32(CECMessage.maximumLength)))
        let bytes = withUnsafeBytes(of: raw.msg) { Array($0.prefix(length)) }
        return CECReceived(
            message: CECMessage(bytes: bytes), sequence: raw.sequence, transmitStatus: CECTransmitStatus(rawValue: raw.tx_status),
            receiveStatus: raw.rx_status)
    }

    /// The next event; nil when there is none. Events make the descriptor poll `POLLPRI`, not readable.
    /// Calls `CEC_DQEVENT`.
    public func dequeueEvent() throws(CECError) -> CECEvent? {
        var raw = cec_event()
        guard try cecDequeued(kiosk_cec_dqevent(fileDescriptor, &raw), "CEC_DQEVENT", path) else { return nil }
        switch raw.event {
        case UInt32(CEC_EVENT_STATE_CHANGE):
            let state = raw.state_change
            let mask = state.log_addr_mask
            return .stateChange(
                physicalAddress: CECPhysicalAddress(rawValue: state.phys_addr),
                logicalAddresses: (0..<15).filter { mask & (1 << $0) != 0 }.compactMap { CECLogicalAddress(rawValue: UInt8($0)) })
        case UInt32(CEC_EVENT_LOST_MSGS):
            return .lostMessages(Int(raw.lost_msgs.lost_msgs))
        default:
            return .other(raw.event)
        }
    }

    private static func string<T>(_ tuple: T) -> String {
        var tuple = tuple
        return withUnsafeBytes(of: &tuple) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
