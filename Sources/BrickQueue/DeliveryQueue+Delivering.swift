import BrickCore
import BrickTransport
import FoundationEssentials

extension DeliveryQueue {
    /// Starts delivering, in a task of its own: first the outcome of requests a previous process left being
    /// sent, then the queue in order, waiting for new requests when it is empty. The task keeps the queue
    /// (and its database and lock) open until ``stop()``.
    public func start() {
        loop.withLock { task in
            guard task == nil, let wakes = wakes.withLock({ $0.take() }) else { return }
            task = Task { [self] in await run(wakes) }
        }
    }

    /// Stops delivering (a request being sent is cancelled and stays queued if it never left).
    public func stop() {
        loop.withLock { $0 }?.cancel()
    }

    private func run(_ wakes: AsyncStream<Void>) async {
        do throws(QueueError) { try await deliver(wakes) } catch { stopDelivering(because: error) }
    }

    private func deliver(_ wakes: AsyncStream<Void>) async throws(QueueError) {
        var waiting = wakes.makeAsyncIterator()
        try recoverInterrupted()
        var backoff = retry.breakTime
        while !Task.isCancelled {
            guard let claimed = try await claimNext() else {
                guard !Task.isCancelled, await waiting.next() != nil else { return }
                continue
            }
            let outcome = await session.dataResponse(
                for: claimed.stored.request(options: session.configuration.transportOptions), retry: retry, idempotency: .byMethod,
                validation: .successful)
            switch try settle(claimed, outcome) {
            case .done: backoff = retry.breakTime
            case .later:
                guard !Task.isCancelled, (try? await session.configuration.clock.sleep(for: backoff)) != nil else { return }
                backoff = min(backoff * 2, retry.maxBreakTime)
            case .stop: return
            }
        }
    }

    /// The request claimed for sending.
    struct Claim {
        let id: Int64
        let label: String
        let stored: StoredRequest
        let repeatable: Bool
        /// Attempts made with this one.
        let attempts: Int
    }

    /// The oldest pending request, once its host is reachable, marked as being sent (`nil` when none waits).
    private func claimNext() async throws(QueueError) -> Claim? {
        guard let next = try oldestPending() else { return nil }
        let request = next.stored.request(options: session.configuration.transportOptions)
        if let host = request.route.host {
            var changes = session.reachability.changes().makeAsyncIterator()
            while await session.reachability.status(of: host) == .unreachable {
                guard !Task.isCancelled, await changes.next() != nil else { return nil }
            }
        }
        try database.connection.withLock { database throws(QueueError) in
            try database.query("UPDATE requests SET state = 'sending', attempts = attempts + 1 WHERE id = ?", [.integer(next.id)])
        }
        return next
    }

    private func oldestPending() throws(QueueError) -> Claim? {
        try database.connection.withLock { database throws(QueueError) -> Claim? in
            var claim: Claim?
            try database.query(
                "SELECT id, label, method, url, headers, body, body_file, attempts FROM requests WHERE queue = ? AND state = 'pending' ORDER BY id LIMIT 1",
                [.text(name)]
            ) { row in
                let method = row.text(2) ?? "GET"
                let stored = StoredRequest(method: method, url: row.text(3) ?? "", headers: row.blob(4) ?? Data(), body: row.blob(5),
                                           bodyFile: row.text(6))
                claim = Claim(id: row.integer(0), label: row.text(1) ?? "", stored: stored, repeatable: HTTPMethod(method).isIdempotent,
                              attempts: Int(row.integer(7)) + 1)
            }
            return claim
        }
    }

    private enum Next { case done, later, stop }

    /// Records what one send ended with: removed with its outcome, back in line for a later try, or a dead
    /// letter once it has had its attempts.
    private func settle(_ claim: Claim, _ outcome: DataResponse<TransportResponse>) throws(QueueError) -> Next {
        let error: BrickError
        switch outcome.result {
        case .success(let response):
            try finish(claim, .delivered(response))
            return .done
        case .failure(let failure): error = failure
        }
        let mayBeLost = error.requestMayHaveArrived && !claim.repeatable
        switch error {
        case .shutDown:
            try requeue(claim)
            return .stop
        case _ where error.isCancelled || Task.isCancelled:
            if mayBeLost { try finish(claim, .mayHaveArrived(error)) } else { try requeue(claim) }
            return .stop
        case .requestEncoding, .file, .interceptor:
            try finish(claim, .failed(error))  // nothing later would change it
            return .done
        case .gaveUp where error.response != nil:
            return try tryLater(claim, error)  // the rules ran out on a retryable answer (503)
        case _ where error.response != nil:
            try finish(claim, .failed(error))  // an answer the rules do not repeat (404)
            return .done
        case _ where mayBeLost:
            try finish(claim, .mayHaveArrived(error))
            return .done
        default:
            return try tryLater(claim, error)  // it never left, or it may go twice
        }
    }

    /// Back in line after a failure worth trying again, or a dead letter when that was its last attempt.
    private func tryLater(_ claim: Claim, _ error: BrickError) throws(QueueError) -> Next {
        guard claim.attempts >= limits.maxAttempts else {
            try requeue(claim)
            return .later
        }
        try database.connection.withLock { database throws(QueueError) in
            try database.query("UPDATE requests SET state = 'dead' WHERE id = ?", [.integer(claim.id)])
        }
        announce(DeliveryOutcome(id: claim.id, label: claim.label, result: .deadLettered(error)))
        return .done
    }

    private func requeue(_ claim: Claim) throws(QueueError) {
        try database.connection.withLock { database throws(QueueError) in
            try database.query("UPDATE requests SET state = 'pending' WHERE id = ?", [.integer(claim.id)])
        }
    }

    private func finish(_ claim: Claim, _ result: DeliveryOutcome.Result) throws(QueueError) {
        try database.connection.withLock { database throws(QueueError) in
            try database.query("DELETE FROM requests WHERE id = ?", [.integer(claim.id)])
        }
        announce(DeliveryOutcome(id: claim.id, label: claim.label, result: result))
    }

    /// Requests a previous process left being sent: an idempotent one goes back in line; any other may
    /// have arrived, so it is taken out with that outcome.
    private func recoverInterrupted() throws(QueueError) {
        var interrupted: [Claim] = []
        try database.connection.withLock { database throws(QueueError) in
            try database.query("SELECT id, label, method FROM requests WHERE queue = ? AND state = 'sending' ORDER BY id", [.text(name)]) { row in
                let method = row.text(2) ?? "GET"
                interrupted.append(Claim(
                    id: row.integer(0), label: row.text(1) ?? "",
                    stored: StoredRequest(method: method, url: "", headers: Data(), body: nil, bodyFile: nil),
                    repeatable: HTTPMethod(method).isIdempotent, attempts: 0))
            }
        }
        for claim in interrupted {
            if claim.repeatable { try requeue(claim) } else { try finish(claim, .mayHaveArrived(nil)) }
        }
    }
}
