public import BrickCore
import BrickTransport
import FoundationEssentials

extension DeliveryQueue {
    /// Writes `request` to the queue and returns once it is on disk; ``start()`` delivers it.
    /// - Throws: ``QueueError/unstorableBody`` for a streamed body, ``QueueError/full(_:)`` past the queue's
    ///   ``Limits``, ``QueueError/database(_:)``.
    @discardableResult
    public func enqueue(_ request: TransportRequest, label: String = "request") throws(QueueError) -> QueuedRequest {
        var request = request
        var key: String?
        if !request.method.isIdempotent {
            key = request.headers["Idempotency-Key"] ?? UUID().uuidString
            request.headers["Idempotency-Key"] = key
        }
        guard let stored = StoredRequest(request) else { throw .unstorableBody }
        let queuedAt = Date()
        let limits = limits
        let size = stored.headers.count + (stored.body?.count ?? 0) + (stored.bodyFile?.utf8.count ?? 0)
        let id = try database.connection.withLock { database throws(QueueError) -> Int64 in
            var held = (count: 0, bytes: 0)
            try database.query(
                "SELECT COUNT(*), COALESCE(SUM(LENGTH(headers) + COALESCE(LENGTH(body), 0) + COALESCE(LENGTH(body_file), 0)), 0) FROM requests WHERE queue = ?",
                [.text(name)]
            ) { row in held = (Int(row.integer(0)), Int(row.integer(1))) }
            guard held.count < limits.maxRequests else { throw .full("it holds \(held.count) requests, its limit") }
            guard held.bytes + size <= limits.maxBytes else {
                throw .full("\(held.bytes) bytes held and \(size) more would pass its limit of \(limits.maxBytes)")
            }
            try database.query(
                "INSERT INTO requests (queue, label, method, url, headers, body, body_file, idempotency_key, queued_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [.text(name), .text(label), .text(stored.method), .text(stored.url), .blob(stored.headers),
                 stored.body.map { .blob($0) } ?? .null, stored.bodyFile.map { .text($0) } ?? .null,
                 key.map { .text($0) } ?? .null, .real(queuedAt.timeIntervalSince1970)])
            return database.lastInsertedID
        }
        wake.yield()
        return QueuedRequest(id: id, label: label, method: request.method, url: request.url, queuedAt: queuedAt, attempts: 0,
                             idempotencyKey: key)
    }

    /// The requests still to be delivered, oldest first (the one being sent included; dead letters not).
    public func pending() throws(QueueError) -> [QueuedRequest] { try listed("state != 'dead'") }

    /// The dead letters: requests that failed ``Limits/maxAttempts`` times in a way worth trying again, kept
    /// until ``retryDeadLetter(_:)`` puts one back in line or ``cancel(_:)`` takes it out.
    public func deadLetters() throws(QueueError) -> [QueuedRequest] { try listed("state = 'dead'") }

    private func listed(_ condition: String) throws(QueueError) -> [QueuedRequest] {
        try database.connection.withLock { database throws(QueueError) -> [QueuedRequest] in
            var listed: [QueuedRequest] = []
            try database.query(
                "SELECT id, label, method, url, queued_at, attempts, idempotency_key FROM requests WHERE queue = ? AND \(condition) ORDER BY id",
                [.text(name)]
            ) { row in
                listed.append(QueuedRequest(
                    id: row.integer(0), label: row.text(1) ?? "", method: HTTPMethod(row.text(2) ?? "GET"), url: row.text(3) ?? "",
                    queuedAt: Date(timeIntervalSince1970: row.real(4)), attempts: Int(row.integer(5)), idempotencyKey: row.text(6)))
            }
            return listed
        }
    }

    /// Puts dead letter `id` back in line, at its old place (the order queued), with its attempts counted
    /// from zero again.
    /// - Returns: Whether it was a dead letter of this queue.
    @discardableResult
    public func retryDeadLetter(_ id: Int64) throws(QueueError) -> Bool {
        let changed = try database.connection.withLock { database throws(QueueError) -> Bool in
            try database.query(
                "UPDATE requests SET state = 'pending', attempts = 0 WHERE id = ? AND queue = ? AND state = 'dead'", [.integer(id), .text(name)])
            return database.changes > 0
        }
        if changed { wake.yield() }
        return changed
    }

    /// Takes request `id` (waiting, or a dead letter) out of the queue unless it is being sent; its outcome is
    /// ``DeliveryOutcome/Result/cancelled``.
    /// - Returns: Whether it was taken out.
    @discardableResult
    public func cancel(_ id: Int64) throws(QueueError) -> Bool {
        let label = try database.connection.withLock { database throws(QueueError) -> String? in
            var label: String?
            try database.query(
                "SELECT label FROM requests WHERE id = ? AND queue = ? AND state IN ('pending', 'dead')", [.integer(id), .text(name)]
            ) { label = $0.text(0) }
            guard label != nil else { return nil }
            try database.query("DELETE FROM requests WHERE id = ?", [.integer(id)])
            return label
        }
        guard let label else { return false }
        announce(DeliveryOutcome(id: id, label: label, result: .cancelled))
        return true
    }

    /// Every outcome from now on, as deliveries end (in this process). The stream ends if delivery stops
    /// because the database failed (``failure`` says why); at once if it already has.
    public func outcomes() -> AsyncStream<DeliveryOutcome> {
        let (stream, continuation) = AsyncStream.makeStream(of: DeliveryOutcome.self)
        let id = subscribers.withLock { state -> Int? in
            guard state.failure == nil else { return nil }
            state.next += 1
            state.all[state.next] = continuation
            return state.next
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in self?.subscribers.withLock { _ = $0.all.removeValue(forKey: id) } }
        return stream
    }

    func announce(_ outcome: DeliveryOutcome) {
        subscribers.withLock { Array($0.all.values) }.forEach { $0.yield(outcome) }
    }

    /// Delivery stopped because the database failed: ``failure`` is set and every outcome stream ends.
    func stopDelivering(because failure: QueueError) {
        let streams = subscribers.withLock { state in
            if state.failure == nil { state.failure = failure }
            defer { state.all.removeAll() }
            return Array(state.all.values)
        }
        streams.forEach { $0.finish() }
    }
}
