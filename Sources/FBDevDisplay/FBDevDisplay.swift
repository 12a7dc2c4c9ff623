import CFBDev
import Dispatch
import Glibc
import KioskBackend
import KioskConfig
import KioskKit
import Logging

/// A failed fbdev call: the operation, errno and device.
public struct FBDevError: Error, CustomStringConvertible, Equatable {
    public let operation: String
    public let errno: Int32
    public let path: String

    public var description: String {
        errno == 0 ? "\(operation)(\(path))" : "\(operation)(\(path)): \(String(cString: strerror(errno))) (errno \(errno))"
    }
}

/// The fbdev fallback: one screen on `/dev/fbN` (a board without KMS, or a DRM driver's fbdev emulation),
/// its one mode, the same compositor. The framebuffer is mapped and written in place; there is no vblank
/// event, so a frame completes on the next turn of the main queue.
@MainActor
public final class FBDevDisplay: DisplayBackend {
    public nonisolated static let name = "fbdev"
    /// Where the framebuffer is unless the configuration's `fbdev-device` says otherwise.
    public static let defaultPath = "/dev/fb0"

    public let path: String
    public let screen: Screen
    public weak var compositor: Compositor?
    private let fd: Int32
    private let memory: UnsafeMutableRawPointer
    private let length: Int
    private let bitmap: Bitmap
    private let mode: Screen.Mode
    private var presentedOnce = false
    /// The console's tty and its mode before we switched it to graphics (so fbcon stops drawing).
    private var console: (fd: Int32, mode: Int32)?
    /// The screen's settings by its name (a framebuffer has no EDID), resolved once when the backend is
    /// made for the kiosk and on each reload: fbdev applies only the overscan itself (one mode, no
    /// rotation), and power (`idle-timeout`), HDMI-CEC and the pointer's layout read them.
    private var screenSettings = ScreenSettingsStore()
    private let log = Logger(label: "kiosk.fbdev")

    public var drivesDisplays: Bool { true }

    /// The configuration's `fbdev-device`, else `/dev/fb0`. A device the configuration names must work;
    /// the default one missing or unusable is `.unavailable`.
    public convenience init(context: BackendContext) throws(BackendError) {
        let named = context.configuration.fbdevDevice
        let path = named ?? Self.defaultPath
        guard named != nil || access(path, F_OK) == 0 else { throw .unavailable(Self.name, "no framebuffer device (\(path))") }
        do {
            try self.init(path: path)
        } catch {
            throw named != nil ? .failed(Self.name, "\(error)") : .unavailable(Self.name, "\(error)")
        }
        screenSettings.resolve([(screen.name, nil)], in: context.configuration)
        screen.apply(overscan: screenSettings[screen.name].overscan)
        Logger(label: "kiosk.fbdev").notice("using the fbdev backend on \(path)")
        if let launchScreen = context.launchScreen {
            // fbdev has no modeset to show it at: the framebuffer keeps what it shows until the first frame.
            Logger(label: "kiosk.fbdev").notice("launch-screen: the fbdev backend shows none (\(launchScreen.path) not shown)")
        }
    }

