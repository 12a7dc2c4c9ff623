import CECControl
import KioskBackend
import KioskConfig

extension KioskRuntime {
    /// HDMI-CEC beside real displays only: on a development machine (headless) an adapter plugged in for
    /// something else (a USB one on the desk's TV) is none of the kiosk's business.
    func startCEC(display: any DisplayBackend, trace: Trace?) {
        guard display.drivesDisplays else { return }
        let controller = CECController(
            application: application, configuration: configuration,
            connectorOf: { [weak display] screen in display?.connectorIdentity(of: screen) },
            settingsOf: { [weak display] screen in display?.settings(of: screen) ?? ResolvedScreen() })
        controller.transmissionObserver = { [weak trace] transmission in trace?.recordCEC(transmission) }
        controller.start()
        cec = controller
    }
}
