import Geometry

extension KioskConfiguration {
    /// The configured sizes that a connector does not offer, each with the modes it does offer, at the line
    /// of the `mode` key: CONVENTIONS' "a size not offered → an error that lists the offered modes, then
    /// fall back to preferred" (the fallback is the runtime's). Only the size counts: a refresh rate that
    /// does not match exactly picks the nearest, which is not a problem.
    ///
    /// - Parameters:
    ///   - offered: each connected connector's modes, by connector name. Connectors not in it (not
    ///     connected now) are not checked.
    ///   - connectorOfLabel: for screens matched by EDID, the connector each label's display was found on.
    public func modeProblems(offered: [String: [DisplayMode]], connectorOfLabel: [String: String] = [:]) -> [ConfigProblem] {
        var problems: [ConfigProblem] = []
        for screen in screens {
            guard case let .size(width, height, _) = screen.mode,
                let connector = screen.connector ?? connectorOfLabel[screen.name],
                let modes = offered[connector],
                !modes.contains(where: { $0.width == width && $0.height == height })
            else { continue }
            let keyPath = ConfigKeyPath(["screens", screen.name, "mode"].map(ConfigKeyPath.Component.key))
            let location = screen.modeLocation ?? screen.location
            var seen = Set<String>()
            let spelled = modes.map(\.description).filter { seen.insert($0).inserted }
            problems.append(
                ConfigProblem(
                    .modeNotOffered, .file(path: path ?? "", line: location?.line, column: location?.column),
                    keyPath: keyPath.description,
                    message: "\(screen.mode.map { "\($0)" } ?? "") is not offered by \(connector)",
                    valid: spelled.isEmpty ? "none: the connector lists no modes" : spelled.joined(separator: ", ")))
        }
        return problems
    }
}
