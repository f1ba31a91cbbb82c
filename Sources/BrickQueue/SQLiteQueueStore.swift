import BrickCore
import FoundationEssentials

/// The store of a queue on one machine: a SQLite file that one process at a time has open
/// (``QueueDatabase`` holds the lock beside it). No other process can claim its rows, so claims need no
/// lease, and a request found being sent was left so by a process that ended.
final class SQLiteQueueStore: QueueStore {
    let database: QueueDatabase
    let location: String
    var leaseDuration: Duration? { nil }

    /// The file at `path`, for the queue `name`.
    init(path: String, queue name: String) throws(QueueError) {
        database = try QueueDatabase.open(path: path, queue: name, schema: Self.schema)
        location = path
    }

    static let schema = """
        PRAGMA synchronous = FULL;
        PRAGMA secure_delete = ON;
        CREATE TABLE IF NOT EXISTS requests (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            queue TEXT NOT NULL,
            label TEXT NOT NULL,
            state TEXT NOT NULL DEFAULT 'pending',
            method TEXT NOT NULL,
            url TEXT NOT NULL,
            headers BLOB NOT NULL,
            body BLOB,
            body_file TEXT,
            idempotency_key TEXT,
            queued_at REAL NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX IF NOT EXISTS requests_in_order ON requests (queue, state, id);
        """

    func enqueue(_ row: QueueRow, limits: DeliveryQueue.Limits) throws(QueueError) -> Int64 {
        let stored = row.stored
        return try database.connection.withLock { database throws(QueueError) -> Int64 in
            var held = (count: 0, bytes: 0)
            try database.query(
                "SELECT COUNT(*), COALESCE(SUM(LENGTH(headers) + COALESCE(LENGTH(body), 0) + COALESCE(LENGTH(body_file), 0)), 0) FROM requests WHERE queue = ?",
                [.text(row.queue)]
            ) { row in held = (Int(row.integer(0)), Int(row.integer(1))) }
            try limits.check(count: held.count, bytes: held.bytes, adding: stored.size)
            try database.query(
                "INSERT INTO requests (queue, label, method, url, headers, body, body_file, idempotency_key, queued_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [.text(row.queue), .text(row.label), .text(stored.method), .text(stored.url), .blob(stored.headers),
                 stored.body.map { .blob($0) } ?? .null, stored.bodyFile.map { .text($0) } ?? .null,
                 row.idempotencyKey.map { .text($0) } ?? .null, .real(row.queuedAt.timeIntervalSince1970)])
            return database.lastInsertedID
        }
    }

    /// A request left being sent comes first (its outcome is settled before anything else goes), then the
    /// oldest waiting one.
    func next(in queue: String) throws(QueueError) -> QueueCandidate {
        try database.connection.withLock { database throws(QueueError) -> QueueCandidate in
            var claim: Claim?
            // Each part reads the (queue, state, id) index, never the whole queue.
            let columns = "id, label, method, url, headers, body, body_file, attempts, state"
            try database.query(
                """
                SELECT * FROM (SELECT \(columns), 0 AS rank FROM requests WHERE queue = ?1 AND state = 'sending' ORDER BY id LIMIT 1)
                UNION ALL SELECT * FROM (SELECT \(columns), 1 AS rank FROM requests WHERE queue = ?1 AND state = 'pending' ORDER BY id LIMIT 1)
                ORDER BY rank LIMIT 1
                """,
                [.text(queue)]
            ) { row in
                let stored = StoredRequest(method: row.text(2) ?? "GET", url: row.text(3) ?? "", headers: row.blob(4) ?? Data(), body: row.blob(5),
                                           bodyFile: row.text(6))
                claim = Claim(queue: queue, id: row.integer(0), label: row.text(1) ?? "", stored: stored, attempts: Int(row.integer(7)),
                              interrupted: row.text(8) == "sending")
            }
            return claim.map(QueueCandidate.ready) ?? .wait(nil)
        }
    }

    func claim(_ candidate: Claim) throws(QueueError) -> Claim? {
        try database.connection.withLock { database throws(QueueError) -> Claim? in
            try database.query("UPDATE requests SET state = 'sending', attempts = attempts + 1 WHERE id = ?", [.integer(candidate.id)])
            return database.changes > 0 ? candidate.claimed(token: 0, attempts: candidate.attempts + 1) : nil
        }
    }

    func renew(_ claim: Claim) throws(QueueError) -> Bool { true }

    func settle(_ claim: Claim, _ settlement: Settlement) throws(QueueError) -> Bool {
        let sql = switch settlement {
        case .finished: "DELETE FROM requests WHERE id = ?"
        case .requeued: "UPDATE requests SET state = 'pending' WHERE id = ?"
        case .deadLettered: "UPDATE requests SET state = 'dead' WHERE id = ?"
        }
        return try database.connection.withLock { database throws(QueueError) -> Bool in
            try database.query(sql, [.integer(claim.id)])
            return database.changes > 0
        }
    }

    func list(_ queue: String, deadLetters: Bool) throws(QueueError) -> [QueuedRequest] {
        try database.connection.withLock { database throws(QueueError) -> [QueuedRequest] in
            var listed: [QueuedRequest] = []
            try database.query(
                "SELECT id, label, method, url, queued_at, attempts, idempotency_key FROM requests WHERE queue = ? AND \(deadLetters ? "state = 'dead'" : "state != 'dead'") ORDER BY id",
                [.text(queue)]
            ) { row in
                listed.append(QueuedRequest(
                    id: row.integer(0), label: row.text(1) ?? "", method: HTTPMethod(row.text(2) ?? "GET"), url: row.text(3) ?? "",
                    queuedAt: Date(timeIntervalSince1970: row.real(4)), attempts: Int(row.integer(5)), idempotencyKey: row.text(6)))
            }
            return listed
        }
    }

    func retryDeadLetter(_ id: Int64, in queue: String) throws(QueueError) -> Bool {
        try database.connection.withLock { database throws(QueueError) -> Bool in
            try database.query(
                "UPDATE requests SET state = 'pending', attempts = 0 WHERE id = ? AND queue = ? AND state = 'dead'", [.integer(id), .text(queue)])
            return database.changes > 0
        }
    }

    func cancel(_ id: Int64, in queue: String) throws(QueueError) -> String? {
        try database.connection.withLock { database throws(QueueError) -> String? in
            var label: String?
            try database.query(
                "SELECT label FROM requests WHERE id = ? AND queue = ? AND state IN ('pending', 'dead')", [.integer(id), .text(queue)]
            ) { label = $0.text(0) }
            guard label != nil else { return nil }
            try database.query("DELETE FROM requests WHERE id = ?", [.integer(id)])
            return label
        }
    }

    func changes(of queue: String) -> AsyncStream<Void>? { nil }

    func close(_ queue: String) { database.release(queue) }
}
