#if canImport(Glibc)
import Glibc
#else
#error("BrickSystem reaches the operating system through Glibc: another system needs its own branch here")
#endif

/// File system calls on paths.
package enum Paths {
    /// Renames `path` to `target`, replacing what is there.
    package static func rename(_ path: String, to target: String) -> SystemError? {
        Glibc.rename(path, target) == 0 ? nil : .last
    }

    /// Removes the file at `path`, if there is one.
    package static func remove(_ path: String) { unlink(path) }

    /// Whether something exists at `path`.
    package static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// What `stat` says of `path` (following links); `nil` when it cannot.
    package static func status(of path: String) -> FileStatus? {
        var status = stat()
        return stat(path, &status) == 0 ? FileStatus(status) : nil
    }

    /// What `lstat` says of `path`: a symbolic link is described itself, not followed; `nil` when it cannot.
    package static func linkStatus(of path: String) -> FileStatus? {
        var status = stat()
        return lstat(path, &status) == 0 ? FileStatus(status) : nil
    }

    /// Sets the permission bits of `path` (following links).
    package static func setPermissions(_ path: String, _ permissions: UInt32) -> SystemError? {
        chmod(path, mode_t(permissions)) == 0 ? nil : .last
    }
}
