import DRMDisplay
import Glibc
import KioskBackend
import KioskConfig
import KioskRuntime
import LibInputBackend

extension KioskCommand {
    /// `kiosk inputs`: every input device and the screen it maps to, and why.
    struct Inputs {
        static let command = Commands.Command(
            name: "inputs",
            abstract: "List input devices: capabilities, size, udev properties, and the screen each maps to and why.",
            discussion: """
                The mapping is the kiosk's own, with the config file's [[touch]] rules (--config FILE, KIOSK_CONFIG) \
                and --touch MATCH=SCREEN rules before them; --seat SEAT lists another seat. Opens the devices \
                directly: run as root or as a member of the input group.
                """,
            options: [.flag("json", help: "Print JSON (a list of devices) instead of text.")],
            settingsHelp: "--config FILE, --seat SEAT, --touch MATCH=SCREEN.")

        let json: Bool
        let settings: [String]

        init(_ invocation: Commands.Invocation) {
            json = invocation.flags.contains("json")
            settings = invocation.settings
        }

        func run() throws(CommandExit) {
            let configuration = try SettingsArguments.configuration(settings, accepting: ["seat", "touch"], readFile: true)
            // The screens the mapping chooses among: the connected connectors, the primary (else the first) as main.
            let connected = DRMCards.read().flatMap(\.connectors).filter(\.isConnected)
            let main = connected.first { $0.name == configuration.primary } ?? connected.first
            let screens = connected.map { connector in
                TouchMapping.Screen(name: connector.name, physicalSize: connector.physicalSize, isMain: connector.name == main?.name)
            }
            let devices: [LibInputBackend.ListedDevice]
            // Commands run on the main thread; libinput lives on the main actor.
            let seat = configuration.seat
            do { devices = try MainActor.assumeIsolated { () throws(BackendError) in try LibInputBackend.listDevices(seat: seat) } } catch {
                StandardError.write("kiosk inputs: \(error)")
                throw CommandExit(status: ExitStatus.problemsFound)
            }
            let report = InputReport(devices: devices, screens: screens, rules: configuration.touch)
            print(json ? report.json : report.text, terminator: json ? "\n" : "")
        }
    }
}
