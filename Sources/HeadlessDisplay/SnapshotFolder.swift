import Glibc
import Graphics
import Logging

/// The folder the headless backend writes each screen's frames into as `<screen>.png`: checked at start,
/// each PNG written beside its name and renamed over it (a reader never sees half a PNG), nothing left behind
/// when a write fails, and a failure said once per screen, with its recovery, rather than at every frame.
@MainActor
final class SnapshotFolder {
    let path: String
    /// Per screen: the writes that failed since the last one that did not.
    private var failures: [String: Int] = [:]
    private let log = Logger(label: "kiosk.headless")

    /// Makes the folder where it is missing (`mkdir -p`) and writes a block into a file of its own there, then
    /// removes it: a folder on a read-only or full filesystem, or one the kiosk may not write into, is said
    /// at start (the backend cannot run: exit 3), not as a failed write at every frame.
    init(path: String) throws(SystemCallError) {
        try makeDirectory(path)
        let probe = (path.hasSuffix("/") ? path : path + "/") + ".kiosk-write-check-\(getpid())"
        defer { unlink(probe) }
        try Self.writeNew(probe, [UInt8](repeating: 0, count: 4096))
        self.path = path
    }

    /// Where `screen`'s snapshots go.
    func file(of screen: String) -> String { (path.hasSuffix("/") ? path : path + "/") + screen + ".png" }

    /// Writes `bitmap` as `screen`'s snapshot.
    func write(_ bitmap: Bitmap, of screen: String) {
        let path = file(of: screen)
        // The file beside is made new (O_EXCL, O_NOFOLLOW): a link planted at its name is removed, never
        // written through.
        let temporary = path + ".tmp"
        do {
            let bytes = try bitmap.pngData()
            try Self.writeNew(temporary, bytes)
            if rename(temporary, path) != 0 { throw SystemCallError(operation: "rename \(temporary) to \(path)", errno: errno) }
        } catch {
            unlink(temporary)
            failures[screen, default: 0] += 1
            if failures[screen] == 1 {
                log.error("could not write the snapshot of \(screen) (\(path)): \(error); said again when a snapshot of it is written")
            }
            return
        }
        if let failed = failures.removeValue(forKey: screen) {
            log.notice("the snapshot of \(screen) is written again (\(path)), after \(failed) frame(s) that could not be")
        }
    }

    /// Writes `bytes` into a file made at `path`; one left there by a run that stopped midway (or a link
    /// put there) is removed first, as the name is this backend's own. A write that fails leaves the file.
    private static func writeNew(_ path: String, _ bytes: [UInt8]) throws(SystemCallError) {
        let flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC
        var fd = open(path, flags, 0o644)
        if fd < 0, errno == EEXIST {
            unlink(path)
            fd = open(path, flags, 0o644)
        }
        guard fd >= 0 else { throw SystemCallError(operation: "open \(path)", errno: errno) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let error = SystemCallError(operation: "write \(path)", errno: count == 0 ? ENOSPC : errno)
                close(fd)
                throw error
            }
            written += count
        }
        // Where the filesystem reports a full disk only when the data goes out (NFS, some FUSE), at close.
        guard close(fd) == 0 else { throw SystemCallError(operation: "close \(path)", errno: errno) }
    }
}

/// A failed system call: its name, the path and errno's text.
struct SystemCallError: Error, CustomStringConvertible {
    let operation: String
    let errno: Int32

    var description: String { "\(String(cString: strerror(errno))) (\(operation))" }
}

/// `mkdir -p`: makes `path` and the folders above it that are missing.
func makeDirectory(_ path: String) throws(SystemCallError) {
    var partial = path.hasPrefix("/") ? "" : "."
    for component in path.split(separator: "/") {
        partial += "/" + component
        if mkdir(partial, 0o755) != 0 && errno != EEXIST { throw SystemCallError(operation: "mkdir \(partial)", errno: errno) }
    }
    var status = stat()
    guard stat(path, &status) == 0 else { throw SystemCallError(operation: "stat \(path)", errno: errno) }
    guard status.st_mode & S_IFMT == S_IFDIR else { throw SystemCallError(operation: "mkdir \(path)", errno: ENOTDIR) }
}
