import Backlight
import DRM
import KioskConfig
import KioskKit
import KioskTesting
import Logging
import Synchronization

@testable import DRMDisplay

/// A `DRMDisplay` on an in-memory card (`InMemoryCard`), as `init(context:)` would make it on a kernel's
/// card but without udev or a seat, in a fresh application on a manual clock; what it logs is kept in
/// `logs`. `probe()` is what start and every hotplug do: read the connectors, plan, light, connect.
@MainActor
struct SeamFixture {
    let card: InMemoryCard
    let display: DRMDisplay
    let logs = LogRecorder()

    /// `configuration` is a kiosk.toml's text.
    init(card: InMemoryCard, configuration text: String = "") throws {
        self.card = card
        let application = Application.reset()
        application.clock = ManualClock(now: 100)
        let configuration = try KioskConfiguration.parse(text: text).get()
        let logs = self.logs
        display = DRMDisplay(
            card: card, path: "/dev/dri/card0", cardNumber: 0, usesAtomic: !configuration.noAtomic && card.enableAtomic(),
            resources: try card.resources(), application: application, configuration: configuration, launchScreen: nil,
            backlights: InMemoryBacklightClass(), logger: { label in Logger(label: label) { _ in RecordingLogHandler(recorder: logs) } })
    }

    /// A display on `card` after a probe and the app's first frame on every screen that connected.
    static func shown(_ card: InMemoryCard, configuration text: String = "") throws -> SeamFixture {
        let fixture = try SeamFixture(card: card, configuration: text)
        fixture.probe()
        for screen in fixture.display.screens where screen.isConnected { fixture.presentFirstFrame(on: screen.name) }
        return fixture
    }

    func probe() { display.update(log: display.hotplugLog) }

    func screen(_ name: String) -> Screen? { display.screens.first { $0.name == name } }

    /// The app's first frame on `name`'s screen: what shows an output lit without a launch screen.
    func presentFirstFrame(on name: String) {
        guard let screen = screen(name), let buffer = display.nextBuffer(for: screen) else { return }
        display.present(buffer, for: screen, damage: Region())
    }

    /// The commits since `count` of them, for what one step of a test did.
    func commits(since count: Int) -> ArraySlice<InMemoryCard.Commit> { card.commits[count...] }
}

/// What was logged, line by line with its level.
final class LogRecorder: Sendable {
    private let lines = Mutex<[(level: Logger.Level, message: String)]>([])

    func append(_ level: Logger.Level, _ message: String) { lines.withLock { $0.append((level, message)) } }

    var all: [(level: Logger.Level, message: String)] { lines.withLock { $0 } }

    /// Whether a line at `level` contains `text`.
    func contains(_ text: String, at level: Logger.Level) -> Bool { all.contains { $0.level == level && $0.message.contains(text) } }
}

struct RecordingLogHandler: LogHandler {
    let recorder: LogRecorder
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) { recorder.append(event.level, "\(event.message)") }
}

/// Modes as a display's EDID lists them (`kernelMode` in OutputPlannerTests: exact refresh rates).
enum Modes {
    static let fullHD = kernelMode(1920, 1080, 60, preferred: true)
    static let hd = kernelMode(1280, 720, 60)
    static let xga = kernelMode(1024, 768, 60, preferred: true)
    static let svga = kernelMode(800, 600, 60)
}

extension InMemoryCard {
    /// Two CRTCs (31, 32) with a primary plane each (101, 102); HDMI-A-1 (connector 40: 1920x1080
    /// preferred, 1280x720) and DP-1 (41: 1024x768 preferred, 800x600), either on either CRTC.
    static func twoDisplays() -> InMemoryCard {
        let card = InMemoryCard(crtcs: [31, 32])
        card.addConnector(40, type: 11, index: 1, modes: [Modes.fullHD, Modes.hd], crtcs: [31, 32])
        card.addConnector(41, type: 10, index: 1, modes: [Modes.xga, Modes.svga], crtcs: [31, 32])
        return card
    }
}
