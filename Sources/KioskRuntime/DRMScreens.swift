import DRM
import DRMDisplay
import Foundation
import KioskKit
import Logging

/// The runtime's side of a DRM card: reads its connectors, decides each one's mode (mode policy) and CRTC
/// (stable allocation), has the backend light what changed, and tells the screens. Runs at start and
/// again whenever the connectors may have changed (hotplug), touching only the connectors that did.
@MainActor
final class DRMScreens {
    let display: DRMDisplay
    /// Per connector name: what the config asks (`--mode NAME=MODE`).
    var modeRequests: [String: ModeRequest]
    /// Per connector name: the rotation asked for; else the panel's orientation; else normal.
    var rotations: [String: Rotation]
    private let log = Logger(label: "kiosk.drm")

    init(display: DRMDisplay, modeRequests: [String: ModeRequest], rotations: [String: Rotation]) {
        self.display = display
        self.modeRequests = modeRequests
        self.rotations = rotations
    }

    /// Probes and applies the result. Problems with one connector are logged and skipped.
    func update() {
        let connectors: [DRMDisplay.Connector]
        do { connectors = try display.probe() } catch {
            log.error("\(display.cardName): reading connectors failed: \(error)")
            return
        }
        // 1. Decide modes.
        var wanted: [(DRMDisplay.Connector, ModePolicy.Decision)] = []
        for connector in connectors {
            guard connector.info.status == .connected else { continue }
            let outcome = ModePolicy.choose(modeRequests[connector.name], offered: connector.modes, preferred: connector.preferredIndex,
                                            current: connector.currentMode, connector: connector.name)
            if let problem = outcome.problem { log.error("\(problem); using \(Self.describe(outcome.decision, connector))") }
            if outcome.decision == .off {
                log.info("\(connector.name): off (mode = off)")
            } else {
                wanted.append((connector, outcome.decision))
            }
        }
        // 2. Allocate CRTCs, keeping the ones outputs already have.
        let lit = display.litOutputs
        let allocation = CRTCAllocation.allocate(wanted.map { .init(connector: $0.0.info.id, possibleCRTCs: $0.0.info.possibleCRTCs) },
                                                 previous: lit)
        for id in allocation.unassigned {
            let name = connectors.first { $0.info.id == id }?.name ?? "\(id)"
            log.error("\(name): no CRTC left to drive it (\(allocation.assignments.count) in use); it stays dark")
        }
        // 3. Turn off what is no longer wanted, or moves to another CRTC.
        for (id, crtc) in lit where allocation.assignments[id] != crtc {
            display.turnOff(id)
            if let connector = connectors.first(where: { $0.info.id == id }), allocation.assignments[id] == nil {
                display.screen(named: connector.name).disconnect()
            } else if allocation.assignments[id] == nil {
                // The connector itself vanished (a DP MST branch unplugged): find its screen by the old output.
                for screen in Screen.screens where screen.backend === display && !connectors.contains(where: { $0.name == screen.name }) {
                    screen.disconnect()
                }
            }
        }
        // 4. Light what is new or changed, and tell the screens.
        for (connector, decision) in wanted {
            guard let crtc = allocation.assignments[connector.info.id] else { continue }
            let screen = display.screen(named: connector.name)
            let modeIndex: Int?
            switch decision {
            case .set(let index): modeIndex = index
            case .keepCurrent: modeIndex = nil
            case .off: continue
            }
            let target = modeIndex.map { connector.modes[$0] } ?? connector.currentMode
            let unchanged = lit[connector.info.id] == crtc && connector.currentMode == target && !connector.linkStatusBad
            if !unchanged {
                if connector.linkStatusBad { log.warning("\(connector.name): link-status is Bad: modesetting again") }
                do {
                    try display.light(DRMDisplay.OutputPlan(connector: connector.info.id, crtc: crtc, modeIndex: modeIndex))
                } catch {
                    log.error("\(connector.name): lighting \(target.map { "\($0)" } ?? "the current mode") on \(crtc) failed: \(error); it stays dark")
                    screen.disconnect()
                    continue
                }
            }
            screen.rotation = rotations[connector.name] ?? connector.panelOrientation ?? .normal
            let physical = connector.info.physicalWidthMillimeters > 0
                ? Size(width: Double(connector.info.physicalWidthMillimeters), height: Double(connector.info.physicalHeightMillimeters)) : nil
            let preferred = connector.preferredIndex.map { connector.modes[$0] }
            if screen.isConnected {
                screen.update(modes: connector.modes, preferredMode: preferred, currentMode: target)
            } else {
                let identity = connector.edid.map { " (\($0.make) \($0.model)\($0.serial.map { " \($0)" } ?? ""))" } ?? ""
                log.info("\(connector.name)\(identity): \(target.map { "\($0)" } ?? "?") on \(crtc), rotation \(screen.rotation)")
                screen.connect(modes: connector.modes, preferredMode: preferred, currentMode: target, physicalSize: physical)
            }
        }
        // Connectors that went away or disconnected while not lit still leave Screen.screens.
        for connector in connectors where connector.info.status != .connected {
            let screen = display.screen(named: connector.name)
            if screen.isConnected { screen.disconnect() }
        }
    }

    private static func describe(_ decision: ModePolicy.Decision, _ connector: DRMDisplay.Connector) -> String {
        switch decision {
        case .set(let index): "\(connector.modes[index])"
        case .keepCurrent: "the current mode"
        case .off: "off"
        }
    }
}
