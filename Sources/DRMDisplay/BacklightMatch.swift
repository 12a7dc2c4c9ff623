import Backlight

/// Which backlight drives a connector's panel, as systemd-backlight and the desktops choose: a backlight
/// registered under the connector's own DRM device (`/sys/class/drm/card0-eDP-1/intel_backlight`, as
/// i915 and amdgpu register theirs) belongs to it; a built-in panel (eDP, LVDS, DSI, DPI) also takes the
/// devices that belong to no connector, firmware before platform before raw (the kernel's order:
/// firmware and platform drive the same light as the GPU's raw register, through the firmware that also
/// answers the brightness keys), its own raw device before another's raw one. A monitor on HDMI or
/// DisplayPort has no backlight the kernel drives. The configuration's `backlight = "NAME"` overrides all.
/// Pure: tables in the tests.
public enum BacklightMatch {
    /// The device chosen and why (for the log and `kiosk screens`), or why there is none.
    public enum Outcome: Sendable, Equatable {
        case device(BacklightDevice, reason: String)
        case none(reason: String)

        public var device: BacklightDevice? {
            if case .device(let device, _) = self { device } else { nil }
        }

        public var reason: String {
            switch self {
            case .device(_, let reason), .none(let reason): reason
            }
        }
    }

    /// The backlight of `connector` on `card` (`card0`) among `devices`. `builtInPanels`: the card's
    /// connectors that are built-in panels; the devices of no connector go to a built-in panel only when
    /// it is the card's one (with two, which is whose cannot be told: name it in the config).
    /// `configured`: the name the configuration gives, if any.
    public static func choose(
        connector: String, card: String, builtInPanels: [String], devices: [BacklightDevice], configured: String?
    ) -> Outcome {
        if let configured {
            if let device = devices.first(where: { $0.name == configured }) {
                guard device.maxBrightness > 0 else { return .none(reason: "\(configured), named in the config, has max_brightness 0") }
                return .device(device, reason: "named in the config")
            }
            let present = devices.map(\.name)
            return .none(
                reason: "the config names backlight \"\(configured)\", which does not exist; "
                    + (present.isEmpty ? "there is no backlight device" : "there are: \(present.joined(separator: ", "))"))
        }
        let usable = devices.filter { $0.maxBrightness > 0 }
        guard !usable.isEmpty else { return .none(reason: "no backlight device") }
        let own = "\(card)-\(connector)"
        let mine = usable.filter { $0.parent?.subsystem == "drm" && $0.parent?.name == own }
        guard builtInPanels.contains(connector) else {
            if let device = best(mine) { return .device(device, reason: "registered under \(own)") }
            return .none(reason: "not a built-in panel (eDP, LVDS, DSI, DPI), and no backlight is registered under \(own)")
        }
        let nobodys = usable.filter { !belongsToAConnector($0) }
        guard builtInPanels.count == 1 || nobodys.isEmpty || !mine.isEmpty else {
            return .none(
                reason: "\(builtInPanels.count) built-in panels (\(builtInPanels.joined(separator: ", "))) and no backlight "
                    + "registered under \(own): name the device with backlight = \"NAME\"")
        }
        let candidates = mine + (builtInPanels.count == 1 ? nobodys : [])
        // Type first; within a type the connector's own, then by name (a stable choice).
        let ranked = candidates.sorted { a, b in
            let (aMine, bMine) = (mine.contains(a), mine.contains(b))
            if a.type.preference != b.type.preference { return a.type.preference < b.type.preference }
            if aMine != bMine { return aMine }
            return a.name < b.name
        }
        guard let device = ranked.first else {
            return .none(reason: "no backlight is registered under \(own), and the others belong to other connectors")
        }
        if mine.contains(device) { return .device(device, reason: "registered under \(own)") }
        let under = device.parent.map { " under \($0.name)" } ?? ""
        return .device(device, reason: "\(device.type.rawValue) type\(under), for the built-in panel")
    }

    /// The most preferred type among `devices` (then by name).
    private static func best(_ devices: [BacklightDevice]) -> BacklightDevice? {
        devices.min { ($0.type.preference, $0.name) < ($1.type.preference, $1.name) }
    }

    /// Registered under some DRM connector's device (`cardN-TYPE-n`): that connector's, nobody else's.
    static func belongsToAConnector(_ device: BacklightDevice) -> Bool {
        guard let parent = device.parent, parent.subsystem == "drm", parent.name.hasPrefix("card") else { return false }
        let number = parent.name.dropFirst(4).prefix { $0.isASCII && $0.isNumber }
        return !number.isEmpty && parent.name.dropFirst(4 + number.count).hasPrefix("-")
    }
}

/// How `Screen.brightness` (0...1, UIKit's) becomes a device's level (0...`max_brightness`): linearly
/// onto `floor...max`, where `floor` is systemd-backlight's clamp, at least 1 or 5 % of the maximum when
/// that is more. Some panels go black at the lowest levels, and UIKit's 0 is the dimmest the screen
/// shows, not off (off is the display's power): so brightness 0 is the dimmest level that is not 0, and
/// the kiosk never writes 0.
public struct BacklightScale: Sendable, Equatable {
    public let maxBrightness: Int

    public init(maxBrightness: Int) {
        self.maxBrightness = maxBrightness
    }

    /// The level brightness 0 maps to.
    public var floor: Int { max(1, maxBrightness / 20) }

    /// The level for `value` (clamped to 0...1), rounded to the nearest.
    public func level(for value: Double) -> Int {
        guard maxBrightness > floor else { return maxBrightness }
        let clamped = min(max(value.isNaN ? 1 : value, 0), 1)
        return floor + Int((clamped * Double(maxBrightness - floor)).rounded())
    }

    /// The brightness `level` stands for (0 below the floor).
    public func value(for level: Int) -> Double {
        guard maxBrightness > floor else { return 1 }
        return min(max(Double(level - floor) / Double(maxBrightness - floor), 0), 1)
    }
}
