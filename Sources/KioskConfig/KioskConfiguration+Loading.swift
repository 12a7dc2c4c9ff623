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
        path: String, environment: [String: String] = ProcessEnvironment.current(),
        vocabulary: Vocabulary = .open, requireFile: Bool = false
    ) -> Result<KioskConfiguration, ConfigErrors> {
        outcome(readSettings(path: path, environment: environment, vocabulary: vocabulary, requireFile: requireFile))
    }

    /// `load`'s work: the configuration every valid setting gives (over the defaults) and every problem.
    static func readSettings(
        path: String, environment: [String: String], vocabulary: Vocabulary, requireFile: Bool
    ) -> (configuration: KioskConfiguration, problems: [ConfigProblem]) {
        switch readFile(path) {
        case let .success(bytes):
            return readSettings(bytes: bytes, path: path, environment: environment, vocabulary: vocabulary)
        case .failure(.missing) where !requireFile:
            var configuration = KioskConfiguration.default
            let problems = configuration.applyEnvironment(environment, vocabulary: vocabulary)
            return (configuration, problems)
        case let .failure(error):
            var problems = [ConfigProblem.syntax(.file(path: path, line: nil, column: nil), error.message)]
            var configuration = KioskConfiguration.default
            problems += configuration.applyEnvironment(environment, vocabulary: vocabulary)
            return (configuration, problems)
        }
    }

    /// The configuration if there is no problem, else every problem.
    static func outcome(
        _ settings: (configuration: KioskConfiguration, problems: [ConfigProblem])
    ) -> Result<KioskConfiguration, ConfigErrors> {
        settings.problems.isEmpty ? .success(settings.configuration) : .failure(ConfigErrors(settings.problems))
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
        outcome(readSettings(bytes: bytes, path: path, environment: environment, vocabulary: vocabulary))
    }

    /// `parse`'s work: the configuration every valid setting gives (over the defaults) and every problem.
    private static func readSettings(
        bytes: [UInt8], path: String, environment: [String: String], vocabulary: Vocabulary
    ) -> (configuration: KioskConfiguration, problems: [ConfigProblem]) {
        var problems: [ConfigProblem] = []
        var configuration = KioskConfiguration.default
        // The parser stops at the first syntax error. To report what can still be checked, the offending line
        // (a whole redefined table, from its header to the next) is blanked and the file parsed again, a
        // few times at most; problems on blanked lines are not reported twice.
        var text = bytes
        var blanked: Set<Int> = []
        for _ in 0...maximumSyntaxRecoveries {
            switch document(text, path: path) {
            case let .success(document):
                var reader = ConfigReader(path: path, document: document, vocabulary: vocabulary)
                configuration = reader.read()
                problems += reader.problems.filter { $0.line.map { !blanked.contains($0) } ?? true }
            case let .failure(failure):
                problems.append(failure.problem)
                // A line inside a value that spans lines (an array, a multi-line string) cannot be blanked
                // alone: what follows would be errors of our own making.
                guard failure.recoverable, let line = failure.problem.line, !blanked.contains(line),
                    !spansLines(line, in: text)
                else { break }
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
        return (configuration, problems)
    }

    /// How many syntax errors are reported before giving up on the rest of a file.
    static let maximumSyntaxRecoveries = 10

    /// The problem that stopped parsing, and whether blanking its line and parsing again can be trusted
    /// (a TOML syntax error can; text that is not UTF-8 cannot).
    private struct ParseFailure: Error {
        var problem: ConfigProblem
        var recoverable: Bool
    }

    /// The parsed document, or the one problem that stopped parsing.
    private static func document(_ bytes: [UInt8], path: String) -> Result<TOML.Document, ParseFailure> {
        // Said here with the byte's position and what to do about it, before the parser would call it a
        // syntax error.
        if let problem = textProblem(bytes, path: path) { return .failure(ParseFailure(problem: problem, recoverable: false)) }
        do {
            return .success(try TOML.parseDocument(bytes))
        } catch {
            return .failure(ParseFailure(problem: syntaxProblem(error, path: path), recoverable: true))
        }
    }

    /// Whether line `line` (1-based) begins or ends inside brackets or a multi-line string: part of a value
    /// that spans lines. A scan of the text up to the end of that line, strings and comments skipped.
    static func spansLines(_ line: Int, in bytes: [UInt8]) -> Bool {
        let (newline, quote, apostrophe, backslash, hash) = (
            UInt8(ascii: "\n"), UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "\\"), UInt8(ascii: "#")
        )
        var depth = 0, current = 1, index = 0
        var multiline: UInt8?  // the quote of an open multi-line string
        func opens(_ delimiter: UInt8, at index: Int) -> Bool {
            index + 2 < bytes.count && bytes[index] == delimiter && bytes[index + 1] == delimiter && bytes[index + 2] == delimiter
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == newline {
                if current == line { return depth > 0 || multiline != nil }
                current += 1
                index += 1
                if current == line && (depth > 0 || multiline != nil) { return true }
                continue
            }
            if let delimiter = multiline {
                if byte == backslash && delimiter == quote {
                    index += 2
                } else if opens(delimiter, at: index) {
                    multiline = nil
                    index += 3
                } else {
                    index += 1
                }
                continue
            }
            switch byte {
            case quote, apostrophe:
                if opens(byte, at: index) {
                    multiline = byte
                    index += 3
                    continue
                }
                // A one-line string: to its closing quote or the end of the line.
                index += 1
                while index < bytes.count, bytes[index] != byte, bytes[index] != newline {
                    index += byte == quote && bytes[index] == backslash ? 2 : 1
                }
                if index < bytes.count, bytes[index] == byte { index += 1 }
                continue
            case hash:
                while index < bytes.count, bytes[index] != newline { index += 1 }
                continue
            case UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(depth - 1, 0)
            default: break
            }
            index += 1
        }
        return current == line && (depth > 0 || multiline != nil)
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

    /// The parser's error at its line and column. A key or table written twice is a `.duplicate` named by
    /// its whole path (`screens.DP-1.mode`, where the line itself says only `mode`).
    private static func syntaxProblem(_ error: TOML.SyntaxError, path: String) -> ConfigProblem {
        let origin = ConfigProblem.Origin.file(path: path, line: error.line, column: error.column)
        if let key = error.valuePath {
            // A number that cannot be read names its setting and, for a setting of the kiosk's, what it takes.
            let setting = settings.first { $0.key == key.description && $0.fileForm != .none }
            return ConfigProblem(.invalidValue, origin, keyPath: key.description, message: error.message, valid: setting?.valid(.open))
        }
        guard let redefinition = error.redefinition else { return .syntax(origin, error.message) }
        return ConfigProblem(
            .duplicate, origin, keyPath: redefinition.path.description, message: "defined twice; first at line \(redefinition.firstLine)")
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
            let length = TOML.utf8Length(bytes, at: index)
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
    /// Whether `status` is /dev/null's device.
    private static func isNullDevice(_ status: stat) -> Bool {
        var null = stat()
        return stat("/dev/null", &null) == 0 && null.st_mode & S_IFMT == S_IFCHR && null.st_rdev == status.st_rdev
    }

    /// Only a regular file (or /dev/null) is read: a FIFO would wait for a writer (the kiosk reads its config on the main
    /// thread: at start, on SIGHUP, for `kiosk reload`), and a device may never end (/dev/zero).
    private static func readFile(_ path: String) -> Result<[UInt8], ReadError> {
        // O_NONBLOCK: opening a FIFO without a writer would wait; the kind is checked before any read.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let code = errno
            return .failure(code == ENOENT ? .missing : .failed(String(cString: strerror(code))))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.failed(String(cString: strerror(errno)))) }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: return .failure(.failed(String(cString: strerror(EISDIR))))
        case S_IFIFO: return .failure(.failed("a FIFO, not a file"))
        case S_IFCHR where isNullDevice(status): return .success([])  // `--config /dev/null`: nothing set
        case S_IFCHR, S_IFBLK: return .failure(.failed("a device, not a file"))
        case S_IFSOCK: return .failure(.failed("a socket, not a file"))
        default: return .failure(.failed("not a regular file"))
        }
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
