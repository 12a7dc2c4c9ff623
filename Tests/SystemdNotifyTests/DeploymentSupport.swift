import Foundation

/// Helpers for the tests of the boot integration's files (Kiosk/kiosk.service, udev-rules/,
/// scripts/install). They live in this target because the unit and the notifier are two halves of one
/// contract (Type=notify, WatchdogSec=), and they need no module of their own.
enum Deployment {
    /// The repository, found from this file (Tests/SystemdNotifyTests/DeploymentSupport.swift).
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// In CI a missing tool is a failure, not a skip: the project's setup installs it (scripts/test
    /// exports nothing for this; CI sets CI=true, as for KIOSK_REQUIRE_VM).
    static let isCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// `name`'s full path on PATH (plus the sbin folders, which a non-login root shell may lack).
    static func tool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin", "/usr/bin", "/bin"]
        return folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    struct Output {
        let status: Int32
        let stdout: String
        let stderr: String
        var all: String { stdout + stderr }
    }

    /// Runs `executable` with `arguments` and waits for it. `environment` entries are added to ours; a
    /// nil value removes the variable (PREFIX, DESTDIR from the caller's shell must not leak in).
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String?] = [:],
        in directory: URL? = nil
    ) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        if let directory { process.currentDirectoryURL = directory }
        // Output goes to files, not pipes: nothing to drain while waiting, however much is printed.
        let folder = try temporaryFolder()
        defer { remove(folder) }
        let outURL = folder.appendingPathComponent("stdout"), errURL = folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: try String(contentsOf: outURL, encoding: .utf8),
            stderr: try String(contentsOf: errURL, encoding: .utf8))
    }

    /// A fresh temporary folder, removed by the caller (`defer { remove(folder) }`).
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("kiosk-deploy-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func remove(_ url: URL) { try? FileManager.default.removeItem(at: url) }
}
