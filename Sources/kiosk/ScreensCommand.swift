import ArgumentParser
import Foundation
import KioskRuntime

extension KioskCommand {
    /// `kiosk screens`: every card and connector, for a person writing a config.
    struct Screens: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the DRM cards and their connectors: status, every mode (preferred and current marked), size, EDID.",
            discussion: "Reads the cards without taking them over; run it while the kiosk is stopped to see fresh probes."
        )

        @Flag(help: "Print JSON (a list of connectors) instead of text.")
        var json = false

        @Option(name: .customLong("drm-device"), help: "Only this card (default: every /dev/dri/card*).")
        var drmDevice: String?

        func run() throws {
            let report = ScreenReport.read(cards: drmDevice.map { [$0] })
            if json {
                print(report.json)
            } else {
                print(report.text, terminator: "")
            }
            if report.cards.isEmpty && !json {
                FileHandle.standardError.write(Data("kiosk: no DRM card found (/dev/dri/card*); on a machine without a display `kiosk run` uses the headless backend\n".utf8))
            }
        }
    }
}
