import Backlight
import DRM
import Geometry
import KioskBackend
import KioskConfig
import Udev

/// Finding the DRM cards: every `/dev/dri/card*` udev knows, in natural order (card2 before card10), and
/// why one cannot drive a display (render-only, no connectors, no dumb buffers). `kiosk screens` lists
/// them with `read(paths:)`.
public enum DRMCards {
    /// The DRM card nodes udev knows (subsystem `drm`, `card*`), natural order; `/dev/dri` when udev
    /// cannot be read.
    public static func nodes() -> [String] {
        if let udev = try? Udev(), let cards = try? udev.devices(subsystem: "drm", sysname: "card[0-9]*") {
            return cards.compactMap(\.devnode)
        }
        let names = directoryEntries("/dev/dri").filter { $0.hasPrefix("card") && Int($0.dropFirst(4)) != nil }
        return names.sorted { Int($0.dropFirst(4))! < Int($1.dropFirst(4))! }.map { "/dev/dri/\($0)" }
    }

    /// Why `device` cannot be the kiosk's card, or nil when it can.
    static func rejection(of device: DRMDevice) -> String? {
        // DRM's character devices have major number 226 (`DRM_MAJOR`); anything else is not a card at all.
        var status = stat()
        guard fstat(device.fileDescriptor, &status) == 0, status.st_mode & S_IFMT == S_IFCHR, majorNumber(status.st_rdev) == 226 else {
            return "not a DRM device"
        }
        guard device.isKMS else { return "not a modesetting device (a render-only node)" }
        guard let resources = try? device.resources() else { return "drmModeGetResources failed" }
        guard !resources.connectors.isEmpty else { return "has no connectors" }
        guard !resources.crtcs.isEmpty else { return "has no CRTCs" }
        guard device.supportsDumbBuffers else { return "cannot allocate dumb buffers" }
        return nil
    }

    /// The card's DRM minor number, the N of `/dev/dri/cardN` whatever path opened it (`fstat`'s device
    /// number): what other subsystems call the card (a CEC adapter's connector info).
    public static func cardNumber(of device: DRMDevice) -> UInt32? {
        var status = stat()
        guard fstat(device.fileDescriptor, &status) == 0, status.st_mode & S_IFMT == S_IFCHR else { return nil }
        return UInt32(truncatingIfNeeded: minorNumber(status.st_rdev))
    }

