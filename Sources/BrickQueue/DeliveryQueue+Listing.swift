public import BrickCore
import BrickTransport
import FoundationEssentials

extension DeliveryQueue {
    /// Writes `request` to the queue and returns once it is on disk; ``start()`` delivers it.
    /// - Throws: ``QueueError/unstorableBody`` for a streamed body, ``QueueError/full(_:)`` past the queue's
    ///   ``Limits``, ``QueueError/database(_:)``.
    @discardableResult
    public func enqueue(_ request: TransportRequest, label: String = "request") throws(QueueError) -> QueuedRequest {
        let row = try row(for: request, label: label)
        return queued(row, id: try store.enqueue(row, limits: limits))
    }

    /// `request` as the queue keeps it: a request that must not arrive twice gets its `Idempotency-Key`.
    package func row(for request: TransportRequest, label: String) throws(QueueError) -> QueueRow {
        var request = request
        var key: String?
        if !request.method.isIdempotent {
            key = request.headers["Idempotency-Key"] ?? UUID().uuidString
            request.headers["Idempotency-Key"] = key
        }
        guard let stored = StoredRequest(request) else { throw .unstorableBody }
        return QueueRow(queue: name, label: label, stored: stored, idempotencyKey: key, queuedAt: Date())
    }

    /// `row` was stored as request `id`: the loop wakes, and the caller gets it as listed.
    package func queued(_ row: QueueRow, id: Int64) -> QueuedRequest {
        wake.yield()
        return QueuedRequest(id: id, label: row.label, method: HTTPMethod(row.stored.method), url: row.stored.url, queuedAt: row.queuedAt,
                             attempts: 0, idempotencyKey: row.idempotencyKey)
    }

    /// The requests still to be delivered, oldest first (the one being sent included; dead letters not).
    public func pending() throws(QueueError) -> [QueuedRequest] { try store.list(name, deadLetters: false) }

    /// The dead letters: requests that failed ``Limits/maxAttempts`` times in a way worth trying again, kept
    /// until ``retryDeadLetter(_:)`` puts one back in line or ``cancel(_:)`` takes it out.
    public func deadLetters() throws(QueueError) -> [QueuedRequest] { try store.list(name, deadLetters: true) }

    /// Puts dead letter `id` back in line, at its old place (the order queued), with its attempts counted
    /// from zero again.
    /// - Returns: Whether it was a dead letter of this queue.
    @discardableResult
    public func retryDeadLetter(_ id: Int64) throws(QueueError) -> Bool {
        let changed = try store.retryDeadLetter(id, in: name)
        if changed { wake.yield() }
        return changed
    }

    /// Takes request `id` (waiting, or a dead letter) out of the queue unless it is being sent; its outcome is
    /// ``DeliveryOutcome/Result/cancelled``.
    /// - Returns: Whether it was taken out.
    @discardableResult
    public func cancel(_ id: Int64) throws(QueueError) -> Bool {
        let label = try store.cancel(id, in: name)
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
