import Glibc

/// Writing to standard error without Foundation's `FileHandle`: messages for a person, whole lines.
public enum StandardError {
    /// Writes `text` (a newline is added when it has none) with `write(2)`, all of it.
    public static func write(_ text: String) {
        var bytes = Array(text.utf8)
        if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        writeAll(bytes, to: STDERR_FILENO)
    }
}

/// Writing to standard output unbuffered, line by line, for output another program reads while the kiosk
/// runs (`kiosk calibrate`'s targets): C's stdio would hold it in a buffer when stdout is a pipe.
public enum StandardOutput {
    public static func write(_ text: String) {
        var bytes = Array(text.utf8)
        if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
        writeAll(bytes, to: STDOUT_FILENO)
    }
}

/// `write(2)` until all of `bytes` is out (or the descriptor fails: nothing more can be said then).
func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
    var written = 0
    while written < bytes.count {
        let count = bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return }
        written += count
    }
}
