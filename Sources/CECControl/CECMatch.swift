import CEC
import KioskBackend
import KioskConfig

/// Which HDMI-CEC adapter follows a screen's power (pure, for tables of tests).
public enum CECMatch {
    /// The outcome, with the reason the log gives.
    public enum Choice: Sendable, Equatable {
        /// `path` follows the screen.
        case adapter(path: String, reason: String)
        /// None does.
        case none(reason: String)
    }

    /// The adapter for a screen whose connector is `connector` (nil: not a DRM connector, or not known) and
    /// whose setting is `setting`, among `adapters` (each with the connector the kernel ties it to):
    /// `off`, none; a device path, that adapter, whatever connector it is tied to (the configuration knows
    /// better, and most USB and emulated adapters are tied to none); `auto`, the one adapter whose connector
    /// info names the screen's card and connector. Two adapters naming the same connector (an HDMI driver
    /// that registered two) are one too many to guess from: none, and the reason says to configure one.
    public static func choose(setting: CECSetting, connector: ConnectorIdentity?, adapters: [(path: String, connector: CECConnector)])
        -> Choice
    {
        switch setting {
        case .off:
            return .none(reason: "cec = \"off\"")
        case .device(let path):
            return .adapter(path: path, reason: "configured")
        case .auto:
            guard let connector else { return .none(reason: "not a DRM connector") }
            let tied = adapters.filter { $0.connector == .drm(card: connector.card, connector: connector.connector) }.map(\.path)
            let place = "card \(connector.card) connector \(connector.connector)"
            switch tied.count {
            case 0: return .none(reason: "no adapter is tied to \(place)")
            case 1: return .adapter(path: tied[0], reason: "tied to \(place)")
            default: return .none(reason: "\(tied.joined(separator: " and ")) are all tied to \(place); name one with cec = \"/dev/cecN\"")
            }
        }
    }
}

/// The adapters of the machine, as `kiosk screens` lists them: what each is and which connector the kernel
/// ties it to.
public struct CECAdapterInfo: Sendable, Equatable {
    public var path: String
    public var driver: String
    public var name: String
    public var connector: CECConnector
    public var physicalAddress: CECPhysicalAddress?
    public var logicalAddresses: [CECLogicalAddress]
    /// Why it could not be read.
    public var problem: String?

    public init(
        path: String, driver: String = "", name: String = "", connector: CECConnector = .none, physicalAddress: CECPhysicalAddress? = nil,
        logicalAddresses: [CECLogicalAddress] = [], problem: String? = nil
    ) {
        self.path = path
        self.driver = driver
        self.name = name
        self.connector = connector
        self.physicalAddress = physicalAddress
        self.logicalAddresses = logicalAddresses
        self.problem = problem
    }

    /// `/dev/cec0 (vivid vivid-000-vid-out0, physical address 1.0.0.0)`.
    public var summary: String {
        if let problem { return "\(path) (\(problem))" }
        var parts = ["\(driver) \(name)"]
        if let physicalAddress { parts.append("physical address \(physicalAddress)") }
        if !logicalAddresses.isEmpty {
            parts.append("logical address \(logicalAddresses.map { String($0.rawValue) }.joined(separator: ", "))")
        }
        return "\(path) (\(parts.joined(separator: ", ")))"
    }

    /// Reads `paths` (default: every `/dev/cecN`) without claiming or sending anything.
    public static func read(paths: [String] = CECDevice.nodes()) -> [CECAdapterInfo] {
        paths.map { path in
            do {
                let device = try CECDevice.open(path: path)
                let capabilities = try device.capabilities()
                let connector = capabilities.flags.contains(.connectorInfo) ? (try? device.connector()) ?? .none : .none
                return CECAdapterInfo(
                    path: path, driver: capabilities.driver, name: capabilities.name, connector: connector,
                    physicalAddress: try? device.physicalAddress(), logicalAddresses: (try? device.logicalAddresses())?.addresses ?? [])
            } catch {
                return CECAdapterInfo(path: path, problem: "\(error)")
            }
        }
    }
}
