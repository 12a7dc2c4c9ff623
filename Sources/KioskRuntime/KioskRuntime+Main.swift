import Glibc
import KioskConfig
import KioskKit
import Logging

extension KioskRuntime {
    /// Makes the app the configuration asks for (it may read `configuration.appSettings`).
    public typealias AppMaker = @MainActor (KioskConfiguration) -> any ApplicationDelegate

    /// Runs a kiosk app of your own exactly as `kiosk run` runs the demo: the same config file
    /// (`--config`, `KIOSK_CONFIG`, else `/etc/kiosk/kiosk.toml`), the same `KIOSK_*` variables, the same
    /// flags (`--help` lists them), the same reloads on SIGHUP. Problems with any of them are printed with
    /// where they are and the program exits 2 before any display is touched. `appSettings` declares the
    /// `[app-settings]` keys the app reads: the file is then checked against them like the kiosk's own keys
    /// (nil: the table is handed over unchecked). `my-app check-config` checks a file as `kiosk check-config`
    /// does, with the app's own settings; `my-app --version` prints `version`. `launchScreen` is a PNG the
    /// app ships (a path in its resources), shown at the first modeset while it starts, as UIKit's launch
    /// screen (the config's `launch-screen` overrides it).
    ///
    /// ```swift
    /// @main struct MyKiosk {
    ///     static func main() {
    ///         KioskRuntime.main(version: "1.0", appSettings: [AppSetting("greeting", .string)]) { MyApp(configuration: $0) }
    ///     }
    /// }
    /// ```
    public nonisolated static func main(
        program: String = programName, arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        environment: [String: String] = ProcessEnvironment.current(), version: String? = nil, appSettings: [AppSetting]? = nil,
        launchScreen: String? = nil, app: @escaping AppMaker
    ) -> Never {
        // One app, named as the program: `app` (a setting for programs with several) names nothing else here.
        let vocabulary = vocabulary(apps: [program], appSettings: appSettings)
        main(
            program: program, arguments: arguments, environment: environment, version: version, vocabulary: vocabulary,
            launchScreen: launchScreen
        ) { app($0) }
    }

    /// `main` for a program with several apps, chosen by the configuration's `app` (its vocabulary; the first
    /// in name order when it names none of them); `appSettings` declares the `[app-settings]` keys they read,
    /// all of them together; `launchScreen` is the program's.
    public nonisolated static func main(
        program: String = programName, arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        environment: [String: String] = ProcessEnvironment.current(), version: String? = nil, appSettings: [AppSetting]? = nil,
        launchScreen: String? = nil, apps: [String: AppMaker]
    ) -> Never {
        precondition(!apps.isEmpty, "KioskRuntime.main(apps:) needs at least one app")
        let vocabulary = vocabulary(apps: apps.keys.sorted(), appSettings: appSettings)
        main(
            program: program, arguments: arguments, environment: environment, version: version, vocabulary: vocabulary,
            launchScreen: launchScreen
        ) {
            configuration in
            apps[vocabulary.app(for: configuration.app)!]!(configuration)
        }
    }

    private nonisolated static func main(
        program: String, arguments: [String], environment: [String: String], version: String?, vocabulary: Vocabulary,
        launchScreen: String?, make: @escaping AppMaker
    ) -> Never {
        let mainBegan = StartupTimeline.now()
        if arguments.first == ConfigCheck.command {
            let rest = Array(arguments.dropFirst())
            if rest.contains("--help") || rest.contains("-h") {
                print(Commands.wrapLines(ConfigCheck.help(program: program) + "\n\n" + settingsHelp(for: vocabulary)))
                exit(ExitStatus.success)
            }
            // No kiosk runs: Ctrl-C ends it at once.
            StopSignals.restore()
            exit(ConfigCheck.run(program: program, arguments: rest, environment: environment, vocabulary: vocabulary))
        }
        if arguments.contains("--help") || arguments.contains("-h") {
            print(Commands.wrapLines(usage(program: program) + "\n\n" + settingsHelp(for: vocabulary) + "\n\n" + ExitStatus.help))
            exit(ExitStatus.success)
        }
        if arguments.contains("--version") {
            print([program, version, "(kiosk runtime \(Self.version))"].compactMap { $0 }.joined(separator: " "))
            exit(ExitStatus.success)
        }
        // Before the first thread, whose stack would be the first to take a huge page; and the first thread
        // inherits the stop signals' block (from exec, by CStopSignals' constructor, else from here).
        let hugePagesError = HugePages.disable()
        let signalsError = StopSignals.blockIfNeeded()
        // Text's start-up work begins before the configuration is read: it is the longest part of a start.
        // Every exit below waits for it, so the process never ends while that thread is inside fontconfig.
        // Pango's load waits for the runtime's start to release it (`KioskRuntime.start`).
        let fonts = FontPreparation(released: false)
        let source: ConfigurationSource
        switch loadConfiguration(arguments: arguments, environment: environment, vocabulary: vocabulary, program: program) {
        case .failure(let message):
            StandardError.write(message.description)
            try? fonts.finish()
            exit(ExitStatus.usage)
        case .success(let loaded):
            var timeline = StartupTimeline()
            timeline.record(.main, at: mainBegan)
            timeline.record(.configuration)
            source = loaded.source
            RuntimeLogging.bootstrap(level: loaded.configuration.logLevel)
            logSource(source, configuration: loaded.configuration)
            for warning in KioskConfiguration.unknownVariableWarnings(in: environment) {
                Logger(label: "kiosk.config").warning("\(warning)")
            }
            if let signalsError {
                Logger(label: "kiosk.runtime").warning(
                    "pthread_sigmask: \(String(cString: strerror(signalsError))): a SIGTERM, SIGINT or SIGHUP in the first moments of the start acts before the kiosk can handle it"
                )
            }
            if let hugePagesError {
                Logger(label: "kiosk.runtime").warning(
                    "prctl(PR_SET_THP_DISABLE): \(String(cString: strerror(hugePagesError))): transparent huge pages stay on (a thread stack may take 2 MiB)"
                )
            }
            MainActor.assumeIsolated { () -> Never in
                let runtime = KioskRuntime(
                    configuration: loaded.configuration, source: source, delegate: make(loaded.configuration), timeline: timeline,
                    fonts: fonts, appLaunchScreen: launchScreen)
                do {
                    try runtime.run()
                } catch {
                    StandardError.write("\(program): error: \(error)")
                    try? fonts.finish()
                    exit(ExitStatus.cannotRun)
                }
            }
        }
    }

