#if canImport(Glibc)
import Glibc
#else
#error("BrickSystem reaches the operating system through Glibc: another system needs its own branch here")
#endif

/// An open file, by its descriptor: the file calls of this package (downloads, the disk cache, the cookie
/// and queue files, upload bodies). The owner closes it once. Every descriptor is opened close-on-exec, so
/// that no process the application spawns inherits it.
package struct FileDescriptor: Sendable, Hashable {
    /// The descriptor number.
    package let raw: Int32

    /// Wraps a descriptor opened elsewhere (`mkstemp`, a pipe).
    package init(raw: Int32) { self.raw = raw }

    /// How to open a file.
    package struct Options: OptionSet, Sendable {
        package let rawValue: Int32
        package init(rawValue: Int32) { self.rawValue = rawValue }
        /// Read only.
        package static let read = Options(rawValue: O_RDONLY)
        /// Write only.
        package static let write = Options(rawValue: O_WRONLY)
        /// Read and write.
        package static let readWrite = Options(rawValue: O_RDWR)
        /// Create the file when it does not exist.
        package static let create = Options(rawValue: O_CREAT)
        /// With `create`: fail when the file exists.
        package static let exclusive = Options(rawValue: O_EXCL)
        /// Fail when the path is a symbolic link rather than follow it.
        package static let noFollow = Options(rawValue: O_NOFOLLOW)
        /// Never block on the file (a FIFO someone named as a body).
        package static let nonBlocking = Options(rawValue: O_NONBLOCK)
    }

    /// Opens `path`; a file it creates gets `permissions` (default: its owner's only).
    package static func open(_ path: String, _ options: Options, permissions: UInt32 = 0o600) -> Result<FileDescriptor, SystemError> {
        let raw = Glibc.open(path, options.rawValue | O_CLOEXEC, mode_t(permissions))
        return raw >= 0 ? .success(FileDescriptor(raw: raw)) : .failure(.last)
    }

    /// Closes the descriptor.
    @discardableResult
    package func close() -> SystemError? { Glibc.close(raw) == 0 ? nil : .last }

    /// Reads at most `buffer.count` bytes at the file position: the count read (0 at the end).
    package func read(into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, SystemError> {
        while true {
            let got = Glibc.read(raw, buffer.baseAddress, buffer.count)
            if got >= 0 { return .success(got) }
            let error = SystemError.last
            if !error.isInterrupted { return .failure(error) }
        }
    }

    /// Reads at most `buffer.count` bytes at `offset`, leaving the file position alone.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> Result<Int, SystemError> {
        while true {
            let got = pread(raw, buffer.baseAddress, buffer.count, off_t(offset))
            if got >= 0 { return .success(got) }
            let error = SystemError.last
            if !error.isInterrupted { return .failure(error) }
        }
    }

    /// Writes all of `bytes` (at `offset`, or at the file position), retrying short and interrupted writes.
    package func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64? = nil) -> SystemError? {
        var done = 0
        while done < bytes.count {
            let start = bytes.baseAddress.map { $0 + done }
            let written = if let offset {
                pwrite(raw, start, bytes.count - done, off_t(offset) + off_t(done))
            } else {
                Glibc.write(raw, start, bytes.count - done)
            }
            if written < 0 {
                let error = SystemError.last
                if error.isInterrupted { continue }
                return error
            }
            done += written
        }
        return nil
    }

    /// What the system knows of the open file.
    package func status() -> Result<FileStatus, SystemError> {
        var status = stat()
        return fstat(raw, &status) == 0 ? .success(FileStatus(status)) : .failure(.last)
    }

    /// Cuts the file to `length` bytes.
    package func truncate(to length: Int64 = 0) -> SystemError? { ftruncate(raw, off_t(length)) == 0 ? nil : .last }

    /// Moves the file position to `offset` from the start; returns the error, if any.
    package func seek(to offset: Int64) -> SystemError? { lseek(raw, off_t(offset), SEEK_SET) >= 0 ? nil : .last }

    /// Moves the file position to the end: the file's length.
    package func seekToEnd() -> Result<Int64, SystemError> {
        let end = lseek(raw, 0, SEEK_END)
        return end >= 0 ? .success(Int64(end)) : .failure(.last)
    }

    /// Sets the file's permission bits.
    @discardableResult
    package func setPermissions(_ permissions: UInt32) -> SystemError? { fchmod(raw, mode_t(permissions)) == 0 ? nil : .last }

    /// Takes the whole-file lock (`flock`) of this open file for writing, at once or not at all: another
    /// open file holding it (in any process) makes this fail with ``SystemError/wouldBlock``.
    package func lockWholeFileNow() -> SystemError? { flock(raw, LOCK_EX | LOCK_NB) == 0 ? nil : .last }

    /// ``lockWholeFileNow()``, tried again every millisecond for up to `milliseconds` while another open
    /// file holds the lock. A process being spawned holds a copy of every descriptor of its parent for a
    /// moment, until its `exec` closes the close-on-exec ones: a lock just released in this process can
    /// still be held there, and only another process that keeps it is refused.
    package func lockWholeFile(waitingUpTo milliseconds: Int) -> SystemError? {
        var waited = 0
        while true {
            guard let error = lockWholeFileNow() else { return nil }
            guard error == .wouldBlock, waited < milliseconds else { return error }
            var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
            nanosleep(&pause, nil)
            waited += 1
        }
    }

    /// Takes a write lock on the file's records (`fcntl`'s `F_SETLK`), at once or not at all: another
    /// process holding one makes this fail (`EAGAIN` or `EACCES`). Closing any descriptor of the file in
    /// this process drops it.
    package func lockRecordsNow() -> SystemError? {
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        return fcntl(raw, F_SETLK, &lock) == 0 ? nil : .last
    }

    /// Makes a new empty file from `template` (ending in `XXXXXX`, which becomes unique), owner-only and
    /// close-on-exec from the start (no instant at which a spawned process could inherit it), never through
    /// a link: the file and its path. (`mkostemp` is not in Swift's Glibc module; this is what it does.)
    package static func makeUnique(_ template: String) -> Result<(FileDescriptor, String), SystemError> {
        guard template.hasSuffix("XXXXXX") else { return .failure(SystemError(code: EINVAL)) }
        let stem = String(template.dropLast(6))
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            let path = stem + String((0..<6).map { _ in letters[Int(generator.next(upperBound: UInt64(letters.count)))] })
            switch open(path, [.readWrite, .create, .exclusive, .noFollow]) {
            case .success(let file): return .success((file, path))
            case .failure(let error) where error.code == EEXIST: continue
            case .failure(let error): return .failure(error)
            }
        }
        return .failure(SystemError(code: EEXIST))
    }

    /// The whole content of the file at `path`, read without following a link at its last component (unless
    /// `followingLinks`: a file the caller named itself) and refused past `limit` bytes (``SystemError/tooLarge``);
    /// the error when it cannot be read (a link, too large, not a regular file).
    package static func readWhole(_ path: String, limit: Int, followingLinks: Bool = false) -> Result<[UInt8], SystemError> {
        let file: FileDescriptor
        switch open(path, followingLinks ? [.read, .nonBlocking] : [.read, .noFollow, .nonBlocking]) {
        case .success(let opened): file = opened
        case .failure(let error): return .failure(error)
        }
        defer { file.close() }
        guard case .success(let status) = file.status(), status.isRegularFile else { return .failure(SystemError(code: EINVAL)) }
        guard status.size <= Int64(limit) else { return .failure(SystemError(code: EFBIG)) }
        var bytes = [UInt8](repeating: 0, count: Int(status.size) + 1)
        var count = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes { file.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[count...])) }
            switch read {
            case .success(0): return .success(Array(bytes.prefix(count)))
            case .success(let got): count += got
            case .failure(let error): return .failure(error)
            }
        }
        return .failure(SystemError(code: EFBIG))  // it grew while read
    }
}

