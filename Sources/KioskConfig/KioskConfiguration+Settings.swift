import Geometry

extension KioskConfiguration {
    /// One setting, declared once: its key in the file, its command-line flag, its `KIOSK_*` variable, how a
    /// value is parsed and checked, what is valid, its help, and whether a reload (SIGHUP) applies it. The
    /// file reader, the environment, the command line, `--help` and the reload's report all read the same
    /// declaration, so a value means the same wherever it is written. A new setting is a stored property of
    /// `KioskConfiguration` and an entry in `settings`; a per-screen one is declared in `screenSettings`
    /// (`KioskConfiguration+ScreenSettings.swift`), whose flag is an entry here made from it (`screenFlag`).
    public struct Setting: Sendable {
        /// How the file writes the value.
        public enum FileForm: Sendable, Equatable {
            case string
            case integer
            case boolean
            /// A number, integer or not (`0.2`, `1`).
            case number
            /// An array of strings; on the command line the flag is repeated.
            case strings
            /// Only a flag: the file has its own form for it (`--mode` is `[screens.NAME] mode`, declared in
            /// `screenSettings`; `--touch` is `[[touch]]`) or none (`--exit-after`).
            case none
        }

        /// What a reload (SIGHUP) does with a changed value.
        public enum Reload: Sendable, Equatable {
            /// Applied to the running kiosk.
            case live
            /// Takes effect at the next start; the reload says so.
            case restart
        }

        /// The key in the file (for flag-only settings, the name messages use).
        public let key: String
        public let fileForm: FileForm
        /// `--cursor`; nil: not on the command line.
        public let flag: String?
        /// `KIOSK_CURSOR`; nil: not in the environment.
        public let environmentVariable: String?
        /// What the flag's value is called in `--help` (`MODE`, `CONNECTOR=MODE`); nil: the flag takes none.
        public let valueName: String?
        /// One line for `--help`.
        public let help: String
        public let reload: Reload
        let validText: @Sendable (Vocabulary) -> String
        /// Sets the value written as `text` (a file's string, an integer's digits, a variable, a flag's
        /// argument); returns what is wrong with it, or nil when it was taken.
        let parse: @Sendable (_ text: String, _ configuration: inout KioskConfiguration, _ vocabulary: Vocabulary) -> ValueProblem?
        /// For settings that collect values (a list, rules): what a new source starts from before its first
        /// value (the command line's `--headless-screen` replaces the file's list); nil for one value.
        let reset: (@Sendable (inout KioskConfiguration) -> Void)?
        /// The value now, as it would be written, for the reload's report of what changed.
        let spelled: @Sendable (KioskConfiguration) -> String
        /// For a list: why an empty one is not valid (nil: it is).
        var emptyListProblem: String? = nil
        /// The help line where it depends on the program (its apps); nil: `help`.
        var programHelp: (@Sendable (Vocabulary) -> String)? = nil

        /// What would be valid, for messages and `--help`.
        public func valid(_ vocabulary: Vocabulary) -> String { validText(vocabulary) }

        /// The help line for a program of this vocabulary.
        public func help(_ vocabulary: Vocabulary) -> String { programHelp?(vocabulary) ?? help }

        /// Whether the file has this setting as a key of its top level.
        public var isTopLevelKey: Bool { fileForm != .none }

        /// The value in `configuration`, in the file's spelling.
        public func value(in configuration: KioskConfiguration) -> String { spelled(configuration) }

        /// Sets the value written as `text`; returns what is wrong with it, or nil.
        public func apply(_ text: String, to configuration: inout KioskConfiguration, vocabulary: Vocabulary) -> ValueProblem? {
            parse(text, &configuration, vocabulary)
        }
    }

