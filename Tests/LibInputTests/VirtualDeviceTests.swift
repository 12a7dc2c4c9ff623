import Foundation
import Glibc
import Testing

@testable import LibInput

/// End to end through the kernel: uinput devices made by the test, read by libinput from their evdev
/// nodes, converted by the wrapper. Runs only where `/dev/uinput` is writable and udevd runs (the QEMU
/// guest; `Tests/System/run libinput` runs this suite there). Serialized: every udev context on seat0
/// sees every test's devices, and seat slots are shared by a seat's touchscreens.
@MainActor @Suite(.serialized, .enabled(if: VirtualInputDevice.isAvailable, "needs a writable /dev/uinput and udevd"))
struct VirtualDeviceTests {
    /// 256 × 160 mm at 16 units/mm: maxima 4095 × 2559, so unit u is u/4096 (u/2560) of the axis and
    /// u/16 mm in libinput.
    static let touchscreen = VirtualInputDevice.Kind.touchscreen(
        widthMillimeters: 256, heightMillimeters: 160,
        unitsPerMillimeter: 16, slots: 10)

    final class Calls {
        var opened: [String: Int32] = [:]
        var closed: [Int32] = []
    }

    func udevContext(_ calls: Calls = Calls()) throws -> LibInput {
        let input = try LibInput(
            openDevice: { path, flags in
                let fd = LibInput.openDirectly(path: path, flags: flags)
                calls.opened[path] = fd
                return fd
            },
            closeDevice: { fd in
                calls.closed.append(fd)
                LibInput.closeDirectly(fd)
            })
        input.setLogHandler(priority: .error) { priority, line in print("libinput: \(line)") }
        return input
    }

    func pathContext(_ calls: Calls = Calls()) throws -> LibInput {
        try LibInput.path(
            openDevice: { path, flags in
                let fd = LibInput.openDirectly(path: path, flags: flags)
                calls.opened[path] = fd
                return fd
            },
            closeDevice: { fd in
                calls.closed.append(fd)
                LibInput.closeDirectly(fd)
            })
    }

    /// A name no other device has, so a seat0 context can pick ours out.
    func uniqueName(_ what: String) -> String {
        "kiosk LibInputTests \(what) \(getpid())-\(UInt16.random(in: .min ... .max))"
    }

    /// A context and the events read from it that no wait has taken yet: waiting for one device's
    /// events must not lose another's that came in the same dispatch.
    final class Reader {
        let context: LibInput
        private var backlog: [InputEvent] = []

        init(_ context: LibInput) {
            self.context = context
        }

        /// Dispatches whenever the fd is readable (poll(2), the test's stand-in for a DispatchSource) and
        /// takes the events of the device named `name` until `done` holds for them, or records an issue
        /// after `timeout`. The QEMU guest runs under TCG, where an evdev frame takes tens of milliseconds
        /// to arrive.
        @MainActor
        func events(
            of name: String, timeout: Duration = .seconds(30),
            until done: ([InputEvent]) -> Bool
        ) throws -> [InputEvent] {
            var collected: [InputEvent] = []
            let deadline = ContinuousClock.now + timeout
            while true {
                while let index = backlog.firstIndex(where: { $0.device?.name == name }), !done(collected) {
                    collected.append(backlog.remove(at: index))
                }
                if done(collected) { return collected }
                let remaining = deadline - ContinuousClock.now
                guard remaining > .zero else {
                    Issue.record("timed out waiting for \(name); events so far: \(collected)")
                    return collected
                }
                var entry = pollfd(fd: context.fileDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, Int32(min(remaining.components.seconds * 1000 + 1, 1000)))
                try context.dispatch()
                backlog += context.events()
            }
        }

        /// The device named `name`, from its `deviceAdded`.
        @MainActor
        func added(_ name: String) throws -> InputDevice {
            let events = try events(of: name) { $0.contains { if case .deviceAdded = $0 { true } else { false } } }
            for case .deviceAdded(let device) in events { return device }
            Issue.record("no deviceAdded for \(name): \(events)")
            throw CancellationError()
        }
    }

    /// The event kinds, for comparing sequences.
    func kinds(_ events: [InputEvent]) -> [String] {
        events.map { String(describing: $0).split(separator: " ")[1].description }
    }

    // MARK: Devices

