import DRM
import Geometry
import KioskConfig

/// Decides, from the connectors as the kernel reports them now and what is lit, what to do: a pure
/// function, so every hotplug transition has a table test. `DRMDisplay` only carries the actions out.
///
/// - A connector that became connected gets its configured mode (chosen again from its new mode list,
///   which changes with the EDID), a CRTC, and its screen connects.
/// - A connector that became disconnected (or is configured off, or lost its CRTC) is turned off and its
///   screen disconnects.
/// - A connected, lit connector whose chosen mode changed is lit again; the screen is updated (which posts
///   `modeDidChangeNotification`). One whose `link-status` is Bad is lit again with the same mode.
/// - A connected connector something else lit (firmware, the console, the session before a VT switch) that
///   the kiosk does not drive (configured off, or no CRTC left) goes dark, its CRTC with it, as weston
///   turns off what it does not use: it showed the console.
/// - Everything else is left alone: no modeset, no flicker.
public enum OutputPlanner {
    public enum Action: Equatable, Sendable {
        case turnOff(connector: DRMConnectorID, name: String)
        /// A connector lit by something else on `crtc`, which no connector of the kiosk's takes: both go dark.
        case darken(connector: DRMConnectorID, name: String, crtc: DRMCRTCID)
        /// `modeIndex` (into the connector's `modes`) nil: keep the CRTC's current mode (no modeset).
        case light(connector: DRMConnectorID, name: String, crtc: DRMCRTCID, modeIndex: Int?)
        case connectScreen(name: String)
        case updateScreen(name: String)
        case disconnectScreen(name: String)
    }

    /// An output lit now: its CRTC, and its connector's name (for when the connector itself is gone).
    public struct LitOutput: Equatable, Sendable {
        public var crtc: DRMCRTCID
        public var name: String

        public init(crtc: DRMCRTCID, name: String) {
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
    ///   - connectors: as read now (`DRMDevice.connector`).
    ///   - current: the mode each connector's CRTC shows now, lit by us or by firmware.
    ///   - lit: the outputs this backend lit, by connector.
    ///   - connectedScreens: names of the screens the window model has connected now.
    ///   - requests: the configured mode per connector name.
    ///   - showing: the CRTC each connector something else lit is on (firmware, the console).
    public static func plan(
        _ connectors: [DRMConnector], current: [DRMConnectorID: DRMModeInfo], lit: [DRMConnectorID: LitOutput],
        connectedScreens: Set<String>, requests: [String: ModeRequest], showing: [DRMConnectorID: DRMCRTCID] = [:]
    ) -> Plan {
        var plan = Plan()
        var wanted: [(DRMConnector, ModePolicy.Decision)] = []
        for connector in connectors where connector.status == .connected {
            let outcome = ModePolicy.choose(
                requests[connector.name], offered: connector.modes.map(DisplayMode.init),
                preferred: connector.preferredModeIndex,
                current: current[connector.id].map(DisplayMode.init), connector: connector.name)
            if let problem = outcome.problem { plan.problems.append(problem) }
            if outcome.decision != .off { wanted.append((connector, outcome.decision)) }
        }
        let allocation = CRTCAllocation.allocate(
            wanted.map { .init(connector: $0.0.id, possibleCRTCs: $0.0.possibleCRTCs) },
            previous: lit.mapValues(\.crtc))
        for id in allocation.unassigned {
            let name = connectors.first { $0.id == id }?.name ?? "\(id)"
            plan.problems.append("\(name): no CRTC left to drive it (\(allocation.assignments.count) in use); it stays dark")
        }
        // What something else lit and the kiosk does not drive goes dark (unless the kiosk lights that CRTC
        // for another connector, which takes it over).
        let driven = Set(allocation.assignments.values)
        for connector in connectors where connector.status == .connected && lit[connector.id] == nil {
            guard let crtc = showing[connector.id], allocation.assignments[connector.id] == nil, !driven.contains(crtc) else { continue }
            plan.actions.append(.darken(connector: connector.id, name: connector.name, crtc: crtc))
            plan.decisions.append("\(connector.name): lit by something else on \(crtc), not driven -> dark")
        }
        // Off first, so a CRTC freed here can be taken below.
        for (id, output) in lit.sorted(by: { $0.key < $1.key }) where allocation.assignments[id] != output.crtc {
            let connector = connectors.first { $0.id == id }
            plan.actions.append(.turnOff(connector: id, name: output.name))
            if allocation.assignments[id] == nil {
                if connectedScreens.contains(output.name) { plan.actions.append(.disconnectScreen(name: output.name)) }
                let why = connector.map { $0.status == .connected ? "off" : "disconnected" } ?? "gone"
                plan.decisions.append("\(output.name): connected -> \(why); \(output.crtc) released")
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
            let now = current[connector.id].map(DisplayMode.init)
            let target = modeIndex.map { DisplayMode(connector.modes[$0]) } ?? now
            let isLit = lit[connector.id]?.crtc == crtc
            let unchanged = isLit && now == target && !connector.isLinkStatusBad
            if !unchanged {
                plan.actions.append(.light(connector: connector.id, name: connector.name, crtc: crtc, modeIndex: modeIndex))
                // Not ours: dark, or what the firmware, a boot splash or the console shows.
                let was = isLit ? now.map { "\($0)" } ?? "?" : now.map { "\($0) (shown by another)" } ?? "dark"
                let why = connector.isLinkStatusBad && isLit ? " (link-status Bad)" : ""
                plan.decisions.append("\(connector.name): \(was) -> \(target.map { "\($0)" } ?? "current mode") on \(crtc)\(why)")
            }
            plan.actions.append(
                connectedScreens.contains(connector.name)
                    ? .updateScreen(name: connector.name)
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