    /// Every setting, in the order `--help` and the example file document them.
    public static let settings: [Setting] = [
        Setting(
            key: "backend", fileForm: .string, flag: "--backend", environmentVariable: "KIOSK_BACKEND", valueName: "NAME",
            help: "The display backend: auto tries each in order, else the one named must run.", reload: .restart,
            validText: { ([automaticBackend] + ($0.backends ?? [])).joined(separator: ", ") },
            parse: { text, configuration, vocabulary in
                let name = text.lowercased()
                let known = vocabulary.backends.map { $0.contains(name) } ?? !name.isEmpty
                guard name == automaticBackend || known else { return notValid(text) }
                configuration.backend = name
                return nil
            }, reset: nil, spelled: { $0.backend }),
        path(
            "drm-device", flag: "--drm-device", \.drmDevice, example: "/dev/dri/card0",
            help: "The DRM card to drive; default: the first usable card udev lists."),
        Setting(
            key: "no-atomic", fileForm: .boolean, flag: "--no-atomic", environmentVariable: "KIOSK_NO_ATOMIC", valueName: nil,
            help: "Use legacy modesetting even where the driver does atomic.", reload: .restart,
            validText: { _ in booleanSpelling },
            parse: { text, configuration, _ in
                guard let value = boolean(text) else { return notValid(text) }
                configuration.noAtomic = value
                return nil
            }, reset: nil, spelled: { String($0.noAtomic) }),
        choice(
            "shadow-buffer", flag: "--shadow-buffer", \.shadowBuffer,
            help:
                "Where DRM frames are composed: auto (as the driver asks), always (in a shadow in RAM, then copied) or never (straight into the scanout buffers); default: auto.",
            reload: .restart),
        path(
            "fbdev-device", flag: "--fbdev-device", \.fbdevDevice, example: "/dev/fb0",
            help: "The framebuffer for the fbdev backend; default: /dev/fb0."),
        Setting(
            key: "seat", fileForm: .string, flag: "--seat", environmentVariable: "KIOSK_SEAT", valueName: "SEAT",
            help: "The seat whose devices the kiosk uses (udev ID_SEAT, libseat); default: seat0.", reload: .restart,
            validText: { _ in "a seat name, e.g. seat0" },
            parse: { text, configuration, _ in
                guard !text.isEmpty else { return notValid(text) }
                configuration.seat = text
                return nil
            }, reset: nil, spelled: { $0.seat }),
        choice("log-level", flag: "--log-level", \.logLevel, help: "How much the kiosk logs; default: info.", reload: .live),
        choice(
            "cursor", flag: "--cursor", \.cursor,
            help: "The mouse cursor: auto (while a pointer moves), hidden or always; default: auto.", reload: .live),
        choice(
            "keyboard", flag: "--keyboard", \.keyboard,
            help: "The on-screen keyboard for text fields: auto (when no hardware keyboard is attached), always or never; default: auto.",
            reload: .live),
        choice(
            "keyboard-layout", flag: "--keyboard-layout", \.keyboardLayout,
            help: "The on-screen keyboard's layout: en (QWERTY) or de (QWERTZ with umlauts); default: en.", reload: .live),
        choice(
            "text-size", flag: "--text-size", \.textSize,
            help:
                "How large text in a text style is drawn (the app's Font.preferredFont(forTextStyle:)), as iOS's text sizes: from extra-small to extra-extra-extra-large, then five accessibility sizes; default: large.",
            reload: .live),
        integer(
            "keyboard-repeat-delay-ms", flag: "--keyboard-repeat-delay", \.keyboardRepeatDelayMilliseconds,
            in: repeatDelayRange, unit: "milliseconds", valueName: "MS",
            help: "How long a key is held before it repeats (a hardware keyboard's keys, the on-screen Backspace); default: 600."),
        integer(
            "keyboard-repeat-rate", flag: "--keyboard-repeat-rate", \.keyboardRepeatRate, in: repeatRateRange,
            unit: "repeats a second; 0: keys do not repeat", valueName: "N",
            help: "How many times a second a held key repeats; default: 25."),
        integer(
            "hotplug-debounce-ms", flag: "--hotplug-debounce", \.hotplugDebounceMilliseconds, in: debounceRange, unit: "milliseconds",
            valueName: "MS", help: "Display hotplug events closer together than this are acted on once; default: 300."),
        integer(
            "idle-timeout", flag: "--idle-timeout", \.idleTimeoutSeconds, in: idleTimeoutRange, unit: "seconds; 0: never",
            valueName: "SECONDS",
            help: "Turn a screen off after this many seconds without input on it (a touch or key wakes it); default: 0, never."),
        integer(
            "dim-after", flag: "--dim-after", \.dimAfterSeconds, in: idleTimeoutRange,
            unit: "seconds, less than idle-timeout; 0: no dim stage",
            valueName: "SECONDS",
            help: "Dim a screen that has a backlight after this many seconds without input on it (input restores it); default: 0, never."),
        Setting(
            key: "dim-brightness", fileForm: .number, flag: "--dim-brightness", environmentVariable: variable("dim-brightness"),
            valueName: "BRIGHTNESS", help: "The brightness a dimmed screen goes to, 0 to 1; default: 0.2.", reload: .live,
            validText: { _ in "a number from 0 to 1 (0: the dimmest the backlight shows)" },
            parse: { text, configuration, _ in
                guard let value = Double(text), value.isFinite else { return notValid(text) }
                guard (0...1).contains(value) else { return ValueProblem("\(text) is out of range") }
                configuration.dimBrightness = value
                return nil
            }, reset: nil, spelled: { String($0.dimBrightness) }),
        Setting(
            key: "cec-on-idle", fileForm: .boolean, flag: "--cec-on-idle", environmentVariable: "KIOSK_CEC_ON_IDLE", valueName: nil,
            help: "Idle blanking also puts a TV in standby over HDMI-CEC (a touch cannot wake a TV in standby); default: false.",
            reload: .live, validText: { _ in booleanSpelling },
            parse: { text, configuration, _ in
                guard let value = boolean(text) else { return notValid(text) }
                configuration.cecOnIdle = value
                return nil
            }, reset: nil, spelled: { String($0.cecOnIdle) }),
        integer(
            "session-timeout", flag: "--session-timeout", \.sessionTimeoutSeconds, in: idleTimeoutRange, unit: "seconds; 0: never",
            valueName: "SECONDS",
            help:
                "Tell the app its session is idle after this many seconds without input (it goes back to its start screen; no screen turns off); default: 0, never."
        ),
        screenFlag("cec"),
        Setting(
            key: "primary", fileForm: .string, flag: "--primary", environmentVariable: "KIOSK_PRIMARY", valueName: "SCREEN",
            help: "The main screen whenever it is connected: a connector name or a screen label of the file.",
            reload: .live, validText: { _ in ConnectorName.validSpelling + " or the label of a screen of the file" },
            parse: { text, configuration, _ in
                // Whether it names a screen is known once the whole file is read: `checkReferences`.
                guard !text.isEmpty else { return ValueProblem("empty") }
                configuration.primary = text
                return nil
            }, reset: nil, spelled: { $0.primary ?? "" }),
        Setting(
            key: "app", fileForm: .string, flag: "--app", environmentVariable: "KIOSK_APP", valueName: "NAME",
            help: "Which of the program's apps runs.", reload: .restart,
            validText: { $0.apps?.joined(separator: ", ") ?? "an app's name" },
            parse: { text, configuration, vocabulary in
                guard vocabulary.apps.map({ $0.contains(text) }) ?? !text.isEmpty else { return notValid(text) }
                configuration.app = text
                return nil
            }, reset: nil, spelled: { $0.app },
            programHelp: { vocabulary in
                guard let apps = vocabulary.apps, let first = apps.first else { return "Which of the program's apps runs." }
                return apps.count == 1
                    ? "The program's app: \(first), its only one."
                    : "Which of the program's apps runs: \(apps.joined(separator: ", ")); default: \(vocabulary.app(for: KioskConfiguration.default.app) ?? first)."
            }),
        launchScreenSetting,
        screenFlag("mode"),
        screenFlag("rotation"),
        screenFlag("backlight"),
        screenFlag("overscan"),
        Setting(
            key: "touch", fileForm: .none, flag: "--touch", environmentVariable: nil, valueName: "MATCH=SCREEN",
            help: "Map touch devices to a screen (the file's [[touch]]); first match wins; repeatable.", reload: .live,
            validText: { _ in "MATCH=SCREEN with MATCH " + TouchConfiguration.Match.validSpellings },
            parse: { text, configuration, _ in
                // The match may contain ':' (vendor:product) but not '='.
                guard let split = text.lastIndex(of: "="), split != text.startIndex, text.index(after: split) != text.endIndex else {
                    return ValueProblem("\(ConfigKeyPath.quote(text)) is not MATCH=SCREEN, e.g. 'ILITEK*=HDMI-A-1' or '222a:0001=DSI-1'")
                }
                let (matchText, screen) = (String(text[..<split]), String(text[text.index(after: split)...]))
                let match: TouchConfiguration.Match
                switch TouchConfiguration.Match.parse(matchText) {
                case .success(let parsed): match = parsed
                case .failure(let error): return ValueProblem(error.message(for: matchText))
                }
                if let problem = configuration.unknownScreen(screen) { return problem }
                // After the command line's earlier rules, before the file's: the first match wins.
                let index = configuration.touch.firstIndex { !$0.isFromCommandLine } ?? configuration.touch.count
                var entry = TouchConfiguration(match: match, screen: screen)
                entry.isFromCommandLine = true
                configuration.touch.insert(entry, at: index)
                return nil
            }, reset: nil, spelled: { $0.touch.map { "\($0.match)=\($0.screen)" }.joined(separator: " ") }),
        Setting(
            key: "snapshot-dir", fileForm: .string, flag: "--snapshot-dir", environmentVariable: "KIOSK_SNAPSHOT_DIR",
            valueName: "DIR", help: "Where the headless backend writes <screen>.png; default: ./snapshots.", reload: .restart,
            validText: { _ in "a folder" },
            parse: { text, configuration, _ in
                guard !text.isEmpty else { return ValueProblem("empty") }
                configuration.snapshotDirectory = text
                return nil
            }, reset: nil, spelled: { $0.snapshotDirectory }),
        Setting(
            key: "headless-screens", fileForm: .strings, flag: "--headless-screen", environmentVariable: "KIOSK_HEADLESS_SCREENS",
            valueName: "[NAME=]WxH[@Hz]",
            help: "A headless screen (HEADLESS-1, HEADLESS-2, ... unless named); repeatable (the variable: a comma-separated list).",
            reload: .restart, validText: { _ in HeadlessScreen.validSpelling },
            parse: { text, configuration, _ in
                switch HeadlessScreen.parse(text, position: configuration.headlessScreens.count + 1) {
                case .failure(let error):
                    return ValueProblem(error.description)
                case .success(let screen):
                    if configuration.headlessScreens.contains(where: { $0.name == screen.name }) {
                        return ValueProblem("two headless screens named \(screen.name) (one snapshot file each)")
                    }
                    configuration.headlessScreens.append(screen)
                    return nil
                }
            }, reset: { $0.headlessScreens = [] }, spelled: { $0.headlessScreens.map(\.description).joined(separator: " ") },
            emptyListProblem: "empty: the headless backend needs at least one screen (leave the key out for HEADLESS-1, 1280x800)"),
        Setting(
            key: "trace", fileForm: .string, flag: "--trace", environmentVariable: "KIOSK_TRACE", valueName: "FILE",
            help:
                "Append one JSON line per screen and window notification, touch and frame to FILE, or off (a file named off: ./off); default: off.",
            reload: .restart, validText: { _ in "a file path, or off" },
            parse: { text, configuration, _ in
                guard !text.isEmpty else { return ValueProblem("empty") }
                configuration.tracePath = isOff(text) ? nil : text
                return nil
            }, reset: nil, spelled: { $0.tracePath ?? offSpelling }),
        Setting(
            key: "control-socket", fileForm: .string, flag: "--control-socket", environmentVariable: "KIOSK_CONTROL_SOCKET",
            valueName: "PATH",
            help:
                "The Unix socket kiosk status, power, screenshot and reload talk to, auto or off; default: auto, \(ControlSocketPlace.spelled).",
            reload: .restart, validText: { _ in "an absolute path of at most \(maximumSocketPathBytes) bytes, auto or off" },
            parse: { text, configuration, _ in
                switch text.lowercased() {
                case offSpelling:
                    configuration.controlSocket = .off
                    return nil
                case "auto":
                    configuration.controlSocket = .auto
                    return nil
                default: break
                }
                guard text.hasPrefix("/"), text.count > 1 else { return notValid(text) }
                // sockaddr_un holds 108 bytes with the final NUL: a longer path cannot be bound at all.
                guard text.utf8.count <= maximumSocketPathBytes else {
                    return ValueProblem("\(ConfigKeyPath.quote(text)) is longer than \(maximumSocketPathBytes) bytes")
                }
                configuration.controlSocket = .path(text)
                return nil
            }, reset: nil, spelled: { $0.controlSocket.description }),
        Setting(
            key: "control-group", fileForm: .string, flag: "--control-group", environmentVariable: "KIOSK_CONTROL_GROUP",
            valueName: "GROUP",
            help: "The group whose members the control socket answers (and root, and the kiosk's user); default: kiosk.",
            reload: .restart, validText: { _ in "a group name" },
            parse: { text, configuration, _ in
                guard !text.isEmpty, !text.contains("/"), !text.contains(":") else { return notValid(text) }
                configuration.controlGroup = text
                return nil
            }, reset: nil, spelled: { $0.controlGroup }),
        Setting(
            key: "exit-after", fileForm: .none, flag: "--exit-after", environmentVariable: nil, valueName: "SECONDS",
            help: "Stop after SECONDS (tests, trial runs).", reload: .restart, validText: { _ in "a number of seconds above 0" },
            parse: { text, configuration, _ in
                guard let seconds = Double(text), seconds.isFinite, seconds > 0 else { return notValid(text) }
                configuration.exitAfter = seconds
                return nil
            }, reset: nil, spelled: { $0.exitAfter.map { String($0) } ?? "" }),
    ]

