import Geometry

extension KioskConfiguration {
    /// One per-screen setting, declared once: its key in a `[screens.NAME]` table, its flag (`--mode
    /// SCREEN=MODE`), the parser the file's value and the flag's both go through, what is valid, its help,
    /// whether a reload applies it, and how a display's value is found among the entries that match it. The
    /// file reader, the command line (through the flag's entry in `settings`), `--help` and
    /// `screen(connector:edid:)` all read this declaration, as `Setting` is read for the top level. A new
    /// per-screen setting is a stored property of `ScreenConfiguration`, one of `ResolvedScreen` and an
    /// entry in `screenSettings`.
    public struct ScreenSetting: Sendable {
        /// How the file writes the value.
        public enum FileForm: Sendable, Equatable {
            case string
            /// A string, or an integer that is one of its spellings (`rotation = 90`, what most people write).
            case stringOrInteger
            case integer
            case boolean
            /// A table whose fields the reader checks one by one (`position`, `edid`): no flag writes one.
            case table
        }

        /// The key in a `[screens.NAME]` table.
        public let key: String
        public let fileForm: FileForm
        /// `--mode`, which takes `SCREEN=VALUE`; nil: only in the file.
        public let flag: String?
        /// What the value is called in the flag's `SCREEN=VALUE` and in `--help` (`MODE`).
        public let valueName: String
        /// One line for `--help`.
        public let help: String
        public let reload: Setting.Reload
        /// What would be valid, for messages and `--help`.
        public let valid: String
        /// Sets the value written as `text` (a string, an integer's digits, a boolean's `true`) on `entry`;
        /// `shown` is how a message names it (the text quoted, a number as it is). Returns what is wrong, or
        /// nil when it was taken. nil for a table, which the reader takes field by field.
        let parse: (@Sendable (_ text: String, _ shown: String, _ entry: inout ScreenConfiguration) -> ValueProblem?)?
        /// Where the entry keeps the place its value was written, for a problem found only at run time (a
        /// mode the connector does not offer).
        var location: (WritableKeyPath<ScreenConfiguration, FilePosition?> & Sendable)? = nil
        /// The value an entry sets, as written (nil: it sets none), for the flag's setting in the reload's
        /// report; nil where there is no flag.
        var spelled: (@Sendable (ScreenConfiguration) -> String?)? = nil
        /// Sets the display's value in `resolved` from the entries that match the display on `connector`,
        /// in their order: the command line's first, so the first that sets a value wins.
        let resolve: Resolution

        typealias Resolution =
            @Sendable (
                _ matching: [ScreenConfiguration], _ connector: String, _ configuration: KioskConfiguration,
                _ resolved: inout ResolvedScreen
            ) -> Void
    }

