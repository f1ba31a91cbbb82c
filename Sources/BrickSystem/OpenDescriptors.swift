#if canImport(Glibc)
import Glibc
#else
#error("BrickSystem reaches the operating system through Glibc: another system needs its own branch here")
#endif

/// The process's open descriptors, for a library call that opens some of its own without close-on-exec
/// (libcurl 7.88's multi handle makes a socket pair to wake itself): what it opened is found by comparing
/// the descriptors before and after, and marked.
package enum OpenDescriptors {
    /// The descriptors open now (`/proc/self/fd`), the one reading the directory excepted; empty when
    /// `/proc` cannot be read.
    package static func current() -> Set<Int32> {
        guard let directory = opendir("/proc/self/fd") else { return [] }
        defer { closedir(directory) }
        let own = dirfd(directory)
        var found: Set<Int32> = []
        // A record `readdir` returns is as long as its name needs, shorter than `dirent`: its name is read
        // through a pointer, never by copying the whole struct (which would read past the record).
        let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
        while let entry = readdir(directory) {
            let name = String(cString: UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self))
            if let fd = Int32(name), fd != own { found.insert(fd) }
        }
        return found
    }

    /// Marks close-on-exec each descriptor of `opened` that is a Unix stream socket and is not marked yet;
    /// returns those it marked. (Only such sockets: a descriptor another thread opened meanwhile is left as
    /// its owner made it, unless it is one of those.)
    @discardableResult
    package static func markUnixSocketsCloseOnExec(_ opened: Set<Int32>) -> [Int32] {
        var marked: [Int32] = []
        for fd in opened.sorted() where isUnixStreamSocket(fd) {
            let flags = fcntl(fd, F_GETFD)
            guard flags >= 0, flags & FD_CLOEXEC == 0, fcntl(fd, F_SETFD, flags | FD_CLOEXEC) == 0 else { continue }
            marked.append(fd)
        }
        return marked
    }

    /// Whether `fd` is closed when the process runs another program.
    package static func isCloseOnExec(_ fd: Int32) -> Bool {
        let flags = fcntl(fd, F_GETFD)
        return flags >= 0 && flags & FD_CLOEXEC != 0
    }

    private static func isUnixStreamSocket(_ fd: Int32) -> Bool {
        var domain: Int32 = 0, type: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &length) == 0 else { return false }
        length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) == 0 else { return false }
        return domain == AF_UNIX && type == Int32(SOCK_STREAM.rawValue)
    }
}
