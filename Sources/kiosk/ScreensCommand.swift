import CECControl
import DRMDisplay
import KioskConfig
import KioskRuntime

extension KioskCommand {
    /// `kiosk screens`: every card and connector, for a person writing a config.
    struct Screens {
        static let command = Commands.Command(
            name: "screens",
            abstract:
                "List the DRM cards and their connectors: status, every mode (preferred and current marked), size, EDID, HDMI-CEC adapter, backlight.",
            discussion: """
                Reads the cards without taking them over; run it while the kiosk is stopped to see fresh probes. --drm-device PATH \
                lists only that card. The backlight is the one the kiosk drives for each connector, with the config file's \
                [screens.NAME] backlight (--config FILE, KIOSK_CONFIG) and --backlight SCREEN=DEVICE.
                """,
            options: [.flag("json", help: "Print JSON (a list of connectors) instead of text.")],
            settingsHelp: "--config FILE, --drm-device PATH: only this card, --backlight SCREEN=DEVICE.")

        let json: Bool
        let settings: [String]

        init(_ invocation: Commands.Invocation) {
            json = invocation.flags.contains("json")
            settings = invocation.settings
        }

        func run() throws(CommandExit) {
            // The file too, for the screens' `backlight` (as `kiosk inputs` reads it for the touch rules).
            let configuration = try SettingsArguments.configuration(settings, accepting: ["drm-device", "backlight"], readFile: true)
            let report = ScreenReport(
                cards: DRMCards.read(paths: configuration.drmDevice.map { [$0] }, configuration: configuration),
                cecAdapters: CECAdapterInfo.read())
            if json {
                print(report.json)
            } else {
                print(report.text, terminator: "")
            }
            // What could not be read is said on stderr (the JSON lists connectors, not cards) and in the status.
            if report.cards.isEmpty {
                StandardError.write(
                    "kiosk screens: no DRM card found (/dev/dri/card*); on a machine without a display `kiosk run` uses the headless backend"
                )
                throw CommandExit(status: ExitStatus.problemsFound)
            }
            // A card that cannot drive a display (render-only beside the display's card) is listed as
            // skipped, as `kiosk run` skips it: no problem while another card can.
            let problems = report.cards.compactMap { card in card.problem.map { "\(card.path): \($0)" } }
            if !problems.isEmpty {
                StandardError.write(problems.map { "kiosk screens: \($0)" }.joined(separator: "\n"))
                throw CommandExit(status: ExitStatus.problemsFound)
            }
            if report.cards.allSatisfy({ $0.skipped != nil }) {
                StandardError.write(
                    report.cards.map { "kiosk screens: \($0.path): \($0.skipped ?? "")" }.joined(separator: "\n")
                        + "\nkiosk screens: no card can drive a display")
                throw CommandExit(status: ExitStatus.problemsFound)
            }
        }
    }
}

/// Settings flags of the listing commands, parsed by the configuration model like `kiosk run`'s.
enum SettingsArguments {
    /// Where the configuration of `arguments` comes from (only the settings in `accepting`; nil: all).
    static func source(_ arguments: [String], accepting keys: Set<String>? = nil) throws(CommandExit) -> ConfigurationSource {
        switch CommandLineSettings.parse(arguments, accepting: keys) {
        case .failure(let errors):
            throw fail(errors.description)
        case .success(let commandLine):
            return ConfigurationSource(
                commandLine: commandLine, environment: ProcessEnvironment.current(),
                vocabulary: DemoApp.vocabulary)
        }
    }

    /// The configuration from `arguments`, on top of the config file and the environment when `readFile`,
    /// else on top of the defaults. `fileMayBeMissing`: a named file that does not exist yet (a target to
    /// write) means the defaults. Problems exit 2, as `kiosk run`'s do.
    static func configuration(
        _ arguments: [String], accepting keys: Set<String>? = nil, readFile: Bool,
        fileMayBeMissing: Bool = false
    ) throws(CommandExit) -> KioskConfiguration {
        var source = try source(arguments, accepting: keys)
        guard readFile else {
            var configuration = KioskConfiguration.default
            let problems = source.commandLine.apply(to: &configuration, vocabulary: source.vocabulary)
            if !problems.isEmpty { throw fail(ConfigErrors(problems).description) }
            return configuration
        }
        source.allowsMissingFile = fileMayBeMissing
        switch source.load() {
        case .failure(let errors): throw fail(errors.description)
        case .success(let configuration): return configuration
        }
    }

    private static func fail(_ message: String) -> CommandExit {
        StandardError.write(message)
        return CommandExit(status: ExitStatus.usage)
    }
}