    /// Every per-screen setting, in the order messages list the keys and `--help` documents them.
    public static let screenSettings: [ScreenSetting] = [
        ScreenSetting(
            key: "mode", fileForm: .string, flag: "--mode", valueName: "MODE",
            help: "The screen's mode; default: its preferred mode, else the one it shows, else its largest.", reload: .live,
            valid: ModeRequest.validSpellings,
            parse: { text, shown, entry in
                guard let mode = ModeRequest(text) else { return ValueProblem("\(shown) is not a mode") }
                entry.mode = mode
                return nil
            }, location: \ScreenConfiguration.modeLocation, spelled: { $0.mode.map { "\($0)" } },
            resolve: { matching, _, _, resolved in resolved.mode = matching.lazy.compactMap(\.mode).first }),
        ScreenSetting(
            key: "rotation", fileForm: .stringOrInteger, flag: "--rotate", valueName: "ROTATION",
            help: "The screen's clockwise rotation; default: the panel's orientation where the kernel gives one, else normal.",
            reload: .live, valid: Rotation.validSpellings,
            parse: { text, shown, entry in
                guard let rotation = Rotation(spelling: text) else { return ValueProblem("\(shown) is not a rotation") }
                entry.rotation = rotation
                return nil
            }, spelled: { $0.rotation.map { "\($0)" } },
            resolve: { matching, _, _, resolved in resolved.rotation = matching.lazy.compactMap(\.rotation).first }),
        ScreenSetting(
            key: "primary", fileForm: .boolean, flag: nil, valueName: "BOOLEAN",
            help: "Whether this is the main screen; the top-level primary (--primary) wins.", reload: .live, valid: "true or false",
            parse: { text, _, entry in
                entry.primary = boolean(text) ?? false
                return nil
            },
            resolve: { matching, connector, configuration, resolved in
                // The file's `primary = true` is folded into the top-level `primary` as it is read.
                guard let primary = configuration.primary else { return }
                resolved.isPrimary = primary == connector || matching.contains { $0.name == primary }
            }),
        ScreenSetting(
            key: "position", fileForm: .table, flag: nil, valueName: "{ x, y }",
            help: "Where the screen sits among the others, in points: a mouse's pointer crosses to the screen its motion reaches.",
            reload: .live, valid: "position = { x = 0, y = 0 }, each \(positionRange.lowerBound) to \(positionRange.upperBound)",
            parse: nil,
            resolve: { matching, _, _, resolved in resolved.position = matching.lazy.compactMap(\.position).first }),
        ScreenSetting(
            key: "edid", fileForm: .table, flag: nil, valueName: "{ make, model, serial }",
            help: "The display's identity as `kiosk screens` shows it: a label's display, or a connector's narrowed to that one.",
            reload: .live, valid: edidExample, parse: nil,
            resolve: { matching, _, _, resolved in
                // The labels a touch rule or `primary` may name the display by, besides its connector.
                var labels: [String] = []
                for entry in matching where entry.connector == nil && !labels.contains(entry.name) { labels.append(entry.name) }
                resolved.labels = labels
            }),
        ScreenSetting(
            key: "cec", fileForm: .string, flag: "--cec", valueName: "ADAPTER",
            help: "The screen's HDMI-CEC adapter: auto (the one tied to its connector), off or /dev/cecN; default: auto.",
            reload: .live, valid: CECSetting.validSpellings,
            parse: { text, shown, entry in
                guard let setting = CECSetting(spelling: text) else { return ValueProblem("\(shown) is not valid") }
                entry.cec = setting
                return nil
            }, spelled: { $0.cec.map { "\($0)" } },
            resolve: { matching, _, _, resolved in resolved.cec = matching.lazy.compactMap(\.cec).first ?? .auto }),
        ScreenSetting(
            key: "backlight", fileForm: .string, flag: "--backlight", valueName: "DEVICE",
            help: "The screen's backlight device in /sys/class/backlight; default: the one matched to its connector.",
            reload: .live, valid: ScreenConfiguration.backlightSpelling,
            parse: { text, _, entry in
                // Whether the device exists is the board's to say, at run time.
                if let problem = ScreenConfiguration.backlightProblem(text) { return ValueProblem(problem) }
                entry.backlight = text
                return nil
            }, spelled: { $0.backlight },
            resolve: { matching, _, _, resolved in resolved.backlight = matching.lazy.compactMap(\.backlight).first }),
        ScreenSetting(
            key: "idle-timeout", fileForm: .integer, flag: nil, valueName: "SECONDS",
            help: "Seconds without input before this screen turns off; default: the top-level idle-timeout.", reload: .live,
            // The top-level idle-timeout's range, for this screen alone.
            valid: "\(idleTimeoutRange.lowerBound) to \(idleTimeoutRange.upperBound) (seconds; 0: never on this screen)",
            parse: { text, shown, entry in
                guard let seconds = Int(text) else { return ValueProblem("\(shown) is not valid") }
                guard idleTimeoutRange.contains(seconds) else { return ValueProblem("\(shown) is out of range") }
                entry.idleTimeoutSeconds = seconds
                return nil
            },
            resolve: { matching, _, _, resolved in resolved.idleTimeoutSeconds = matching.lazy.compactMap(\.idleTimeoutSeconds).first }),
        ScreenSetting(
            key: "overscan", fileForm: .stringOrInteger, flag: "--overscan", valueName: "INSETS",
            help: "The edges of the picture a television does not show, which the app's safe area leaves out; default: none.",
            reload: .live, valid: Overscan.validSpellings,
            parse: { text, shown, entry in
                if let problem = Overscan.problem(text, shown: shown) { return ValueProblem(problem) }
                entry.overscan = Overscan(spelling: text)
                return nil
            }, spelled: { $0.overscan.map { String("\($0)".map { $0 == " " ? "," : $0 }) } },
            resolve: { matching, _, _, resolved in resolved.overscan = matching.lazy.compactMap(\.overscan).first ?? .none }),
    ]

    /// The keys of a `[screens.NAME]` table.
    static let screenKeys = screenSettings.map(\.key)

    public static func screenSetting(key: String) -> ScreenSetting? { screenSettings.first { $0.key == key } }

    /// Positions beyond a million points are typing mistakes; the limit also keeps position plus size
    /// inside the 32-bit coordinates pixman and the kernel use.
    static let positionRange = -1_000_000...1_000_000

    static let edidExample = #"edid = { make = "SAM", model = "SAMSUNG", serial = "H4ZN900123" }"#

    /// The entry of `settings` for a per-screen setting's flag (`--mode SCREEN=MODE`): the command line's,
    /// `--help`'s and the reload report's view of the declaration in `screenSettings`.
    static func screenFlag(_ key: String) -> Setting {
        guard let screen = screenSetting(key: key), let flag = screen.flag, let parse = screen.parse, let spelled = screen.spelled else {
            preconditionFailure("\(key) is no per-screen setting with a flag")
        }
        let value = screen.valueName
        return Setting(
            key: key, fileForm: .none, flag: flag, environmentVariable: nil, valueName: "SCREEN=" + value,
            help: "\(screen.help.dropLast()); repeatable (the file's [screens.SCREEN] \(key)).", reload: screen.reload,
            validText: { _ in "SCREEN=\(value) with \(value) " + screen.valid },
            parse: { text, configuration, _ in
                screenPair(text, in: &configuration) { value, entry in parse(value, ConfigKeyPath.quote(value), &entry) }
            }, reset: nil,
            spelled: { configuration in
                configuration.screens.compactMap { entry in spelled(entry).map { "\(entry.name)=\($0)" } }.joined(separator: " ")
            })
    }
}
