import CEC
import CECControl
import KioskBackend
import KioskConfig
import KioskKit
import KioskTesting
import Testing

/// The controller against in-memory twins of the adapters: which screens' TVs follow which power changes,
/// the messages on the bus, logical addresses, and what goes wrong (never fatally).
@MainActor
struct CECControllerTests {
    /// A kiosk with two HDMI screens on card 0 (connectors 34 and 41) and the adapters given.
    @MainActor
    final class Bed {
        let application = Application.reset()
        let clock = ManualClock(now: 100)
        let backend = InMemoryDisplayBackend()
        let adapters: [String: InMemoryCECAdapter]
        var opened: [String] = []
        var transmissions: [CECController.Transmission] = []
        let controller: CECController
        let tv: Screen
        let monitor: Screen
        /// The screens' settings as the display backend would resolve them (by name: the twin reads no
        /// EDID), which the controller reads.
        final class Settings { var store = ScreenSettingsStore() }
        let settings = Settings()

        init(_ adapters: [InMemoryCECAdapter], configuration: KioskConfiguration = KioskConfiguration()) {
            application.clock = clock
            self.adapters = Dictionary(uniqueKeysWithValues: adapters.map { ($0.path, $0) })
            let mode = Screen.Mode(width: 1920, height: 1080, refreshRate: 60)
            tv = backend.connect("HDMI-A-1", modes: [mode])
            monitor = backend.connect("HDMI-A-2", modes: [mode])
            let ids = ["HDMI-A-1": UInt32(34), "HDMI-A-2": 41]
            var opened: [String] = []
            let twins = self.adapters
            let settings = self.settings
            settings.store.resolve([("HDMI-A-1", nil), ("HDMI-A-2", nil)], in: configuration)
            controller = CECController(
                application: application, configuration: configuration,
                connectorOf: { screen in ids[screen.name].map { ConnectorIdentity(card: 0, connector: $0) } },
                settingsOf: { screen in settings.store[screen.name] },
                nodes: { twins.keys.sorted() },
                open: { path throws(CECError) in
                    guard let twin = twins[path] else { throw CECError(operation: "open", errno: 2, detail: path) }
                    opened.append(path)
                    return twin.open()
                })
            controller.transmissionObserver = { [unowned self] in transmissions.append($0) }
            controller.start()
            self.opened = opened
        }

        /// A reload as the runtime does it: the backend resolves the screens' settings again, then the
        /// controller is told.
        func reconfigure(_ configuration: KioskConfiguration) {
            settings.store.resolveAgain(in: configuration)
            controller.reconfigure(configuration)
        }

        func power(_ screen: Screen, _ state: Screen.PowerState, _ reason: String) {
            #expect(throws: Never.self) { try screen.setPower(state, reason: reason) }
        }

        /// The bytes each adapter sent, in order.
        func bytes(_ path: String) -> [[UInt8]] { adapters[path]!.sent.map(\.bytes) }

        func finish() { for adapter in adapters.values { adapter.finishTransmissions() } }
    }

    static func tied(_ path: String, _ connector: UInt32, devices: Set<CECLogicalAddress> = [.tv]) -> InMemoryCECAdapter {
        InMemoryCECAdapter(path: path, connector: .drm(card: 0, connector: connector), devices: devices)
    }

