extension KioskConfiguration {
    /// The variables that override the file's common keys, in the order they are applied.
    public static let environmentVariables = Setting.allCases.map(\.environmentVariable)

    /// Applies `KIOSK_*` overrides on top of the file (CONVENTIONS: one prefix for environment overrides).
    /// An empty variable counts as unset, as systemd's `Environment=KIOSK_X=` is the usual way to clear one.
    /// Returns the problems, each naming its variable.
    mutating func applyEnvironment(_ environment: [String: String], knownApps: [String]) -> [ConfigProblem] {
        var problems: [ConfigProblem] = []
        for setting in Setting.allCases {
            let variable = setting.environmentVariable
            guard let text = environment[variable], !text.isEmpty else { continue }
            if !setting.apply(text, to: &self, knownApps: knownApps) {
                problems.append(.environment(variable, key: setting.rawValue, value: text, valid: setting.valid(knownApps: knownApps)))
            } else if setting == .primary, !namesScreen(text) {
                problems.append(.environment(variable, key: setting.rawValue, value: text, valid: screenReferenceSpelling))
            }
        }
        return problems
    }

    /// Whether `name` is a screen of this configuration or could be one (a connector name needs no table).
    func namesScreen(_ name: String) -> Bool {
        ConnectorName.isValid(name) || screens.contains { $0.name == name }
    }

    /// What a screen reference may be, naming this file's labels.
    var screenReferenceSpelling: String {
        let labels = screens.filter { $0.connector == nil }.map(\.name)
        if labels.isEmpty { return ConnectorName.validSpelling }
        return ConnectorName.validSpelling + " or a screen label of the file ("
            + labels.map { ConfigKeyPath.spell(key: $0) }.joined(separator: ", ") + ")"
    }
}
