import Geometry

/// An input backend that lives in memory, the twin of the libinput backend: tests (and apps' own tests)
/// plug devices in, put fingers down by slot, press keys and unplug devices, and the router turns it all
/// into touches and presses exactly as it does for libinput. Calibrations the router sets are recorded.
@MainActor
public final class InMemoryInputBackend: InputBackend {
    public nonisolated static let name = "in-memory"

    public let router: InputRouter
    /// Every calibration set, in order: the device's id and the matrix (nil: the device's own).
    public private(set) var calibrations: [(device: Int, matrix: [Double]?)] = []
    /// When set, `setCalibration` throws it (a device that refuses a matrix).
    public var calibrationFailure: BackendError?
    public private(set) var isPaused = false
    private var nextID = 0
    private var plugged: [InputDeviceInfo] = []

    public init(context: BackendContext, router: InputRouter) throws(BackendError) {
        self.router = router
        router.backend = self
    }

    /// A twin without a runtime around it.
    public init(router: InputRouter) {
        self.router = router
        router.backend = self
    }

    public func start() throws(BackendError) {}

    public func setCalibration(_ matrix: [Double]?, of device: InputDeviceInfo) throws(BackendError) {
        if let calibrationFailure { throw calibrationFailure }
        calibrations.append((device.id, matrix))
    }

    /// Cancels what is down (as libinput does before closing the devices) and removes every device.
    public func pause() {
        isPaused = true
        router.cancelAll(reason: "session disabled")
        for device in plugged { router.deviceRemoved(device) }
    }

    /// The devices come back as new ones, as libinput reports them after a resume.
    public func resume() {
        isPaused = false
        let devices = plugged
        plugged = []
        for device in devices { plug(device) }
    }

    public func stop() {
        for device in plugged { router.deviceRemoved(device) }
        plugged = []
    }

    // MARK: Driving it

    /// Plugs in a device like `template` (its id is assigned here) and returns it.
    @discardableResult
    public func plug(_ template: InputDeviceInfo) -> InputDeviceInfo {
        var device = template
        nextID += 1
        device.id = nextID
        plugged.append(device)
        router.deviceAdded(device)
        return device
    }

    /// A touchscreen named `name` with `size` in millimetres.
    @discardableResult
    public func plugTouchscreen(
        _ name: String = "Test Touchscreen", size: Size? = Size(width: 256, height: 160),
        udev: [String: String] = [:]
    ) -> InputDeviceInfo {
        plug(
            InputDeviceInfo(
                id: 0, name: name, sysname: "event\(nextID + 10)", capabilities: .touch, size: size,
                udevProperties: ["ID_INPUT_TOUCHSCREEN": "1"].merging(udev) { $1 }))
    }

    /// Unplugs a device: what it still has down is cancelled (libinput sends the cancels first, as here).
    public func unplug(_ device: InputDeviceInfo, time: UInt64 = 0) {
        plugged.removeAll { $0 == device }
        router.deviceRemoved(device)
    }

    /// One evdev frame of contacts: each `(slot, x, y)` down or moved (normalized 0...1), each slot in `up`
    /// lifted, then the frame.
    public func frame(
        _ device: InputDeviceInfo, down: [(slot: Int32, x: Double, y: Double)] = [],
        moved: [(slot: Int32, x: Double, y: Double)] = [], up: [Int32] = [], time: UInt64
    ) {
        for contact in down { router.touchDown(device, slot: contact.slot, x: contact.x, y: contact.y, time: time) }
        for contact in moved { router.touchMotion(device, slot: contact.slot, x: contact.x, y: contact.y, time: time) }
        for slot in up { router.touchUp(device, slot: slot, time: time) }
        router.touchFrame(device, time: time)
    }
}
