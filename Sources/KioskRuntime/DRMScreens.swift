import KioskConfig
import DRM
import DRMDisplay
import Foundation
import KioskConfig
import KioskKit
import Logging

/// The runtime's side of a DRM card: reads its connectors, has `OutputPlanner` decide, and carries the
/// plan out through the backend and the screens. Runs at start and after every (debounced) hotplug.
@MainActor
final class DRMScreens {
    let display: DRMDisplay
    /// The config file's screens: by connector name, or by EDID identity under a label.
    var configurations: [ScreenConfiguration]
    /// Per connector name, from the command line (wins over the file).
    var modeRequests: [String: ModeRequest]
    /// Per connector name, from the command line; else the file's; else the panel's orientation; else normal.
    var rotations: [String: Rotation]
    /// The main screen whenever connected: a connector name or a screen label of the file.
    var primary: String?

    init(display: DRMDisplay, configurations: [ScreenConfiguration], modeRequests: [String: ModeRequest], rotations: [String: Rotation]) {
        self.display = display
        self.configurations = configurations
        self.modeRequests = modeRequests
        self.rotations = rotations
    }

    /// The config entry for a connector: its name, or (for labelled entries) its display's EDID identity.
    func configuration(for connector: DRMDisplay.Connector) -> ScreenConfiguration? {
        configurations.first { $0.matches(connector: connector.name, make: connector.edid?.make, model: connector.edid?.model,
                                           serial: connector.edid?.serial) }
    }

    /// Probes and applies the result, logging on `logger` (`kiosk.drm` at start, `kiosk.hotplug` after).
    /// Problems with one connector are logged and skipped.
    func update(logger log: Logger) {
        let connectors: [DRMDisplay.Connector]
        do { connectors = try display.probe() } catch {
            log.error("\(display.cardName): reading connectors failed: \(error)")
            return
        }
        let byName = Dictionary(connectors.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let snapshots = connectors.map { c in
            OutputPlanner.Connector(id: c.info.id.rawValue, name: c.name, connected: c.info.status == .connected, modes: c.modes,
                                    preferred: c.preferredIndex, current: c.currentMode,
                                    possibleCRTCs: c.info.possibleCRTCs.map(\.rawValue), linkStatusBad: c.linkStatusBad)
        }
        let lit = display.litOutputs.reduce(into: [UInt32: OutputPlanner.LitOutput]()) { result, entry in
            result[entry.key.rawValue] = .init(crtc: entry.value.crtc.rawValue, name: entry.value.name)
        }
        let connectedScreens = Set(Application.shared.screens.filter { $0.backend === display }.map(\.name))
        var requests: [String: ModeRequest] = [:]
        for connector in connectors {
            if let request = modeRequests[connector.name] ?? configuration(for: connector)?.mode { requests[connector.name] = request }
            // The primary may be named by an EDID label: the connector its display is on now is main.
            if let primary, connector.info.status == .connected, configuration(for: connector)?.name == primary {
                Application.shared.preferredMainScreenName = connector.name
            }
        }
        let plan = OutputPlanner.plan(snapshots, lit: lit, connectedScreens: connectedScreens, requests: requests)
        for problem in plan.problems { log.error("\(problem)") }
        for decision in plan.decisions { log.info("\(decision)") }

        var failed: Set<String> = []
        for action in plan.actions {
            switch action {
            case let .turnOff(connector, _):
                display.turnOff(DRMConnectorID(rawValue: connector))
            case let .light(connector, name, crtc, modeIndex):
                do {
                    try display.light(DRMDisplay.OutputPlan(connector: DRMConnectorID(rawValue: connector),
                                                            crtc: DRMCRTCID(rawValue: crtc), modeIndex: modeIndex))
                } catch {
                    log.error("\(name): lighting it on CRTC \(crtc) failed: \(error); it stays dark")
                    failed.insert(name)
                }
            case let .connectScreen(name), let .updateScreen(name):
                guard let connector = byName[name] else { continue }
                let screen = display.screen(named: name)
                guard !failed.contains(name), let mode = display.litMode(of: connector.info.id) else {
                    if screen.isConnected { screen.disconnect() }
                    continue
                }
                present(connector, mode: mode, on: screen, log: log)
            case let .disconnectScreen(name):
                let screen = display.screen(named: name)
                if screen.isConnected {
                    log.info("\(name): screen disconnected")
                    screen.disconnect()
                }
            }
        }
    }

    /// Tells the screen its modes and the mode lit, connecting it when it was not.
    private func present(_ connector: DRMDisplay.Connector, mode: Screen.Mode, on screen: Screen, log: Logger) {
        screen.rotation = rotations[connector.name] ?? configuration(for: connector)?.rotation ?? connector.panelOrientation ?? .normal
        let preferred = connector.preferredIndex.map { connector.modes[$0] }
        if screen.isConnected {
            screen.update(modes: connector.modes, preferredMode: preferred, currentMode: mode)
            return
        }
        let physical = connector.info.physicalWidthMillimeters > 0
            ? Size(width: Double(connector.info.physicalWidthMillimeters), height: Double(connector.info.physicalHeightMillimeters)) : nil
        let identity = connector.edid.map { " (\($0.make) \($0.model)\($0.serial.map { " \($0)" } ?? ""))" } ?? ""
        log.info("\(connector.name)\(identity): connected, \(mode), rotation \(screen.rotation)")
        screen.connect(modes: connector.modes, preferredMode: preferred, currentMode: mode, physicalSize: physical)
    }
}
