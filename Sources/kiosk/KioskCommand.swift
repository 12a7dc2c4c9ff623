import ArgumentParser
import Glibc
import KioskConfig
import KioskKit
import KioskRuntime

/// `kiosk`: the kiosk runtime's command line.
@main
struct KioskCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk",
        abstract: "A kiosk runtime for embedded Linux: UIKit-style windows on DRM/KMS screens, touch through libinput.",
        discussion: ExitStatus.help,
        version: KioskVersion.string,
        subcommands: [Run.self, Screens.self, Inputs.self, CheckConfig.self, Calibrate.self],
        defaultSubcommand: Run.self
    )

    /// ArgumentParser's own errors (a missing `--screen`, a `--timeout` that is no number) in the kiosk's
    /// one format and exit status: `kiosk calibrate: missing --screen ... (kiosk calibrate --help)`, status 2,
    /// like every other wrong command line; help and the version print as usual.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let command: ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            exit(reporting: error, arguments: arguments)
        }
        do {
            var command = command
            try command.run()
        } catch {
            exit(reporting: error, arguments: arguments)
        }
        Glibc.exit(ExitStatus.success)
    }

    private static func exit(reporting error: Error, arguments: [String]) -> Never {
        let status = exitCode(for: error)
        if status == .success || error is ExitCode {
            // Help, the version, and our own commands' exits (their message is already out).
            let text = fullMessage(for: error)
            if !text.isEmpty { print(text) }
            Glibc.exit(status.rawValue)
        }
        let subcommand = arguments.first.flatMap { name in configuration.subcommands.first { $0._commandName == name }?._commandName }
        let name = ["kiosk", subcommand].compactMap { $0 }.joined(separator: " ")
        StandardError.write("\(name): \(message(for: error)) (\(name) --help)")
        Glibc.exit(ExitStatus.usage)
    }
}

enum KioskVersion {
    static let string = "0.1.0"
}

extension KioskCommand {
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the kiosk (the default command).",
            discussion: """
                The settings are the config file's (KIOSK_CONFIG, else /etc/kiosk/kiosk.toml), under the KIOSK_* \
                variables, under these flags. With no display device (no /dev/dri/card*), or with --backend headless, \
                the screens live in memory and every frame is written as a PNG per screen into the snapshot folder \
                (default ./snapshots). SIGHUP reads the configuration again; SIGTERM or SIGINT (Ctrl-C) writes the \
                last frames and stops.

                \(KioskRuntime.settingsHelp)
                """
        )

        /// Every setting's flag, parsed by the configuration model (the same parser an app of your own uses
        /// through `KioskRuntime.main`), not by ArgumentParser.
        @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Settings, as listed above.", valueName: "setting"))
        var settings: [String] = []

        func run() throws {
            if let first = settings.first, !first.hasPrefix("-") {
                let commands = KioskCommand.configuration.subcommands.map { $0._commandName }
                StandardError.write(
                    "kiosk: \"\(first)\" is not a command; the commands are \(commands.joined(separator: ", ")) (kiosk --help)")
                throw ExitCode(ExitStatus.usage)
            }
            KioskRuntime.main(program: "kiosk", arguments: settings, apps: [DemoApp.name: { DemoApp(configuration: $0) }])
        }
    }
}