    /// Opens and maps `path`; only 32-bit XRGB layouts are accepted (what DRM's fbdev emulation and most
    /// panels offer), anything else is an error naming the layout found.
    /// Calls `open`, `FBIOGET_VSCREENINFO`, `FBIOGET_FSCREENINFO` and `mmap`.
    public init(path: String) throws(FBDevError) {
        fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw FBDevError(operation: "open", errno: errno, path: path) }
        var variable = fb_var_screeninfo()
        var fixed = fb_fix_screeninfo()
        guard kiosk_fb_get_var(fd, &variable) == 0 else {
            let code = errno
            close(fd)
            throw FBDevError(operation: "FBIOGET_VSCREENINFO", errno: code, path: path)
        }
        guard kiosk_fb_get_fix(fd, &fixed) == 0 else {
            let code = errno
            close(fd)
            throw FBDevError(operation: "FBIOGET_FSCREENINFO", errno: code, path: path)
        }
        guard variable.bits_per_pixel == 32, variable.red.offset == 16, variable.green.offset == 8, variable.blue.offset == 0 else {
            close(fd)
            throw FBDevError(
                operation:
                    "unsupported pixel layout \(variable.bits_per_pixel) bpp, red at \(variable.red.offset), green at \(variable.green.offset), blue at \(variable.blue.offset); supported: 32 bpp XRGB8888",
                errno: 0, path: path)
        }
        let length = Int(fixed.smem_len)
        guard let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0), mapped != kiosk_fb_map_failed() else {
            let code = errno
            close(fd)
            throw FBDevError(operation: "mmap", errno: code, path: path)
        }
        self.path = path
        self.length = length
        memory = mapped
        let width = Int(variable.xres), height = Int(variable.yres)
        // The visible page starts at the panned offset.
        let start = mapped + Int(variable.yoffset) * Int(fixed.line_length) + Int(variable.xoffset) * 4
        bitmap = Bitmap(wrapping: start, width: width, height: height, stride: Int(fixed.line_length), format: .xrgb8888)
        mode = Screen.Mode(width: width, height: height, refreshRate: Self.refreshRate(variable))
        let name = path.split(separator: "/").last.map(String.init) ?? path
        screen = Screen(name: name, driver: nil)
        let id = withUnsafeBytes(of: fixed.id) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        log.info("\(path) (\(id)): \(width)x\(height), stride \(fixed.line_length), \(length) bytes mapped")
    }

    /// `1e12 / (pixclock * htotal * vtotal)` Hz with pixclock in picoseconds; 0 when the driver reports no timings.
    static func refreshRate(_ v: fb_var_screeninfo) -> Double {
        let htotal = Double(v.left_margin + v.xres + v.right_margin + v.hsync_len)
        let vtotal = Double(v.upper_margin + v.yres + v.lower_margin + v.vsync_len)
        guard v.pixclock > 0, htotal > 0, vtotal > 0 else { return 0 }
        return 1e12 / (Double(v.pixclock) * htotal * vtotal)
    }

    public var screens: [Screen] { [screen] }

    /// fbdev has one screen and one mode: only its settings are resolved again, and its overscan taken.
    public func reconfigure(_ configuration: KioskConfiguration) {
        screenSettings.resolve([(screen.name, nil)], in: configuration)
        screen.apply(overscan: screenSettings[screen.name].overscan)
    }

    public func settings(of screen: Screen) -> ResolvedScreen { screenSettings[screen.name] }

    /// Nothing to stop: a framebuffer has no page flips, and it is not opened through the seat.
    public func pause() {}
    public func resume() { compositor?.setNeedsFullRepaint(screen) }

    /// Gives the console back.
    public func stop() { restore() }

    /// Switches the console to graphics (fbcon stops drawing over us) and connects the screen.
    public func start() {
        takeConsole()
        screen.connect(modes: [mode], preferredMode: mode, currentMode: mode)
    }

    // The console tty: our own when started on one (systemd's TTYPath), else the active VT.
    private func takeConsole() {
        for candidate in ["/dev/tty", "/dev/tty0"] {
            let tty = open(candidate, O_RDWR | O_CLOEXEC)
            guard tty >= 0 else { continue }
            var current: Int32 = 0
            if kiosk_kd_get_mode(tty, &current) == 0, kiosk_kd_set_mode(tty, kiosk_kd_graphics()) == 0 {
                console = (tty, current)
                log.info("\(candidate) switched to graphics mode")
                return
            }
            close(tty)
        }
        log.notice("no console tty to switch to graphics mode; the console cursor may draw over the kiosk")
    }

    /// fbdev has one mode; nothing else can be applied.
    public func apply(_ mode: Screen.Mode, to screen: Screen) throws {
        guard mode == self.mode else {
            throw FBDevError(operation: "mode change (fbdev has only \(self.mode))", errno: EINVAL, path: path)
        }
    }

    public func nextBuffer(for screen: Screen) -> FrameBuffer? {
        guard screen === self.screen else { return nil }
        return FrameBuffer(bitmap: bitmap, age: presentedOnce ? 1 : 0)
    }

    public func present(_ buffer: FrameBuffer, for screen: Screen, damage: Region) {
        presentedOnce = true
        DispatchQueue.main.async {
            MainActor.assumeIsolated { self.compositor?.framePresented(on: screen) }
        }
    }

    /// Gives the console back (text mode) and unmaps.
    public func restore() {
        if let console {
            _ = kiosk_kd_set_mode(console.fd, console.mode)
            close(console.fd)
            self.console = nil
        }
        munmap(memory, length)
        close(fd)
        log.info("\(path): console restored")
    }
}
