import Glibc

/// Reading a zone file whole, with `open`/`read`/`close`: the only code here that touches the file system,
/// so that the parsing above it works on bytes alone.
enum ZoneFile {
    /// More than any TZif file needs (the largest system ones are under 4 KiB); a bound so that a name that
    /// resolves to something else (a device, a huge file) is not read on and on.
    static let sizeLimit = 1 << 20

    /// The zone directory's file for a name, or `invalidName` when the name could reach outside it.
    static func path(forName name: String, directory: String) throws(TimeZoneError) -> String {
        // `..` looked for in the bytes: String.contains with a string argument is _StringProcessing's, and one
        // call links the whole regex engine into the kiosk.
        let bytes = Array(name.utf8)
        let climbs = zip(bytes, bytes.dropFirst()).contains { $0 == UInt8(ascii: ".") && $1 == UInt8(ascii: ".") }
        guard !name.isEmpty, !name.hasPrefix("/"), !climbs, !bytes.contains(0) else {
            throw .invalidName(name)
        }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The file's bytes. Retries `open` and `read` when a signal interrupts them (`EINTR`) and keeps
    /// reading after a short read, until `read` returns 0 (end of file).
    static func read(path: String) throws(TimeZoneError) -> [UInt8] {
        var descriptor: Int32
        repeat {
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { throw .cannotOpen(file: path, errno: errno) }
        // Linux releases the descriptor even when close fails (EINTR included), so it is not retried.
        defer { _ = close(descriptor) }

        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(file: path, errno: errno)
            }
            bytes.append(contentsOf: chunk[..<count])
            if bytes.count > sizeLimit { throw .tooLarge(file: path, limit: sizeLimit) }
        }
    }
}

/// `strerror`'s text for an errno value, for error descriptions.
func errorText(_ number: Int32) -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    // Swift's Glibc module has the POSIX strerror_r (0 on success), not the GNU one returning a pointer;
    // strerror itself may share one buffer between threads.
    guard strerror_r(number, &buffer, buffer.count) == 0 else { return "errno \(number)" }
    let message = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    return message + " (errno \(number))"
}