    @Test func theScheduleAndTheControlSocketPutTheTVInStandbyAndWakeIt() throws {
        let bed = Bed([Self.tied("/dev/cec0", 34)])
        #expect(bed.controller.adapterPath(for: bed.tv) == "/dev/cec0")
        #expect(bed.controller.adapterPath(for: bed.monitor) == nil)
        // Claimed a Playback Device address (4) at start, since none was configured.
        #expect(try bed.adapters["/dev/cec0"]!.logicalAddresses().addresses == [.playbackDevice1])
        bed.power(bed.tv, .off, "schedule")
        #expect(bed.bytes("/dev/cec0") == [[0x40, 0x36]])
        bed.power(bed.tv, .on, "schedule")
        #expect(bed.bytes("/dev/cec0") == [[0x40, 0x36], [0x40, 0x04], [0x4f, 0x82, 0x10, 0x00]])
        bed.power(bed.tv, .off, "control")
        bed.power(bed.tv, .on, "control")
        #expect(bed.bytes("/dev/cec0").count == 6)
        // Each queued, then sent (the TV acknowledges; Active Source is a broadcast).
        bed.finish()
        #expect(bed.transmissions.filter { $0.outcome == .queued }.count == 6)
        #expect(bed.transmissions.filter { $0.outcome == .sent }.count == 6)
        #expect(bed.transmissions.map(\.screen).allSatisfy { $0 == "HDMI-A-1" })
        #expect(bed.transmissions.first?.reason == "schedule")
    }

    /// Idle blanking leaves the TV on unless `cec-on-idle`; a screen without an adapter sends nothing.
    @Test func idleBlankingFollowsOnlyWithCECOnIdle() {
        let bed = Bed([Self.tied("/dev/cec0", 34)])
        bed.power(bed.tv, .off, "idle for 300 s")
        bed.power(bed.tv, .on, "input")
        bed.power(bed.monitor, .off, "schedule")
        #expect(bed.bytes("/dev/cec0").isEmpty)
        var configuration = KioskConfiguration()
        configuration.cecOnIdle = true
        bed.reconfigure(configuration)
        bed.power(bed.tv, .off, "idle for 300 s")
        // The touch that wakes the screen wakes the TV it sent to standby.
        bed.power(bed.tv, .on, "input")
        #expect(bed.bytes("/dev/cec0") == [[0x40, 0x36], [0x40, 0x04], [0x4f, 0x82, 0x10, 0x00]])
        // An app's own power changes are not followed.
        bed.power(bed.tv, .off, "app")
        bed.power(bed.tv, .on, "app")
        #expect(bed.bytes("/dev/cec0").count == 3)
    }

    /// A screen turned off by the schedule and woken by a touch gets its TV back.
    @Test func aTouchAfterAScheduledOffWakesTheTV() {
        let bed = Bed([Self.tied("/dev/cec0", 34)])
        bed.power(bed.tv, .off, "schedule")
        bed.power(bed.tv, .on, "input")
        #expect(bed.bytes("/dev/cec0") == [[0x40, 0x36], [0x40, 0x04], [0x4f, 0x82, 0x10, 0x00]])
        // Woken once: the next idle blanking and touch send nothing.
        bed.power(bed.tv, .off, "idle for 300 s")
        bed.power(bed.tv, .on, "input")
        #expect(bed.bytes("/dev/cec0").count == 3)
    }

    /// `[screens.NAME] cec`: a path names an adapter the kernel ties to no connector; off turns it off.
    @Test func configuredAdapters() throws {
        let usb = InMemoryCECAdapter(path: "/dev/cec2")
        var configuration = KioskConfiguration()
        configuration.screens = [ScreenConfiguration(name: "HDMI-A-2"), ScreenConfiguration(name: "HDMI-A-1")]
        configuration.screens[0].cec = .device("/dev/cec2")
        configuration.screens[1].cec = .off
        let bed = Bed([Self.tied("/dev/cec0", 34), usb], configuration: configuration)
        #expect(bed.controller.adapterPath(for: bed.tv) == nil)
        #expect(bed.controller.adapterPath(for: bed.monitor) == "/dev/cec2")
        bed.power(bed.tv, .off, "schedule")
        bed.power(bed.monitor, .off, "schedule")
        #expect(bed.bytes("/dev/cec0").isEmpty)
        #expect(bed.bytes("/dev/cec2") == [[0x40, 0x36]])
        // The unused adapter was read for its connector and closed.
        #expect(bed.adapters["/dev/cec0"]!.isClosed)
        // A reload that sets HDMI-A-1 back to auto finds its adapter.
        configuration.screens[1].cec = nil
        bed.reconfigure(configuration)
        #expect(bed.controller.adapterPath(for: bed.tv) == "/dev/cec0")
    }

