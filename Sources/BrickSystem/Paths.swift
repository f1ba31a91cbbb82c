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

    /// The process's file mode creation mask (`umask`), read from `/proc/self/status` (Linux 4.7 and later)
    /// rather than by setting it, which would change it for a moment for every thread; `nil` when it cannot
    /// be read.
    package static func fileCreationMask() -> UInt32? {
        guard let bytes = procFile("/proc/self/status", limit: 64 * 1024) else { return nil }
        for line in bytes.split(separator: UInt8(ascii: "\n")) where line.starts(with: Array("Umask:".utf8)) {
            let digits = line.dropFirst(6).filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
            guard (1...4).contains(digits.count), digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "7") }) else { return nil }
            return UInt32(String(decoding: digits, as: UTF8.self), radix: 8)
        }
        return nil
    }

    /// The content of a file under `/proc`, read until its end (such a file reports no size), at most
    /// `limit` bytes; `nil` when it cannot be read or is longer.
    private static func procFile(_ path: String, limit: Int) -> [UInt8]? {
        guard case .success(let file) = FileDescriptor.open(path, [.read, .noFollow]) else { return nil }
        defer { file.close() }
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            let read = bytes.withUnsafeMutableBytes { file.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[count...])) }
            guard case .success(let got) = read else { return nil }
            if got == 0 { return Array(bytes.prefix(count)) }
            count += got
        }
        return nil
    }
}
