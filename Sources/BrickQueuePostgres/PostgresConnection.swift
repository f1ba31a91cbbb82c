#if Postgres
import BrickQueue
import CLibPQ
import FoundationEssentials

/// One libpq connection, used by one thread at a time (the store holds it behind its lock). Statements go
/// with their values as parameters, never spliced into the SQL. A connection that broke (the server
/// restarted) is opened again before the next statement; if that fails the statement throws
/// `QueueError.unreachable(_:)` at once.
final class PostgresConnection {
    private var handle: OpaquePointer
    let database: PostgresDatabase

    init(_ database: PostgresDatabase) throws(QueueError) {
        self.database = database
        handle = try Self.connect(database)
    }

    deinit { PQfinish(handle) }

    /// A new connection to `database`, or the error that names why there is none.
    static func connect(_ database: PostgresDatabase) throws(QueueError) -> OpaquePointer {
        // A connect timeout of 10 s unless the string or PGCONNECT_TIMEOUT names one (what follows in
        // the list overrides what comes before, and the string is expanded in place of `dbname`).
        let keywords = database.namesConnectTimeout ? ["dbname"] : ["connect_timeout", "dbname"]
        let values = database.namesConnectTimeout ? [database.connectionString] : ["10", database.connectionString]
        let connected = withCStrings(keywords) { keywords in withCStrings(values) { values in PQconnectdbParams(keywords, values, 1) } }
        guard let handle = connected else { throw .unreachable("libpq is out of memory") }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = database.redacting(String(cString: PQerrorMessage(handle)))
            PQfinish(handle)
            throw refusal(message) ? .connection("\(database): \(message)") : .unreachable("\(database): \(message)")
        }
        // The server's notices ("schema already exists, skipping") are not for the application's output.
        PQsetNoticeProcessor(handle, { _, _ in }, nil)
        do throws(QueueError) { try pinSearchPath(handle, database) } catch {
            PQfinish(handle)
            throw error
        }
        return handle
    }

    /// Makes every name the library's statements use resolve to `pg_catalog` (or to the queue's schema, which
    /// they name), whatever `search_path` the role or the database sets: a role that may create objects in
    /// a schema on that path (`public`, in every database made before PostgreSQL 15) could otherwise plant an
    /// operator or function that a statement calls with the deliverer's rights. `pg_temp` last, so that no
    /// temporary object shadows one either. Set on every connection, again after every reset (a reset is a
    /// new session of the server, with the role's settings back).
    private static func pinSearchPath(_ handle: OpaquePointer, _ database: PostgresDatabase) throws(QueueError) {
        let result = PQexec(handle, "SET search_path = pg_catalog, pg_temp")
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            let message = database.redacting(result.map { String(cString: PQresultErrorMessage($0)) } ?? String(cString: PQerrorMessage(handle)))
            throw .unreachable("\(database): the search path could not be set: \(message)")
        }
    }

    /// Whether a failed connection was the server's answer to what was asked (credentials, a role or
    /// database that does not exist), rather than no server to ask (refused, no route, starting up).
    private static func refusal(_ message: String) -> Bool {
        message.contains("FATAL:") && !message.contains("the database system is")
    }

    /// The connection's socket, for waiting on notifications.
    var socket: Int32 { PQsocket(handle) }

    /// A value bound to a statement's `$n`.
    enum Value {
        case text(String)
        case bytes(Data)
        case integer(Int64)
        case bool(Bool)
        case null
        /// Text whose type the server infers from where it goes (a caller's statement's parameter).
        case untyped(String)
    }

    /// Runs `sql` with `values` as its parameters; its rows (as text) and how many rows it changed.
    @discardableResult
    func query(_ sql: String, _ values: [Value] = []) throws(QueueError) -> Rows {
        try reconnectIfBroken()
        let result = Self.execute(handle, sql, values)
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK: return Rows(result)
        default: throw failure(result)
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    func transaction<T>(_ body: (PostgresConnection) throws(QueueError) -> T) throws(QueueError) -> T {
        try query("BEGIN")
        do throws(QueueError) {
            let value = try body(self)
            try query("COMMIT")
            return value
        } catch {
            if PQstatus(handle) == CONNECTION_OK { _ = try? query("ROLLBACK") }
            throw error
        }
    }

    /// Runs one or more statements without values (a schema's layout).
    func execute(_ sql: String) throws(QueueError) {
        try reconnectIfBroken()
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK || PQresultStatus(result) == PGRES_TUPLES_OK else { throw failure(result) }
    }

    /// Notifications that arrived, by channel and payload (after ``consumeInput()``).
    func notifications() -> [(channel: String, payload: String)] {
        var arrived: [(channel: String, payload: String)] = []
        while let notice = PQnotifies(handle) {
            arrived.append((String(cString: notice.pointee.relname), String(cString: notice.pointee.extra)))
            PQfreemem(notice)
        }
        return arrived
    }

    /// Reads what the server sent; `false` when the connection broke.
    func consumeInput() -> Bool { PQconsumeInput(handle) == 1 && PQstatus(handle) == CONNECTION_OK }

    private func reconnectIfBroken() throws(QueueError) {
        guard PQstatus(handle) != CONNECTION_OK else { return }
        PQreset(handle)
        guard PQstatus(handle) == CONNECTION_OK else {
            throw .unreachable("\(database): \(database.redacting(String(cString: PQerrorMessage(handle))))")
        }
        try Self.pinSearchPath(handle, database)
    }

    private func failure(_ result: OpaquePointer?) -> QueueError {
        let message = database.redacting(result.map { String(cString: PQresultErrorMessage($0)) } ?? String(cString: PQerrorMessage(handle)))
        let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) } ?? ""
        // Class 08 is a connection exception; 57P0x the server shutting down or restarting.
        if PQstatus(handle) != CONNECTION_OK || state.hasPrefix("08") || state.hasPrefix("57P") {
            return .unreachable("\(database): \(message)")
        }
        return .database(state.isEmpty ? message : "\(message) (SQLSTATE \(state))")
    }

    /// `PQexecParams` with each value in the form its type takes: bytes in binary, the rest as text.
    private static func execute(_ handle: OpaquePointer, _ sql: String, _ values: [Value]) -> OpaquePointer? {
        var types: [Oid] = []
        var formats: [Int32] = []
        var buffers: [[UInt8]?] = []
        for value in values {
            switch value {
            case .text(let text): (types, formats, buffers) = (types + [25], formats + [0], buffers + [Array(text.utf8) + [0]])
            case .bytes(let data): (types, formats, buffers) = (types + [17], formats + [1], buffers + [Array(data)])
            case .integer(let number): (types, formats, buffers) = (types + [20], formats + [0], buffers + [Array(String(number).utf8) + [0]])
            case .bool(let flag): (types, formats, buffers) = (types + [16], formats + [0], buffers + [Array((flag ? "t" : "f").utf8) + [0]])
            case .null: (types, formats, buffers) = (types + [0], formats + [0], buffers + [nil])
            case .untyped(let text): (types, formats, buffers) = (types + [0], formats + [0], buffers + [Array(text.utf8) + [0]])
            }
        }
        let lengths = buffers.map { Int32($0?.count ?? 0) }
        return withPointers(to: buffers) { pointers in
            PQexecParams(handle, sql, Int32(values.count), types, pointers, lengths, formats, 0)
        }
    }

    /// Calls `body` with a pointer to a copy of each buffer's bytes (`nil` for a missing one), valid during
    /// the call.
    private static func withPointers<R>(to buffers: [[UInt8]?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let copies: [UnsafeMutablePointer<CChar>?] = buffers.map { buffer in
            guard let buffer else { return nil }
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, buffer.count))
            buffer.withUnsafeBytes { bytes in
                if let start = bytes.baseAddress { UnsafeMutableRawPointer(copy).copyMemory(from: start, byteCount: bytes.count) }
            }
            return copy
        }
        defer { for copy in copies { copy?.deallocate() } }
        return body(copies.map { $0.map { UnsafePointer($0) } })
    }
}

