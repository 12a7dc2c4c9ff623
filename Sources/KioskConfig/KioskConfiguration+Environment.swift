extension KioskConfiguration {
    /// Applies `KIOSK_*` overrides on top of the file (CONVENTIONS: one prefix for environment overrides).
    /// An empty variable counts as unset, as systemd's `Environment=KIOSK_X=` is the usual way to clear one.
    /// Returns the problems, each naming its variable.
    mutating func applyEnvironment(_ environment: [String: String], vocabulary: Vocabulary) -> [ConfigProblem] {
        var problems: [ConfigProblem] = []
        for setting in Self.settings {
            guard let variable = setting.environmentVariable, let text = environment[variable], !text.isEmpty else { continue }
            // A list is comma-separated (as XKB_DEFAULT_LAYOUT=us,de; spaces allowed), and replaces the file's.
            let values = setting.fileForm == .strings ? text.split { $0 == "," || $0 == " " }.map(String.init) : [text]
            setting.reset?(&self)
            if values.isEmpty, let problem = setting.emptyListProblem {
                problems.append(
                    ConfigProblem(
                        .invalidValue, .environment(variable: variable), keyPath: setting.key, message: problem,
                        valid: setting.valid(vocabulary)))
            }
            for value in values {
                if let problem = setting.apply(value, to: &self, vocabulary: vocabulary) ?? referenceProblem(setting) {
                    problems.append(
                        ConfigProblem(
                            .invalidValue, .environment(variable: variable), keyPath: setting.key,
                            message: problem.message, valid: problem.validText(for: setting, vocabulary: vocabulary)))
                }
            }
        }
        // Checked once both may have been set, so the order of the variables does not matter.
        let dimStage = Self.settings.filter { Self.dimStageKeys.contains($0.key) }.compactMap(\.environmentVariable)
        if let variable = dimStage.last(where: { !(environment[$0] ?? "").isEmpty }),
            let problem = dimStageProblem(origin: .environment(variable: variable))
        {
            problems.append(problem)
        }
        return problems
    }

    /// For a setting that names a screen of the file (`primary`), set from outside the file: whether it does.
    func referenceProblem(_ setting: Setting) -> ValueProblem? {
        guard setting.key == "primary", let primary else { return nil }
        return unknownScreen(primary)
    }

    /// Whether `name` is a screen of this configuration or could be one (a connector name needs no table).
    func namesScreen(_ name: String) -> Bool {
        ConnectorName.isValid(name) || screens.contains { $0.name == name && !$0.isFromCommandLine }
    }

    /// Why `name` names no screen (with a did-you-mean where one is close), or nil when it does.
    func unknownScreen(_ name: String) -> ValueProblem? {
        guard !namesScreen(name) else { return nil }
        let quoted = ConfigKeyPath.quote(name)
        let labels = screens.filter { !$0.isFromCommandLine }.map(\.name)
        if let suggestion = ConnectorName.correction(of: name) ?? Suggestion.closest(to: name, among: labels) {
            return ValueProblem("\(quoted) names no screen; did you mean \(ConfigKeyPath.quote(suggestion))?", valid: .none)
        }
        return ValueProblem("\(quoted) names no screen", valid: .text(screenReferenceSpelling))
    }

    /// What a screen reference may be, naming this file's labels.
    var screenReferenceSpelling: String {
        let labels = screens.filter { $0.connector == nil && !$0.isFromCommandLine }.map(\.name)
        if labels.isEmpty { return ConnectorName.validSpelling }
        return ConnectorName.validSpelling + " or a screen label of the file ("
            + labels.map { ConfigKeyPath.spell(key: $0) }.joined(separator: ", ") + ")"
    }
}

extension KioskConfiguration {
    /// The variables of the project's own scripts and tests, which a developer's or CI's environment holds
    /// when a kiosk starts there: none of them is the kiosk's, and none is a typo of a setting.
    static let toolVariables: Set<String> = [
        "KIOSK_REQUIRE_VM", "KIOSK_RECORD_GOLDEN", "KIOSK_DEBIAN_MIRROR", "KIOSK_TEXT_STACK_DIR", "KIOSK_USER",
        "KIOSK_INSTALL_BUILD_DIR", "KIOSK_BINARY",
    ]
    /// Prefixes of the system tests' variables (`KIOSK_VM_KEEP`, `KIOSK_SOAK_MINUTES`).
    static let toolVariablePrefixes = ["KIOSK_VM_", "KIOSK_SOAK_"]

    /// A warning for each `KIOSK_*` variable of `environment` the kiosk does not read (a typo in a systemd
    /// drop-in would otherwise be ignored without a word), naming the nearest valid variable where one is
    /// close; in the variables' order.
    public static func unknownVariableWarnings(in environment: [String: String]) -> [String] {
        let known = ["KIOSK_CONFIG"] + environmentVariables
        return environment.keys.sorted().compactMap { name in
            guard name.hasPrefix("KIOSK_"), !known.contains(name), !toolVariables.contains(name),
                !toolVariablePrefixes.contains(where: { name.hasPrefix($0) })
            else { return nil }
            let hint =
                Suggestion.closest(to: name, among: known).map { "; did you mean \($0)?" }
                ?? " (`kiosk run --help` lists each setting's variable)"
            return "environment \(name): no setting has this variable, so it is ignored\(hint)"
        }
    }
}
