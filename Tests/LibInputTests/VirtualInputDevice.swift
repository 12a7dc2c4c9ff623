import Foundation
import Glibc

/// A kernel input device made through uinput, for end-to-end tests: a multitouch touchscreen, a keyboard
/// or a mouse whose events the test writes and libinput reads from the real evdev node. Needs a writable
/// `/dev/uinput` (root, the uinput module): the project's QEMU guest has one (Tests/System, scenario
/// `libinput`), the development containers do not.
///
/// The ioctl numbers and struct layouts are those of linux/uinput.h on Linux's generic ioctl encoding
/// (x86-64, arm64), written out because the test target has no C module; checked against the header with
/// a C program printing `UI_DEV_SETUP` (0x405c5503), `sizeof(struct uinput_setup)` (92) and so on.
final class VirtualInputDevice {
    enum Kind {
        /// Multitouch protocol B with `slots` slots, `INPUT_PROP_DIRECT`, single-touch emulation (ABS_X/Y,
        /// BTN_TOUCH) and a resolution, so libinput knows the size: maximum = size × resolution - 1,
        /// which makes a unit u exactly u / (maximum + 1) of the axis and u / resolution mm in libinput.
        case touchscreen(widthMillimeters: Int32, heightMillimeters: Int32, unitsPerMillimeter: Int32, slots: Int32)
        case keyboard
        case mouse
    }

    static var isAvailable: Bool {
        access("/dev/uinput", W_OK) == 0 && access("/run/udev/control", F_OK) == 0
    }

    let name: String
    let kind: Kind
    private var fd: Int32
    /// e.g. `/dev/input/event5`.
    private(set) var devnode = ""
    /// The axis maxima of a touchscreen.
    private(set) var maximum: (x: Int32, y: Int32) = (0, 0)
    private var currentSlot: Int32 = -1
    private var nextTrackingID: Int32 = 1
    private var contacts: [Int32: Int32] = [:]  // slot -> tracking id

    static let vendor: UInt16 = 0x1d6b  // Linux Foundation, as virtual devices often use
    static let product: UInt16 = 0x4b10

