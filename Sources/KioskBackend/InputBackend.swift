/// An input backend: libinput on a udev seat, or the in-memory twin. It finds the devices, opens them
/// (through the session), reads their events and hands them to its `InputRouter`, which turns them into
/// the window model's touches and presses the same way for every backend. Keys arrive translated (xkbcommon
/// on libinput); calibration is the backend's to apply, the router decides which.
@MainActor
public protocol InputBackend: AnyObject {
    /// The name logs use (`libinput`).
    nonisolated static var name: String { get }

    /// Makes the backend; events go to `router`. Devices are opened by `start()`.
    init(context: BackendContext, router: InputRouter) throws(BackendError)

    /// Opens the devices present now and follows hotplug; reports each device through the router.
    func start() throws(BackendError)

    /// Applies `matrix` (the six numbers of `LIBINPUT_CALIBRATION_MATRIX`) to a touch device; nil puts back
    /// the device's own (udev's `LIBINPUT_CALIBRATION_MATRIX`, else identity).
    func setCalibration(_ matrix: [Double]?, of device: InputDeviceInfo) throws(BackendError)

    /// The session went away: the devices are closed (the router has cancelled what was down).
    func pause()

    /// The session is back: the devices are opened again and reported as added.
    func resume()

    /// Closes every device.
    func stop()
}
