import KioskConfig
import KioskRuntime

extension KioskCommand {
    /// `kiosk check-config`: every problem of the configuration at once, exit 1 when there is any.
    struct CheckConfig {
        static let command = Commands.Command(
            name: ConfigCheck.command, abstract: ConfigCheck.abstract, discussion: ConfigCheck.discussion,
            settingsHelp: "--config FILE and any setting of `kiosk run`.")

        let settings: [String]

        init(_ invocation: Commands.Invocation) {
            settings = invocation.settings
        }

        func run() throws(CommandExit) {
            let status = ConfigCheck.run(
                program: "kiosk", arguments: settings, environment: ProcessEnvironment.current(), vocabulary: DemoApp.vocabulary)
            if status != ExitStatus.success { throw CommandExit(status: status) }
        }
    }
}
