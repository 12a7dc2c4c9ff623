import Foundation

/// Saves a calibration into the config file as a `[[touch]]` entry for the device, editing the text so
/// the person's comments and layout stay as they were: the entry whose `match` is the device's name gets
/// its `calibration` line replaced (or added); without one, an entry is appended.
public enum CalibrationWriter {
    public static func updated(_ text: String, device: String, screen: String, matrix: [Double]) -> String {
        var lines = text.components(separatedBy: "\n")
        let calibrationLine = "calibration = \(Calibration.configSpelling(matrix))"
        let matchLine = "match = \(quoted(device))"
        var index = 0
        while index < lines.count {
            guard lines[index].trimmingCharacters(in: .whitespaces) == "[[touch]]" else {
                index += 1
                continue
            }
            // The entry runs to the next table header.
            var end = index + 1
            while end < lines.count, !lines[end].trimmingCharacters(in: .whitespaces).hasPrefix("[") { end += 1 }
            let body = index + 1..<end
            if let match = body.first(where: { normalized(lines[$0]) == normalized(matchLine) }) {
                if let existing = body.first(where: { lines[$0].trimmingCharacters(in: .whitespaces).hasPrefix("calibration") }) {
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

    /// Writes `path` (created when missing) through a temporary file and a rename.
    public static func write(path: String, device: String, screen: String, matrix: [Double]) throws {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        let updated = Self.updated(text, device: device, screen: screen, matrix: matrix)
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try updated.write(to: url, atomically: true, encoding: .utf8)
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

    private static func normalized(_ line: String) -> String {
        line.replacingOccurrences(of: " ", with: "").replacingOccurrences(of: "\t", with: "")
    }
}
