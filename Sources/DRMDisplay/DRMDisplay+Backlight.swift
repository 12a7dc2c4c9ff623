import Backlight
import DRM
import Geometry
import Glibc
import KioskConfig
import KioskKit
import Logging

extension DRMDisplay {
    /// The backlight a lit connector's screen drives (`BacklightMatch`), and how its levels map.
    struct PanelBacklight {
        var device: BacklightDevice
        var reason: String
        var scale: BacklightScale { BacklightScale(maxBrightness: device.maxBrightness) }
    }

    /// Finds the backlight of the display on `connector` (the configuration's `backlight`, else the
    /// kernel's devices by `BacklightMatch`) when the screen is presented, which is at every probe: a
    /// backlight whose driver loaded late is found at the next hotplug or reload. A new choice is logged
    /// and its level read into the screen (`Screen.update(brightness:)`); an unchanged one touches nothing.
    func updateBacklight(of connector: DRMConnector, configured: String?, screen: Screen, log: Logger) {
        let outcome: BacklightMatch.Outcome
        do {
            let panels = probed.values.filter(\.isBuiltInPanel).map(\.name).sorted()
            outcome = BacklightMatch.choose(
                connector: connector.name, card: cardName, builtInPanels: panels, devices: try backlightClass.devices(),
                configured: configured)
        } catch {
            outcome = .none(reason: "the backlight class cannot be read: \(error)")
        }
        let previous = panelBacklights[connector.name]
        guard let device = outcome.device else {
            panelBacklights[connector.name] = nil
            if previous != nil || reportedBacklight[connector.name] != outcome.reason {
                let message = "\(connector.name): no backlight (brightness stays 1): \(outcome.reason)"
                if configured != nil { log.error("\(message)") } else { log.info("\(message)") }
            }
            reportedBacklight[connector.name] = outcome.reason
            return
        }
        guard previous?.device != device else { return }
        reportedBacklight[connector.name] = outcome.reason
        let backlight = PanelBacklight(device: device, reason: outcome.reason)
        panelBacklights[connector.name] = backlight
        let level: Int
        do { level = try backlightClass.brightness(of: device.name) } catch {
            log.warning("\(connector.name): backlight \(device.name): \(error); taking its level as the maximum")
            screen.update(brightness: 1)
            return
        }
        // What to put back at stop: the level found before the kiosk first changed it.
        if levelsFound[device.name] == nil { levelsFound[device.name] = level }
        let value = backlight.scale.value(for: level)
        log.info(
            "\(connector.name): backlight \(device.name) (\(device.type.rawValue), \(outcome.reason)), level \(level) of \(device.maxBrightness): brightness \(value.formatted(places: 3))"
        )
        screen.update(brightness: value)
    }

    public func hasBacklight(_ screen: Screen) -> Bool { panelBacklights[screen.name] != nil }

    /// Writes the level `value` maps to (`BacklightScale`) to the screen's backlight.
    public func setBrightness(_ value: Double, for screen: Screen) throws {
        guard let backlight = panelBacklights[screen.name] else { throw ScreenError.noBacklight(screen: screen.name) }
        let level = backlight.scale.level(for: value)
        do {
            try backlightClass.setBrightness(level, of: backlight.device.name)
        } catch {
            // Permission is what goes wrong on a new board: say where it comes from.
            let hint = error.errno == EACCES ? " (udev-rules/70-kiosk.rules lets the video group write it)" : ""
            throw DRMBacklightError(underlying: error, hint: hint)
        }
        changedBacklights.insert(backlight.device.name)
        log.debug("\(screen.name): backlight \(backlight.device.name) level \(level) (brightness \(value.formatted(places: 3)))")
    }

    /// Puts back the levels found at start on the backlights the kiosk changed (a dimmed panel would
    /// otherwise stay dim under the console).
    func restoreBacklights() {
        for name in changedBacklights.sorted() {
            guard let level = levelsFound[name] else { continue }
            do { try backlightClass.setBrightness(level, of: name) } catch {
                log.warning("restoring backlight \(name) to level \(level) failed: \(error)")
            }
        }
        changedBacklights.removeAll()
    }
}

/// A backlight write that failed, with what to do about it.
struct DRMBacklightError: Error, CustomStringConvertible {
    var underlying: BacklightError
    var hint: String

    var description: String { "\(underlying)\(hint)" }
}
