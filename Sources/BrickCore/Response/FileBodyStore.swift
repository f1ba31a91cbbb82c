import BrickSystem
import BrickTransport
public import FoundationEssentials

/// Gathers the body in a file of its own in a directory, so that memory stays small whatever the size;
/// the file stays until ``clear()`` or ``removeFile()``.
public final class FileBodyStore: BodyStore {
    /// The file the body goes to.
    public let fileURL: URL
    private let file: Locked<FileDescriptor>

    /// Creates an empty file with a unique name in `directory` (default: the temporary directory).
    /// - Throws: ``FileError`` when it cannot be created.
    public init(directory: URL = URL(fileURLWithPath: "/tmp")) throws(FileError) {
        switch FileDescriptor.makeUnique(directory.path + "/brick-body-XXXXXX") {
        case .success(let (made, path)):
            fileURL = URL(fileURLWithPath: path)
            file = Locked(made)
        case .failure(let error): throw FileError(.open, path: directory.path, osErrno: error.code)
        }
    }

    deinit { _ = file.withLock { $0.close() } }

    public func append(_ chunk: Data) throws {
        let path = fileURL.path
        try file.withLock { file throws(FileError) in
            if let failure = file.write(chunk) { throw FileError(.write, path: path, osErrno: failure.code) }
        }
    }

    public func data() throws -> Data {
        guard let data = FileManager.default.contents(atPath: fileURL.path) else {
            throw FileError(.open, path: fileURL.path, osErrno: SystemError.last.code)
        }
        return data
    }

    public func clear() throws {
        let path = fileURL.path
        try file.withLock { file throws(FileError) in
            if let failure = file.truncate() ?? file.seek(to: 0) { throw FileError(.write, path: path, osErrno: failure.code) }
        }
    }

    /// Deletes the file.
    public func removeFile() { Paths.remove(fileURL.path) }
}
