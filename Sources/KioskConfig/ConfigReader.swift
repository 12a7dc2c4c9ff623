import Geometry

/// Turns the tree `TOML.parseDocument` made into a `KioskConfiguration`, collecting every problem on the way
/// instead of stopping at the first, each placed at the line and column the document recorded for it.
struct ConfigReader {
    let path: String
    let document: TOML.Document
    let vocabulary: Vocabulary
    private(set) var problems: [ConfigProblem] = []

    static let edidKeys = ["make", "model", "serial"]
    static let positionKeys = ["x", "y"]
    static let touchKeys = ["match", "screen", "calibration"]
    static let powerKeys = ["schedule", "wake-during-schedule"]
    static let scheduleKeys = ["days", "off", "on", "screens"]

    init(path: String, document: TOML.Document, vocabulary: Vocabulary) {
        self.path = path
        self.document = document
        self.vocabulary = vocabulary
    }

    // MARK: Top level

    mutating func read() -> KioskConfiguration {
        let root = document.root
        var configuration = KioskConfiguration()
        configuration.path = path
        var topPrimary: (name: String, path: ConfigKeyPath)?
        var touchScreens: [(name: String, path: ConfigKeyPath)] = []
        for key in root.keys {
            guard let value = root[key] else { continue }
            let keyPath = ConfigKeyPath([.key(key)])
            if let setting = KioskConfiguration.setting(key: key) {
                if readSetting(setting, value, at: keyPath, into: &configuration), setting.key == "primary",
                    let name = configuration.primary
                {
                    topPrimary = (name, keyPath)
                }
                continue
            }
            switch key {
            case "app-settings":
                if let table = table(value, at: keyPath, valid: "an [app-settings] table") {
                    configuration.appSettings = Self.settings(table)
                    if let declared = vocabulary.appSettings {
                        checkAppSettings(table, configuration.appSettings, declared, at: keyPath)
                    }
                }
            case "screens":
                configuration.screens = readScreens(value, at: keyPath)
            case "touch":
                (configuration.touch, touchScreens) = readTouch(value, at: keyPath)
            case "power":
                configuration.power = readPower(value, at: keyPath)
            default:
                report(.unknownKey(key, in: [], valid: KioskConfiguration.topLevelKeys, origin(keyPath, at: .key)))
            }
        }
        checkDuplicates(configuration.screens)
        checkDimStage(configuration)
        configuration.primary = resolvePrimary(topPrimary, in: configuration)
        for reference in touchScreens where !configuration.namesScreen(reference.name) {
            reportUnknownScreen(reference.name, at: reference.path, in: configuration)
        }
        return configuration
    }

    /// A top-level setting, in the form its declaration says (`Setting.fileForm`), parsed by the same
    /// parser the environment and the command line use. True when the value was taken.
    private mutating func readSetting(
        _ setting: KioskConfiguration.Setting, _ value: TOML.Value,
        at path: ConfigKeyPath, into configuration: inout KioskConfiguration
    ) -> Bool {
        let valid = setting.valid(vocabulary)
        let texts: [(text: String, path: ConfigKeyPath)]
        switch setting.fileForm {
        case .integer:
            guard let number = integer(value, at: path, valid: valid) else { return false }
            texts = [(String(number), path)]
        case .number:
            switch value {
            case .integer(let number): texts = [(String(number), path)]
            case .float(let number): texts = [(String(number), path)]
            default:
                report(.wrongType(path, expected: "a number", found: value.typeName, valid: valid, origin(path, at: .value)))
                return false
            }
        case .boolean:
            guard let flag = boolean(value, at: path) else { return false }
            texts = [(String(flag), path)]
        case .string, .none:
            guard let text = string(value, at: path, valid: valid) else { return false }
            texts = [(text, path)]
        case .strings:
            guard case .array(let array) = value else {
                report(
                    .wrongType(
                        path, expected: "an array of strings", found: value.typeName, valid: valid,
                        origin(path, at: .value)))
                return false
            }
            var elements: [(String, ConfigKeyPath)] = []
            for index in 0..<array.count {
                guard let text = string(array[index], at: path.appending(index: index), valid: valid) else { return false }
                elements.append((text, path.appending(index: index)))
            }
            texts = elements
            setting.reset?(&configuration)
            if elements.isEmpty, let problem = setting.emptyListProblem {
                report(.invalidValue(path, problem, valid: setting.valid(vocabulary), origin(path, at: .value)))
                return false
            }
        }
        var taken = true
        for (text, elementPath) in texts {
            guard let problem = setting.apply(text, to: &configuration, vocabulary: vocabulary) else { continue }
            report(
                .invalidValue(
                    elementPath, problem.message, valid: problem.validText(for: setting, vocabulary: vocabulary),
                    origin(elementPath, at: .value)))
            taken = false
        }
        return taken
    }

