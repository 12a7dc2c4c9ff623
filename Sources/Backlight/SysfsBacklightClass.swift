import Glibc

/// The backlight class as sysfs shows it: `<root>/class/backlight/NAME/{type,max_brightness,
/// actual_brightness,brightness,device}`. `root` is `/sys`, or a folder laid out the same way (tests).
public final class SysfsBacklightClass: BacklightClass, Sendable {
    public let root: String

    public init(root: String = "/sys") {
        self.root = root
    }

    /// `<root>/class/backlight`.
    public var folder: String { root + "/class/backlight" }

    /// Every device, by name (the order of names is the listing's, not the kernel's registration order).
    /// A device that goes away while it is read is left out.
    public func devices() throws(BacklightError) -> [BacklightDevice] {
        let names: [String]
        do { names = try Self.entries(of: folder) } catch {
            if error.errno == ENOENT { return [] }
            throw error
        }
        var devices: [BacklightDevice] = []
        for name in names.sorted() {
            do {
                devices.append(try device(named: name))
            } catch {
                if error.isMissing { continue }
                throw error
            }
        }
        return devices
    }

    /// The device called `name`.
    public func device(named name: String) throws(BacklightError) -> BacklightDevice {
        let base = "\(folder)/\(name)"
        let type = BacklightDevice.Kind(rawValue: try Self.read(base + "/type")) ?? .raw
        let maximum = try Self.integer(base + "/max_brightness")
        return BacklightDevice(name: name, type: type, maxBrightness: maximum, parent: Self.parent(of: base))
    }

    public func brightness(of device: String) throws(BacklightError) -> Int {
        try Self.integer("\(folder)/\(device)/actual_brightness")
    }

    public func setBrightness(_ level: Int, of device: String) throws(BacklightError) {
        let path = "\(folder)/\(device)/brightness"
        let descriptor = Glibc.open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard descriptor >= 0 else { throw BacklightError(operation: "open", path: path, errno: errno) }
        defer { close(descriptor) }
        let text = Array(String(level).utf8)
        // One write: a sysfs attribute takes its whole value in one call (a short write would store a prefix).
        let written = text.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        guard written == text.count else {
            throw BacklightError(operation: "write", path: path, errno: written < 0 ? errno : EIO)
        }
    }

    // MARK: Files

    /// The device a class device's `device` link points at: the last component of its real path, and the
    /// last component of that device's `subsystem` link. nil without a link.
    static func parent(of base: String) -> BacklightDevice.Parent? {
        guard let path = realPath(base + "/device") else { return nil }
        let subsystem = realPath(path + "/subsystem").map(lastComponent)
        return BacklightDevice.Parent(subsystem: subsystem, name: lastComponent(path))
    }

    static func lastComponent(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// A sysfs attribute's text without its trailing newline.
    static func read(_ path: String) throws(BacklightError) -> String {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw BacklightError(operation: "open", path: path, errno: errno) }
        defer { close(descriptor) }
        // A backlight's attributes are a few bytes (sysfs allows a page: 4 KiB, or 16 or 64 KiB on some arm64
        // kernels); the first 4096 are read.
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count >= 0 else { throw BacklightError(operation: "read", path: path, errno: errno) }
        var text = String(decoding: buffer[0..<count], as: UTF8.self)
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }

    static func integer(_ path: String) throws(BacklightError) -> Int {
        guard let value = Int(try read(path)), value >= 0 else { throw BacklightError(operation: "parse", path: path, errno: EINVAL) }
        return value
    }

    /// The names in a folder, without `.` and `..`.
    static func entries(of path: String) throws(BacklightError) -> [String] {
        guard let directory = opendir(path) else { throw BacklightError(operation: "opendir", path: path, errno: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}
