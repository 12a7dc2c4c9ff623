import ArgumentParser
import KioskKit

/// `kiosk`: the kiosk runtime's command line.
@main
struct KioskCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiosk",
        abstract: "A kiosk runtime for embedded Linux: UIKit-style windows on DRM/KMS screens, touch through libinput.",
        version: KioskVersion.string
    )

    func run() throws {
        print(Self.helpMessage())
    }
}

enum KioskVersion {
    static let string = "0.1.0"
}