    // MARK: Screens

    private mutating func readScreens(_ value: TOML.Value, at path: ConfigKeyPath) -> [ScreenConfiguration] {
        guard let table = table(value, at: path, valid: "[screens.NAME] tables, e.g. [screens.HDMI-A-1]") else { return [] }
        var screens: [ScreenConfiguration] = []
        for name in table.keys {
            guard let value = table[name], let screen = readScreen(name, value, at: path.appending(name)) else { continue }
            screens.append(screen)
        }
        // File order, which is the order a person reads and expects messages and decisions in.
        return screens.enumerated().sorted { a, b in
            let (la, lb) = (a.element.location, b.element.location)
            if la?.line != lb?.line { return (la?.line ?? .max) < (lb?.line ?? .max) }
            if la?.column != lb?.column { return (la?.column ?? .max) < (lb?.column ?? .max) }
            return a.offset < b.offset
        }.map(\.element)
    }

    private mutating func readScreen(_ name: String, _ value: TOML.Value, at path: ConfigKeyPath) -> ScreenConfiguration? {
        let keys = KioskConfiguration.screenKeys
        guard let table = table(value, at: path, valid: "a table of " + keys.joined(separator: ", ")) else { return nil }
        var screen = ScreenConfiguration(name: name, location: location(path, at: .key))
        var hasEDID = false
        for key in table.keys {
            guard let value = table[key] else { continue }
            let keyPath = path.appending(key)
            guard let setting = KioskConfiguration.screenSetting(key: key) else {
                report(.unknownKey(key, in: path, valid: keys, origin(keyPath, at: .key)))
                continue
            }
            // The text the declaration's parser takes (the same as its flag's), and how a message names it.
            let written: (text: String, shown: String)
            switch setting.fileForm {
            case .string:
                guard let text = string(value, at: keyPath, valid: setting.valid) else { continue }
                written = (text, ConfigKeyPath.quote(text))
            case .stringOrInteger:
                if case .integer(let number) = value {
                    written = (String(number), String(number))
                } else {
                    guard let text = string(value, at: keyPath, valid: setting.valid) else { continue }
                    written = (text, ConfigKeyPath.quote(text))
                }
            case .integer:
                guard let number = integer(value, at: keyPath, valid: setting.valid) else { continue }
                written = (String(number), String(number))
            case .boolean:
                guard let flag = boolean(value, at: keyPath) else { continue }
                written = (String(flag), String(flag))
            case .table:
                // Field by field, each problem at its own field.
                if key == "edid" {
                    hasEDID = true
                    screen.edid = readEDID(value, at: keyPath)
                } else {
                    screen.position = readPosition(value, at: keyPath)
                }
                continue
            }
            guard let parse = setting.parse else { continue }
            if let problem = parse(written.text, written.shown, &screen) {
                report(.invalidValue(keyPath, problem.message, valid: setting.valid, origin(keyPath, at: .value)))
            } else if let place = setting.location {
                screen[keyPath: place] = location(keyPath, at: .value)
            }
        }
        if screen.connector == nil && !hasEDID {
            if let corrected = ConnectorName.correction(of: name) {
                report(
                    .invalidValue(
                        path, "\(ConfigKeyPath.quote(name)) is not a connector name; did you mean \(ConfigKeyPath.quote(corrected))?",
                        valid: nil, origin(path, at: .key)))
            } else {
                report(
                    .invalidValue(
                        path, "not a connector name, and no edid to find the display by",
                        valid: ConnectorName.validSpelling + ", or a label with " + KioskConfiguration.edidExample, origin(path, at: .key)))
            }
        }
        return screen
    }

