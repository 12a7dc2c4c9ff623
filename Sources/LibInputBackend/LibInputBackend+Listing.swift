import KioskBackend
import LibInput

extension LibInputBackend {
    /// A device as `kiosk inputs` shows it.
    public struct ListedDevice: Sendable {
        public var info: InputDeviceInfo
        public var devnode: String?
        /// The matrix libinput applies now (udev's `LIBINPUT_CALIBRATION_MATRIX`); empty for devices
        /// without calibration.
        public var calibration: [Float]
    }

    /// Every input device of `seat`, opened directly for a moment (run as root or in the `input` group).
    public static func listDevices(seat: String) throws(BackendError) -> [ListedDevice] {
        let input: LibInput
        do {
            input = try LibInput(seat: seat, openDevice: LibInput.openDirectly, closeDevice: LibInput.closeDirectly, log: libinputLog)
            try input.dispatch()
        } catch {
            throw .failed(name, "\(error)")
        }
        var listed: [ListedDevice] = []
        for case .deviceAdded(let device) in input.events() {
            listed.append(
                ListedDevice(
                    info: info(device, id: listed.count + 1), devnode: device.devnode,
                    calibration: device.hasCalibrationMatrix ? device.calibrationMatrix : []))
        }
        return listed
    }
}
