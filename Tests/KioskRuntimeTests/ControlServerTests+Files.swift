import Foundation
import Testing

@testable import KioskRuntime

/// The socket file (made, replaced only when stale, removed) and who may talk to the server.
extension ControlServerTests {
    // MARK: The socket file

    @Test func theFileIsMadeWithModeAndGroupAndRemovedOnStop() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("control").path
        // A group that is not the process's own, when this system has one.
        let other = ["daemon", "bin", "sys", "adm", "nogroup"].first { ControlServer.groupID(named: $0).map { $0 != getegid() } ?? false }
        let server = try ControlServer(path: path, group: other ?? "root") { _ in .now(JSONLine()) }
        var status = stat()
        #expect(lstat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFSOCK)
        #expect(status.st_mode & 0o777 == 0o660)
        if let other, geteuid() == 0 {
            #expect(status.st_gid == ControlServer.groupID(named: other) && server.groupID == status.st_gid)
        }
        server.stop()
        #expect(lstat(path, &status) != 0 && errno == ENOENT)

        let missing = try ControlServer(path: path, group: "no-such-group-\(getpid())") { _ in .now(JSONLine()) }
        #expect(lstat(path, &status) == 0 && status.st_gid == getegid() && missing.groupID == getegid())
        // Replaced behind its back: not its file any more, so it stays.
        unlink(path)
        try "someone else's".write(toFile: path, atomically: false, encoding: .utf8)
        missing.stop()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "someone else's")
    }

    /// A path that is not a socket is refused and left alone; a live socket is left to its listener; a
    /// stale one (connecting is refused) is replaced; a missing folder is expected outside the unit.
    @Test func whatIsAtThePathIsNeverTakenOver() throws {
        let folder = try CommandLineTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("control").path
        try "data".write(toFile: path, atomically: false, encoding: .utf8)
        #expect(throws: ControlSocketError.notASocket(path, kind: "a regular file")) {
            try ControlServer(path: path, group: nil) { _ in .now(JSONLine()) }
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "data")
        unlink(path)
        _ = mkfifo(path, 0o600)
        #expect(throws: ControlSocketError.notASocket(path, kind: "a FIFO")) {
            try ControlServer(path: path, group: nil) { _ in .now(JSONLine()) }
        }
        unlink(path)
        _ = symlink("/dev/null", path)
        #expect(throws: ControlSocketError.notASocket(path, kind: "a symbolic link")) {
            try ControlServer(path: path, group: nil) { _ in .now(JSONLine()) }
        }
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) == "/dev/null")
        unlink(path)

        let first = try ControlServer(path: path, group: nil) { _ in .now(JSONLine([("ok", .bool(true))])) }
        #expect(throws: ControlSocketError.inUse(path)) { try ControlServer(path: path, group: nil) { _ in .now(JSONLine()) } }
        first.stop()

        // A socket bound and closed without removing it: what a kiosk that was killed leaves.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(UnixSocketAddress(path: path)!.bind(stale) == 0)
        close(stale)
        let replaced = try ControlServer(path: path, group: nil) { _ in .now(JSONLine()) }
        replaced.stop()

        let nowhere = folder.appendingPathComponent("missing/control").path
        #expect(throws: ControlSocketError.folderMissing(nowhere)) {
            try ControlServer(path: nowhere, group: nil) { _ in .now(JSONLine()) }
        }
        #expect(ControlSocketError.folderMissing(nowhere).isExpected)
        #expect(ControlSocketError.folderMissing("/run/kiosk/control").description.contains("RuntimeDirectory=kiosk"))
    }

    // MARK: Who may talk

    @Test func whoIsAnswered() {
        let kiosk: UInt32 = 990, group: UInt32 = 991
        func allowed(uid: UInt32, gid: UInt32, groups: [UInt32] = []) -> Bool {
            ControlServer.isAllowed(ControlPeer(pid: 1, uid: uid, gid: gid), ownUID: kiosk, groupID: group) { _ in groups }
        }
        #expect(allowed(uid: 0, gid: 0))
        #expect(allowed(uid: kiosk, gid: 5))
        #expect(allowed(uid: 1000, gid: group))
        #expect(allowed(uid: 1000, gid: 1000, groups: [1000, 27, group]))
        #expect(!allowed(uid: 1000, gid: 1000, groups: [1000, 27]))
        #expect(!allowed(uid: 65534, gid: 65534))
    }

    /// The real check on accept, with a client running as another user: kept out by the socket file's mode
    /// (0660), and with the mode opened up, refused by the server with one line. Either way the user may not
    /// ask, and `kiosk status` exits 3 both times (the refusal exited 1, as if the kiosk had answered a
    /// request); the same user in the socket's group is answered.
    @Test(.enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func aPeerOutsideTheGroupIsRefused() async throws {
        try await serving { server, path in
            let asOutsider: @Sendable () throws -> CommandLineTests.Result = {
                try CommandLineTests.run(
                    URL(fileURLWithPath: "/usr/bin/setpriv"),
                    ["--reuid=65534", "--regid=65534", "--clear-groups", CommandLineTests.binary.path, "status", "--socket", path])
            }
            let keptOut = try await offMain(asOutsider)
            #expect(keptOut.status == 3)
            #expect(
                keptOut.stderr
                    == "kiosk status: permission denied on \(path): run this as root, as the kiosk's user or as a member of its control group\n"
            )
            chmod(path, 0o666)
            let outsider = try await offMain(asOutsider)
            #expect(outsider.status == 3)
            #expect(
                outsider.stderr
                    == "kiosk status: not allowed: uid 65534 is not root, not the kiosk's user and not a member of the group \(ControlServer.groupName(server.groupID) ?? "")\n"
            )
            let member = try await offMain {
                try CommandLineTests.run(
                    URL(fileURLWithPath: "/usr/bin/setpriv"),
                    [
                        "--reuid=65534", "--regid=\(getegid())", "--clear-groups", CommandLineTests.binary.path, "status", "--socket", path,
                        "--json",
                    ])
            }
            #expect(member.stdout == "{\"ok\":true,\"command\":\"status\"}\n")
        }
    }
}
