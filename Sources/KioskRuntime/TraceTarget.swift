import Glibc

/// Whether a path may take the trace, which is appended to whatever is there: never a file the kiosk itself
/// reads (its config file, its own binary: `--trace mine.toml --config mine.toml` had corrupted the file the
/// next start read), never a regular file that holds something other than a trace (JSON lines, each an
/// object with its `event` first). FIFOs, sockets, character devices and symlinks to them are written through
/// as before; a new file or an empty one is fine.
enum TraceTarget {
    /// What is wrong with appending a trace to `path`, checked before it is opened: it is one of `readFiles`
    /// (the same file, by device and inode, whatever path or link names it). Nil when it may be opened.
    static func problemBeforeOpening(_ path: String, readFiles: [(path: String, what: String)]) -> String? {
        var target = stat()
        guard stat(path, &target) == 0, target.st_mode & S_IFMT == S_IFREG else { return nil }
        for file in readFiles {
            var read = stat()
            if stat(file.path, &read) == 0, read.st_dev == target.st_dev, read.st_ino == target.st_ino {
                return "it is \(file.what) (\(file.path)), which the kiosk reads; name another file"
            }
        }
        return nil
    }

    /// What is wrong with the regular file open (for writing) at `descriptor`: it has content, and its first
    /// line is no trace line. Nil when it is empty or a trace. (Read through `/proc/self/fd`, the same file
    /// opened for reading, whatever happened to its path since.)
    static func problemWithContent(of descriptor: Int32) -> String? {
        let reader = open("/proc/self/fd/\(descriptor)", O_RDONLY | O_CLOEXEC)
        guard reader >= 0 else { return "it cannot be read to check that it holds a trace: \(String(cString: strerror(errno)))" }
        defer { close(reader) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = pread(reader, &buffer, buffer.count, 0)
        guard count > 0 else { return nil }
        let head = buffer[..<count]
        let firstLine = head.firstIndex(of: UInt8(ascii: "\n")).map { head[..<$0] } ?? head
        if looksLikeATraceLine(firstLine) { return nil }
        return
            "it holds something other than a trace (its first line is no JSON line with an \"event\"); name a new file, or remove this one"
    }

    /// `{"event":"...", ...}` as `JSONLine` writes it.
    static func looksLikeATraceLine(_ line: ArraySlice<UInt8>) -> Bool {
        guard case .object(let members)? = try? JSONValue.parse(line), case .string? = members.first?.value else { return false }
        return members.first?.key == "event"
    }
}
