import Glibc
import Logging

/// Who may use the control socket, and the socket file's group: the system's user and group database
/// (`getpwuid_r`, `getgrnam_r`, `getgrouplist`) for `ControlServer`.
extension ControlServer {
    /// Gives the socket file `group`; returns the group it has after that.
    static func applyGroup(_ group: String?, to path: String, current: gid_t, log: Logger) -> gid_t {
        guard let group else { return current }
        guard let gid = groupID(named: group) else {
            log.warning(
                "control socket \(path): no group \(group) (control-group); the socket keeps the kiosk's group \(groupName(current) ?? String(current))"
            )
            return current
        }
        guard gid != current else { return gid }
        guard chown(path, uid_t.max, gid) == 0 else {
            log.warning(
                "control socket \(path): cannot give it the group \(group): \(String(cString: strerror(errno))) (the kiosk's user must be a member); it keeps the group \(groupName(current) ?? String(current))"
            )
            return current
        }
        return gid
    }

    // MARK: Who may talk

    /// Root, the kiosk's own user, and members of the socket's group (by their primary group or as
    /// `getgrouplist` lists them for the peer's user).
    static func isAllowed(_ peer: ControlPeer, ownUID: uid_t, groupID: gid_t, groups: (ControlPeer) -> [gid_t]) -> Bool {
        peer.uid == 0 || peer.uid == ownUID || peer.gid == groupID || groups(peer).contains(groupID)
    }

    /// The groups of the peer's user as the system's group database has them (`getgrouplist`).
    static func groupList(of peer: ControlPeer) -> [gid_t] {
        guard let name = userName(peer.uid) else { return [] }
        var count: Int32 = 32
        while true {
            var groups = [gid_t](repeating: 0, count: Int(count))
            let previous = count
            if getgrouplist(name, peer.gid, &groups, &count) >= 0 { return Array(groups.prefix(Int(count))) }
            // Too small: `count` now says how many there are (guard against a library that leaves it).
            if count <= previous { count = previous * 2 }
            if count > 65536 { return [] }
        }
    }

    private static func userName(_ uid: uid_t) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else { return nil }
        return String(cString: name)
    }

    static func groupID(named name: String) -> gid_t? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16384)
        guard getgrnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.gr_gid
    }

    static func groupName(_ gid: gid_t) -> String? {
        var entry = group()
        var result: UnsafeMutablePointer<group>?
        var buffer = [CChar](repeating: 0, count: 16384)
        guard getgrgid_r(gid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.gr_name else { return nil }
        return String(cString: name)
    }
}
