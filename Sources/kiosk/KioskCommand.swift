import Glibc
import KioskConfig
import KioskKit
import KioskRuntime

/// `kiosk`: the kiosk runtime's command line.
@main
enum KioskCommand {
    static let commands = Commands(
        program: "kiosk",
        abstract: "A kiosk runtime for embedded Linux: UIKit-style windows on DRM/KMS screens, touch through libinput.",
        discussion: ExitStatus.help,
        version: KioskRuntime.version,
        commands: [Run.command, Screens.command, Inputs.command, CheckConfig.command, Calibrate.command] + Control.commands,
        defaultCommand: Run.command.name)

    static func main() {
        let invocation: Commands.Invocation
        switch commands.parse(Array(CommandLine.arguments.dropFirst())) {
        case .help(let text), .version(let text):
            print(text)
            exit(ExitStatus.success)
        case .usage(let message):
            StandardError.write(message)
            exit(ExitStatus.usage)
        case .run(let parsed):
            invocation = parsed
        }
        // Blocked since exec for a kiosk (CStopSignals); the commands that run no kiosk end on them at once.
        if ![Run.command.name, Calibrate.command.name].contains(invocation.command) { StopSignals.restore() }
        do {
            switch invocation.command {
            case Screens.command.name: try Screens(invocation).run()
            case Inputs.command.name: try Inputs(invocation).run()
            case CheckConfig.command.name: try CheckConfig(invocation).run()
            case Calibrate.command.name: try Calibrate(invocation).run()
            case let name where Control.commands.contains { $0.name == name }: try Control(invocation).run()
            default: Run(invocation).run()
            }
        } catch {
            exit(error.status)
        }
        exit(ExitStatus.success)
    }

    /// A wrong command line found by a command itself (a `--timeout` that is no number): said the way the
    /// parser says its own, exit 2.
    static func usage(_ message: String, command: Commands.Command) -> CommandExit {
        StandardError.write(commands.usageError(message, command: command.name))
        return CommandExit(status: ExitStatus.usage)
    }
}

/// A command's end with a status other than 0 (its message is already out).
struct CommandExit: Error {
    let status: Int32
}

extension KioskCommand {
    struct Run {
        static let command = Commands.Command(
            name: "run",
            abstract: "Run the kiosk (the default command).",
            discussion: """
                The settings are the config file's (KIOSK_CONFIG, else /etc/kiosk/kiosk.toml), under the KIOSK_* \
                variables, under these flags. With no display device (no /dev/dri/card*), or with --backend headless, \
                the screens live in memory and every frame is written as a PNG per screen into the snapshot folder \
                (default ./snapshots). SIGHUP reads the configuration again; SIGTERM or SIGINT (Ctrl-C) writes the \
                last frames and stops.

                \(KioskRuntime.settingsHelp(for: DemoApp.vocabulary))
                """,
            settingsHelp: "Settings, as listed above.")

        /// Every setting's flag, parsed by the configuration model (the same parser an app of your own uses
        /// through `KioskRuntime.main`).
        let settings: [String]

        init(_ invocation: Commands.Invocation) {
            settings = invocation.settings
        }

        func run() {
            KioskRuntime.main(
                program: "kiosk", arguments: settings, appSettings: DemoApp.settings, apps: [DemoApp.name: { DemoApp(configuration: $0) }])
        }
    }
}

extension DemoApp {
    /// What a configuration may name for the `kiosk` program: its backends, the demo, and the demo's
    /// `[app-settings]` (every command that reads the file checks it against the same).
    nonisolated static var vocabulary: Vocabulary { KioskRuntime.vocabulary(apps: [name], appSettings: settings) }
}
