import Glibc

/// This target's resources, found as SwiftPM's `Bundle.module` finds them on Linux: SwiftPM copies them into
/// `CheckInApp_CheckInApp.resources` (PACKAGE_TARGET.resources) beside the executable (`.build/debug`,
/// `.build/release`), and `scripts/install --app` installs that folder beside the installed one. Without
/// Foundation, which a release build would carry linked in (the kiosk links none), and a missing file is an
/// error that names its path instead of the crash `Bundle.module` gives.
enum Resources {
    static let bundle = "CheckInApp_CheckInApp.resources"

    /// Where the resource `name` is: in the bundle beside the running executable.
    static func path(_ name: String) -> String {
        "\(executableFolder)/\(bundle)/\(name)"
    }

    /// The resource `name` as UTF-8 text.
    static func text(_ name: String) -> Result<String, ResourceError> {
        let path = path(name)
        guard let file = fopen(path, "r") else { return .failure(ResourceError(path: path, errno: errno)) }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            bytes += chunk[..<count]
            if count < chunk.count { break }
        }
        if ferror(file) != 0 { return .failure(ResourceError(path: path, errno: errno)) }
        return .success(String(decoding: bytes, as: UTF8.self))
    }

    /// The folder of the running executable (the kernel's link /proc/self/exe: whatever the program was called by).
    private static let executableFolder: String = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return "." }
        let path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
    }()
}

/// A resource that could not be read: its path and why.
struct ResourceError: Error, CustomStringConvertible {
    let path: String
    let errno: Int32

    var description: String { "cannot read \(path): \(String(cString: strerror(errno)))" }
}

/// A line on standard output (1) or standard error (2), written at once: nothing waits in a buffer when the
/// process ends.
func say(_ line: String, to descriptor: Int32 = 1) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
}
