import CLazyLibInput
import Glibc

/// The Swift side of a context's C callbacks: the caller's open/close closures and log handler. libinput
/// gets an unretained pointer to it as user_data; the `LibInput` owns it and destroys the context before
/// releasing it, so the pointer never dangles while libinput can still call back (`libinput_unref`
/// closes every device through `close_restricted`).
@MainActor
final class LibInputCallbacks {
    private let openDevice: (String, Int32) -> Int32
    private let closeDevice: (Int32) -> Void
    var logHandler: ((LibInput.LogPriority, String) -> Void)?
    /// The last path `openDevice` refused and the errno it gave, so `addDevice(path:)` can report why
    /// libinput returned NULL (libinput only logs it).
    var lastOpenFailure: (path: String, errno: Int32)?

    init(openDevice: @escaping (String, Int32) -> Int32, closeDevice: @escaping (Int32) -> Void) {
        self.openDevice = openDevice
        self.closeDevice = closeDevice
    }

    func open(_ path: String, flags: Int32) -> Int32 {
        let result = openDevice(path, flags)
        if result < 0 { lastOpenFailure = (path, -result) }
        return result
    }

    func close(_ fd: Int32) {
        closeDevice(fd)
    }

    /// The C interface, allocated once per context because libinput keeps the pointer (not a copy) for
    /// the context's whole life (`libinput->interface = interface` in libinput 1.22's `libinput_init`).
    /// The callbacks are plain C functions: they find the `LibInputCallbacks` through user_data and run
    /// synchronously inside the libinput call that opens or closes a device (`libinput_udev_assign_seat`,
    /// `libinput_dispatch`, `libinput_path_add_device`, `libinput_suspend`/`resume`, `libinput_unref`),
    /// which the `LibInput` only makes on the main actor.
    static func makeCInterface() -> UnsafeMutablePointer<libinput_interface> {
        let interface = UnsafeMutablePointer<libinput_interface>.allocate(capacity: 1)
        interface.initialize(
            to: libinput_interface(
                open_restricted: { path, flags, userdata in
                    guard let path else { return -EINVAL }
                    let callbacks = LibInputCallbacks.from(userdata)
                    let name = String(cString: path)
                    return MainActor.assumeIsolated { callbacks.open(name, flags: flags) }
                },
                close_restricted: { fd, userdata in
                    let callbacks = LibInputCallbacks.from(userdata)
                    MainActor.assumeIsolated { callbacks.close(fd) }
                }))
        return interface
    }

    nonisolated static func from(_ userdata: UnsafeMutableRawPointer?) -> LibInputCallbacks {
        guard let userdata else { fatalError("libinput called back without its user_data") }
        return Unmanaged<LibInputCallbacks>.fromOpaque(userdata).takeUnretainedValue()
    }
}
