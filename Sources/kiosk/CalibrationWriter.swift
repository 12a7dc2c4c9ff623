import Glibc
import KioskBackend
import KioskConfig

/// Saves a calibration into the config file for the device, editing the text so the person's comments and
/// layout stay as they were: the `[[touch]]` entry that covers the device (the first, as the running kiosk
/// takes it) gets its `calibration` replaced (however many lines it spans) or added; without one, an entry
/// for the device's name is appended. The result is read back before anything is written: it must be a
/// valid configuration whose rule for the device has the new matrix, else nothing is written.
public enum CalibrationWriter {
    /// The file's text with the calibration saved, or why it cannot be saved.
    public static func updated(
        _ text: String, device: InputDeviceInfo, screen: String, matrix: [Double], path: String = "kiosk.toml"
    ) -> Result<String, CalibrationSaveError> {
        let calibrationLine = "calibration = \(Calibration.configSpelling(matrix))"
        let original: KioskConfiguration
        switch KioskConfiguration.parse(text: text, path: path) {
        case .success(let parsed): original = parsed
        case .failure(let errors): return .failure(.invalidFile("\(errors)"))
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let index = TouchMapping.rule(for: device, in: original.touch), let header = original.touch[index].line {
            // The entry runs from its header to the next table header (or the end).
            var end = header
            while end < lines.count, !trimmed(lines[end]).hasPrefix("[") { end += 1 }
            let body = header..<end  // 0-based indices of the lines after the header
            if let first = body.first(where: { key(of: lines[$0]) == "calibration" }) {
                let last = lastLine(ofArrayFrom: first, in: lines)
                lines.replaceSubrange(first...last, with: [calibrationLine])
            } else {
                lines.insert(calibrationLine, at: header)
            }
        } else {
            if let last = lines.last, last.isEmpty { lines.removeLast() }
            lines += [
                "", "# Written by `kiosk calibrate`.", "[[touch]]", "match = \(quoted(device.name))", "screen = \(quoted(screen))",
                calibrationLine, "",
            ]
        }
        let result = lines.joined(separator: "\n")
        // Read back: valid, and the device's rule now carries the matrix as written.
        switch KioskConfiguration.parse(text: result, path: path) {
        case .failure(let errors):
            return .failure(.wouldBreakFile("\(errors)"))
        case .success(let parsed):
            guard let index = TouchMapping.rule(for: device, in: parsed.touch),
                let saved = parsed.touch[index].calibration, Calibration.configSpelling(saved) == Calibration.configSpelling(matrix)
            else {
                return .failure(.wouldNotApply(calibrationLine))
            }
        }
        return .success(result)
    }

    /// Writes the updated text into `path` in place (created, with its folder, when missing): the person's
    /// file keeps its inode, owner, mode and any symlink to it, as an editor saving it would, instead of
    /// being renamed over by a copy. The space is allocated before a byte is overwritten, so a full disk
    /// leaves the file as it was.
    public static func write(path: String, device: InputDeviceInfo, screen: String, matrix: [Double]) throws(CalibrationSaveError) {
        var text = ""
        let existing = open(path, O_RDONLY | O_CLOEXEC)
        if existing >= 0 {
            defer { close(existing) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(existing, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count >= 0 else { throw .system(operation: "read", path: path, errno: errno) }
                if count == 0 { break }
                bytes += chunk[0..<count]
            }
            guard let decoded = String(validating: bytes, as: UTF8.self) else { throw .invalidFile("\(path) is not UTF-8 text") }
            text = decoded
        } else if errno != ENOENT {
            throw .system(operation: "open", path: path, errno: errno)
        } else {
            let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
            if !folder.isEmpty, mkdir(folder, 0o755) != 0, errno != EEXIST {
                throw .system(operation: "mkdir", path: folder, errno: errno)
            }
        }
        let bytes: [UInt8]
        switch updated(text, device: device, screen: screen, matrix: matrix, path: path) {
        case .success(let result): bytes = Array(result.utf8)
        case .failure(let error): throw error
        }
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .system(operation: "open", path: path, errno: errno) }
        defer { close(fd) }
        let reserved = posix_fallocate(fd, 0, off_t(bytes.count))
        // Some file systems cannot reserve (EOPNOTSUPP): then the write itself finds out.
        guard reserved == 0 || reserved == EOPNOTSUPP || reserved == EINVAL else {
            throw .system(operation: "posix_fallocate", path: path, errno: reserved)
        }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(written)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw .system(operation: "write", path: path, errno: errno) }
            written += count
        }
        guard ftruncate(fd, off_t(bytes.count)) == 0 else { throw .system(operation: "ftruncate", path: path, errno: errno) }
        guard fsync(fd) == 0 else { throw .system(operation: "fsync", path: path, errno: errno) }
    }

    /// The key a line assigns (`calibration` of `calibration = [...]`), nil for other lines.
    private static func key(of line: String) -> Substring? {
        let text = trimmed(line)
        guard let equals = text.firstIndex(of: "="), !text.hasPrefix("#") else { return nil }
        return trimmed(String(text[..<equals]))
    }

    /// The line where the array that starts on line `first` closes (its brackets balanced; numbers and
    /// comments only, as a calibration holds).
    private static func lastLine(ofArrayFrom first: Int, in lines: [String]) -> Int {
        var depth = 0
        for index in first..<lines.count {
            for character in lines[index].prefix(while: { $0 != "#" }) {
                if character == "[" { depth += 1 }
                if character == "]" { depth -= 1 }
            }
            if depth <= 0 { return index }
        }
        return first
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
}

/// Why a calibration was not saved; nothing was written.
public enum CalibrationSaveError: Error, CustomStringConvertible, Equatable {
    /// A system call on the file failed: which, on what, and errno.
    case system(operation: String, path: String, errno: Int32)
    /// The file as it is has problems of its own.
    case invalidFile(String)
    /// The edited file would not be valid (a bug here, or a layout it cannot edit).
    case wouldBreakFile(String)
    /// The edited file would not apply the calibration to the device (the line to add by hand).
    case wouldNotApply(String)

    public var description: String {
        switch self {
        case let .system(operation, path, errno): "\(operation) \(path): \(String(cString: strerror(errno))) (errno \(errno))"
        case let .invalidFile(problems): "the file has problems; nothing was written:\n\(problems)"
        case let .wouldBreakFile(problems): "editing the file would break it; nothing was written (add the line yourself):\n\(problems)"
        case let .wouldNotApply(line):
            "the edited file would not apply it to the device; nothing was written. Add this to its [[touch]] entry: \(line)"
        }
    }
}
