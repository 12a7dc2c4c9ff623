import Glibc

/// Saves a calibration into the config file as a `[[touch]]` entry for the device, editing the text so
/// the person's comments and layout stay as they were: the entry whose `match` is the device's name gets
/// its `calibration` line replaced (or added); without one, an entry is appended.
public enum CalibrationWriter {
    public static func updated(_ text: String, device: String, screen: String, matrix: [Double]) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let calibrationLine = "calibration = \(Calibration.configSpelling(matrix))"
        let matchLine = "match = \(quoted(device))"
        var index = 0
        while index < lines.count {
            guard trimmed(lines[index]) == "[[touch]]" else {
                index += 1
                continue
            }
            // The entry runs to the next table header.
            var end = index + 1
            while end < lines.count, !trimmed(lines[end]).hasPrefix("[") { end += 1 }
            let body = index + 1..<end
            if let match = body.first(where: { normalized(lines[$0]) == normalized(matchLine) }) {
                if let existing = body.first(where: { trimmed(lines[$0]).hasPrefix("calibration") }) {
                    lines[existing] = calibrationLine
                } else {
                    lines.insert(calibrationLine, at: match + 1)
                }
                return lines.joined(separator: "\n")
            }
            index = end
        }
        var result = text
        if !result.isEmpty && !result.hasSuffix("\n") { result += "\n" }
        result += "\n# Written by `kiosk calibrate`.\n[[touch]]\n\(matchLine)\nscreen = \(quoted(screen))\n\(calibrationLine)\n"
        return result
    }

    /// Writes the updated text into `path` in place (created, with its folder, when missing): the person's
    /// file keeps its inode, owner, mode and any symlink to it, as an editor saving it would, instead of
    /// being renamed over by a copy.
    public static func write(path: String, device: String, screen: String, matrix: [Double]) throws(CalibrationWriteError) {
        var text = ""
        let existing = open(path, O_RDONLY | O_CLOEXEC)
        if existing >= 0 {
            defer { close(existing) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(existing, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count >= 0 else { throw CalibrationWriteError(operation: "read", path: path, errno: errno) }
                if count == 0 { break }
                bytes += chunk[0..<count]
            }
            text = String(decoding: bytes, as: UTF8.self)
        } else if errno != ENOENT {
            throw CalibrationWriteError(operation: "open", path: path, errno: errno)
        } else {
            let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
            if !folder.isEmpty, mkdir(folder, 0o755) != 0, errno != EEXIST {
                throw CalibrationWriteError(operation: "mkdir", path: folder, errno: errno)
            }
        }
        let bytes = Array(updated(text, device: device, screen: screen, matrix: matrix).utf8)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CalibrationWriteError(operation: "open", path: path, errno: errno) }
        defer { close(fd) }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw CalibrationWriteError(operation: "write", path: path, errno: errno) }
            written += count
        }
        guard fsync(fd) == 0 else { throw CalibrationWriteError(operation: "fsync", path: path, errno: errno) }
    }

    /// A TOML basic string; glob characters in device names are matched literally by fnmatch only when
    /// escaped, so `*?[` get a backslash.
    static func quoted(_ name: String) -> String {
        var escaped = ""
        for character in name {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\\\\\"
            case "*", "?", "[": escaped += "\\\\" + String(character)
            default: escaped.append(character)
            }
        }
        return "\"" + escaped + "\""
    }

    /// Without the spaces and tabs around it.
    private static func trimmed(_ line: String) -> Substring {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = line.firstIndex(where: { !isBlank($0) }), let last = line.lastIndex(where: { !isBlank($0) }) else { return "" }
        return line[first...last]
    }

    private static func normalized(_ line: String) -> String {
        line.filter { $0 != " " && $0 != "\t" }
    }
}

/// A system call on the config file that failed: which, on what, and errno's text.
public struct CalibrationWriteError: Error, CustomStringConvertible {
    let operation: String
    let path: String
    let errno: Int32

    public var description: String { "\(operation) \(path): \(String(cString: strerror(errno))) (errno \(errno))" }
}
