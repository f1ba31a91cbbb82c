#if Postgres
import BrickCore
import BrickQueue
import FoundationEssentials

extension PostgresQueueStore {
    func list(_ queue: String, deadLetters: Bool) throws(QueueError) -> [QueuedRequest] {
        let rows = try connection.withLock { connection throws(QueueError) in
            try connection.query(
                """
                SELECT id, label, method, url, EXTRACT(EPOCH FROM queued_at), attempts, idempotency_key FROM \(schema.qualified("requests"))
                WHERE queue = $1 AND \(deadLetters ? "state = 'dead'" : "state <> 'dead'") ORDER BY id
                """,
                [.text(queue)])
        }
        return rows.values.indices.map { row in
            QueuedRequest(
                id: rows.integer(row, 0), label: rows.text(row, 1) ?? "", method: HTTPMethod(rows.text(row, 2) ?? "GET"), url: rows.text(row, 3) ?? "",
                queuedAt: Date(timeIntervalSince1970: rows.double(row, 4)), attempts: Int(rows.integer(row, 5)), idempotencyKey: rows.text(row, 6))
        }
    }

    func retryDeadLetter(_ id: Int64, in queue: String) throws(QueueError) -> Bool {
        try connection.withLock { connection throws(QueueError) -> Bool in
            !(try connection.query(
                """
                WITH back AS (UPDATE \(schema.qualified("requests")) SET state = 'pending', attempts = 0
                    WHERE id = $1 AND queue = $2 AND state = 'dead' RETURNING queue)
                SELECT pg_notify($3, queue) FROM back
                """,
                [.integer(id), .text(queue), .text(channel)]
            ).isEmpty)
        }
    }

    func cancel(_ id: Int64, in queue: String) throws(QueueError) -> String? {
        try connection.withLock { connection throws(QueueError) -> String? in
            let rows = try connection.query(
                "DELETE FROM \(schema.qualified("requests")) WHERE id = $1 AND queue = $2 AND state IN ('pending', 'dead') RETURNING label",
                [.integer(id), .text(queue)])
            return rows.isEmpty ? nil : rows.text(0, 0) ?? ""
        }
    }
}
#endif
