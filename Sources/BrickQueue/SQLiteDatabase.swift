import BrickSystem
import CSQLite
import FoundationEssentials

/// One connection to a SQLite database file, used by one thread at a time (``DeliveryQueue`` holds it
/// behind its lock). Only what the queue needs: statements with bound values, rows read by column.
final class SQLiteDatabase {
    private let handle: OpaquePointer

    /// Opens (or creates) the database at `path`, owner-only: the file is made 0600 before SQLite opens it
    /// (never through a symbolic link planted at `path`), and SQLite gives its journal the same mode. Waits
    /// up to 5 s for another process's lock.
    init(path: String) throws(QueueError) {
        switch FileDescriptor.open(path, [.readWrite, .create, .noFollow]) {
        case .success(let file):
            file.setPermissions(0o600)
            file.close()
        case .failure(let error): throw QueueError.database("cannot open \(path): \(error)")
        }
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        guard sqlite3_open_v2(path, &handle, flags, nil) == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            throw QueueError.database("cannot open \(path): \(message)")
        }
        self.handle = handle
        sqlite3_busy_timeout(handle, 5000)
    }

    deinit { sqlite3_close(handle) }

    /// Runs `sql` (one or more statements, no values).
    func execute(_ sql: String) throws(QueueError) {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw QueueError.database(text)
        }
    }

    /// A value bound to a statement's `?`.
    enum Value {
        case integer(Int64)
        case real(Double)
        case text(String)
        case blob(Data)
        case null
    }

    /// Runs `sql` with `values`, calling `row` for each row of its result.
    func query(_ sql: String, _ values: [Value] = [], row: (Row) -> Void = { _ in }) throws(QueueError) {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else { throw error() }
        defer { sqlite3_finalize(statement) }
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            let result: Int32 = switch value {
            case .integer(let number): sqlite3_bind_int64(statement, position, number)
            case .real(let number): sqlite3_bind_double(statement, position, number)
            case .text(let text): sqlite3_bind_text(statement, position, text, -1, brick_sqlite_transient())
            case .blob(let data):
                data.withUnsafeBytes { sqlite3_bind_blob(statement, position, $0.baseAddress, Int32($0.count), brick_sqlite_transient()) }
            case .null: sqlite3_bind_null(statement, position)
            }
            guard result == SQLITE_OK else { throw error() }
        }
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: row(Row(statement: statement))
            case SQLITE_DONE: return
            default: throw error()
            }
        }
    }

    /// The rowid of the last row inserted.
    var lastInsertedID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows the last statement changed.
    var changes: Int { Int(sqlite3_changes(handle)) }

    private func error() -> QueueError { .database(String(cString: sqlite3_errmsg(handle))) }

    /// One row of a result, read by column number.
    struct Row {
        let statement: OpaquePointer

        func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
        func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
        func text(_ column: Int32) -> String? {
            sqlite3_column_text(statement, column).map { String(cString: $0) }
        }
        func blob(_ column: Int32) -> Data? {
            guard sqlite3_column_type(statement, column) != SQLITE_NULL else { return nil }
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return Data() }
            return Data(bytes: bytes, count: count)
        }
    }
}
