import CEC
import KioskBackend
import KioskConfig
import KioskKit
import Logging

/// HDMI-CEC for the screens: each screen with an adapter (the one the kernel ties to its connector, or the
/// one its `[screens.NAME] cec` names) puts its TV in standby when it is turned off and wakes it when it
/// comes on: `<Standby>` to the TV, then `<Image View On>` to the TV and `<Active Source>` broadcast with
/// the adapter's physical address, so the TV shows this input.
///
/// Only power changes whose reason is followed (`followedReasons`: the power schedule and the control
/// socket; idle blanking only with `cec-on-idle`) send anything: a TV in standby cannot be woken by a touch
/// on it, so idle blanking normally only blanks the picture. A screen whose TV was sent to standby wakes
/// it whatever turns the screen on again (a touch after a scheduled off included). Problems (no adapter,
/// a message nobody acknowledged) are logged with the adapter and the reason, never fatal.
///
/// Many TVs drop hotplug detect in standby, so the kernel reports their connector disconnected and the
/// screen goes away. A screen that disconnects with its TV in standby keeps its adapter open
/// (`wakeDisconnected`): the schedule's `on` or `kiosk power on` sends Image View On anyway, which the CEC
/// specification allows without hotplug detect. Active Source follows when the TV raises hotplug detect
/// and the screen connects again.
@MainActor
public final class CECController {
    /// One message the controller sent or tried to send, for the log, the trace and tests.
    public struct Transmission: Sendable, Equatable {
        public enum Outcome: Sendable, Equatable {
            /// The kernel took it; its result comes later.
            case queued
            /// Sent (and acknowledged, unless broadcast).
            case sent
            /// The bus said so: `NACK, max retries` (nobody at the destination), `arbitration lost`, ...
            case failed(CECTransmitStatus)
            /// Not sent at all: why.
            case refused(String)
        }

        public var screen: String
        public var adapter: String
        public var message: CECMessage
        /// Why the screen's power changed.
        public var reason: String
        public var outcome: Outcome

        public init(screen: String, adapter: String, message: CECMessage, reason: String, outcome: Outcome) {
            self.screen = screen
            self.adapter = adapter
            self.message = message
            self.reason = reason
            self.outcome = outcome
        }
    }

    /// The reasons a screen's power change must have for its TV to follow: the power schedule and the
    /// control socket (`kiosk power`). A reason is followed by its first word (`idle for 300 s` is `idle`).
    public nonisolated static let standardReasons: Set<String> = ["schedule", "control"]
    /// What `cec-on-idle = true` adds.
    public nonisolated static let idleReason = "idle"
    /// Seconds between looks for the addresses a message needs, and how many looks: Active Source after a
    /// wake (a TV that dropped hotplug detect in standby raises it once it is on), Standby while the
    /// adapter is still claiming its logical address (a kiosk that starts inside a scheduled off).
    static let addressRetry: (interval: Double, attempts: Int) = (1, 15)

    /// The reasons this controller follows (see `standardReasons`).
    public var followedReasons: Set<String>
    /// Told of every transmission and its result.
    public var transmissionObserver: ((Transmission) -> Void)?

    private unowned let application: Application
    private let connectorOf: (Screen) -> ConnectorIdentity?
    private let settingsOf: (Screen) -> ResolvedScreen
    private let nodes: () -> [String]
    private let open: (String) throws(CECError) -> any CECAdapter
    /// The adapters in use, by path.
    private var adapters: [String: any CECAdapter] = [:]
    /// Each screen's adapter path (screens with none are absent), by screen.
    private var assigned: [ObjectIdentifier: String] = [:]
    /// What each screen's assignment was last logged as, so a reload that changes nothing says nothing.
    private var announced: [ObjectIdentifier: String] = [:]
    /// Screens whose TV was sent to standby and not woken since.
    private var inStandby: Set<ObjectIdentifier> = []
    /// Screens that disconnected with their TV in standby, by connector name: the screen, the adapter (kept
    /// open) and why the TV was woken since, if it was (Active Source then follows the reconnection).
    private var dormant: [String: (screen: Screen, path: String, wokenFor: String?)] = [:]
    /// Transmissions waiting for their result, by adapter path and sequence number.
    private var pending: [String: [UInt32: Transmission]] = [:]
    /// Each screen's message waiting for the adapter's addresses (`sendOnceAddressed`).
    private var addressTimers: [ObjectIdentifier: FrameTimer] = [:]
    private var observations: [NotificationObservation] = []
    private let log = Logger(label: "kiosk.cec")