    /// The keys of the file's top level, in the order the example file documents them.
    static let topLevelKeys = settings.filter(\.isTopLevelKey).map(\.key) + ["app-settings", "screens", "touch", "power"]

    /// The variables that override the file's keys, in the order they are applied.
    public static let environmentVariables = settings.compactMap(\.environmentVariable)

    public static func setting(key: String) -> Setting? { settings.first { $0.key == key && $0.isTopLevelKey } }

    /// The range of `hotplug-debounce-ms`: up to a minute, since a longer wait for a display that was
    /// plugged in looks like a broken kiosk.
    static let debounceRange = 0...60_000
    static let repeatDelayRange = 100...10_000
    static let repeatRateRange = 0...100
    /// Up to a week: `idle-timeout`, `dim-after` and `session-timeout`.
    static let idleTimeoutRange = 0...604_800

    static let booleanSpelling = "true or false (1 or 0, yes or no, on or off)"

    // MARK: Builders and parsers shared by the entries

    static func notValid(_ text: String) -> ValueProblem { ValueProblem("\(ConfigKeyPath.quote(text)) is not valid") }

    static func boolean(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "1", "yes", "on": true
        case "false", "0", "no", "off": false
        default: nil
        }
    }

    /// A setting whose values are the cases of an enum, matched without regard to case (`KIOSK_LOG_LEVEL=DEBUG`
    /// is how people type it).
    static func choice<Value: RawRepresentable & CaseIterable & Sendable>(
        _ key: String, flag: String, _ keyPath: WritableKeyPath<KioskConfiguration, Value> & Sendable, help: String, reload: Setting.Reload
    ) -> Setting where Value.RawValue == String {
        Setting(
            key: key, fileForm: .string, flag: flag, environmentVariable: variable(key), valueName: key.uppercased(), help: help,
            reload: reload, validText: { _ in Value.allCases.map(\.rawValue).joined(separator: ", ") },
            parse: { text, configuration, _ in
                guard let value = Value(rawValue: text.lowercased()) else { return notValid(text) }
                configuration[keyPath: keyPath] = value
                return nil
            }, reset: nil, spelled: { $0[keyPath: keyPath].rawValue })
    }

    /// A whole number within `range`, applied live.
    static func integer(
        _ key: String, flag: String, _ keyPath: WritableKeyPath<KioskConfiguration, Int> & Sendable, in range: ClosedRange<Int>,
        unit: String, valueName: String, help: String
    ) -> Setting {
        Setting(
            key: key, fileForm: .integer, flag: flag, environmentVariable: variable(key), valueName: valueName, help: help,
            reload: .live, validText: { _ in "\(range.lowerBound) to \(range.upperBound) (\(unit))" },
            parse: { text, configuration, _ in
                guard let value = Int(text) else { return notValid(text) }
                guard range.contains(value) else { return ValueProblem("\(value) is out of range") }
                configuration[keyPath: keyPath] = value
                return nil
            }, reset: nil, spelled: { String($0[keyPath: keyPath]) })
    }

    /// A device path: absolute, taken as written.
    static func path(
        _ key: String, flag: String, _ keyPath: WritableKeyPath<KioskConfiguration, String?> & Sendable, example: String,
        help: String
    ) -> Setting {
        Setting(
            key: key, fileForm: .string, flag: flag, environmentVariable: variable(key), valueName: "PATH", help: help,
            reload: .restart, validText: { _ in "an absolute device path, e.g. \(example)" },
            parse: { text, configuration, _ in
                guard text.hasPrefix("/") && text.count > 1 else { return notValid(text) }
                configuration[keyPath: keyPath] = text
                return nil
            }, reset: nil, spelled: { $0[keyPath: keyPath] ?? "" })
    }

    /// What turns a setting off wherever one can be (`trace`, `control-socket`, a screen's `mode` and `cec`),
    /// in any case: one spelling, one meaning.
    public static let offSpelling = "off"

    /// Whether `text` is `off` (`OFF`, `Off`).
    public static func isOff(_ text: String) -> Bool { text.lowercased() == offSpelling }

    /// `KIOSK_HOTPLUG_DEBOUNCE_MS` for `hotplug-debounce-ms`.
    static func variable(_ key: String) -> String {
        "KIOSK_" + String(key.uppercased().map { $0 == "-" ? "_" : $0 })
    }

    /// `SCREEN=VALUE` for a per-screen flag: the command line's own entry for that screen (made first in
    /// the list, so it wins over the file's) gets the value.
    static func screenPair(
        _ text: String, in configuration: inout KioskConfiguration,
        set: (String, inout ScreenConfiguration) -> ValueProblem?
    ) -> ValueProblem? {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty else {
            return ValueProblem("\(ConfigKeyPath.quote(text)) is not SCREEN=VALUE, e.g. HDMI-A-1=1920x1080@60 or DSI-1=90")
        }
        let name = parts[0]
        if let problem = configuration.unknownScreen(name) { return problem }
        var entry =
            configuration.screens.first { $0.isFromCommandLine && $0.name == name }
            ?? {
                // A label names the file's display by its EDID: the flag's entry matches that display alone
                // (without the EDID it would match every display).
                let labelled = configuration.screens.first { !$0.isFromCommandLine && $0.connector == nil && $0.name == name }
                var made = ScreenConfiguration(name: name, edid: labelled?.edid)
                made.isFromCommandLine = true
                return made
            }()
        if let problem = set(parts[1], &entry) { return problem }
        if let index = configuration.screens.firstIndex(where: { $0.isFromCommandLine && $0.name == name }) {
            configuration.screens[index] = entry
        } else {
            let index = configuration.screens.firstIndex { !$0.isFromCommandLine } ?? configuration.screens.count
            configuration.screens.insert(entry, at: index)
        }
        return nil
    }
}

/// What is wrong with a value: the message, and what would be valid (by default the setting's own valid
/// values; a message with a did-you-mean needs none).
public struct ValueProblem: Sendable, Equatable {
    public enum Valid: Sendable, Equatable {
        case setting
        case none
        case text(String)
    }

    public var message: String
    public var valid: Valid

    public init(_ message: String, valid: Valid = .setting) {
        self.message = message
        self.valid = valid
    }

    /// The valid text for a problem with `setting`.
    func validText(for setting: KioskConfiguration.Setting, vocabulary: Vocabulary) -> String? {
        switch valid {
        case .setting: setting.valid(vocabulary)
        case .none: nil
        case .text(let text): text
        }
    }
}
