import KioskConfig
import KioskKit

extension RuntimeOptions {
    /// The config file's settings (after its `KIOSK_*` environment overrides). The command line's
    /// explicit options are applied after this, so they win.
    public mutating func apply(_ configuration: KioskConfiguration) {
        configurationPath = configuration.path
        backend = Backend(rawValue: configuration.backend.rawValue) ?? .auto
        drmDevice = configuration.drmDevice
        fbdevDevice = configuration.fbdevDevice
        seat = configuration.seat
        cursor = configuration.cursor.rawValue
        hotplugDebounce = Double(configuration.hotplugDebounceMilliseconds) / 1000
        primary = configuration.primary
        screens = configuration.screens
        touchRules = configuration.touch.map { TouchMapping.Rule(match: TouchMapping.Match($0.match), screen: $0.screen) }
        touchCalibrations = [:]
        for (rule, entry) in zip(touchRules, configuration.touch) {
            if let calibration = entry.calibration, touchCalibrations[rule] == nil { touchCalibrations[rule] = calibration }
        }
    }
}

extension TouchMapping.Match {
    init(_ match: TouchConfiguration.Match) {
        switch match {
        case .name(let glob): self = .name(glob)
        case let .vendorProduct(vendor, product): self = .vendorProduct(vendor: vendor, product: product)
        case .path(let path): self = .path(path)
        }
    }
}