    /// `connectorOf` says where the kernel knows a screen's connector (the display backend's
    /// `connectorIdentity(of:)`) and `settingsOf` what the configuration says of the screen, as the display
    /// backend resolved it (`settings(of:)`: its `cec`); `nodes` lists the adapters and `open` opens one
    /// (the kernel's, unless a test passes twins).
    public init(
        application: Application, configuration: KioskConfiguration, connectorOf: @escaping (Screen) -> ConnectorIdentity?,
        settingsOf: @escaping (Screen) -> ResolvedScreen,
        nodes: @escaping () -> [String] = { CECDevice.nodes() },
        open: @escaping (String) throws(CECError) -> any CECAdapter = { path throws(CECError) in try CECDeviceAdapter(path: path) }
    ) {
        self.application = application
        self.connectorOf = connectorOf
        self.settingsOf = settingsOf
        self.nodes = nodes
        self.open = open
        followedReasons = Self.reasons(for: configuration)
    }

    /// The reasons `configuration` has followed.
    public nonisolated static func reasons(for configuration: KioskConfiguration) -> Set<String> {
        configuration.cecOnIdle ? standardReasons.union([idleReason]) : standardReasons
    }

    /// `idle` for `idle for 300 s`, `schedule` for `schedule: off until 07:00`.
    public nonisolated static func kind(ofReason reason: String) -> String {
        String(reason.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }).lowercased()
    }

    /// Finds the adapters of the connected screens and follows power changes from now on.
    public func start() {
        let center = application.notificationCenter
        observations.append(
            center.addObserver(forName: Screen.didConnectNotification) { [weak self] note in
                guard let screen = note.object as? Screen else { return }
                self?.assign([screen])
            })
        observations.append(
            center.addObserver(forName: Screen.didDisconnectNotification) { [weak self] note in
                guard let screen = note.object as? Screen else { return }
                self?.unassign(screen)
            })
        observations.append(
            center.addObserver(forName: Screen.powerStateDidChangeNotification) { [weak self] note in
                guard let screen = note.object as? Screen else { return }
                self?.powerChanged(screen, reason: note.userInfo["reason"] as? String ?? "")
            })
        assign(application.connectedScreens)
    }

    /// New settings (a reload), after the display backend resolved each screen's settings again: the
    /// followed reasons and each screen's adapter.
    public func reconfigure(_ configuration: KioskConfiguration) {
        followedReasons = Self.reasons(for: configuration)
        // A TV whose screen is away stays in reach unless HDMI-CEC was turned off for it (as the backend
        // resolved a disconnected screen's settings: by connector name, with no display's EDID to match).
        dormant = dormant.filter { settingsOf($0.value.screen).cec != .off }
        assign(application.connectedScreens)
        closeUnused()
    }

    public func stop() {
        observations.removeAll()
        for timer in addressTimers.values { timer.cancel() }
        addressTimers.removeAll()
        for adapter in adapters.values { adapter.close() }
        adapters.removeAll()
        assigned.removeAll()
        dormant.removeAll()
    }

    /// The adapter following `screen`, if any.
    public func adapterPath(for screen: Screen) -> String? { assigned[ObjectIdentifier(screen)] }

    // MARK: Which adapter

    private func assign(_ screens: [Screen]) {
        guard !screens.isEmpty else { return }
        // Every adapter's connector, read once per pass (adapters in use answer from their open descriptor).
        var found: [(path: String, connector: CECConnector)] = []
        lazy var scanned = scan()
        for screen in screens {
            let identity = connectorOf(screen)
            let setting = settingsOf(screen).cec
            if setting == .auto { found = scanned }
            let choice = CECMatch.choose(setting: setting, connector: identity, adapters: found)
            let id = ObjectIdentifier(screen)
            let returning = dormant.removeValue(forKey: screen.name)
            guard case let .adapter(path, why) = choice else {
                if case let .none(reason) = choice { announce(screen, "no HDMI-CEC: \(reason)", level: setting == .auto ? .info : .notice) }
                assigned[id] = nil
                continue
            }
            guard let adapter = adapter(at: path, for: screen) else {
                assigned[id] = nil
                continue
            }
            assigned[id] = path
            prepare(adapter, for: screen, why: why)
            // A TV woken while its screen was away is on again (it raised hotplug detect): show this input.
            if let reason = returning?.wokenFor, screen.powerState == .on {
                sendOnceAddressed(.activeSource, screen: screen, adapter: adapter, reason: reason, attempt: 1)
            }
        }
        closeUnused()
    }

    /// Each adapter node and its connector; an adapter that cannot be opened is logged and left out.
    private func scan() -> [(path: String, connector: CECConnector)] {
        nodes().compactMap { path in
            if let adapter = adapters[path] { return (path, adapter.connector()) }
            do {
                let adapter = try open(path)
                defer { adapter.close() }
                return (path, adapter.connector())
            } catch {
                log.warning("cannot read HDMI-CEC adapter \(path): \(error)")
                return nil
            }
        }
    }

    private func adapter(at path: String, for screen: Screen) -> (any CECAdapter)? {
        if let adapter = adapters[path] { return adapter }
        do {
            let adapter = try open(path)
            adapter.transmitted = { [weak self] sequence, status in self?.finished(sequence, status, on: path) }
            adapters[path] = adapter
            return adapter
        } catch {
            announce(screen, "no HDMI-CEC: cannot open \(path): \(error)", level: .error)
            return nil
        }
    }

    /// Makes sure the adapter has (or is claiming) a logical address to send from: one the kernel keeps
    /// from earlier (an earlier run, `cec-ctl`, firmware), else a Playback Device's, claimed now. Adapters
    /// whose driver claims addresses itself (no `CEC_CAP_LOG_ADDRS`) are left as they are.
    private func prepare(_ adapter: any CECAdapter, for screen: Screen, why: String) {
        let capabilities = adapter.capabilities
        let physical = (try? adapter.physicalAddress()).map { "physical address \($0)" } ?? "physical address unknown"
        var line = "HDMI-CEC through \(adapter.path) (\(capabilities.driver) \(capabilities.name), \(why)), \(physical)"
        guard capabilities.flags.contains(.transmit) else {
            announce(screen, line + ": the adapter does not let programs transmit; no HDMI-CEC", level: .error)
            return
        }
        if capabilities.flags.contains(.logicalAddresses) {
            do {
                let state = try adapter.logicalAddresses()
                if state.isConfigured {
                    line += ", logical address \(Self.spell(state.addresses))"
                } else {
                    try adapter.claim(CECLogicalAddressRequest(deviceType: .playbackDevice, osdName: "Kiosk"))
                    line += ", claiming a Playback Device address"
                }
            } catch {
                announce(screen, line + ": cannot claim a logical address: \(error)", level: .error)
                return
            }
        }
        announce(screen, line, level: .notice)
    }

    private static func spell(_ addresses: [CECLogicalAddress]) -> String {
        addresses.isEmpty ? "(no logical address yet)" : addresses.map(\.description).joined(separator: ", ")
    }

    private func unassign(_ screen: Screen) {
        let id = ObjectIdentifier(screen)
        if inStandby.contains(id), let path = assigned[id] {
            dormant[screen.name] = (screen, path, nil)
            log.notice(
                "\(screen.name) disconnected with its TV in standby (many drop hotplug detect then): \(path) stays open to wake it")
        }
        assigned[id] = nil
        announced[id] = nil
        inStandby.remove(id)
        addressTimers.removeValue(forKey: id)?.cancel()
        closeUnused()
    }

    private func closeUnused() {
        let used = Set(assigned.values).union(dormant.values.map(\.path))
        for (path, adapter) in adapters where !used.contains(path) {
            adapter.close()
            adapters[path] = nil
            pending[path] = nil
        }
    }

    private func announce(_ screen: Screen, _ line: String, level: Logger.Level) {
        let id = ObjectIdentifier(screen)
        guard announced[id] != line else { return }
        announced[id] = line
        log.log(level: level, "\(screen.name): \(line)")
    }

    // MARK: Following the power

    private func powerChanged(_ screen: Screen, reason: String) {
        let id = ObjectIdentifier(screen)
        let followed = followedReasons.contains(Self.kind(ofReason: reason))
        addressTimers.removeValue(forKey: id)?.cancel()
        switch screen.powerState {
        case .off:
            guard followed, let adapter = assigned[id].flatMap({ adapters[$0] }) else { return }
            inStandby.insert(id)
            sendOnceAddressed(.standby, screen: screen, adapter: adapter, reason: reason, attempt: 1)
        case .on:
            guard followed || inStandby.contains(id), let adapter = assigned[id].flatMap({ adapters[$0] }) else { return }
            inStandby.remove(id)
            // Image View On may go out without a logical address: the TV may have dropped hotplug detect.
            send(.imageViewOn(from: ownAddress(adapter) ?? .unregistered), screen: screen, adapter: adapter, reason: reason)
            sendOnceAddressed(.activeSource, screen: screen, adapter: adapter, reason: reason, attempt: 1)
        }
    }

    /// The messages that wait for the adapter's addresses.
    private enum AddressedMessage {
        /// `<Standby>` needs a logical address. It waits for one only while the adapter has a physical
        /// address, so is claiming: without one (hotplug detect low) no TV is there to hear it.
        case standby
        /// `<Active Source>` needs the physical address the TV's EDID gives and a logical address; a TV
        /// that was in standby with hotplug detect low gives both only once it is on.
        case activeSource

        /// The power state the screen must still have for the message to go out.
        var screenState: Screen.PowerState { self == .standby ? .off : .on }
    }

    /// Wakes the TV of `name`, a screen that disconnected with its TV in standby, for `reason` (the
    /// schedule's `on`, `kiosk power on`): `<Image View On>`, from the adapter's logical address or, as a
    /// TV with hotplug detect low leaves the adapter none, from Unregistered. False when there is no such
    /// TV or the reason is not followed.
    @discardableResult
    public func wakeDisconnected(_ name: String, reason: String) -> Bool {
        guard followedReasons.contains(Self.kind(ofReason: reason)), let entry = dormant[name], let adapter = adapters[entry.path]
        else { return false }
        dormant[name] = (entry.screen, entry.path, reason)
        send(.imageViewOn(from: ownAddress(adapter) ?? .unregistered), screen: name, adapter: adapter, reason: reason)
        return true
    }

    /// Whether `name` is a disconnected screen whose TV `wakeDisconnected` can wake.
    public func canWakeDisconnected(_ name: String) -> Bool { dormant[name] != nil }

    /// Sends `kind` once the adapter has the addresses it needs, looking again every
    /// `addressRetry.interval` s while the screen keeps its power state; refused, with the reason, when
    /// they do not come.
    private func sendOnceAddressed(_ kind: AddressedMessage, screen: Screen, adapter: any CECAdapter, reason: String, attempt: Int) {
        let id = ObjectIdentifier(screen)
        addressTimers[id] = nil
        let physical = (try? adapter.physicalAddress()) ?? .invalid
        let initiator = ownAddress(adapter)
        let message: CECMessage =
            switch kind {
            case .standby: .standby(from: initiator ?? .unregistered)
            case .activeSource: .activeSource(from: initiator ?? .unregistered, physicalAddress: physical)
            }
        if initiator != nil, physical.isValid || kind == .standby {
            send(message, screen: screen, adapter: adapter, reason: reason)
            return
        }
        guard attempt < Self.addressRetry.attempts, physical.isValid || kind == .activeSource else {
            refuse(message, screen: screen, adapter: adapter, reason: reason, why: unconfigured(adapter))
            return
        }
        if attempt == 1 {
            let what =
                kind == .standby
                ? "Standby waits for \(adapter.path) to claim its logical address"
                : "Active Source waits for \(adapter.path) to get its addresses from the TV"
            log.info("\(screen.name): \(what)")
        }
        let clock = application.clock
        addressTimers[id] = clock.schedule(at: clock.now + Self.addressRetry.interval) { [weak self, weak screen] in
            guard let self, let screen, screen.powerState == kind.screenState, self.assigned[id] == adapter.path else { return }
            self.sendOnceAddressed(kind, screen: screen, adapter: adapter, reason: reason, attempt: attempt + 1)
        }
    }

    /// The first logical address the adapter holds; nil while it holds none.
    private func ownAddress(_ adapter: any CECAdapter) -> CECLogicalAddress? {
        (try? adapter.logicalAddresses())?.addresses.first
    }

    private func unconfigured(_ adapter: any CECAdapter) -> String {
        let physical = (try? adapter.physicalAddress()) ?? .invalid
        guard physical.isValid else {
            return "\(adapter.path) has no physical address (hotplug detect is low: no TV connected, or one that is off)"
        }
        return "\(adapter.path) holds no logical address (physical address \(physical))"
    }

    private func send(_ message: CECMessage, screen: Screen, adapter: any CECAdapter, reason: String) {
        send(message, screen: screen.name, adapter: adapter, reason: reason)
    }

    private func send(_ message: CECMessage, screen name: String, adapter: any CECAdapter, reason: String) {
        var transmission = Transmission(screen: name, adapter: adapter.path, message: message, reason: reason, outcome: .queued)
        do {
            let sequence = try adapter.transmit(message)
            pending[adapter.path, default: [:]][sequence] = transmission
            log.info("\(name): \(message) through \(adapter.path) (\(reason))")
        } catch {
            transmission.outcome = .refused("\(error)")
            log.error("\(name): \(message) through \(adapter.path) (\(reason)) not sent: \(error)")
        }
        transmissionObserver?(transmission)
    }

    private func refuse(_ message: CECMessage, screen: Screen, adapter: any CECAdapter, reason: String, why: String) {
        log.error("\(screen.name): \(message.opcode.map(\.description) ?? "message") not sent (\(reason)): \(why)")
        transmissionObserver?(
            Transmission(screen: screen.name, adapter: adapter.path, message: message, reason: reason, outcome: .refused(why)))
    }

    private func finished(_ sequence: UInt32, _ status: CECTransmitStatus, on path: String) {
        guard var transmission = pending[path]?.removeValue(forKey: sequence) else { return }
        let what = "\(transmission.screen): \(transmission.message) through \(path) (\(transmission.reason))"
        if status.isOK {
            transmission.outcome = .sent
            log.info("\(what): sent")
        } else {
            transmission.outcome = .failed(status)
            let hint =
                status.contains(.notAcknowledged) && !transmission.message.isBroadcast
                ? ": nobody acknowledged it; is the TV on this adapter's HDMI port, and its HDMI-CEC (Anynet+, Bravia Sync, SimpLink, ...) on?"
                : ""
            log.error("\(what) failed: \(status)\(hint)")
        }
        transmissionObserver?(transmission)
    }
}