    private mutating func readPosition(_ value: TOML.Value, at path: ConfigKeyPath) -> ScreenConfiguration.Position? {
        let example = "position = { x = 0, y = 0 }"
        guard let table = table(value, at: path, valid: example) else { return nil }
        var coordinates: [String: Int] = [:]
        for key in table.keys {
            guard let value = table[key] else { continue }
            let keyPath = path.appending(key)
            guard Self.positionKeys.contains(key) else {
                report(.unknownKey(key, in: path, valid: Self.positionKeys, origin(keyPath, at: .key)))
                continue
            }
            guard let number = integer(value, at: keyPath) else { continue }
            let range = KioskConfiguration.positionRange
            guard range.contains(number) else {
                report(
                    .invalidValue(
                        keyPath, "\(number) is out of range", valid: "\(range.lowerBound) to \(range.upperBound) (points)",
                        origin(keyPath, at: .value)))
                continue
            }
            coordinates[key] = number
        }
        for key in Self.positionKeys where table[key] == nil {
            report(.missingKey(key, in: path, valid: example, origin(path, at: .value)))
        }
        guard let x = coordinates["x"], let y = coordinates["y"] else { return nil }
        return ScreenConfiguration.Position(x: x, y: y)
    }

    private mutating func readEDID(_ value: TOML.Value, at path: ConfigKeyPath) -> ScreenConfiguration.EDIDMatch? {
        guard let table = table(value, at: path, valid: KioskConfiguration.edidExample) else { return nil }
        var edid = ScreenConfiguration.EDIDMatch()
        var isValid = true
        for key in table.keys {
            guard let value = table[key] else { continue }
            let keyPath = path.appending(key)
            guard Self.edidKeys.contains(key) else {
                report(.unknownKey(key, in: path, valid: Self.edidKeys, origin(keyPath, at: .key)))
                isValid = false
                continue
            }
            guard let text = string(value, at: keyPath, valid: nil) else {
                isValid = false
                continue
            }
            guard !text.isEmpty else {
                report(
                    .invalidValue(
                        keyPath, "empty", valid: "the text `kiosk screens` shows for the display, or no \(key) key",
                        origin(keyPath, at: .value)))
                isValid = false
                continue
            }
            switch key {
            case "make": edid.make = text
            case "model": edid.model = text
            default: edid.serial = text
            }
        }
        if table.isEmpty {
            report(
                .invalidValue(
                    path, "empty", valid: "one or more of make, model, serial, e.g. " + KioskConfiguration.edidExample,
                    origin(path, at: .value)))
            return nil
        }
        return isValid ? edid : nil
    }

    /// Two labels with the same EDID would both claim the same display. Connector-named entries cannot
    /// collide: the same key twice is a TOML error, reported before this runs.
    private mutating func checkDuplicates(_ screens: [ScreenConfiguration]) {
        var seen: [ScreenConfiguration.EDIDMatch: ScreenConfiguration] = [:]
        for screen in screens where screen.connector == nil {
            guard let edid = screen.edid else { continue }
            let path = ConfigKeyPath(["screens", screen.name].map(ConfigKeyPath.Component.key))
            if let first = seen[edid] {
                let line = first.line.map { " (line \($0))" } ?? ""
                report(
                    ConfigProblem(
                        .duplicate, origin(path, at: .key), keyPath: path.description,
                        message:
                            "same edid as screens.\(ConfigKeyPath.spell(key: first.name))\(line); a display can be configured only once"))
            } else {
                seen[edid] = screen
            }
        }
    }

    /// The dim stage comes before the screen turns off: `dim-after` at or past `idle-timeout` would never
    /// dim. (The environment and the command line are checked again once applied: `dimStageProblem`.)
    private mutating func checkDimStage(_ configuration: KioskConfiguration) {
        let idle = document.location(of: ConfigKeyPath([.key("idle-timeout")])).map { " (line \($0.line))" } ?? ""
        guard let message = configuration.dimStageProblem(idleTimeoutWhere: idle) else { return }
        let path = ConfigKeyPath([.key("dim-after")])
        report(ConfigProblem(.conflict, origin(path, at: .value), keyPath: path.description, message: message))
    }

