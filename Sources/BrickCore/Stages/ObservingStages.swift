/// The session's `CallObserver`s around the whole call, outermost of all stages: a call the cache answers is
/// observed as one that made no attempt.
struct ObservingCalls: CallStage {
    let observers: [any CallObserver]

    @inline(__always)
    nonisolated(nonsending) func run(_ call: Call, next: CallNext) async -> ResponseOutcome {
        let observed = ObservedCall(requestName: call.requestName, method: call.request.method, url: call.request.url)
        var ended: ResponseOutcome?
        _ = await observe(observed, from: 0) {
            let outcome = await next()
            ended = outcome
            return CallEnd(
                status: outcome.status, error: outcome.error, attempts: call.attemptNumber, response: outcome.response,
                cacheStatus: call.cacheStatus)
        }
        return ended ?? .failure(.transport(.cancelled))  // not reached: every observer runs its body
    }

    /// `body` run inside every observer from `index` on, the first outermost.
    private func observe(_ call: ObservedCall, from index: Int, _ body: () async -> CallEnd) async -> CallEnd {
        guard index < observers.count else { return await body() }
        return await observers[index].observeCall(call) { await observe(call, from: index + 1, body) }
    }
}

/// The session's `CallObserver`s around each attempt, outside everything else of the attempt.
struct ObservingAttempts: AttemptStage {
    let observers: [any CallObserver]

    @inline(__always)
    nonisolated(nonsending) func send(_ request: TransportRequest, _ call: Call, next: AttemptNext) async -> ResponseOutcome {
        let observed = ObservedAttempt(
            call: ObservedCall(requestName: call.requestName, method: call.request.method, url: call.request.url), number: call.attemptNumber)
        var ended: ResponseOutcome?
        _ = await observe(observed, from: 0) {
            let outcome = await next(request)
            ended = outcome
            return AttemptEnd(status: outcome.status, error: outcome.error)
        }
        return ended ?? .failure(.transport(.cancelled))
    }

    private func observe(_ attempt: ObservedAttempt, from index: Int, _ body: () async -> AttemptEnd) async -> AttemptEnd {
        guard index < observers.count else { return await body() }
        return await observers[index].observeAttempt(attempt) { await observe(attempt, from: index + 1, body) }
    }
}