    /// `card0` for `/dev/dri/card0`: the name of a path not opened yet.
    public static func name(of path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// The name the kernel gives the card opened at `path` (`card1`), which udev's hotplug events and the
    /// backlights' sysfs parents use: from its number, whatever link opened it (`/dev/dri/by-path/...-card`);
    /// the path's last part only when the number cannot be read.
    public static func name(number: UInt32?, path: String) -> String {
        number.map { "card\($0)" } ?? name(of: path)
    }

    // MARK: Listing (kiosk screens)

    /// A card as `kiosk screens` shows it.
    public struct Card: Sendable {
        public var path: String
        public var name: String
        public var driver: String?
        /// The N of `/dev/dri/cardN` (its DRM minor number), once the card was opened.
        public var number: UInt32?
        /// Why it could not be read (opened, its resources or connectors): a problem `kiosk screens` reports.
        public var problem: String?
        /// Why it cannot drive a display although it was read (a render-only node beside the display's card,
        /// as v3d beside vc4 on a Raspberry Pi 4): the kiosk skips it, and so does the listing's status.
        public var skipped: String?
        public var connectors: [Connector]
    }

    /// A connector as `kiosk screens` shows it: what a person needs to write a config.
    public struct Connector: Sendable {
        public var name: String
        /// The connector's KMS object id.
        public var id: UInt32
        public var status: String
        public var modes: [Mode]
        public var widthMillimeters: Int
        public var heightMillimeters: Int
        /// make, model, serial.
        public var edid: (make: String, model: String, serial: String?)?
        public var possibleCRTCs: [UInt32]
        public var panelOrientation: String?
        /// The backlight the kiosk drives for it (`BacklightMatch`); nil: none, and its brightness stays 1.
        public var backlight: ConnectorBacklight?
        /// Why that backlight, or why none.
        public var backlightReason = ""

        public var isConnected: Bool { status == DRMConnector.Status.connected.rawValue }
        /// Physical size in millimetres, when the display reports one.
        public var physicalSize: Size? {
            widthMillimeters > 0 ? Size(width: Double(widthMillimeters), height: Double(heightMillimeters)) : nil
        }
    }

    /// A connector's backlight device: its name in /sys/class/backlight, its type, its levels.
    public struct ConnectorBacklight: Sendable {
        public var name: String
        /// firmware, platform or raw.
        public var type: String
        public var maxBrightness: Int
        /// `actual_brightness`; nil when it could not be read.
        public var level: Int?
    }

    public struct Mode: Sendable {
        public var mode: DisplayMode
        public var isPreferred: Bool
        public var isCurrent: Bool
    }

    /// Reads `paths` (default: every card), opening each read-write without becoming its user, and the
    /// backlight each connector would drive with `configuration`'s `backlight` settings.
    public static func read(
        paths: [String]? = nil, configuration: KioskConfiguration = .default, backlights: any BacklightClass = SysfsBacklightClass()
    ) -> [Card] {
        (paths ?? nodes()).map { path in
            var card = Card(path: path, name: name(of: path), driver: nil, problem: nil, skipped: nil, connectors: [])
            do {
                let device = try DRMDevice.open(path: path)
                card.driver = device.driverName
                card.number = cardNumber(of: device)
                card.name = name(number: card.number, path: path)
                if let reason = rejection(of: device) {
                    card.skipped = reason
                    return card
                }
                let resources = try device.resources()
                let connectors = try resources.connectors.map { id throws(DRMError) in try device.connector(id, crtcs: resources.crtcs) }
                let panels = connectors.filter(\.isBuiltInPanel).map(\.name).sorted()
                let devices = Result { () throws(BacklightError) in try backlights.devices() }
                let edids = connectors.map { device.edid(of: $0) }
                // Each connector's settings resolved once, as the running kiosk's backend resolves them.
                var settings = ScreenSettingsStore()
                settings.resolve(zip(connectors, edids).map { ($0.name, $1.map(DRMDisplay.match)) }, in: configuration)
                for (connector, edid) in zip(connectors, edids) {
                    var current: DRMModeInfo?
                    if let encoder = connector.encoderID, let crtc = device.crtc(ofEncoder: encoder) {
                        current = try? device.crtcState(crtc).mode
                    }
                    var listed = Connector(
                        name: connector.name, id: connector.id.rawValue, status: connector.status.rawValue,
                        modes: connector.modes.map {
                            Mode(mode: DisplayMode($0), isPreferred: $0.isPreferred, isCurrent: $0 == current)
                        },
                        widthMillimeters: connector.physicalWidthMillimeters, heightMillimeters: connector.physicalHeightMillimeters,
                        edid: edid.map { ($0.make, $0.model, $0.serial) },
                        possibleCRTCs: connector.possibleCRTCs.map(\.rawValue), panelOrientation: connector.panelOrientation)
                    switch devices {
                    case .failure(let error):
                        listed.backlightReason = "the backlight class cannot be read: \(error)"
                    case .success(let devices):
                        let configured = settings[connector.name].backlight
                        let outcome = BacklightMatch.choose(
                            connector: connector.name, card: card.name, builtInPanels: panels, devices: devices, configured: configured)
                        listed.backlightReason = outcome.reason
                        listed.backlight = outcome.device.map {
                            ConnectorBacklight(
                                name: $0.name, type: $0.type.rawValue, maxBrightness: $0.maxBrightness,
                                level: try? backlights.brightness(of: $0.name))
                        }
                    }
                    card.connectors.append(listed)
                }
            } catch {
                card.problem = "\(error)"
            }
            return card
        }
    }
}

/// The major number of a device number: glibc's `gnu_dev_major` (the `major()` macro, which Swift cannot import).
func majorNumber(_ device: dev_t) -> UInt64 {
    let value = UInt64(device)
    return ((value >> 8) & 0xfff) | ((value >> 32) & ~0xfff)
}

/// The minor number of a device number: glibc's `gnu_dev_minor` (the `minor()` macro).
func minorNumber(_ device: dev_t) -> UInt64 {
    let value = UInt64(device)
    return (value & 0xff) | ((value >> 12) & 0xffff_ff00)
}

/// The names in a folder (`readdir`), empty when it cannot be read.
func directoryEntries(_ path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}

#if canImport(Glibc)
    import Glibc
#endif