/// What `stat` says of a file.
package struct FileStatus: Sendable {
    /// Its length in bytes.
    package let size: Int64
    /// Whether it is a regular file (not a directory, a FIFO, a device…).
    package let isRegularFile: Bool
    /// The device and inode: the file's identity, whatever path reached it.
    package let device: UInt64
    /// See ``device``.
    package let inode: UInt64
    /// When its content last changed, in nanoseconds since 1970.
    package let modified: Int
    /// Whether it is a directory, and whether it is a symbolic link (seen only without following links).
    package let isDirectory: Bool
    package let isSymbolicLink: Bool
    /// The user who owns it, and its permission bits (`0o700`…).
    package let owner: UInt32
    package let permissions: UInt32

    /// Whether its owner is the user this process runs as and nobody else may write it (as ssh asks of
    /// `~/.ssh`): what another user could have planted or could change is not trusted.
    package var isOwnAndUnwritableByOthers: Bool { owner == geteuid() && permissions & 0o022 == 0 && !isSymbolicLink }

    init(_ status: stat) {
        size = Int64(status.st_size)
        isRegularFile = status.st_mode & S_IFMT == S_IFREG
        isDirectory = status.st_mode & S_IFMT == S_IFDIR
        isSymbolicLink = status.st_mode & S_IFMT == S_IFLNK
        owner = UInt32(status.st_uid)
        permissions = UInt32(status.st_mode & 0o7777)
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        modified = Int(status.st_mtim.tv_sec) * 1_000_000_000 + Int(status.st_mtim.tv_nsec)
    }
}
