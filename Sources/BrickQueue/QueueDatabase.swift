import BrickSystem
import BrickTransport
import FoundationEssentials

/// One database file as this process has it open: its SQLite connection, the lock beside it that keeps
/// other processes out, and the names of the queues open on it. Queues of several names share one (their
/// rows apart by name); a second queue of the same name on the same file is refused, since two would claim
/// the same rows.
final class QueueDatabase: Sendable {
    /// The connection, one statement at a time.
    let connection: Locked<SQLiteDatabase>
    private let lockFile: FileDescriptor
    private let file: FileID
    /// The names of the queues open on it.
    private let names = Locked<Set<String>>([])

    /// A file, by device and inode: the same file under two paths is one.
    struct FileID: Hashable {
        let device: UInt64
        let inode: UInt64
    }

    /// The files open in this process.
    private static let open = Locked<[FileID: QueueDatabase]>([:])

    private init(connection: sending SQLiteDatabase, lockFile: FileDescriptor, file: FileID) {
        self.connection = Locked(connection)
        self.lockFile = lockFile
        self.file = file
    }

    /// The database at `path` for the queue `name`: the one this process already has open, or opened now
    /// (created with `schema` if new).
    /// - Throws: ``QueueError/database(_:)`` when the file cannot be opened, another process has it open, or a
    ///   queue of that name is already open on it in this process.
    static func open(path: String, queue name: String, schema: String) throws(QueueError) -> QueueDatabase {
        try Self.open.withLock { open throws(QueueError) -> QueueDatabase in
            let lockPath = path + ".lock"
            let fd: FileDescriptor
            switch FileDescriptor.open(lockPath, [.readWrite, .create, .noFollow]) {
            case .success(let opened): fd = opened
            case .failure(let error): throw .database("cannot open \(lockPath): \(error)")
            }
            let info: FileStatus
            switch fd.status() {
            case .success(let status): info = status
            case .failure(let error):
                fd.close()
                throw .database("cannot read \(lockPath): \(error)")
            }
            let file = FileID(device: info.device, inode: info.inode)
            if let database = open[file] {
                fd.close()
                guard database.names.withLock({ $0.insert(name).inserted }) else {
                    throw .database("the queue \"\(name)\" of \(path) is already open in this process")
                }
                return database
            }
            guard fd.lockWholeFile(waitingUpTo: 200) == nil else {
                fd.close()
                throw .database("\(path) is open in another process")
            }
            let connection: SQLiteDatabase
            do throws(QueueError) {
                connection = try SQLiteDatabase(path: path)
                try connection.execute(schema)
            } catch {
                fd.close()
                throw error
            }
            let database = QueueDatabase(connection: connection, lockFile: fd, file: file)
            database.names.withLock { _ = $0.insert(name) }
            open[file] = database
            return database
        }
    }

    /// The queue `name` is closed: when it was the last on the file, the file is closed for this process
    /// and its lock released.
    func release(_ name: String) {
        Self.open.withLock { open in
            let empty = names.withLock { names in
                names.remove(name)
                return names.isEmpty
            }
            guard empty, open[file] === self else { return }
            open[file] = nil
            lockFile.close()
        }
    }
}