    @Test func touchscreenIsDescribedAsLibinputAndUdevSeeIt() throws {
        let name = uniqueName("touch")
        let uinput = try VirtualInputDevice(name: name, kind: Self.touchscreen)
        let input = Reader(try udevContext())
        let device = try input.added(name)
        #expect(device.name == name)
        #expect(device.devnode == uinput.devnode)
        #expect("/dev/input/\(device.sysname)" == uinput.devnode)
        #expect(device.syspath?.hasSuffix("/\(device.sysname)") == true, "\(String(describing: device.syspath))")
        #expect(device.capabilities == .touch)
        #expect(device.vendorID == UInt32(VirtualInputDevice.vendor))
        #expect(device.productID == UInt32(VirtualInputDevice.product))
        // libinput's size is (maximum - minimum) / resolution: 4095/16 × 2559/16.
        let size = try #require(device.size)
        #expect(size.width == 4095.0 / 16 && size.height == 2559.0 / 16, "\(size)")
        let properties = device.udevProperties
        #expect(properties["ID_INPUT_TOUCHSCREEN"] == "1", "\(properties)")
        #expect(properties["DEVNAME"] == uinput.devnode)
        #expect(device.outputName == nil, "no WL_OUTPUT rule in the guest")
        #expect(device.hasCalibrationMatrix)
        #expect(device.calibrationMatrix == [1, 0, 0, 0, 1, 0])
        #expect(device.defaultCalibrationMatrix == [1, 0, 0, 0, 1, 0])
        #expect(device.description == "\(device.sysname) (\(name))")
    }

