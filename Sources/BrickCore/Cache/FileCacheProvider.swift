import BrickTransport
public import FoundationEssentials
import Glibc

/// Gathers the body in a file of its own in a directory, so that memory stays small whatever the size;
/// the file stays until ``clear()`` or ``removeFile()``.
public final class FileCacheProvider: DataCacheProvider {
    /// The file the body goes to.
    public let fileURL: URL
    private let descriptor: Locked<Int32>

    /// Creates an empty file with a unique name in `directory` (default: the temporary directory).
    /// - Throws: ``FileError`` when it cannot be created.
    public init(directory: URL = URL(fileURLWithPath: "/tmp")) throws(FileError) {
        var template = Array((directory.path + "/brick-body-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
        guard fd >= 0 else { throw FileError(.open, path: directory.path, osErrno: errno) }
        fileURL = URL(fileURLWithPath: String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        descriptor = Locked(fd)
    }

    deinit { descriptor.withLock { if $0 >= 0 { close($0) } } }

    public func append(_ chunk: Data) throws {
        let path = fileURL.path
        try descriptor.withLock { fd throws(FileError) in
            let failure = writeFully(fd, chunk)
            if let failure { throw FileError(.write, path: path, osErrno: failure) }
        }
    }

    public func data() throws -> Data {
        guard let data = FileManager.default.contents(atPath: fileURL.path) else {
            throw FileError(.open, path: fileURL.path, osErrno: errno)
        }
        return data
    }

    public func clear() throws {
        let path = fileURL.path
        try descriptor.withLock { fd throws(FileError) in
            guard ftruncate(fd, 0) == 0, lseek(fd, 0, SEEK_SET) == 0 else { throw FileError(.write, path: path, osErrno: errno) }
        }
    }

    /// Deletes the file.
    public func removeFile() { unlink(fileURL.path) }
}
