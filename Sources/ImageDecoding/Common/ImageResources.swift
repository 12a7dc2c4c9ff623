import Glibc

/// Where `Image(named:)` finds an app's images: the folders searched, in order, and the file names tried.
///
/// By default, for a program at `/opt/app/bin/cafe-kiosk` (read from `/proc/self/exe`):
/// 1. `Resources/` beside the executable (`/opt/app/bin/Resources/`), where a development build or an
///    unpacked release keeps them;
/// 2. `share/<program>/` beside the executable's folder (`/opt/app/share/cafe-kiosk/`), the layout of
///    `make install PREFIX=/opt/app` and of a Debian package (`/usr/bin/x` finds `/usr/share/x/`).
///
/// A name without an extension tries `.png`, `.jpg`, `.jpeg`, `.webp`, `.gif` and `.svg` in that order; a
/// name with one is taken as it is. An absolute path is not looked up: use `Image(contentsOfFile:)`.
public enum ImageResources {
    /// The extensions a bare name is tried with, in order.
    public static let extensions = ["png", "jpg", "jpeg", "webp", "gif", "svg"]

    /// The folders searched, computed once from the executable's path.
    public static let defaultFolders: [String] = {
        guard let executable = executablePath() else { return [] }
        let folder = parent(of: executable), program = String(executable.split(separator: "/").last ?? "")
        return [folder + "/Resources", parent(of: folder) + "/share/" + program]
    }()

    /// The file `name` stands for in `folders`, or nil; `tried` gets every path looked at, for the error
    /// that names them.
    public static func path(named name: String, in folders: [String], tried: inout [String]) -> String? {
        guard !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else { return nil }
        let last = name.split(separator: "/").last ?? ""
        let candidates = last.firstIndex(of: ".") != nil ? [name] : extensions.map { "\(name).\($0)" }
        for folder in folders {
            for candidate in candidates {
                let path = folder + "/" + candidate
                tried.append(path)
                var status = stat()
                if stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG { return path }
            }
        }
        return nil
    }

    /// `/proc/self/exe` resolved. Calls `readlink`.
    private static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
}