    @Test func keyboardAndMouseCapabilities() throws {
        let keyboardName = uniqueName("keyboard")
        let mouseName = uniqueName("mouse")
        let keyboardDevice = try VirtualInputDevice(name: keyboardName, kind: .keyboard)
        let mouseDevice = try VirtualInputDevice(name: mouseName, kind: .mouse)
        let input = Reader(try udevContext())
        let keyboard = try input.added(keyboardName)
        let mouse = try input.added(mouseName)
        #expect(keyboard.capabilities == .keyboard)
        #expect(mouse.capabilities == .pointer)
        #expect(keyboard.size == nil)
        #expect(!keyboard.hasCalibrationMatrix)
        let error = #expect(throws: LibInputError.self) { try keyboard.setCalibrationMatrix([0, -1, 1, 1, 0, 0]) }
        #expect(error?.errno == EOPNOTSUPP)
        #expect(
            error?.description == "libinput_device_config_calibration_set_matrix(\"\(keyboard.sysname) (\(keyboardName))\"): "
                + "Operation not supported (errno 95)")
        withExtendedLifetime((keyboardDevice, mouseDevice)) {}
    }

    // MARK: Touch

    @Test func tapIsDownFrameUpFrameWithNormalizedAndMillimetreCoordinates() throws {
        let name = uniqueName("tap")
        let uinput = try VirtualInputDevice(name: name, kind: Self.touchscreen)
        let input = Reader(try udevContext())
        let device = try input.added(name)
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let before = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000

        try uinput.down(slot: 0, x: 1024, y: 1280)
        try uinput.frame()
        try uinput.move(slot: 0, x: 2048, y: 640)
        try uinput.frame()
        try uinput.up(slot: 0)
        try uinput.frame()
        let events = try input.events(of: name) { $0.count >= 6 }

        clock_gettime(CLOCK_MONOTONIC, &now)
        let after = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        #expect(
            kinds(events) == ["TOUCH_DOWN", "TOUCH_FRAME", "TOUCH_MOTION", "TOUCH_FRAME", "TOUCH_UP", "TOUCH_FRAME"],
            "\(events)")
        guard events.count == 6,
            case let .touchDown(downDevice, slot, seatSlot, x, y, xmm, ymm, downTime) = events[0],
            case let .touchMotion(_, motionSlot, _, mx, my, mxmm, mymm, motionTime) = events[2],
            case let .touchUp(_, upSlot, upSeatSlot, upTime) = events[4]
        else { return }
        #expect(downDevice == device, "one InputDevice value per device")
        #expect(slot == 0 && seatSlot == 0 && motionSlot == 0 && upSlot == 0 && upSeatSlot == 0)
        #expect((x, y) == (0.25, 0.5))
        #expect((xmm, ymm) == (64, 80))
        #expect((mx, my) == (0.5, 0.25))
        #expect((mxmm, mymm) == (128, 40))
        // Kernel timestamps on CLOCK_MONOTONIC, in microseconds, in order.
        #expect(
            before <= downTime && downTime <= motionTime && motionTime <= upTime && upTime <= after,
            "\(before) \(downTime) \(motionTime) \(upTime) \(after)")
    }

    @Test func twoFingersHaveTwoSlotsAndOneFramePerEvdevFrame() throws {
        let name = uniqueName("two fingers")
        let uinput = try VirtualInputDevice(name: name, kind: Self.touchscreen)
        let input = Reader(try udevContext())
        _ = try input.added(name)
        try uinput.down(slot: 0, x: 400, y: 400)
        try uinput.down(slot: 1, x: 3600, y: 2000)
        try uinput.frame()
        try uinput.up(slot: 0)
        try uinput.up(slot: 1)
        try uinput.frame()
        let events = try input.events(of: name) { $0.count >= 6 }
        #expect(
            kinds(events) == ["TOUCH_DOWN", "TOUCH_DOWN", "TOUCH_FRAME", "TOUCH_UP", "TOUCH_UP", "TOUCH_FRAME"],
            "\(events)")
        let downs = events.compactMap { event -> (Int32, Int32)? in
            if case let .touchDown(_, slot, seatSlot, _, _, _, _, _) = event { return (slot, seatSlot) }
            return nil
        }
        #expect(downs.map(\.0) == [0, 1])
        #expect(Set(downs.map(\.1)).count == 2, "distinct seat slots: \(downs)")
    }

    /// The calibration matrix moves the point before libinput converts it, so the millimetres move too
    /// (observed with libinput 1.22: (64, 40) mm on the device is reported as (192, 120) after 180°).
    @Test func calibrationMatrixAppliesToNormalizedAndMillimetreCoordinates() throws {
        let name = uniqueName("calibrated")
        let uinput = try VirtualInputDevice(name: name, kind: Self.touchscreen)
        let input = Reader(try udevContext())
        let device = try input.added(name)
        let rotate180: [Float] = [-1, 0, 1, 0, -1, 1]
        try device.setCalibrationMatrix(rotate180)
        #expect(device.calibrationMatrix == rotate180)
        #expect(device.defaultCalibrationMatrix == [1, 0, 0, 0, 1, 0])
        try uinput.down(slot: 0, x: 1024, y: 640)
        try uinput.frame()
        let events = try input.events(of: name) { $0.count >= 2 }
        guard case let .touchDown(_, _, _, x, y, xmm, ymm, _) = try #require(events.first) else {
            Issue.record("\(events)")
            return
        }
        // libinput applies the matrix in float: close to 0.75, not necessarily exactly.
        #expect(abs(x - 0.75) < 1e-4 && abs(y - 0.75) < 1e-4, "\(x)/\(y)")
        #expect(abs(xmm - 192) < 0.01 && abs(ymm - 120) < 0.01, "\(xmm)/\(ymm) mm")
    }

    /// Unplugging with a finger down: libinput cancels the touch (cancel and frame, not up) before the
    /// removal (observed with libinput 1.22).
    @Test func removalMidTouchCancelsTheTouchFirst() throws {
        let name = uniqueName("unplugged")
        let uinput = try VirtualInputDevice(name: name, kind: Self.touchscreen)
        let input = Reader(try udevContext())
        let device = try input.added(name)
        try uinput.down(slot: 0, x: 100, y: 100)
        try uinput.frame()
        _ = try input.events(of: name) { $0.count >= 2 }
        uinput.destroy()
        let events = try input.events(of: name) { $0.contains { if case .deviceRemoved = $0 { true } else { false } } }
        #expect(kinds(events) == ["TOUCH_CANCEL", "TOUCH_FRAME", "DEVICE_REMOVED"], "\(events)")
        #expect(events.last?.device == device)
        // Still usable after removal: the value holds its reference.
        #expect(device.name == name)
        #expect(device.capabilities == .touch)
    }

    // MARK: Keys and pointer

    @Test func keysAndPointerEvents() throws {
        let keyboardName = uniqueName("keys")
        let mouseName = uniqueName("pointer")
        let keyboard = try VirtualInputDevice(name: keyboardName, kind: .keyboard)
        let mouse = try VirtualInputDevice(name: mouseName, kind: .mouse)
        let input = Reader(try udevContext())
        _ = try input.added(keyboardName)
        _ = try input.added(mouseName)

        try keyboard.key(Code.keyA, pressed: true)
        try keyboard.frame()
        try keyboard.key(Code.keyA, pressed: false)
        try keyboard.frame()
        let keys = try input.events(of: keyboardName) { $0.count >= 2 }
        guard keys.count == 2, case let .keyboardKey(_, key, pressed, _) = keys[0],
            case let .keyboardKey(_, releasedKey, stillPressed, _) = keys[1]
        else {
            Issue.record("\(keys)")
            return
        }
        #expect(key == 30 && pressed)
        #expect(releasedKey == 30 && !stillPressed)

        try mouse.moveRelative(dx: 10, dy: 0)
        try mouse.frame()
        try mouse.key(Code.btnLeft, pressed: true)
        try mouse.frame()
        try mouse.key(Code.btnLeft, pressed: false)
        try mouse.frame()
        let pointer = try input.events(of: mouseName) { $0.count >= 3 }
        #expect(kinds(pointer) == ["POINTER_MOTION", "POINTER_BUTTON", "POINTER_BUTTON"], "\(pointer)")
        if pointer.count == 3, case let .pointerMotion(_, dx, dy, _) = pointer[0],
            case let .pointerButton(_, button, pressed, _) = pointer[1]
        {
            #expect(dx > 0 && dy == 0, "accelerated, but to the right: \(dx)/\(dy)")
            #expect(button == 0x110 && pressed)
        }
    }

    /// Unplugging a keyboard with a key down: libinput releases the key before the removal.
    @Test func removalWithAKeyDownReleasesItFirst() throws {
        let name = uniqueName("key held")
        let keyboard = try VirtualInputDevice(name: name, kind: .keyboard)
        let input = Reader(try udevContext())
        _ = try input.added(name)
        try keyboard.key(Code.keyA, pressed: true)
        try keyboard.frame()
        _ = try input.events(of: name) { !$0.isEmpty }
        keyboard.destroy()
        let events = try input.events(of: name) { $0.contains { if case .deviceRemoved = $0 { true } else { false } } }
        #expect(kinds(events) == ["KEYBOARD_KEY", "DEVICE_REMOVED"], "\(events)")
        if case let .keyboardKey(_, key, pressed, _) = events.first {
            #expect(key == 30 && !pressed)
        }
    }

    // MARK: Contexts

    @Test func pathContextAddsAndRemovesThroughTheCallbacks() throws {
        let name = uniqueName("path")
        let uinput = try VirtualInputDevice(name: name, kind: Self.touchscreen)
        try uinput.waitForUdev()
        let calls = Calls()
        let input = Reader(try pathContext(calls))
        let device = try input.context.addDevice(path: uinput.devnode)
        #expect(device.name == name)
        let fd = try #require(calls.opened[uinput.devnode])
        #expect(fd >= 0)
        #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0, "libinput asks for O_NONBLOCK")
        let added = try input.events(of: name) { !$0.isEmpty }
        guard case .deviceAdded(let addedDevice) = try #require(added.first) else { return }
        #expect(addedDevice == device)

        input.context.removeDevice(device)
        #expect(calls.closed == [fd])
        let removed = try input.events(of: name) { !$0.isEmpty }
        guard case .deviceRemoved(let removedDevice) = try #require(removed.first) else { return }
        #expect(removedDevice == device)
    }

    @Test func suspendClosesDevicesAndResumeReportsThemAsNew() throws {
        let name = uniqueName("suspend")
        let uinput = try VirtualInputDevice(name: name, kind: Self.touchscreen)
        let calls = Calls()
        let input = Reader(try udevContext(calls))
        let before = try input.added(name)
        let fd = try #require(calls.opened[uinput.devnode])
        input.context.suspend()
        #expect(calls.closed.contains(fd))
        let removed = try input.events(of: name) { !$0.isEmpty }
        #expect(kinds(removed) == ["DEVICE_REMOVED"])
        try input.context.resume()
        let after = try input.added(name)
        #expect(after != before, "a resumed device is a new libinput device")
        #expect(after.devnode == before.devnode)
    }

    /// Releasing the context closes its devices; device values that outlive it are dropped safely
    /// (libinput already freed them: no unref may follow).
    @Test func releasingTheContextClosesDevicesAndOutlivingValuesAreHarmless() throws {
        let name = uniqueName("release")
        let uinput = try VirtualInputDevice(name: name, kind: Self.touchscreen)
        try uinput.waitForUdev()
        let calls = Calls()
        var input: LibInput? = try pathContext(calls)
        var device: InputDevice? = try input?.addDevice(path: uinput.devnode)
        let fd = try #require(calls.opened[uinput.devnode])
        #expect(device?.name == name)
        input = nil
        #expect(calls.closed == [fd])
        device = nil
        #expect(device == nil)
    }

    @Test func usingADeviceAfterItsContextTraps() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                let uinput = try! VirtualInputDevice(name: "kiosk LibInputTests after release", kind: Self.touchscreen)
                try! uinput.waitForUdev()
                var input: LibInput? = try! LibInput.path()
                let device = try! input!.addDevice(path: uinput.devnode)
                input = nil
                _ = device.capabilities
            }
        }
    }
}
