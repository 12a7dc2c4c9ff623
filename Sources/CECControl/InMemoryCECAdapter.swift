import CEC

/// The in-memory twin of a CEC adapter, for tests: it keeps the kernel's rules for the calls the
/// controller makes (no transmitting without a logical address, except Image View On to the TV from
/// `unregistered`; claiming needs a physical address and `CEC_CAP_LOG_ADDRS`), records what was sent, and
/// answers each transmission when told to (`finishTransmissions`), as a bus with `devices` on it would.
@MainActor
public final class InMemoryCECAdapter: CECAdapter {
    public let path: String
    public var capabilities: CECCapabilities
    public var connectorInfo: CECConnector
    public var transmitted: ((UInt32, CECTransmitStatus) -> Void)?
    /// The logical addresses other devices on the bus answer to (the TV is 0): a message to one of them is
    /// acknowledged, to any other not; a broadcast is always sent.
    public var devices: Set<CECLogicalAddress>
    /// Every message transmitted, in order.
    public private(set) var sent: [CECMessage] = []
    /// Transmissions not finished yet: sequence number and message.
    public private(set) var inFlight: [(sequence: UInt32, message: CECMessage)] = []
    /// Descriptors open on it (`open()` adds one, `close()` takes one away), as the kernel counts them.
    public private(set) var openCount = 0
    public var isClosed: Bool { openCount == 0 }
    /// A claim takes a moment on a real bus (the kernel polls each candidate address): while true, a claim
    /// is only requested until `finishClaim()`.
    public var claimsTakeTime = false
    private var state: CECLogicalAddressState
    private var address: CECPhysicalAddress
    private var nextSequence: UInt32 = 1

    public init(
        path: String, connector: CECConnector = .none, physicalAddress: CECPhysicalAddress = CECPhysicalAddress(rawValue: 0x1000),
        devices: Set<CECLogicalAddress> = [.tv], claimed: CECLogicalAddressState = CECLogicalAddressState(addresses: [], requested: []),
        flags: CECCapabilities.Flags = [.logicalAddresses, .transmit, .passthrough]
    ) {
        self.path = path
        connectorInfo = connector
        address = physicalAddress
        self.devices = devices
        state = claimed
        capabilities = CECCapabilities(driver: "twin", name: "twin-\(path)", availableLogicalAddresses: 1, flags: flags, version: "6.1.0")
    }

    /// Another descriptor on the same adapter (what a test's `open` hands the controller).
    public func open() -> InMemoryCECAdapter {
        openCount += 1
        return self
    }

    public func connector() -> CECConnector { connectorInfo }

    public func physicalAddress() throws(CECError) -> CECPhysicalAddress { address }

    public func logicalAddresses() throws(CECError) -> CECLogicalAddressState { state }

    public func claim(_ request: CECLogicalAddressRequest) throws(CECError) {
        guard capabilities.flags.contains(.logicalAddresses) else {
            throw CECError(operation: "CEC_ADAP_S_LOG_ADDRS", errno: ENOTTY, detail: path)
        }
        guard !state.isConfigured else { throw CECError(operation: "CEC_ADAP_S_LOG_ADDRS", errno: EBUSY, detail: path) }
        state = CECLogicalAddressState(addresses: [], requested: [request.deviceType], osdName: request.osdName, version: request.version)
        if !claimsTakeTime { claimIfPossible() }
    }

    /// Ends a claim held by `claimsTakeTime`.
    public func finishClaim() { claimIfPossible() }

    /// Hotplug detect: a valid address lets a configured adapter claim; an invalid one loses its addresses.
    public func setPhysicalAddress(_ newAddress: CECPhysicalAddress) {
        address = newAddress
        if newAddress.isValid { claimIfPossible() } else { state.addresses = [] }
    }

    public func transmit(_ message: CECMessage) throws(CECError) -> UInt32 {
        guard !isClosed else { throw CECError(operation: "CEC_TRANSMIT", errno: EBADF, detail: path) }
        // The kernel's special case: an unconfigured adapter may still wake a TV.
        let wakesTV = message.destination == .tv && message.opcode == .imageViewOn && message.operands.isEmpty
        guard !state.addresses.isEmpty || wakesTV else { throw CECError(operation: "CEC_TRANSMIT", errno: ENONET, detail: path) }
        guard state.addresses.contains(message.initiator) || (state.addresses.isEmpty && message.initiator == .unregistered) else {
            throw CECError(operation: "CEC_TRANSMIT", errno: EINVAL, detail: path)
        }
        sent.append(message)
        let sequence = nextSequence
        nextSequence += 1
        inFlight.append((sequence, message))
        return sequence
    }

    /// Ends every transmission in flight as the bus would, telling `transmitted`.
    public func finishTransmissions() {
        let finished = inFlight
        inFlight = []
        for (sequence, message) in finished {
            let acknowledged = message.isBroadcast || devices.contains(message.destination)
            transmitted?(sequence, acknowledged ? .ok : [.notAcknowledged, .maximumRetries])
        }
    }

    public func close() {
        openCount = max(openCount - 1, 0)
    }

    private func claimIfPossible() {
        guard address.isValid, state.addresses.isEmpty, let type = state.requested.first else { return }
        let candidates: [CECLogicalAddress] =
            switch type {
            case .playbackDevice: [.playbackDevice1, .playbackDevice2, .playbackDevice3]
            case .tuner: [.tuner1, .tuner2, .tuner3, .tuner4]
            case .tv: [.tv, .specific]
            default: [.specific]
            }
        state.addresses = [candidates.first { !devices.contains($0) } ?? .unregistered]
    }
}

#if canImport(Glibc)
    import Glibc
#endif