    init(name: String, kind: Kind) throws {
        self.name = name
        self.kind = kind
        fd = open("/dev/uinput", O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        switch kind {
        case let .touchscreen(width, height, resolution, slots):
            maximum = (width * resolution - 1, height * resolution - 1)
            try set(UInput.setEventBit, EV.key)
            try set(UInput.setKeyBit, Code.btnTouch)
            try set(UInput.setEventBit, EV.abs)
            try set(UInput.setPropertyBit, Code.inputPropDirect)
            try absSetup(Code.absX, maximum: maximum.x, resolution: resolution)
            try absSetup(Code.absY, maximum: maximum.y, resolution: resolution)
            try absSetup(Code.absMTSlot, maximum: slots - 1, resolution: 0)
            try absSetup(Code.absMTTrackingID, maximum: 65535, resolution: 0)
            try absSetup(Code.absMTPositionX, maximum: maximum.x, resolution: resolution)
            try absSetup(Code.absMTPositionY, maximum: maximum.y, resolution: resolution)
        case .keyboard:
            try set(UInput.setEventBit, EV.key)
            for key in Code.keyboardKeys { try set(UInput.setKeyBit, key) }
        case .mouse:
            try set(UInput.setEventBit, EV.key)
            try set(UInput.setKeyBit, Code.btnLeft)
            try set(UInput.setKeyBit, Code.btnRight)
            try set(UInput.setKeyBit, Code.btnMiddle)
            try set(UInput.setEventBit, EV.rel)
            try set(UInput.setRelBit, Code.relX)
            try set(UInput.setRelBit, Code.relY)
        }
        // struct uinput_setup { struct input_id { u16 bustype, vendor, product, version }; char name[80];
        // u32 ff_effects_max; }
        var setup = [UInt8](repeating: 0, count: 92)
        func put16(_ value: UInt16, at offset: Int) {
            setup[offset] = UInt8(value & 0xff)
            setup[offset + 1] = UInt8(value >> 8)
        }
        put16(0x06, at: 0)  // BUS_VIRTUAL
        put16(Self.vendor, at: 2)
        put16(Self.product, at: 4)
        put16(1, at: 6)
        for (index, byte) in name.utf8.prefix(79).enumerated() { setup[8 + index] = byte }
        let fd = self.fd
        try check(setup.withUnsafeMutableBytes { ioctl(fd, UInput.devSetup, $0.baseAddress!) }, "UI_DEV_SETUP")
        try check(ioctl(fd, UInput.devCreate), "UI_DEV_CREATE")

        var sysname = [CChar](repeating: 0, count: 64)
        try check(sysname.withUnsafeMutableBytes { ioctl(fd, UInput.getSysname64, $0.baseAddress!) }, "UI_GET_SYSNAME")
        let input = String(decoding: sysname.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let directory = "/sys/devices/virtual/input/\(input)"
        let event = try FileManager.default.contentsOfDirectory(atPath: directory).first { $0.hasPrefix("event") }
        guard let event else { throw POSIXError(.ENODEV) }
        devnode = "/dev/input/\(event)"
    }

    deinit {
        destroy()
    }

    /// Removes the device from the kernel (`UI_DEV_DESTROY`), as an unplug would.
    func destroy() {
        guard fd >= 0 else { return }
        _ = ioctl(fd, UInput.devDestroy)
        close(fd)
        fd = -1
    }

    /// Waits until udev has processed the device (its database entry exists), which libinput's path
    /// backend needs: it waits only 2 s itself and then refuses the device.
    func waitForUdev(timeout: Duration = .seconds(30)) throws {
        let dev = try String(contentsOfFile: "/sys/class/input/\(devnode.split(separator: "/").last!)/dev", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let database = "/run/udev/data/c\(dev)"
        let deadline = ContinuousClock.now + timeout
        while access(database, F_OK) != 0 {
            guard ContinuousClock.now < deadline else { throw POSIXError(.ETIMEDOUT) }
            usleep(10_000)
        }
    }

    // MARK: Touch

    /// Queues a contact in `slot` at device units (x, y); `frame()` sends it.
    func down(slot: Int32, x: Int32, y: Int32) throws {
        try selectSlot(slot)
        contacts[slot] = nextTrackingID
        try emit(EV.abs, Code.absMTTrackingID, nextTrackingID)
        nextTrackingID += 1
        try emit(EV.abs, Code.absMTPositionX, x)
        try emit(EV.abs, Code.absMTPositionY, y)
        if contacts.count == 1 {
            try emit(EV.key, Code.btnTouch, 1)
        }
        if slot == contacts.keys.min() {
            try emit(EV.abs, Code.absX, x)
            try emit(EV.abs, Code.absY, y)
        }
    }

    func move(slot: Int32, x: Int32, y: Int32) throws {
        try selectSlot(slot)
        try emit(EV.abs, Code.absMTPositionX, x)
        try emit(EV.abs, Code.absMTPositionY, y)
        if slot == contacts.keys.min() {
            try emit(EV.abs, Code.absX, x)
            try emit(EV.abs, Code.absY, y)
        }
    }

    func up(slot: Int32) throws {
        try selectSlot(slot)
        try emit(EV.abs, Code.absMTTrackingID, -1)
        contacts[slot] = nil
        if contacts.isEmpty { try emit(EV.key, Code.btnTouch, 0) }
    }

    // MARK: Keys and pointer

    func key(_ code: UInt16, pressed: Bool) throws {
        try emit(EV.key, code, pressed ? 1 : 0)
    }

    func moveRelative(dx: Int32, dy: Int32) throws {
        try emit(EV.rel, Code.relX, dx)
        try emit(EV.rel, Code.relY, dy)
    }

    /// SYN_REPORT: the end of one evdev frame.
    func frame() throws {
        try emit(EV.syn, 0, 0)
    }

    // MARK: Plumbing

    private func selectSlot(_ slot: Int32) throws {
        if currentSlot != slot {
            try emit(EV.abs, Code.absMTSlot, slot)
            currentSlot = slot
        }
    }

    /// Writes one `struct input_event` (timeval, u16 type, u16 code, s32 value: 24 bytes on 64-bit); the
    /// kernel stamps the time itself.
    private func emit(_ type: UInt16, _ code: UInt16, _ value: Int32) throws {
        var event = [UInt8](repeating: 0, count: 24)
        withUnsafeBytes(of: type.littleEndian) { event.replaceSubrange(16..<18, with: $0) }
        withUnsafeBytes(of: code.littleEndian) { event.replaceSubrange(18..<20, with: $0) }
        withUnsafeBytes(of: value.littleEndian) { event.replaceSubrange(20..<24, with: $0) }
        let written = event.withUnsafeBytes { write(fd, $0.baseAddress, 24) }
        guard written == 24 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    private func set(_ request: UInt, _ bit: UInt16) throws {
        try check(ioctl(fd, request, Int32(bit)), "UI_SET_*BIT \(bit)")
    }

    /// struct uinput_abs_setup { u16 code; (2 bytes padding) struct input_absinfo { s32 value, minimum,
    /// maximum, fuzz, flat, resolution; } }: 28 bytes.
    private func absSetup(_ code: UInt16, maximum: Int32, resolution: Int32) throws {
        var setup = [Int32](repeating: 0, count: 7)
        setup[0] = Int32(code)  // little-endian: the u16 code in the first two bytes
        setup[3] = maximum
        setup[6] = resolution
        let fd = self.fd
        try check(setup.withUnsafeMutableBytes { ioctl(fd, UInput.absSetup, $0.baseAddress!) }, "UI_ABS_SETUP \(code)")
    }

    private func check(_ result: Int32, _ what: String) throws {
        guard result >= 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO, userInfo: [NSLocalizedDescriptionKey: what])
        }
    }
}

/// linux/uinput.h requests: _IOC(dir, 'U', nr, size) = dir << 30 | size << 16 | 0x55 << 8 | nr.
private enum UInput {
    static let devCreate: UInt = 0x5501
    static let devDestroy: UInt = 0x5502
    static let devSetup: UInt = 0x405c_5503  // _IOW('U', 3, struct uinput_setup), 92 bytes
    static let absSetup: UInt = 0x401c_5504  // _IOW('U', 4, struct uinput_abs_setup), 28 bytes
    static let setEventBit: UInt = 0x4004_5564  // _IOW('U', 100, int)
    static let setKeyBit: UInt = 0x4004_5565
    static let setRelBit: UInt = 0x4004_5566
    static let setPropertyBit: UInt = 0x4004_556e
    static let getSysname64: UInt = 0x8040_552c  // _IOC(_IOC_READ, 'U', 44, 64)
}

/// linux/input-event-codes.h.
private enum EV {
    static let syn: UInt16 = 0, key: UInt16 = 1, rel: UInt16 = 2, abs: UInt16 = 3
}

enum Code {
    static let btnTouch: UInt16 = 0x14a
    static let btnLeft: UInt16 = 0x110, btnRight: UInt16 = 0x111, btnMiddle: UInt16 = 0x112
    static let relX: UInt16 = 0, relY: UInt16 = 1
    static let absX: UInt16 = 0, absY: UInt16 = 1
    static let absMTSlot: UInt16 = 0x2f, absMTPositionX: UInt16 = 0x35, absMTPositionY: UInt16 = 0x36
    static let absMTTrackingID: UInt16 = 0x39
    static let inputPropDirect: UInt16 = 1
    static let keyA: UInt16 = 30, keyEnter: UInt16 = 28, keyLeftShift: UInt16 = 42
    /// KEY_ESC (1) to KEY_SLASH (53): letters, digits, Enter, Shift, enough for libinput to call it a keyboard.
    static let keyboardKeys: [UInt16] = Array(1...53)
}
