import Glibc

/// The address of a Unix socket at a path, for `bind` and `connect` (the server, its probe for a stale
/// socket, the `kiosk status` client): one place that knows `sockaddr_un` holds at most 107 bytes of path.
public struct UnixSocketAddress {
    private var address = sockaddr_un()

    /// nil when `path` is too long for a socket's address.
    public init?(path: String) {
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes + [0]) }
    }

    /// `connect(fd, address)`: 0, or -1 with `errno` set.
    public func connect(_ fd: Int32) -> Int32 {
        withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }

    /// `bind(fd, address)`: 0, or -1 with `errno` set.
    public func bind(_ fd: Int32) -> Int32 {
        withUnsafePointer(to: address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
    }
}

/// What a file is, from its `st_mode`, for messages that refuse to touch it (`a FIFO`, `a symbolic link`).
public func fileKind(_ mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFREG: "a regular file"
    case S_IFDIR: "a directory"
    case S_IFLNK: "a symbolic link"
    case S_IFIFO: "a FIFO"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFSOCK: "a socket"
    default: "a file of an unknown kind"
    }
}
