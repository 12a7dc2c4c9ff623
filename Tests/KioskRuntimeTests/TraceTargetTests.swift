import Foundation
import Testing

@testable import KioskRuntime

/// Where a trace may go, on the built binary: never into a file the kiosk reads or a file that holds no
/// trace (refused before a byte is written, exit 3); `off` means none, on the command line as in the file.
@Suite struct TraceTargetTests {
    static func kiosk(_ arguments: [String], in folder: URL, environment: [String: String] = [:]) throws -> CommandLineTests.Result {
        try CommandLineTests.run(
            CommandLineTests.binary,
            ["run", "--backend", "headless", "--snapshot-dir", folder.appendingPathComponent("shots").path, "--exit-after", "0.3"]
                + arguments,
            environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"].merging(environment) { $1 }, in: folder)
    }

    @Test func theConfigFileIsNeverTheTrace() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("mine.toml")
        let text = "log-level = \"notice\"\n"
        try text.write(to: config, atomically: true, encoding: .utf8)
        let link = folder.appendingPathComponent("link.jsonl")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: config)
        for path in [config.path, link.path] {
            let result = try Self.kiosk(["--trace", path, "--config", config.path], in: folder)
            #expect(result.status == 3, "\(result.stderr)")
            #expect(
                result.stderr.contains(
                    "cannot write the trace file \(path): it is the config file (\(config.path)), which the kiosk reads"),
                "\(result.stderr)")
            #expect(try String(contentsOf: config, encoding: .utf8) == text, "the config file was written into")
        }
        // Named by the file itself, and by a relative path.
        try "trace = \"mine.toml\"\n".write(to: config, atomically: true, encoding: .utf8)
        let fromFile = try Self.kiosk(["--config", "mine.toml"], in: folder)
        #expect(fromFile.status == 3 && fromFile.stderr.contains("it is the config file"), "\(fromFile.stderr)")
        #expect(try String(contentsOf: config, encoding: .utf8) == "trace = \"mine.toml\"\n")
    }

    @Test func theKiosksOwnBinaryIsNeverTheTrace() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("kiosk.jsonl")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: CommandLineTests.binary)
        let size = try FileManager.default.attributesOfItem(atPath: CommandLineTests.binary.path)[.size] as? Int
        let result = try Self.kiosk(["--trace", link.path], in: folder)
        #expect(result.status == 3 && result.stderr.contains("it is the kiosk's own binary (/proc/self/exe)"), "\(result.stderr)")
        #expect(try FileManager.default.attributesOfItem(atPath: CommandLineTests.binary.path)[.size] as? Int == size)
    }

    /// A file that holds something else is left as it was; a trace of an earlier run is appended to; an empty
    /// file takes the trace.
    @Test func onlyATraceIsAppendedTo() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notes = folder.appendingPathComponent("notes.txt")
        try "my notes\n".write(to: notes, atomically: true, encoding: .utf8)
        let refused = try Self.kiosk(["--trace", notes.path], in: folder)
        #expect(refused.status == 3, "\(refused.stderr)")
        #expect(refused.stderr.contains("it holds something other than a trace"), "\(refused.stderr)")
        #expect(try String(contentsOf: notes, encoding: .utf8) == "my notes\n")

        let trace = folder.appendingPathComponent("trace.jsonl")
        #expect(try Self.kiosk(["--trace", trace.path], in: folder).status == 0)
        let first = try String(contentsOf: trace, encoding: .utf8)
        #expect(try Self.kiosk(["--trace", trace.path], in: folder).status == 0)
        let second = try String(contentsOf: trace, encoding: .utf8)
        #expect(second.hasPrefix(first) && second.count > first.count, "the earlier run's trace stays, the new one follows")

        let empty = folder.appendingPathComponent("empty.jsonl")
        #expect(FileManager.default.createFile(atPath: empty.path, contents: Data()))
        #expect(try Self.kiosk(["--trace", empty.path], in: folder).status == 0)
        #expect(try String(contentsOf: empty, encoding: .utf8).hasPrefix("{\"event\":\"startup\""))
    }

    /// `off` is none, as for `control-socket`: no file named `off`, and the command line (or the variable)
    /// turns off the file's trace.
    @Test func offMeansNoTrace() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try Self.kiosk(["--trace", "off"], in: folder).status == 0)
        #expect(try Self.kiosk(["--trace", "OFF"], in: folder).status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("off").path))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("OFF").path))
        let config = folder.appendingPathComponent("kiosk.toml")
        try "trace = \"from-file.jsonl\"\n".write(to: config, atomically: true, encoding: .utf8)
        #expect(try Self.kiosk(["--config", config.path, "--trace", "off"], in: folder).status == 0)
        #expect(try Self.kiosk(["--config", config.path], in: folder, environment: ["KIOSK_TRACE": "off"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("from-file.jsonl").path))
        #expect(try Self.kiosk(["--config", config.path], in: folder).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("from-file.jsonl").path))
        // A file named off is still one path away.
        #expect(try Self.kiosk(["--trace", "./off"], in: folder).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("off").path))
    }

    @Test(arguments: [
        ("{\"event\":\"frame\",\"screen\":\"HEADLESS-1\"}", true), ("{\"event\":\"startup\"}", true),
        ("{\"screen\":\"x\",\"event\":\"frame\"}", false),
        ("{\"event\":1}", false), ("my notes", false), ("[]", false), ("{\"event\":\"frame\"", false), ("", false),
    ])
    func traceLines(line: String, isTrace: Bool) {
        #expect(TraceTarget.looksLikeATraceLine(ArraySlice(Array(line.utf8))) == isTrace)
    }
}
