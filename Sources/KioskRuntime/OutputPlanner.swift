import KioskConfig
import KioskKit

/// Decides, from what the connectors look like now and what is lit, what to do: a pure function, so every
/// hotplug transition has a table test. The executor (`DRMScreens`) only carries the actions out.
///
/// - A connector that became connected gets its configured mode (chosen again from its new mode list,
///   which changes with the EDID), a CRTC, and its screen connects.
/// - A connector that became disconnected (or is configured off, or lost its CRTC) is turned off and its
///   screen disconnects.
/// - A connected, lit connector whose chosen mode changed is lit again; the screen is updated (which posts
///   `modeDidChangeNotification`). One whose `link-status` is Bad is lit again with the same mode.
/// - Everything else is left alone: no modeset, no flicker.
public enum OutputPlanner {
    public struct Connector: Equatable, Sendable {
        public var id: UInt32
        public var name: String
        public var connected: Bool
        public var modes: [Screen.Mode]
        public var preferred: Int?
        /// The mode lit on it now, by us or by firmware.
        public var current: Screen.Mode?
        public var possibleCRTCs: [UInt32]
        public var linkStatusBad: Bool = false

        public init(id: UInt32, name: String, connected: Bool, modes: [Screen.Mode], preferred: Int?, current: Screen.Mode?,
                    possibleCRTCs: [UInt32], linkStatusBad: Bool = false) {
            self.id = id
            self.name = name
            self.connected = connected
            self.modes = modes
            self.preferred = preferred
            self.current = current
            self.possibleCRTCs = possibleCRTCs
            self.linkStatusBad = linkStatusBad
        }
    }

    public enum Action: Equatable, Sendable {
        case turnOff(connector: UInt32, name: String)
        /// `modeIndex` nil: keep the CRTC's current mode (no modeset).
        case light(connector: UInt32, name: String, crtc: UInt32, modeIndex: Int?)
        case connectScreen(name: String)
        case updateScreen(name: String)
        case disconnectScreen(name: String)
    }

    /// An output lit now: its CRTC, and its connector's name (for when the connector itself is gone).
    public struct LitOutput: Equatable, Sendable {
        public var crtc: UInt32
        public var name: String

        public init(crtc: UInt32, name: String) {
            self.crtc = crtc
            self.name = name
        }
    }

    public struct Plan: Equatable, Sendable {
        public var actions: [Action] = []
        /// Problems a person must hear about (a mode not offered, no CRTC left), one line each.
        public var problems: [String] = []
        /// Decisions for the log, one line per connector that changed.
        public var decisions: [String] = []
    }

    /// - Parameters:
    ///   - lit: connector id → the output lit on it now.
    ///   - connectedScreens: names of the screens the window model has connected now.
    public static func plan(_ connectors: [Connector], lit: [UInt32: LitOutput], connectedScreens: Set<String>,
                            requests: [String: ModeRequest]) -> Plan {
        var plan = Plan()
        var wanted: [(Connector, ModePolicy.Decision)] = []
        for connector in connectors where connector.connected {
            let outcome = ModePolicy.choose(requests[connector.name], offered: connector.modes, preferred: connector.preferred,
                                            current: connector.current, connector: connector.name)
            if let problem = outcome.problem { plan.problems.append(problem) }
            if outcome.decision != .off { wanted.append((connector, outcome.decision)) }
        }
        let allocation = CRTCAllocation.allocate(wanted.map { .init(connector: $0.0.id, possibleCRTCs: $0.0.possibleCRTCs) },
                                                 previous: lit.mapValues(\.crtc))
        for id in allocation.unassigned {
            let name = connectors.first { $0.id == id }?.name ?? "connector \(id)"
            plan.problems.append("\(name): no CRTC left to drive it (\(allocation.assignments.count) in use); it stays dark")
        }
        // Off first, so a CRTC freed here can be taken below.
        for (id, output) in lit.sorted(by: { $0.key < $1.key }) where allocation.assignments[id] != output.crtc {
            let connector = connectors.first { $0.id == id }
            let (name, crtc) = (output.name, output.crtc)
            plan.actions.append(.turnOff(connector: id, name: name))
            if allocation.assignments[id] == nil {
                if connectedScreens.contains(name) { plan.actions.append(.disconnectScreen(name: name)) }
                let why = connector == nil ? "gone" : connector!.connected ? "off" : "disconnected"
                plan.decisions.append("\(name): connected -> \(why); CRTC \(crtc) released")
            }
        }
        for (connector, decision) in wanted {
            guard let crtc = allocation.assignments[connector.id] else {
                if connectedScreens.contains(connector.name) { plan.actions.append(.disconnectScreen(name: connector.name)) }
                continue
            }
            let modeIndex: Int?
            switch decision {
            case .set(let index): modeIndex = index
            case .keepCurrent: modeIndex = nil
            case .off: continue
            }
            let target = modeIndex.map { connector.modes[$0] } ?? connector.current
            let isLit = lit[connector.id]?.crtc == crtc
            let unchanged = isLit && connector.current == target && !connector.linkStatusBad
            if !unchanged {
                plan.actions.append(.light(connector: connector.id, name: connector.name, crtc: crtc, modeIndex: modeIndex))
                let was = isLit ? "\(connector.current.map { "\($0)" } ?? "?")" : "dark"
                let why = connector.linkStatusBad && isLit ? " (link-status Bad)" : ""
                plan.decisions.append("\(connector.name): \(was) -> \(target.map { "\($0)" } ?? "current mode") on CRTC \(crtc)\(why)")
            }
            plan.actions.append(connectedScreens.contains(connector.name) ? .updateScreen(name: connector.name)
                                                                          : .connectScreen(name: connector.name))
        }
        // Screens of connectors that are gone or disconnected and were not lit (e.g. their lighting failed).
        let handled = Set(plan.actions.compactMap { if case .disconnectScreen(let name) = $0 { name } else { nil } })
        let stillWanted = Set(wanted.filter { allocation.assignments[$0.0.id] != nil }.map(\.0.name))
        for name in connectedScreens.sorted() where !stillWanted.contains(name) && !handled.contains(name) {
            plan.actions.append(.disconnectScreen(name: name))
        }
        return plan
    }
}