    /// The command line, then the file and the environment under it: the configuration, or every
    /// problem as the lines to print. `program` is the one whose `check-config` a bad file is sent to:
    /// the app's own, which knows its `[app-settings]` (the `kiosk` command checks against the demo's).
    public nonisolated static func loadConfiguration(
        arguments: [String], environment: [String: String],
        vocabulary: Vocabulary, program: String = "kiosk"
    ) -> Result<(configuration: KioskConfiguration, source: ConfigurationSource), LoadFailure> {
        let commandLine: CommandLineSettings
        switch CommandLineSettings.parse(arguments) {
        case .failure(let errors): return .failure(LoadFailure(errors.description))
        case .success(let parsed): commandLine = parsed
        }
        let source = ConfigurationSource(commandLine: commandLine, environment: environment, vocabulary: vocabulary)
        switch source.load() {
        case .success(let configuration):
            return .success((configuration, source))
        case .failure(let errors):
            var message = errors.description
            // Only a problem in the file makes the file the thing to check.
            if errors.problems.contains(where: { $0.file != nil }) {
                let option = source.commandLine.configPath.map { " --config \($0)" } ?? ""
                message += "\n\(source.path) is not valid; fix it, then check it with `\(program) check-config\(option)`"
            }
            return .failure(LoadFailure(message))
        }
    }

    /// Every problem of a configuration, as printed.
    public struct LoadFailure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The name the program was started as (`kiosk`, `hello-kiosk`).
    public nonisolated static var programName: String {
        CommandLine.arguments.first.flatMap { $0.split(separator: "/").last.map(String.init) } ?? "kiosk"
    }

    /// Says which file was read (or that none was, and why that is fine), at the start of every run.
    private nonisolated static func logSource(_ source: ConfigurationSource, configuration: KioskConfiguration) {
        let log = Logger(label: "kiosk.config")
        if configuration.path != nil {
            log.notice("configuration \(source.path) (named by \(source.pathOrigin))")
        } else {
            log.notice("\(ReloadSource.noFile(source.path, onDefaults: configuration == .default).read)")
        }
    }

    /// The kiosk runtime's version, which `--version` of every program on it prints.
    public nonisolated static let version = "0.1.0"

    /// A program's usage lines, for `--help`.
    nonisolated static func usage(program: String) -> String {
        """
        USAGE: \(program) [--config FILE] [SETTINGS ...]
               \(program) check-config [--config FILE] [SETTINGS ...]
               \(program) --version
        """
    }

    /// The settings' flags, their values and where else each can be set, the per-screen settings, and the
    /// app's own settings, for `--help` of a program with this vocabulary.
    public nonisolated static func settingsHelp(for vocabulary: Vocabulary) -> String {
        var lines = ["SETTINGS (the command line wins over KIOSK_* variables, which win over the config file):"]
        let entries: [(String, String)] =
            [("--config FILE", "The config file (default: KIOSK_CONFIG, else \(KioskConfiguration.defaultPath)).")]
            + KioskConfiguration.settings.compactMap { setting in
                guard let flag = setting.flag else { return nil }
                var sources: [String] = []
                if setting.isTopLevelKey { sources.append("key \(setting.key)") }
                if let variable = setting.environmentVariable { sources.append(variable) }
                let also = sources.isEmpty ? "" : " [\(sources.joined(separator: ", "))]"
                return (setting.valueName.map { "\(flag) \($0)" } ?? flag, setting.help(vocabulary) + also)
            }
        lines += aligned(entries)
        lines.append("")
        lines.append("SCREEN SETTINGS (the config file's [screens.NAME] tables, NAME a connector or a label with an edid; a flag wins):")
        lines += aligned(
            KioskConfiguration.screenSettings.map { setting in
                (setting.key, setting.help + (setting.flag.map { " [\($0) SCREEN=\(setting.valueName)]" } ?? ""))
            })
        if let declared = vocabulary.appSettings, !declared.isEmpty {
            lines.append("")
            lines.append("APP SETTINGS (the config file's [app-settings] table; checked at start, on a reload and by check-config):")
            lines += aligned(declared.map { ($0.key, $0.kind.rawValue + ($0.help.isEmpty ? "." : ": " + $0.help)) })
        }
        return lines.joined(separator: "\n")
    }

    /// `entries` as two columns.
    private nonisolated static func aligned(_ entries: [(String, String)]) -> [String] {
        let width = entries.map(\.0.count).max() ?? 0
        return entries.map { "  " + $0.0 + String(repeating: " ", count: width + 2 - $0.0.count) + $0.1 }
    }
}
