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
        // Another process's changes (a store shared by a fleet) wake the loop as this process's own do.
        let relay = store.changes(of: name).map { changes in
            Task { [wake] in for await _ in changes { wake.yield() } }
        }
        defer { relay?.cancel() }
        do throws(QueueError) { try await deliver(wakes) } catch { stopDelivering(because: error) }
    }

    private func deliver(_ wakes: AsyncStream<Void>) async throws(QueueError) {
        var waiting = wakes.makeAsyncIterator()
        var backoff = retry.breakTime
        while !Task.isCancelled {
            let candidate: Claim
            guard let next = try await whileReachable({ () throws(QueueError) in try store.next(in: name) }) else { return }
            switch next {
            case .ready(let ready): candidate = ready
            case .wait(let longest):
                guard await wait(for: longest, on: &waiting) else { return }
                continue
            }
            if let refusal = candidate.stored.refusal {
                // The store will not have it sent (a row that names a file): kept as a dead letter, unsent.
                guard try await settleUnsent(candidate, { claim throws(QueueError) in try deadLetter(claim, .requestEncoding(.refusedBody(refusal))) })
                else { return }
                continue
            }
            guard candidate.repeatable || !candidate.interrupted else {
                // Its claimant is gone while it was being sent: it may have arrived, so it is not sent again.
                guard try await settleUnsent(candidate, { claim throws(QueueError) in try finish(claim, .mayHaveArrived(nil)) }) else { return }
                continue
            }
            guard await reachable(candidate) else { return }
            guard let claimed = try await whileReachable({ () throws(QueueError) in try store.claim(candidate) }) else { return }
            guard let claim = claimed else { continue }
            // One attempt per claim: the retry rules' waits happen here, between claims, with the request
            // back in line (never "being sent" while nothing is at the server), so a process that dies in
            // a wait loses nothing.
            let outcome = await whileLeased(claim) {
                await session.dataResponse(
                    for: claim.stored.request(options: session.configuration.transportOptions), retry: oneAttempt, idempotency: .byMethod,
                    validation: .successful)
            }
            // The outcome is recorded once the database can be reached, however long that takes.
            guard let settled = try await whileReachable({ () throws(QueueError) in try settle(claim, outcome) }) else { return }
            switch settled {
            case .done: backoff = retry.breakTime
            case .later:
                guard !Task.isCancelled, (try? await session.configuration.clock.sleep(for: backoff)) != nil else { return }
                backoff = min(backoff * 2, retry.maxBreakTime)
            case .stop: return
            }
        }
    }

    /// Claims `candidate` and settles it with `settle` without sending it; `false` once the loop must end.
    private func settleUnsent(_ candidate: Claim, _ settle: (Claim) throws(QueueError) -> Void) async throws(QueueError) -> Bool {
        guard let claimed = try await whileReachable({ () throws(QueueError) in try store.claim(candidate) }) else { return false }
        guard let claim = claimed else { return true }
        return try await whileReachable({ () throws(QueueError) in try settle(claim) }) != nil
    }

    /// Runs `body` until the database can be reached: while it cannot (a shared database restarting, out
    /// of reach), ``interruption`` says why and `body` is tried again after a growing pause. `nil` when
    /// cancelled first; other errors end delivery.
    private func whileReachable<Value>(_ body: () throws(QueueError) -> Value) async throws(QueueError) -> Value? {
        var pause = retry.breakTime
        while !Task.isCancelled {
            do throws(QueueError) {
                let value = try body()
                interrupted.withLock { $0 = nil }
                return value
            } catch {
                guard case .unreachable = error else { throw error }
                interrupted.withLock { $0 = error }
                guard (try? await session.configuration.clock.sleep(for: pause)) != nil else { return nil }
                pause = min(pause * 2, retry.maxBreakTime)
            }
        }
        return nil
    }

    /// Waits for a change (or at most `longest`); `false` once the loop must end.
    private func wait(for longest: Duration?, on waiting: inout AsyncStream<Void>.Iterator) async -> Bool {
        guard !Task.isCancelled else { return false }
        let timer = longest.map { longest in
            Task { [wake, clock = session.configuration.clock] in
                if (try? await clock.sleep(for: longest)) != nil { wake.yield() }
            }
        }
        defer { timer?.cancel() }
        return await waiting.next() != nil && !Task.isCancelled
    }

    /// Waits until the request's host (or proxy) is reachable; `false` when cancelled first.
    private func reachable(_ candidate: Claim) async -> Bool {
        let request = candidate.stored.request(options: session.configuration.transportOptions)
        guard let host = request.route.host else { return true }
        var changes = session.reachability.changes().makeAsyncIterator()
        while await session.reachability.status(of: host) == .unreachable {
            guard !Task.isCancelled, await changes.next() != nil else { return false }
        }
        return !Task.isCancelled
    }

    /// Runs `send` while the claim's lease (if the store has leases) is renewed at a third of its length.
    private func whileLeased<Value: Sendable>(_ claim: Claim, _ send: () async -> Value) async -> Value {
        guard let lease = store.leaseDuration else { return await send() }
        let renewal = Task { [store, clock = session.configuration.clock] in
            // Renewed until the claim is found to be another's; a database out of reach is tried again.
            while (try? await clock.sleep(for: lease / 3)) != nil, (try? store.renew(claim)) != false {}
        }
        defer { renewal.cancel() }
        return await send()
    }

    private enum Next { case done, later, stop }

    /// The rules of one send: the queue's, without the retries, which the loop makes as claims of their own.
    private var oneAttempt: AutoRetryConfiguration {
        var rules = retry
        rules.maxRetryCount = 0
        return rules
    }

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
        case _ where error.response.map({ retry.retryableStatuses.contains($0.head.status) }) == true:
            return try tryLater(claim, error)  // a retryable answer (503): tried again after the backoff
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
        try deadLetter(claim, error)
        return .done
    }

    /// Keeps the request as a dead letter, announced with `error` if the claim was still this one's.
    private func deadLetter(_ claim: Claim, _ error: BrickError) throws(QueueError) {
        if try store.settle(claim, .deadLettered) {
            announce(DeliveryOutcome(id: claim.id, label: claim.label, result: .deadLettered(error)))
        }
    }

    private func requeue(_ claim: Claim) throws(QueueError) {
        _ = try store.settle(claim, .requeued)
    }

    /// Takes the request out with its outcome, announced only if the claim was still this one's: a claimant
    /// whose lease ran out records nothing over the next one's outcome.
    private func finish(_ claim: Claim, _ result: DeliveryOutcome.Result) throws(QueueError) {
        if try store.settle(claim, .finished) {
            announce(DeliveryOutcome(id: claim.id, label: claim.label, result: result))
        }
    }
}