    /// The adapter is the one the display backend's resolved settings name (`settingsOf`), not what the
    /// configuration handed to the controller says: a screen's settings are resolved once, by the backend.
    @Test func theBackendsResolvedSettingsNameTheAdapter() throws {
        let usb = InMemoryCECAdapter(path: "/dev/cec2")
        let bed = Bed([Self.tied("/dev/cec0", 34), usb])
        #expect(bed.controller.adapterPath(for: bed.tv) == "/dev/cec0")
        var configuration = KioskConfiguration()
        configuration.screens = [ScreenConfiguration(name: "HDMI-A-1", edid: .init(make: "SAM"))]
        configuration.screens[0].cec = .device("/dev/cec2")
        // The backend read the Samsung on HDMI-A-1; the controller is told of the reload with a
        // configuration it could not match by EDID itself.
        bed.settings.store.resolve([("HDMI-A-1", .init(make: "SAM", model: "SAMSUNG"))], in: configuration)
        bed.controller.reconfigure(KioskConfiguration())
        #expect(bed.controller.adapterPath(for: bed.tv) == "/dev/cec2")
        // Another display on HDMI-A-1 (a hotplug with another EDID): the backend resolves auto again.
        bed.settings.store.resolve([("HDMI-A-1", .init(make: "DEL"))], in: configuration)
        bed.backend.disconnect("HDMI-A-1")
        bed.backend.connect("HDMI-A-1", modes: [Screen.Mode(width: 1920, height: 1080, refreshRate: 60)])
        #expect(bed.controller.adapterPath(for: bed.tv) == "/dev/cec0")
    }

    /// An adapter configured earlier (an earlier run, cec-ctl) keeps its address; none is claimed again.
    @Test func anAdapterThatHasAnAddressKeepsIt() throws {
        let adapter = InMemoryCECAdapter(
            path: "/dev/cec0", connector: .drm(card: 0, connector: 34),
            claimed: CECLogicalAddressState(addresses: [.tuner1], requested: [.tuner]))
        let bed = Bed([adapter])
        #expect(try adapter.logicalAddresses().addresses == [.tuner1])
        bed.power(bed.tv, .off, "schedule")
        #expect(bed.bytes("/dev/cec0") == [[0x30, 0x36]])
    }

