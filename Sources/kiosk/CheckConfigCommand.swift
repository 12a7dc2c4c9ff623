import ArgumentParser
import Foundation
import KioskConfig
import KioskRuntime

extension KioskCommand {
    /// `kiosk check-config`: every problem of the config file at once, exit 1 when there is any.
    struct CheckConfig: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "check-config",
            abstract: "Check the config file: every problem with its file, line, key and what would be valid; exit 1 if any.",
            discussion: "With display hardware present, configured modes are also checked against what each connector offers."
        )

        @Option(name: .customLong("config"), help: "The config file (default: KIOSK_CONFIG, else /etc/kiosk/kiosk.toml).")
        var configPath: String?

        func run() throws {
            let environment = ProcessInfo.processInfo.environment
            let path = configPath ?? KioskConfiguration.path(environment: environment)
            var problems: [ConfigProblem]
            switch KioskConfiguration.load(path: path, environment: environment, requireFile: true) {
            case .failure(let errors):
                problems = errors.problems
            case .success(let configuration):
                // Modes the connectors do not offer: only knowable with the hardware in front of us.
                let connected = ScreenReport.read().cards.flatMap(\.connectors).filter { $0.status == "connected" }
                var offered: [String: [OfferedMode]] = [:]
                var connectorOfLabel: [String: String] = [:]
                for connector in connected {
                    offered[connector.name] = connector.modes.map {
                        OfferedMode(width: $0.width, height: $0.height, refreshRate: $0.refreshRate, isInterlaced: $0.isInterlaced)
                    }
                    for screen in configuration.screens where screen.connector == nil
                        && screen.matches(connector: connector.name, make: connector.edid?.make, model: connector.edid?.model,
                                          serial: connector.edid?.serial) {
                        connectorOfLabel[screen.name] = connector.name
                    }
                }
                problems = configuration.modeProblems(offered: offered, connectorOfLabel: connectorOfLabel)
            }
            if problems.isEmpty {
                print("\(path): OK")
                return
            }
            for problem in problems { print(problem) }
            print("\(path): \(problems.count) problem\(problems.count == 1 ? "" : "s")")
            throw ExitCode(1)
        }
    }
}
