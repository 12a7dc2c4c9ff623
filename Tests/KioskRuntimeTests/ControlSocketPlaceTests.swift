import Foundation
import Testing

/// Where the built kiosk listens when nothing names its control socket, and the built clients finding it
/// without `--socket`, as a person who runs `scripts/run` and then `kiosk status` does: in XDG_RUNTIME_DIR,
/// else a folder of the user's own in TMPDIR (here: folders of the test's, so the machine's own are not
/// touched). Under systemd (`RUNTIME_DIRECTORY`) it is /run/kiosk/control: `ControlSocketPlaceTests` in
/// KioskConfigTests, and the system test.
@Suite struct ControlSocketPlaceBinaryTests {
    static let base = ["PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"]

    /// `kiosk COMMAND` with `environment` and no --socket, its config file an empty one (so the machine's
    /// /etc/kiosk/kiosk.toml plays no part).
    static func client(_ arguments: [String], environment: [String: String], in folder: URL) throws -> CommandLineTests.Result {
        let config = folder.appendingPathComponent("client.toml")
        if !FileManager.default.fileExists(atPath: config.path) { try "".write(to: config, atomically: true, encoding: .utf8) }
        return try CommandLineTests.run(
            CommandLineTests.binary, arguments + ["--config", config.path], environment: base.merging(environment) { $1 })
    }

    static var uid: UInt32 { geteuid() }
    static var whoReaches: String { uid == 0 ? "only root reaches it" : "only uid \(uid) and root reach it" }

    @Test func inTheSessionsRuntimeFolder() throws {
        let folder = try CommandLineTests.temporaryFolder()
        let runtime = folder.appendingPathComponent("xdg")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let environment = ["XDG_RUNTIME_DIR": runtime.path, "TMPDIR": folder.path]
        let socket = runtime.appendingPathComponent("kiosk-control").path
        let kiosk = try RunningKiosk(in: folder, environment: environment, socket: socket)
        let status = try Self.client(["status", "--json"], environment: environment, in: folder)
        #expect(status.status == 0 && status.stdout.hasPrefix(#"{"ok":true,"backend":"headless""#), "\(status.stderr)")
        // Not in the temporary place: that one is for a process without XDG_RUNTIME_DIR.
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("kiosk-\(Self.uid)").path))
        #expect(kiosk.stop() == 0)
        #expect(
            kiosk.stderr.contains(
                "control socket \(socket) (in XDG_RUNTIME_DIR; \(Self.whoReaches)); kiosk status, power, brightness, screenshot and reload find it"
            ), "\(kiosk.stderr)")
        #expect(!FileManager.default.fileExists(atPath: socket), "the socket was left behind")
    }

    /// Without XDG_RUNTIME_DIR (sudo, su, a console without logind): a folder the kiosk makes for its user,
    /// 0700; one someone else made (or opened to others) is not used.
    @Test func inAFolderOfTheUsersOwn() throws {
        let folder = try CommandLineTests.temporaryFolder()
        let own = folder.appendingPathComponent("kiosk-\(Self.uid)")
        let socket = own.appendingPathComponent("control").path
        let kiosk = try RunningKiosk(in: folder, environment: ["TMPDIR": folder.path], socket: socket)
        var status = stat()
        #expect(lstat(own.path, &status) == 0 && status.st_mode & 0o777 == 0o700 && status.st_uid == Self.uid)
        let power = try Self.client(["power", "on"], environment: ["TMPDIR": folder.path], in: folder)
        #expect(power.status == 0 && power.stdout == "HEADLESS-1 on\n", "\(power.stderr)")
        #expect(kiosk.stop() == 0)
        #expect(kiosk.stderr.contains("control socket \(socket) (no XDG_RUNTIME_DIR: in a folder of its user's own; \(Self.whoReaches))"))

        // Opened to others: left as it is, and the kiosk runs without a socket.
        #expect(chmod(own.path, 0o755) == 0)
        let run = try CommandLineTests.run(
            CommandLineTests.binary,
            ["run", "--backend", "headless", "--snapshot-dir", folder.appendingPathComponent("shots").path, "--exit-after", "0.3"],
            environment: Self.base.merging(["TMPDIR": folder.path]) { $1 })
        #expect(run.status == 0)
        #expect(
            run.stderr.contains(
                "control socket off: \(own.path) is not a folder of this user's own: others may enter it (mode 755, not 700); it is left as it is (remove it, or set control-socket to a path)"
            ), "\(run.stderr)")
    }

    /// A path named wins over the places, under systemd too.
    @Test func aPathNamedWins() throws {
        let folder = try CommandLineTests.temporaryFolder()
        let named = folder.appendingPathComponent("named").path
        let kiosk = try RunningKiosk(
            ["--control-socket", named], in: folder,
            environment: ["RUNTIME_DIRECTORY": "/run/kiosk", "XDG_RUNTIME_DIR": folder.path, "TMPDIR": folder.path], socket: named)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("kiosk-control").path))
        #expect(kiosk.stop() == 0)
        #expect(kiosk.stderr.contains("control socket \(named) (control-socket; group "), "\(kiosk.stderr)")
    }

    /// No kiosk anywhere: the client says every place it looked, in order, and exits 3.
    @Test(.enabled(if: !FileManager.default.fileExists(atPath: "/run/kiosk/control")))
    func aClientThatFindsNoKioskSaysWhereItLooked() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["XDG_RUNTIME_DIR": folder.path, "TMPDIR": folder.path]
        let status = try Self.client(["status"], environment: environment, in: folder)
        #expect(status.status == 3)
        #expect(
            status.stderr
                == "kiosk status: no kiosk is running here: none of /run/kiosk/control, \(folder.path)/kiosk-control, \(folder.path)/kiosk-\(Self.uid)/control exists (a kiosk makes its socket at the first of them that applies to it; --socket or control-socket names another)\n"
        )
    }
}
