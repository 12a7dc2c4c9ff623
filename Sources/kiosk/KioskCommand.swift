import KioskConfig
import ArgumentParser
import Foundation
import KioskKit
import KioskRuntime
import Logging

/// `kiosk`: the kiosk runtime's command line.
@main
struct KioskCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk",
        abstract: "A kiosk runtime for embedded Linux: UIKit-style windows on DRM/KMS screens, touch through libinput.",
        version: KioskVersion.string,
        subcommands: [Run.self, Screens.self, Inputs.self, CheckConfig.self, Calibrate.self],
        defaultSubcommand: Run.self
    )
}

enum KioskVersion {
    static let string = "0.1.0"
}

extension KioskCommand {
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the kiosk (the default command).",
            discussion: """
            With no display device (no /dev/dri/card*), or with --backend headless, the screens live in memory \
            and every frame is written as a PNG per screen into the snapshot folder (default ./snapshots). \
            SIGTERM or SIGINT (Ctrl-C) writes the last frames and stops.
            """
        )

        @Option(name: .customLong("config"), help: "The config file (default: KIOSK_CONFIG, else /etc/kiosk/kiosk.toml; a missing default file means defaults).")
        var configPath: String?

        @Option(help: "The display backend: \(RuntimeOptions.Backend.allCases.map(\.rawValue).joined(separator: ", ")) (default: the config's, else auto).")
        var backend: RuntimeOptions.Backend?

        @Option(name: .customLong("snapshot-dir"), help: "Where the headless backend writes <screen>.png.")
        var snapshotDirectory: String = "snapshots"

        @Option(name: .customLong("headless-screen"),
                help: "A headless screen's mode, WxH, WxH@Hz or NAME=WxH@Hz; repeat for more screens (HEADLESS-1, HEADLESS-2, ... unless named).")
        var headlessScreens: [String] = ["1280x800"]

        @Option(name: .customLong("trace"), help: "Write one JSON line per screen/window notification and per touch to FILE.")
        var tracePath: String?

        @Option(name: .customLong("exit-after"), help: "Stop after SECONDS (for demos and tests).")
        var exitAfter: Double?

        @Option(name: .customLong("drm-device"), help: "The DRM card to drive (default: KIOSK_DRM_DEVICE, else the first usable /dev/dri/card*).")
        var drmDevice: String?

        @Option(name: .customLong("mode"), help: "A connector's mode, NAME=MODE with MODE one of \(ModeRequest.validSpellings); repeatable.")
        var modes: [String] = []

        @Option(name: .customLong("rotate"), help: "A connector's rotation, NAME=ROTATION with ROTATION one of \(Rotation.allCases.map(\.name).joined(separator: ", ")); repeatable.")
        var rotations: [String] = []

        @Option(name: .customLong("fbdev-device"), help: "The framebuffer for the fbdev backend (default: KIOSK_FBDEV_DEVICE, else /dev/fb0).")
        var fbdevDevice: String?

        @Option(name: .customLong("primary"), help: "The connector that is the main screen whenever it is connected (e.g. HDMI-A-1).")
        var primary: String?

        @Option(name: .customLong("seat"), help: "The udev seat whose input devices are read (default: the config's, else seat0).")
        var seat: String?

        @Option(name: .customLong("cursor"), help: "The mouse cursor: auto (while a pointer moves), hidden or always (default: the config's, else auto).")
        var cursor: String?

        @Option(name: .customLong("touch"), help: "Map a touch device to a screen, MATCH=SCREEN; MATCH is a name glob, vendor:product in hex, or a udev path; repeatable.")
        var touch: [String] = []

        @Option(name: .customLong("hotplug-debounce"), help: "Milliseconds within which hotplug events are coalesced (default: the config's, else 300).")
        var hotplugDebounce: Int?

        @Flag(name: .customLong("no-atomic"), help: "Use legacy modesetting even where atomic works (as KIOSK_NO_ATOMIC=1).")
        var noAtomic = false

        @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical (default: the config's, else info).")
        var logLevel: Logger.Level?

        func validate() throws {
            if let hotplugDebounce, !(0...60_000).contains(hotplugDebounce) {
                throw ValidationError("--hotplug-debounce \(hotplugDebounce): must be 0 to 60000 milliseconds")
            }
            _ = try Self.parsePairs(modes, option: "--mode") { ModeRequest($0) }
            _ = try Self.parsePairs(rotations, option: "--rotate") { Rotation(rawValue: $0) }
            _ = try Self.touchRules(touch)
            if let cursor, !["auto", "hidden", "always"].contains(cursor) {
                throw ValidationError("--cursor \(cursor): invalid; valid: auto, hidden, always")
            }
        }

        /// `MATCH=SCREEN` rules in the order given (first match wins); the match may contain ':' but not '='.
        static func touchRules(_ pairs: [String]) throws -> [TouchMapping.Rule] {
            try pairs.map { pair in
                guard let split = pair.lastIndex(of: "="), split != pair.startIndex, pair.index(after: split) != pair.endIndex else {
                    throw ValidationError("--touch \(pair): expected MATCH=SCREEN, e.g. 'ILITEK*=HDMI-A-1' or '222a:0001=DSI-1'")
                }
                return TouchMapping.Rule(match: TouchMapping.Match(parsing: String(pair[..<split])),
                                         screen: String(pair[pair.index(after: split)...]))
            }
        }

        /// `NAME=VALUE` pairs into a dictionary, with an error naming the option, the value and the valid spellings.
        static func parsePairs<Value>(_ pairs: [String], option: String, parse: (String) -> Value?) throws -> [String: Value] {
            var result: [String: Value] = [:]
            for pair in pairs {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty else {
                    throw ValidationError("\(option) \(pair): expected CONNECTOR=VALUE, e.g. HDMI-A-1=\(option == "--mode" ? "1920x1080@60" : "90")")
                }
                guard let value = parse(parts[1]) else {
                    let valid = option == "--mode" ? ModeRequest.validSpellings : Rotation.allCases.map(\.name).joined(separator: ", ")
                    throw ValidationError("\(option) \(pair): '\(parts[1])' is not valid; valid: \(valid)")
                }
                result[parts[0]] = value
            }
            return result
        }

        func run() throws {
            // The config file first (never touching a display before it is known to be valid), then the
            // command line's explicit options on top.
            let configuration: KioskConfiguration
            let environment = ProcessInfo.processInfo.environment
            let path = configPath ?? KioskConfiguration.path(environment: environment)
            switch KioskConfiguration.load(path: path, environment: environment, requireFile: configPath != nil) {
            case .success(let loaded):
                configuration = loaded
            case .failure(let errors):
                FileHandle.standardError.write(Data((errors.description + "\nkiosk: \(path) is not valid; fix it or check it with `kiosk check-config`\n").utf8))
                throw ExitCode(2)
            }
            var options = RuntimeOptions()
            options.apply(configuration)
            if let backend { options.backend = backend }
            if let drmDevice { options.drmDevice = drmDevice }
            if let fbdevDevice { options.fbdevDevice = fbdevDevice }
            if let primary { options.primary = primary }
            if let seat { options.seat = seat }
            if let cursor { options.cursor = cursor }
            if let hotplugDebounce { options.hotplugDebounce = Double(hotplugDebounce) / 1000 }
            options.modeRequests = try Self.parsePairs(modes, option: "--mode") { ModeRequest($0) }
            options.rotations = try Self.parsePairs(rotations, option: "--rotate") { Rotation(rawValue: $0) }
            // Command-line touch rules come first: first match wins.
            options.touchRules = try Self.touchRules(touch) + options.touchRules
            options.noAtomic = noAtomic
            options.snapshotDirectory = snapshotDirectory
            options.headlessScreens = headlessScreens
            options.tracePath = tracePath
            options.exitAfter = exitAfter
            let level = logLevel ?? Logger.Level(rawValue: configuration.logLevel.rawValue) ?? .info
            LoggingSystem.bootstrap { label in
                var handler = StreamLogHandler.standardError(label: label)
                handler.logLevel = level
                return handler
            }
            // ArgumentParser calls run() on the main thread; the runtime lives on the main actor.
            try MainActor.assumeIsolated {
                let runtime = KioskRuntime(options: options, delegate: DemoApp())
                do {
                    try runtime.run()
                } catch {
                    FileHandle.standardError.write(Data("kiosk: error: \(error)\n".utf8))
                    throw ExitCode(2)
                }
            }
        }
    }
}

extension RuntimeOptions.Backend: ExpressibleByArgument {}
extension Logger.Level: @retroactive ExpressibleByArgument {}