    /// The main screen: the top-level `primary` key, else the screen with `primary = true`. Both set and
    /// different, or two screens with `primary = true`, are conflicts: the file says two things.
    private mutating func resolvePrimary(
        _ topPrimary: (name: String, path: ConfigKeyPath)?,
        in configuration: KioskConfiguration
    ) -> String? {
        let marked = configuration.screens.filter(\.primary)
        if let topPrimary, !configuration.namesScreen(topPrimary.name) {
            reportUnknownScreen(topPrimary.name, at: topPrimary.path, in: configuration)
        }
        for screen in marked {
            let path = ConfigKeyPath(["screens", screen.name, "primary"].map(ConfigKeyPath.Component.key))
            let other: (text: String, path: ConfigKeyPath)
            if let topPrimary {
                guard topPrimary.name != screen.name else { continue }
                other = ("primary = \(ConfigKeyPath.quote(topPrimary.name))", topPrimary.path)
            } else {
                guard let first = marked.first, first.name != screen.name else { continue }
                let firstPath = ConfigKeyPath(["screens", first.name, "primary"].map(ConfigKeyPath.Component.key))
                other = ("\(firstPath) = true", firstPath)
            }
            let line = document.location(of: other.path).map { " (line \($0.line))" } ?? ""
            report(
                ConfigProblem(
                    .conflict, origin(path, at: .value), keyPath: path.description,
                    message: "conflicts with \(other.text)\(line); only one screen can be primary"))
        }
        return topPrimary?.name ?? marked.first?.name
    }

    private mutating func reportUnknownScreen(_ name: String, at path: ConfigKeyPath, in configuration: KioskConfiguration) {
        guard let problem = configuration.unknownScreen(name) else { return }
        let valid: String? =
            switch problem.valid {
            case .text(let text): text
            case .setting, .none: nil
            }
        report(.invalidValue(path, problem.message, valid: valid, origin(path, at: .value)))
    }

    // MARK: Touch

