import Glibc

/// The folder of the control socket's temporary place (`/tmp/kiosk-UID`, `ControlSocketPlace.temporary`),
/// which the kiosk makes itself. Anyone may make a folder in /tmp first, so one that is there is used only
/// if it is what the kiosk would have made (tmux's checks of `/tmp/tmux-UID`): a directory, not a link, of
/// this user, that nobody else may enter. Else the kiosk runs without a socket and says why.
enum ControlSocketFolder {
    static func prepare(_ folder: String, uid: uid_t) throws(ControlSocketError) {
        if mkdir(folder, 0o700) != 0, errno != EEXIST { throw .system(folder, "mkdir", errno) }
        var status = stat()
        guard lstat(folder, &status) == 0 else { throw .system(folder, "lstat", errno) }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw .notOwnFolder(folder, "it is \(fileKind(status.st_mode))") }
        guard status.st_uid == uid else { throw .notOwnFolder(folder, "it belongs to uid \(status.st_uid), not \(uid)") }
        guard status.st_mode & 0o077 == 0 else {
            throw .notOwnFolder(folder, "others may enter it (mode \(String(status.st_mode & 0o777, radix: 8)), not 700)")
        }
    }
}
