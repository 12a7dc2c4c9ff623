import Foundation
import TOMLKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension KioskConfiguration {
    /// A kiosk config is a few kilobytes; a file this large is the wrong file (a log, a disk image), and
    /// reading it all would only delay saying so.
    public static let maximumFileSize = 1 << 20

    /// Reads and validates the file at `path`, then applies the `KIOSK_*` overrides from `environment`.
    /// An absent file means the defaults (a kiosk runs out of the box) unless `requireFile` (an explicit
    /// `--config`). Returns every problem at once; never traps, whatever the file holds.
    public static func load(
        path: String, environment: [String: String] = ProcessInfo.processInfo.environment,
        vocabulary: Vocabulary = .open, requireFile: Bool = false
    ) -> Result<KioskConfiguration, ConfigErrors> {
        switch readFile(path) {
        case let .success(bytes):
            return parse(bytes: bytes, path: path, environment: environment, vocabulary: vocabulary)
        case .failure(.missing) where !requireFile:
            var configuration = KioskConfiguration.default
            let problems = configuration.applyEnvironment(environment, vocabulary: vocabulary)
            return problems.isEmpty ? .success(configuration) : .failure(ConfigErrors(problems))
        case let .failure(error):
            var problems = [ConfigProblem.syntax(.file(path: path, line: nil, column: nil), error.message)]
            var configuration = KioskConfiguration.default
            problems += configuration.applyEnvironment(environment, vocabulary: vocabulary)
            return .failure(ConfigErrors(problems))
        }
    }

    /// Validates `text` as if read from `path` (which only names it in messages). The environment is empty
    /// unless given, so tests do not depend on the process's.
    public static func parse(
        text: String, path: String = "kiosk.toml", environment: [String: String] = [:],
        vocabulary: Vocabulary = .open
    ) -> Result<KioskConfiguration, ConfigErrors> {
        parse(bytes: Array(text.utf8), path: path, environment: environment, vocabulary: vocabulary)
    }

    /// Validates the bytes of a file: they may be anything (not UTF-8, binary), which is why this takes bytes.
    public static func parse(
        bytes: [UInt8], path: String = "kiosk.toml", environment: [String: String] = [:],
        vocabulary: Vocabulary = .open
    ) -> Result<KioskConfiguration, ConfigErrors> {
        var problems: [ConfigProblem] = []
        var configuration = KioskConfiguration.default
        // TOMLKit stops at the first syntax error. To report what can still be checked, the offending line
        // (a whole redefined table, from its header to the next) is blanked and the file parsed again, a
        // few times at most; problems on blanked lines are not reported twice.
        var text = bytes
        var blanked: Set<Int> = []
        for _ in 0...maximumSyntaxRecoveries {
            switch document(text, path: path) {
            case let .success((root, map)):
                var reader = ConfigReader(path: path, map: map, vocabulary: vocabulary)
                configuration = reader.read(root)
                problems += reader.problems.filter { $0.line.map { !blanked.contains($0) } ?? true }
            case let .failure(failure):
                problems.append(failure.problem)
                guard failure.recoverable, let line = failure.problem.line, !blanked.contains(line) else { break }
                blanked.formUnion(blank(fromLine: line, in: &text))
                continue
            }
            break
        }
        // In file order, so a person can work down the file.
        problems = problems.enumerated().sorted { a, b in
            let (la, lb) = ((a.element.line ?? 0, a.element.column ?? 0), (b.element.line ?? 0, b.element.column ?? 0))
            return la != lb ? la < lb : a.offset < b.offset
        }.map(\.element)
        problems += configuration.applyEnvironment(environment, vocabulary: vocabulary)
        return problems.isEmpty ? .success(configuration) : .failure(ConfigErrors(problems))
    }

    /// How many syntax errors are reported before giving up on the rest of a file.
    static let maximumSyntaxRecoveries = 10

    /// The problem that stopped parsing, and whether blanking its line and parsing again can be trusted
    /// (a TOML syntax error can; text that is not UTF-8, or that toml++ would mishandle, cannot).
    private struct ParseFailure: Error {
        var problem: ConfigProblem
        var recoverable: Bool
    }

    /// The parsed tree and its source map, or the one problem that stopped parsing.
    private static func document(_ bytes: [UInt8], path: String) -> Result<(TOMLTable, SourceMap), ParseFailure> {
        // TOMLKit takes a Swift String and passes it on as a C string: invalid UTF-8 would be silently
        // replaced by U+FFFD on the way in, and a NUL would end the document early, hiding the rest of
        // the file. Both are said here, where the byte's position is still known.
        if let problem = textProblem(bytes, path: path) { return .failure(ParseFailure(problem: problem, recoverable: false)) }
        let map = SourceMap(bytes: bytes)
        if let unsafe = map.unsafeSyntax {
            let problem = ConfigProblem.syntax(.file(path: path, line: unsafe.line, column: unsafe.column), unsafe.message)
            return .failure(ParseFailure(problem: problem, recoverable: false))
        }
        if let deep = map.tooDeep {
            let problem = ConfigProblem.syntax(
                .file(path: path, line: deep.line, column: deep.column),
                "keys nested deeper than \(SourceMap.maximumLevel) levels are not supported")
            return .failure(ParseFailure(problem: problem, recoverable: false))
        }
        let root: TOMLTable
        do {
            root = try TOMLTable(string: String(decoding: bytes, as: UTF8.self))
        } catch let error as TOMLParseError {
            return .failure(ParseFailure(problem: syntaxProblem(error, bytes: bytes, path: path), recoverable: true))
        } catch {
            return .failure(ParseFailure(problem: .syntax(.file(path: path, line: 1, column: nil), "\(error)"), recoverable: false))
        }
        return .success((root, map))
    }

    /// Replaces line `line` (1-based) with spaces, or a whole table from its header to the next header,
    /// keeping every newline, so the lines and columns of the rest stay where they were. Returns the
    /// lines blanked.
    static func blank(fromLine line: Int, in bytes: inout [UInt8]) -> Set<Int> {
        let newline = UInt8(ascii: "\n")
        var starts = [0]
        for (index, byte) in bytes.enumerated() where byte == newline { starts.append(index + 1) }
        guard line >= 1, line <= starts.count else { return [] }
        func isHeader(_ number: Int) -> Bool {
            bytes[starts[number - 1]...].first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } == UInt8(ascii: "[")
        }
        var last = line
        if isHeader(line) {
            while last < starts.count, !isHeader(last + 1) { last += 1 }
        }
        for number in line...last {
            var index = starts[number - 1]
            while index < bytes.count, bytes[index] != newline {
                bytes[index] = UInt8(ascii: " ")
                index += 1
            }
        }
        return Set(line...last)
    }

    /// TOMLKit's error at its line and column: `syntax error in table header: expected ']', saw '\n'`.
    /// A redefinition (the same screen twice) is said with both lines, because toml++'s message garbles
    /// quoted keys: `[screens."HDMI-A-1"]` comes back as `'screens."HDHDMI-A-1"'`.
    private static func syntaxProblem(_ error: TOMLParseError, bytes: [UInt8], path: String) -> ConfigProblem {
        let line = max(1, error.source.begin.line)
        let origin = ConfigProblem.Origin.file(
            path: path, line: line, column: error.source.begin.column > 0 ? error.source.begin.column : nil)
        // toml++ quotes what it saw as it was, newlines included; a message stays one line.
        var message = ConfigKeyPath.escapeControlCharacters(error.description)
        // toml++ words its errors "Error while parsing <context>: <what>".
        let prefix = "Error while parsing "
        if message.hasPrefix(prefix), let colon = message.range(of: ": ") {
            let context = message[message.index(message.startIndex, offsetBy: prefix.count)..<colon.lowerBound]
            message = "syntax error in \(context): " + message[colon.upperBound...]
        }
        // A string left open runs into the end of its line, which toml++ calls an unescaped control character.
        if error.description.contains("unescaped control characters"),
            byte(atLine: line, column: error.source.begin.column, of: bytes)
                .map({ $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) ?? true
        {
            return .syntax(origin, "unterminated string: the closing quote is missing")
        }
        if error.description.contains("cannot redefine existing") {
            let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            if line <= lines.count {
                let before = lines.prefix(line - 1).joined(separator: [UInt8(ascii: "\n")])
                let map = SourceMap(bytes: Array(before))
                if let redefined = map.pathDefined(byLine: Array(lines[line - 1])), let first = map.location(of: redefined) {
                    return ConfigProblem(
                        .duplicate, origin, keyPath: redefined.description, message: "defined twice; first at line \(first.line)")
                }
            }
        }
        return .syntax(origin, message)
    }

    /// The byte at a line and column (both 1-based, the column in bytes as toml++ counts them), nil past the end.
    private static func byte(atLine line: Int, column: Int, of bytes: [UInt8]) -> UInt8? {
        var current = 1, index = 0
        while current < line, index < bytes.count {
            if bytes[index] == UInt8(ascii: "\n") { current += 1 }
            index += 1
        }
        let position = index + max(column, 1) - 1
        return position < bytes.count ? bytes[position] : nil
    }

    /// The first NUL or invalid UTF-8 sequence, at its line and column.
    static func textProblem(_ bytes: [UInt8], path: String) -> ConfigProblem? {
        var line = 1, column = 1, index = 0
        while index < bytes.count {
            let byte = bytes[index]
            // ASCII other than NUL, the common case, without the sequence check.
            if byte != 0 && byte < 0x80 {
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
                index += 1
                continue
            }
            if byte == 0 {
                return .syntax(.file(path: path, line: line, column: column), "a NUL byte: this is not a text file")
            }
            let length = UTF8Validation.sequenceLength(bytes, at: index)
            guard length > 0 else {
                let hex = String(byte, radix: 16, uppercase: true)
                return .syntax(
                    .file(path: path, line: line, column: column),
                    "not UTF-8 text (byte 0x\(hex.count == 1 ? "0" : "")\(hex)); save the file as UTF-8")
            }
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else {
                column += 1
            }
            index += length
        }
        return nil
    }

    private enum ReadError: Error {
        case missing
        case failed(String)
        case tooLarge

        var message: String {
            switch self {
            case .missing: "cannot read: \(String(cString: strerror(ENOENT)))"
            case let .failed(reason): "cannot read: \(reason)"
            case .tooLarge: "larger than \(KioskConfiguration.maximumFileSize / 1024) KiB: not a kiosk config file"
            }
        }
    }

    /// The file's bytes, read with POSIX calls so a failure is the plain `strerror` text ("Permission
    /// denied", "Is a directory") rather than Foundation's prose.
    private static func readFile(_ path: String) -> Result<[UInt8], ReadError> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            return .failure(code == ENOENT ? .missing : .failed(String(cString: strerror(code))))
        }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                return .failure(.failed(String(cString: strerror(code))))
            }
            if count == 0 { return .success(bytes) }
            bytes += chunk[0..<count]
            if bytes.count > maximumFileSize { return .failure(.tooLarge) }
        }
    }
}

/// UTF-8 well-formedness (Unicode table 3-7): no overlong forms, no surrogates, nothing above U+10FFFF.
enum UTF8Validation {
    /// The length of the well-formed sequence starting at `index`, or 0 when it is not one.
    static func sequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let first = bytes[index]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch first {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            secondRange = 0x80...0x9F
        case 0xF0:
            length = 4
            secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            secondRange = 0x80...0x8F
        default: return 0
        }
        guard index + length <= bytes.count, secondRange.contains(bytes[index + 1]) else { return 0 }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) { return 0 }
        return length
    }
}