    private mutating func readTouch(_ value: TOML.Value, at path: ConfigKeyPath)
        -> ([TouchConfiguration], [(name: String, path: ConfigKeyPath)])
    {
        guard case .array(let array) = value else {
            report(
                .wrongType(
                    path, expected: "an array of tables", found: value.typeName, valid: "[[touch]] entries",
                    origin(path, at: .value)))
            return ([], [])
        }
        var mappings: [TouchConfiguration] = []
        var references: [(name: String, path: ConfigKeyPath)] = []
        for index in 0..<array.count {
            let entryPath = path.appending(index: index)
            guard let table = table(array[index], at: entryPath, valid: "a [[touch]] table") else { continue }
            var match: TouchConfiguration.Match?
            var screen: String?
            var calibration: [Double]?
            var complete = true
            for key in table.keys {
                guard let value = table[key] else { continue }
                let keyPath = entryPath.appending(key)
                switch key {
                case "match":
                    guard let text = string(value, at: keyPath, valid: TouchConfiguration.Match.validSpellings) else {
                        complete = false
                        continue
                    }
                    switch TouchConfiguration.Match.parse(text) {
                    case let .success(parsed):
                        match = parsed
                    case let .failure(error):
                        report(
                            .invalidValue(
                                keyPath, error.message(for: text), valid: TouchConfiguration.Match.validSpellings,
                                origin(keyPath, at: .value)))
                        complete = false
                    }
                case "screen":
                    guard
                        let text = string(value, at: keyPath, valid: ConnectorName.validSpelling + " or the label of a screen of the file")
                    else {
                        complete = false
                        continue
                    }
                    screen = text
                    references.append((text, keyPath))
                case "calibration":
                    if let matrix = readCalibration(value, at: keyPath) { calibration = matrix } else { complete = false }
                default:
                    report(.unknownKey(key, in: entryPath, valid: Self.touchKeys, origin(keyPath, at: .key)))
                }
            }
            let required = [
                ("match", #"match = "ILITEK*" (a device name glob, "vendor:product" or a device path)"#),
                ("screen", #"screen = "HDMI-A-1" (a connector name or a screen label)"#),
            ]
            for (key, example) in required where table[key] == nil {
                report(.missingKey(key, in: entryPath, valid: example, origin(entryPath, at: .key)))
                complete = false
            }
            if complete, let match, let screen {
                mappings.append(
                    TouchConfiguration(match: match, screen: screen, calibration: calibration, location: location(entryPath, at: .key)))
            }
        }
        return (mappings, references)
    }

    /// `[power]`: `wake-during-schedule` and the `[[power.schedule]]` entries.
    private mutating func readPower(_ value: TOML.Value, at path: ConfigKeyPath) -> PowerConfiguration {
        var power = PowerConfiguration()
        guard let table = table(value, at: path, valid: "a [power] table") else { return power }
        for key in table.keys {
            guard let value = table[key] else { continue }
            let keyPath = path.appending(key)
            switch key {
            case "wake-during-schedule":
                if let flag = boolean(value, at: keyPath) { power.wakeDuringSchedule = flag }
            case "schedule":
                guard case .array(let entries) = value else {
                    report(
                        .wrongType(
                            keyPath, expected: "an array of tables", found: value.typeName, valid: "[[power.schedule]] entries",
                            origin(keyPath, at: .value)))
                    continue
                }
                for index in 0..<entries.count {
                    let entryPath = keyPath.appending(index: index)
                    if let schedule = readSchedule(entries[index], at: entryPath) { power.schedules.append(schedule) }
                }
            default:
                report(.unknownKey(key, in: path, valid: Self.powerKeys, origin(keyPath, at: .key)))
            }
        }
        return power
    }

    private mutating func readSchedule(_ value: TOML.Value, at path: ConfigKeyPath) -> PowerSchedule? {
        guard let table = table(value, at: path, valid: "a [[power.schedule]] table") else { return nil }
        var days: Set<PowerSchedule.Weekday>?
        var off: Int?, on: Int?
        var screens: [String]?
        var complete = true
        for key in table.keys {
            guard let value = table[key] else { continue }
            let keyPath = path.appending(key)
            switch key {
            case "days":
                let words: [(String, ConfigKeyPath)]
                switch value {
                case .string(let text): words = [(text, keyPath)]
                case .array(let items):
                    words = items.enumerated().compactMap { index, item in
                        string(item, at: keyPath.appending(index: index), valid: PowerSchedule.validDays).map {
                            ($0, keyPath.appending(index: index))
                        }
                    }
                    if words.count != items.count { complete = false }
                default:
                    report(
                        .wrongType(
                            keyPath, expected: "a string or a list of strings", found: value.typeName, valid: PowerSchedule.validDays,
                            origin(keyPath, at: .value)))
                    complete = false
                    continue
                }
                var set: Set<PowerSchedule.Weekday> = []
                for (word, wordPath) in words {
                    guard let named = PowerSchedule.days(word) else {
                        report(
                            .invalidValue(
                                wordPath, "\"\(word)\" names no day", valid: PowerSchedule.validDays, origin(wordPath, at: .value)))
                        complete = false
                        continue
                    }
                    set.formUnion(named)
                }
                days = set
            case "off", "on":
                guard let text = string(value, at: keyPath, valid: PowerSchedule.validTime) else {
                    complete = false
                    continue
                }
                guard let minutes = PowerSchedule.minutes(text) else {
                    report(
                        .invalidValue(
                            keyPath, "\"\(text)\" is not a time of day", valid: PowerSchedule.validTime, origin(keyPath, at: .value)))
                    complete = false
                    continue
                }
                if key == "off" { off = minutes } else { on = minutes }
            case "screens":
                let valid = "a list of connector names, e.g. [\"HDMI-A-1\"]"
                guard case .array(let items) = value else {
                    report(
                        .wrongType(keyPath, expected: "a list of strings", found: value.typeName, valid: valid, origin(keyPath, at: .value))
                    )
                    complete = false
                    continue
                }
                var names: [String] = []
                for (index, item) in items.enumerated() {
                    let itemPath = keyPath.appending(index: index)
                    guard let name = string(item, at: itemPath, valid: valid) else {
                        complete = false
                        continue
                    }
                    // Connector names only: the runtime knows a screen by its connector (a label's display
                    // is found by its EDID inside the backend).
                    guard ConnectorName.isValid(name) else {
                        let hint = ConnectorName.correction(of: name).map { "; did you mean \"\($0)\"?" } ?? ""
                        report(
                            .invalidValue(
                                itemPath, "\"\(name)\" is not a connector name\(hint)", valid: valid, origin(itemPath, at: .value)))
                        complete = false
                        continue
                    }
                    names.append(name)
                }
                screens = names
            default:
                report(.unknownKey(key, in: path, valid: Self.scheduleKeys, origin(keyPath, at: .key)))
            }
        }
        let required = [
            ("days", #"days = "mon-fri" (or a list of day names)"#), ("off", #"off = "22:00""#), ("on", #"on = "07:00""#),
        ]
        for (key, example) in required where table[key] == nil {
            report(.missingKey(key, in: path, valid: example, origin(path, at: .key)))
            complete = false
        }
        if let off, let on, off == on {
            let keyPath = path.appending("on")
            report(
                .invalidValue(
                    keyPath, "the same time as off: the screens would never be off", valid: "a time other than off's",
                    origin(keyPath, at: .value)))
            complete = false
        }
        guard complete, let days, let off, let on else { return nil }
        return PowerSchedule(days: days, off: off, on: on, screens: screens, location: location(path, at: .key))
    }

    /// Exactly six finite numbers, integers allowed (`[1, 0, 0, 0, 1, 0]` is how people write identity).
    private mutating func readCalibration(_ value: TOML.Value, at path: ConfigKeyPath) -> [Double]? {
        let valid =
            "exactly 6 numbers a, b, c, d, e, f: the first two rows of a 3x3 matrix, as in LIBINPUT_CALIBRATION_MATRIX (e.g. [1.0, 0.0, 0.0, 0.0, 1.0, 0.0])"
        guard case .array(let array) = value else {
            report(.wrongType(path, expected: "an array", found: value.typeName, valid: valid, origin(path, at: .value)))
            return nil
        }
        var numbers: [Double] = []
        var isValid = true
        for index in 0..<array.count {
            let element = array[index]
            let elementPath = path.appending(index: index)
            let number: Double? =
                switch element {
                case .float(let number): number
                case .integer(let number): Double(number)
                default: nil
                }
            guard let number else {
                report(.wrongType(elementPath, expected: "a number", found: element.typeName, origin(elementPath, at: .value)))
                isValid = false
                continue
            }
            guard number.isFinite else {
                report(.invalidValue(elementPath, "\(number) is not a finite number", valid: nil, origin(elementPath, at: .value)))
                isValid = false
                continue
            }
            numbers.append(number)
        }
        if array.count != 6 {
            report(
                .invalidValue(path, "has \(array.count) \(array.count == 1 ? "number" : "numbers")", valid: valid, origin(path, at: .value))
            )
            return nil
        }
        // The 2x2 part's determinant: at 0 every touch would land on one line (or one point).
        if isValid, abs(numbers[0] * numbers[4] - numbers[1] * numbers[3]) < 1e-9 {
            report(
                .invalidValue(
                    path, "is singular: every touch would land on one line (a*e - b*d is 0)", valid: valid, origin(path, at: .value)))
            return nil
        }
        return isValid ? numbers : nil
    }

    // MARK: App settings

    /// `[app-settings]` against the keys the app declares: an undeclared key (with the declared ones, or the
    /// nearest of them), a value of another type. `values` is `table` as the app gets it; `table` gives the
    /// keys in file order and the TOML types named in messages.
    private mutating func checkAppSettings(
        _ table: TOML.Table, _ values: [String: ConfigValue], _ declared: [AppSetting], at path: ConfigKeyPath
    ) {
        for key in table.keys {
            guard let value = table[key], let converted = values[key] else { continue }
            let keyPath = path.appending(key)
            guard let setting = declared.first(where: { $0.key == key }) else {
                let origin = origin(keyPath, at: .key)
                report(
                    declared.isEmpty
                        ? .unknownKey(key, in: path, takesNone: "the app reads no [app-settings]", origin)
                        : .unknownKey(key, in: path, valid: declared.map(\.key), origin))
                continue
            }
            if !setting.kind.accepts(converted) {
                report(.wrongType(keyPath, expected: setting.kind.rawValue, found: value.typeName, origin(keyPath, at: .value)))
            }
        }
    }

    /// `[app-settings]` as the app sees it: anything TOML can say, copied as it is. The recursion is as deep
    /// as the parser allows (`TOML.maximumNesting`).
    private static func settings(_ table: TOML.Table) -> [String: ConfigValue] {
        var values: [String: ConfigValue] = [:]
        for key in table.keys { values[key] = table[key].map(setting) }
        return values
    }

    private static func setting(_ value: TOML.Value) -> ConfigValue {
        switch value {
        case .string(let text): .string(text)
        case .integer(let number): .integer(number)
        case .float(let number): .float(number)
        case .boolean(let flag): .boolean(flag)
        case .localDate(let text), .localTime(let text), .localDateTime(let text), .offsetDateTime(let text): .dateTime(text)
        case .array(let elements): .array(elements.map(setting))
        case .table(let table): .table(settings(table))
        }
    }

    // MARK: Types

    /// The value as a string, or nil with a type problem reported.
    private mutating func string(_ value: TOML.Value, at path: ConfigKeyPath, valid: String?) -> String? {
        if case .string(let text) = value {
            // Valid TOML, but settings end up in C APIs (seat names, device paths, globs) that would cut the
            // text there without a word.
            guard !text.unicodeScalars.contains("\0") else {
                report(
                    .invalidValue(path, "\\u0000 (NUL) is not allowed: the text would be cut there", valid: valid, origin(path, at: .value))
                )
                return nil
            }
            return text
        }
        report(.wrongType(path, expected: "a string", found: value.typeName, valid: valid, origin(path, at: .value)))
        return nil
    }

    private mutating func integer(_ value: TOML.Value, at path: ConfigKeyPath, valid: String? = nil) -> Int? {
        if case .integer(let number) = value { return number }
        report(.wrongType(path, expected: "an integer", found: value.typeName, valid: valid, origin(path, at: .value)))
        return nil
    }

    private mutating func boolean(_ value: TOML.Value, at path: ConfigKeyPath) -> Bool? {
        if case .boolean(let flag) = value { return flag }
        report(.wrongType(path, expected: "a boolean", found: value.typeName, valid: "true or false", origin(path, at: .value)))
        return nil
    }

    private mutating func table(_ value: TOML.Value, at path: ConfigKeyPath, valid: String?) -> TOML.Table? {
        if case .table(let table) = value { return table }
        report(.wrongType(path, expected: "a table", found: value.typeName, valid: valid, origin(path, at: .value)))
        return nil
    }

    // MARK: Locations

    enum Anchor {
        /// Point at the key (unknown keys, whole tables).
        case key
        /// Point at the value (wrong values and types).
        case value
    }

    /// Where to point for `path`: its own line and column when the document recorded it, else the line of the
    /// table it is in (no column: it would point at something else), else line 1.
    private func origin(_ path: ConfigKeyPath, at anchor: Anchor) -> ConfigProblem.Origin {
        let location = location(path, at: anchor)
        return .file(path: self.path, line: location?.line ?? 1, column: location?.column)
    }

    private func location(_ path: ConfigKeyPath, at anchor: Anchor) -> FilePosition? {
        guard let (found, exact) = document.nearest(path) else { return nil }
        guard exact else { return FilePosition(line: found.line) }
        switch anchor {
        case .key: return FilePosition(line: found.line, column: found.keyColumn)
        case .value: return FilePosition(line: found.line, column: found.valueColumn ?? found.keyColumn)
        }
    }

    private mutating func report(_ problem: ConfigProblem) {
        problems.append(problem)
    }
}
