import DRMDisplay
import Geometry
import KioskConfig

/// `check-config`, the same for `kiosk` and for an app of your own (`my-app check-config`): every problem of
/// the configuration the program would run with, at once, each with its file, line, key and what would be
/// valid, checked against the program's own vocabulary (its apps, backends and declared `[app-settings]`);
/// the `KIOSK_*` variables no setting has, as warnings; with display hardware present, configured modes
/// against what each connector offers.
public enum ConfigCheck {
    /// The command's name, the same for every program.
    public static let command = "check-config"
    public static let abstract =
        "Check the config file: every problem with its file, line, key and what would be valid; exit 1 if any."
    public static let discussion = """
        The file is --config FILE, else KIOSK_CONFIG, else /etc/kiosk/kiosk.toml, with the KIOSK_* variables \
        and any setting flags of a run on top, as a run would read them; KIOSK_* variables no setting has are \
        warned about. With display hardware present, configured modes are also checked against what each \
        connector offers.
        """

    /// `PROGRAM check-config --help`.
    static func help(program: String) -> String {
        "USAGE: \(program) \(command) [--config FILE] [SETTINGS ...]\n\n\(abstract)\n\n\(discussion)"
    }

    /// Prints the problems (stdout) and warnings (stderr); the exit status: 0 when there is no problem,
    /// `ExitStatus.problemsFound` when there is, `ExitStatus.usage` for a wrong command line.
    public static func run(program: String, arguments: [String], environment: [String: String], vocabulary: Vocabulary) -> Int32 {
        let commandLine: CommandLineSettings
        switch CommandLineSettings.parse(arguments) {
        case .failure(let errors):
            StandardError.write(errors.description)
            return ExitStatus.usage
        case .success(let parsed):
            commandLine = parsed
        }
        for warning in KioskConfiguration.unknownVariableWarnings(in: environment) { StandardError.write("warning: \(warning)") }
        var source = ConfigurationSource(commandLine: commandLine, environment: environment, vocabulary: vocabulary)
        // A file to check must exist, wherever its name came from.
        if source.commandLine.configPath == nil { source.commandLine.configPath = source.path }
        let problems: [ConfigProblem]
        switch source.load() {
        case .failure(let errors):
            problems = errors.problems
        case .success(let configuration):
            problems = modeProblems(configuration)
        }
        let path = source.path
        if problems.isEmpty {
            StandardOutput.write("\(path): OK")
            return ExitStatus.success
        }
        for problem in problems { StandardOutput.write(problem.description) }
        StandardOutput.write("\(path): \(problems.count) problem\(problems.count == 1 ? "" : "s")")
        if vocabulary.appSettings != nil, problems.contains(where: { $0.keyPath.hasPrefix("app-settings") }) {
            StandardOutput.write(
                "note: [app-settings] is checked against \(program)'s app settings (\(program) --help lists them); an app of your own checks its file with `APP check-config`"
            )
        }
        return ExitStatus.problemsFound
    }

    /// Modes the connectors do not offer: only knowable with the hardware in front of us.
    static func modeProblems(_ configuration: KioskConfiguration) -> [ConfigProblem] {
        let connected = DRMCards.read().flatMap(\.connectors).filter(\.isConnected)
        var offered: [String: [DisplayMode]] = [:]
        var connectorOfLabel: [String: String] = [:]
        for connector in connected {
            offered[connector.name] = connector.modes.map(\.mode)
            for screen in configuration.screens
            where screen.connector == nil
                && screen.matches(
                    connector: connector.name, make: connector.edid?.make, model: connector.edid?.model, serial: connector.edid?.serial)
            {
                connectorOfLabel[screen.name] = connector.name
            }
        }
        return configuration.modeProblems(offered: offered, connectorOfLabel: connectorOfLabel)
    }
}