    /// Nobody acknowledges Standby (no TV at 0): an error with the adapter and the reason, and the kiosk goes on.
    @Test func aMessageNobodyAcknowledgesIsReported() {
        let bed = Bed([Self.tied("/dev/cec0", 34, devices: [])])
        bed.power(bed.tv, .off, "schedule")
        bed.finish()
        #expect(
            bed.transmissions.last
                == CECController.Transmission(
                    screen: "HDMI-A-1", adapter: "/dev/cec0", message: .standby(from: .playbackDevice1), reason: "schedule",
                    outcome: .failed([.notAcknowledged, .maximumRetries])))
        bed.power(bed.tv, .on, "schedule")
        bed.finish()
        #expect(bed.transmissions.last?.outcome == .sent)
    }

    /// A TV that dropped hotplug detect in standby: the adapter has no physical address, so no logical one.
    /// Standby cannot be sent; Image View On goes out from unregistered (15), and Active Source once the TV
    /// is on and the adapter has its addresses again.
    @Test func wakingATVThatDroppedHotplugDetect() {
        let adapter = Self.tied("/dev/cec0", 34)
        let bed = Bed([adapter])
        adapter.setPhysicalAddress(.invalid)
        bed.power(bed.tv, .off, "schedule")
        #expect(adapter.sent.isEmpty)
        guard case .refused(let why) = bed.transmissions.last?.outcome else {
            Issue.record("Standby was not refused: \(bed.transmissions)")
            return
        }
        #expect(why == "/dev/cec0 has no physical address (hotplug detect is low: no TV connected, or one that is off)")
        bed.power(bed.tv, .on, "schedule")
        #expect(bed.bytes("/dev/cec0") == [[0xf0, 0x04]])
        bed.clock.advance(by: 1)
        bed.clock.advance(by: 1)
        #expect(adapter.sent.count == 1)
        adapter.setPhysicalAddress(CECPhysicalAddress(rawValue: 0x2000))
        bed.clock.advance(by: 1)
        #expect(bed.bytes("/dev/cec0") == [[0xf0, 0x04], [0x4f, 0x82, 0x20, 0x00]])
        #expect(bed.clock.pendingTimers.isEmpty)
        // Gives up after a while, and says so.
        adapter.setPhysicalAddress(.invalid)
        bed.power(bed.tv, .off, "schedule")
        bed.power(bed.tv, .on, "schedule")
        for _ in 0..<20 { bed.clock.advance(by: 1) }
        #expect(bed.clock.pendingTimers.isEmpty)
        #expect(bed.transmissions.last?.message.opcode == .activeSource)
        #expect(bed.transmissions.last.map { if case .refused = $0.outcome { true } else { false } } == true)
    }

    /// A TV that drops hotplug detect in standby takes its screen away: the adapter stays open, and the
    /// schedule's `on` sends Image View On (from Unregistered once the adapter lost its addresses); Active
    /// Source follows when the screen connects again.
    @Test func aTVWhoseScreenWentAwayInStandbyIsWokenAndShownThisInput() {
        let adapter = Self.tied("/dev/cec0", 34)
        let bed = Bed([adapter])
        #expect(!bed.controller.wakeDisconnected("HDMI-A-1", reason: "schedule"))
        bed.power(bed.tv, .off, "schedule")
        adapter.setPhysicalAddress(.invalid)
        bed.backend.disconnect("HDMI-A-1")
        #expect(!adapter.isClosed && bed.controller.canWakeDisconnected("HDMI-A-1"))
        // Idle blanking is not followed (no cec-on-idle), and the other screen has no TV in standby.
        #expect(!bed.controller.wakeDisconnected("HDMI-A-1", reason: "idle for 300 s"))
        #expect(!bed.controller.wakeDisconnected("HDMI-A-2", reason: "schedule"))
        #expect(bed.controller.wakeDisconnected("HDMI-A-1", reason: "schedule"))
        #expect(bed.bytes("/dev/cec0") == [[0x40, 0x36], [0xf0, 0x04]])
        #expect(bed.transmissions.last?.screen == "HDMI-A-1" && bed.transmissions.last?.reason == "schedule")
        // The TV is on and raises hotplug detect: addresses again, the screen back, Active Source.
        adapter.setPhysicalAddress(CECPhysicalAddress(rawValue: 0x1000))
        bed.backend.connect("HDMI-A-1", modes: [Screen.Mode(width: 1920, height: 1080, refreshRate: 60)])
        #expect(bed.bytes("/dev/cec0") == [[0x40, 0x36], [0xf0, 0x04], [0x4f, 0x82, 0x10, 0x00]])
        #expect(!bed.controller.canWakeDisconnected("HDMI-A-1"))
        // Away again while on: nothing to wake, and the adapter is given back.
        bed.backend.disconnect("HDMI-A-1")
        #expect(adapter.isClosed && !bed.controller.canWakeDisconnected("HDMI-A-1"))
    }

    /// A screen that comes back before anything woke its TV (someone used the remote) sends nothing; a
    /// reload that turns HDMI-CEC off for an away screen gives its adapter back.
    @Test func anAwayTVIsForgottenWhenItsScreenReturnsOrItsHDMICECIsTurnedOff() {
        let adapter = Self.tied("/dev/cec0", 34)
        let bed = Bed([adapter])
        bed.power(bed.tv, .off, "schedule")
        bed.backend.disconnect("HDMI-A-1")
        bed.backend.connect("HDMI-A-1", modes: [Screen.Mode(width: 1920, height: 1080, refreshRate: 60)])
        #expect(bed.bytes("/dev/cec0") == [[0x40, 0x36]])
        #expect(!bed.controller.canWakeDisconnected("HDMI-A-1"))
        bed.power(bed.tv, .off, "schedule")
        bed.backend.disconnect("HDMI-A-1")
        #expect(!adapter.isClosed)
        var configuration = KioskConfiguration()
        configuration.screens = [ScreenConfiguration(name: "HDMI-A-1")]
        configuration.screens[0].cec = .off
        bed.reconfigure(configuration)
        #expect(adapter.isClosed && !bed.controller.wakeDisconnected("HDMI-A-1", reason: "schedule"))
    }

    /// A kiosk that starts inside a scheduled off turns its screen off while the adapter is still claiming
    /// its logical address: Standby waits for the address (it was refused, and the TV stayed on all
    /// night); a screen back on meanwhile sends nothing.
    @Test func standbyWaitsForTheAddressBeingClaimed() {
        let adapter = Self.tied("/dev/cec0", 34)
        adapter.claimsTakeTime = true
        let bed = Bed([adapter])
        bed.power(bed.tv, .off, "schedule")
        #expect(adapter.sent.isEmpty && bed.transmissions.isEmpty)
        bed.clock.advance(by: 1)
        adapter.finishClaim()
        bed.clock.advance(by: 1)
        #expect(bed.bytes("/dev/cec0") == [[0x40, 0x36]])
        #expect(bed.clock.pendingTimers.isEmpty)
        // Turned on before the address came: the Standby is dropped, the wake goes out.
        let second = Self.tied("/dev/cec1", 41)
        second.claimsTakeTime = true
        let other = Bed([second])
        other.power(other.monitor, .off, "schedule")
        other.power(other.monitor, .on, "schedule")
        second.finishClaim()
        for _ in 0..<3 { other.clock.advance(by: 1) }
        #expect(other.bytes("/dev/cec1") == [[0xf0, 0x04], [0x4f, 0x82, 0x10, 0x00]])
        // An address that never comes: refused after the looks, with the reason.
        let third = Self.tied("/dev/cec0", 34)
        third.claimsTakeTime = true
        let last = Bed([third])
        last.power(last.tv, .off, "schedule")
        for _ in 0..<20 { last.clock.advance(by: 1) }
        #expect(third.sent.isEmpty && last.clock.pendingTimers.isEmpty)
        #expect(last.transmissions.map(\.outcome) == [.refused("/dev/cec0 holds no logical address (physical address 1.0.0.0)")])
    }

    /// A configured adapter that does not exist is an error in the log, never a stop.
    @Test func aMissingAdapterIsNotFatal() {
        var configuration = KioskConfiguration()
        configuration.screens = [ScreenConfiguration(name: "HDMI-A-1")]
        configuration.screens[0].cec = .device("/dev/cec9")
        let bed = Bed([], configuration: configuration)
        #expect(bed.controller.adapterPath(for: bed.tv) == nil)
        bed.power(bed.tv, .off, "schedule")
        bed.power(bed.tv, .on, "schedule")
        #expect(bed.transmissions.isEmpty)
    }

    /// A screen that goes away gives its adapter back; one that comes back takes it again.
    @Test func hotplug() {
        let adapter = Self.tied("/dev/cec0", 34)
        let bed = Bed([adapter])
        bed.backend.disconnect("HDMI-A-1")
        #expect(adapter.isClosed)
        #expect(bed.controller.adapterPath(for: bed.tv) == nil)
        bed.controller.stop()
    }
}
