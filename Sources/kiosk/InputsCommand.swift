import ArgumentParser
import Foundation
import KioskKit
import KioskRuntime

extension KioskCommand {
    /// `kiosk inputs`: every input device and the screen it maps to, and why.
    struct Inputs: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List input devices: capabilities, size, udev properties, and the screen each maps to and why.",
            discussion: "Opens the devices directly: run as root or as a member of the input group."
        )

        @Flag(help: "Print JSON (a list of devices) instead of text.")
        var json = false

        @Option(name: .customLong("seat"), help: "The udev seat (default seat0).")
        var seat = "seat0"

        @Option(name: .customLong("touch"), help: "A mapping rule as `kiosk run --touch` takes it, MATCH=SCREEN; repeatable.")
        var touch: [String] = []

        func run() throws {
            let rules = try Run.touchRules(touch)
            // The screens the mapping chooses among: the connected connectors, the first one as main.
            let connected = ScreenReport.read().cards.flatMap(\.connectors).filter { $0.status == "connected" }
            let screens = connected.enumerated().map { index, connector in
                TouchMapping.Screen(name: connector.name,
                                    physicalSize: connector.widthMillimeters > 0
                                        ? Size(width: Double(connector.widthMillimeters), height: Double(connector.heightMillimeters)) : nil,
                                    isMain: index == 0)
            }
            try MainActor.assumeIsolated {
                let report = try InputReport.read(seat: seat, screens: screens, rules: rules)
                print(json ? report.json : report.text, terminator: json ? "\n" : "")
            }
        }
    }
}
