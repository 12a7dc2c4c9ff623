import Foundation
import KioskConfig
import Testing

/// The path messages use in these tests, as on a board.
let configPath = "/etc/kiosk/kiosk.toml"

/// What the `kiosk` program knows: its app and display backends.
let kioskVocabulary = Vocabulary(apps: ["demo"], backends: ["drm", "fbdev", "headless"])

/// The messages for `text`, one string each, in order; empty when the file is valid.
func messages(_ text: String, environment: [String: String] = [:]) -> [String] {
    switch KioskConfiguration.parse(text: text, path: configPath, environment: environment, vocabulary: kioskVocabulary) {
    case .success: []
    case let .failure(errors): errors.problems.map(\.description)
    }
}

/// The configuration `text` describes; records an issue (with the messages) when it has problems.
func configuration(
    _ text: String, environment: [String: String] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> KioskConfiguration {
    switch KioskConfiguration.parse(text: text, path: configPath, environment: environment, vocabulary: kioskVocabulary) {
    case let .success(configuration):
        return configuration
    case let .failure(errors):
        Issue.record("unexpected problems:\n\(errors)", sourceLocation: sourceLocation)
        throw errors
    }
}

/// `Kiosk/kiosk.toml` in this checkout.
let examplePath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Kiosk/kiosk.toml").path

func exampleText() throws -> String {
    try String(contentsOfFile: examplePath, encoding: .utf8)
}