/// Calls `body` with the strings as a NULL-terminated array of C strings, valid during the call.
private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies: [UnsafeMutablePointer<CChar>] = strings.map { string in
        let bytes = Array(string.utf8CString)
        let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
        copy.initialize(from: bytes, count: bytes.count)
        return copy
    }
    defer { copies.forEach { $0.deallocate() } }
    let pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
    return pointers.withUnsafeBufferPointer { buffer in
        guard let start = buffer.baseAddress else { preconditionFailure("the list holds at least its terminating nil") }
        return body(start)
    }
}

/// A statement's result, copied out of libpq: rows of text values (`nil` for NULL) and the rows changed.
struct Rows {
    let values: [[String?]]
    let changed: Int

    init(_ result: OpaquePointer?) {
        let rows = Int(PQntuples(result)), columns = Int(PQnfields(result))
        values = (0..<rows).map { row in
            (0..<columns).map { column in
                PQgetisnull(result, Int32(row), Int32(column)) == 1 ? nil : String(cString: PQgetvalue(result, Int32(row), Int32(column)))
            }
        }
        changed = Int(String(cString: PQcmdTuples(result))) ?? 0
    }

    var isEmpty: Bool { values.isEmpty }

    /// The value at `row` and `column`; `nil` for NULL, and for a place the result does not have (a
    /// statement that returned less than expected is read as empty, never trapped on).
    func text(_ row: Int, _ column: Int) -> String? {
        guard values.indices.contains(row), values[row].indices.contains(column) else { return nil }
        return values[row][column]
    }
    func integer(_ row: Int, _ column: Int) -> Int64 { text(row, column).flatMap { Int64($0) } ?? 0 }
    func double(_ row: Int, _ column: Int) -> Double { text(row, column).flatMap { Double($0) } ?? 0 }
    func bool(_ row: Int, _ column: Int) -> Bool { text(row, column) == "t" }

    /// A `bytea` value that the statement read as `pg_catalog.encode(column, 'hex')`: plain hex digits,
    /// whatever `bytea_output` the role or the database sets (a value read as `bytea` itself would come in
    /// that setting's form). `nil` for NULL, and for anything that is not an even run of hex digits.
    func bytes(_ row: Int, _ column: Int) -> Data? {
        guard let text = text(row, column) else { return nil }
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes = Data(capacity: digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = Self.nibble(digits[index]), let low = Self.nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
#endif
