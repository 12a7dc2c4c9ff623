import DRMDisplay
import Geometry
import Glibc
import KioskConfig
import KioskRuntime

extension KioskCommand {
    /// `kiosk check-config`: every problem of the configuration at once, exit 1 when there is any.
    struct CheckConfig {
        static let command = Commands.Command(
            name: "check-config",
            abstract: "Check the config file: every problem with its file, line, key and what would be valid; exit 1 if any.",
            discussion: """
                The file is --config FILE, else KIOSK_CONFIG, else /etc/kiosk/kiosk.toml, with the KIOSK_* variables \
                and any setting flags of `kiosk run` on top, as `kiosk run` would read them. With display hardware \
                present, configured modes are also checked against what each connector offers.
                """,
            settingsHelp: "--config FILE and any setting of `kiosk run`.")

        let settings: [String]

        init(_ invocation: Commands.Invocation) {
            settings = invocation.settings
        }

        func run() throws(CommandExit) {
            let commandLine: CommandLineSettings
            switch CommandLineSettings.parse(settings) {
            case .failure(let errors):
                StandardError.write(errors.description)
                throw CommandExit(status: ExitStatus.usage)
            case .success(let parsed):
                commandLine = parsed
            }
            var source = ConfigurationSource(
                commandLine: commandLine, environment: ProcessEnvironment.current(),
                vocabulary: DemoApp.vocabulary)
            // A file to check must exist, wherever its name came from.
            if source.commandLine.configPath == nil { source.commandLine.configPath = source.path }
            let problems: [ConfigProblem]
            switch source.load() {
            case .failure(let errors):
                problems = errors.problems
            case .success(let configuration):
                // Modes the connectors do not offer: only knowable with the hardware in front of us.
                let connected = DRMCards.read().flatMap(\.connectors).filter(\.isConnected)
                var offered: [String: [DisplayMode]] = [:]
                var connectorOfLabel: [String: String] = [:]
                for connector in connected {
                    offered[connector.name] = connector.modes.map(\.mode)
                    for screen in configuration.screens
                    where screen.connector == nil
                        && screen.matches(
                            connector: connector.name, make: connector.edid?.make, model: connector.edid?.model,
                            serial: connector.edid?.serial)
                    {
                        connectorOfLabel[screen.name] = connector.name
                    }
                }
                problems = configuration.modeProblems(offered: offered, connectorOfLabel: connectorOfLabel)
            }
            let path = source.path
            if problems.isEmpty {
                print("\(path): OK")
                return
            }
            for problem in problems { print(problem) }
            print("\(path): \(problems.count) problem\(problems.count == 1 ? "" : "s")")
            throw CommandExit(status: ExitStatus.problemsFound)
        }
    }
}
