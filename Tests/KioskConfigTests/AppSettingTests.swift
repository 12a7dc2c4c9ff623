import Testing

@testable import KioskConfig

/// `[app-settings]` against the keys an app declares: checked like the kiosk's own keys, at their lines.
@Suite struct AppSettingTests {
    static let declared = [
        AppSetting("title", .string), AppSetting("retries", .integer), AppSetting("volume", .number),
        AppSetting("sound", .boolean),
    ]

    private func problems(_ table: String, declared: [AppSetting]? = AppSettingTests.declared) -> [String] {
        let vocabulary = Vocabulary(appSettings: declared)
        switch KioskConfiguration.parse(text: "cursor = \"auto\"\n[app-settings]\n" + table, path: configPath, vocabulary: vocabulary) {
        case .success: return []
        case let .failure(errors): return errors.problems.map(\.description)
        }
    }

    @Test(arguments: [
        // Every declared kind, as written.
        ("title = \"Lobby\"\nretries = 3\nvolume = 0.5\nsound = false\n", []),
        // An integer is a number (volume = 1), as `ConfigValue.number` reads it.
        ("volume = 1\n", []),
        ("title = 3\n", ["\(configPath):3:9: app-settings.title must be a string, not an integer"]),
        ("retries = 2.5\n", ["\(configPath):3:11: app-settings.retries must be an integer, not a float"]),
        ("volume = \"loud\"\n", ["\(configPath):3:10: app-settings.volume must be a number, not a string"]),
        ("sound = \"no\"\n", ["\(configPath):3:9: app-settings.sound must be a boolean, not a string"]),
        ("sound = [true]\n", ["\(configPath):3:9: app-settings.sound must be a boolean, not an array"]),
        ("when = 07:30:00\n", ["\(configPath):3:1: app-settings: unknown key \"when\"; valid: title, retries, volume, sound"]),
        ("sounds = true\n", ["\(configPath):3:1: app-settings: unknown key \"sounds\"; did you mean \"sound\"?"]),
        // A sub-table the app does not declare, at its name in the header.
        (
            "[app-settings.extra]\nx = 1\n",
            ["\(configPath):3:15: app-settings: unknown key \"extra\"; valid: title, retries, volume, sound"]
        ),
        // Every problem at once, in file order.
        (
            "sound = 1\ntitel = \"Lobby\"\n",
            [
                "\(configPath):3:9: app-settings.sound must be a boolean, not an integer",
                "\(configPath):4:1: app-settings: unknown key \"titel\"; did you mean \"title\"?",
            ]
        ),
    ])
    func declaredSettingsAreChecked(table: String, expected: [String]) {
        #expect(problems(table) == expected)
    }

    /// Undeclared, the table is the app's: anything TOML can say is handed over.
    @Test func undeclaredTableIsHandedOverAsWritten() throws {
        #expect(problems("anything = [1, \"two\"]\nwhen = 07:30:00\n[app-settings.nested]\nx = 1\n", declared: nil).isEmpty)
        // Declared as none: the app reads no settings, so any key is a mistake.
        #expect(
            problems("x = 1\n", declared: []) == ["\(configPath):3:1: app-settings: unknown key \"x\": the app reads no [app-settings]"])
    }

    /// Each kind accepts its own values and no other (`number`: integers too).
    @Test func kindsAcceptTheirValues() {
        let values: [ConfigValue] = [
            .string("a"), .integer(1), .float(1.5), .boolean(true), .dateTime("07:30:00"), .array([]), .table([:]),
        ]
        let accepted = AppSetting.Kind.allCases.map { kind in values.filter(kind.accepts) }
        #expect(accepted == [[.string("a")], [.integer(1)], [.integer(1), .float(1.5)], [.boolean(true)]])
    }
}
