import FoundationEssentials

/// The session's response cache around a collected call, below the observers (so that a stored answer is
/// observed): the lookup before anything is sent (a fresh stored answer, or a stale one the rules allow,
/// ends the call here, validated like any answer), then the attempts, whose validators and stores are the
/// attempt-level stage ``ValidatingCachedResponses``. An unsafe method's answer invalidates what it names.
struct CachingResponses: CallStage {
    let cache: any ResponseCache

    @inline(__always)
    nonisolated(nonsending) func run(_ call: Call, next: CallNext) async -> ResponseOutcome {
        let base = call.request
        if call.cacheStep != nil { return await next() }  // a revalidation, its step made by the call it revalidates for
        guard let step = CacheStep(request: base, mode: call.cacheMode, cache: cache) else {
            let outcome = await next()
            if !base.method.isSafe, let head = outcome.head { await invalidate(by: head, of: base) }
            return outcome
        }
        let lookup = await step.lookup(base) { [reachability = call.session.reachability] in
            guard let host = base.route.host else { return false }
            return await reachability.status(of: host) == .unreachable
        }
        switch lookup {
        case .answer(let entry):
            return answer(TransportResponse(head: CachePolicy.served(entry, now: Date()), body: entry.body), step.status, call)
        case .answerPart(let response):
            return answer(response, step.status, call)
        case .answerAndRevalidate(let entry), .answerOffline(let entry):
            if case .answerOffline = lookup { revalidateWhenReachable(entry, call) } else { revalidate(entry, call) }
            return answer(TransportResponse(head: CachePolicy.served(entry, now: Date()), body: entry.body), .stale, call)
        case .notCached:
            return .failure(.notCached(url: base.url))
        case .send:
            call.cacheStep = step
            let outcome = await next()
            call.noteCache(step.status)
            return outcome
        }
    }

    /// A stored answer as the call's: named by the call, validated (and serialized when the attempts would
    /// have done it) as an answer that came from the server is.
    private func answer(_ response: TransportResponse, _ status: CacheStatus, _ call: Call) -> ResponseOutcome {
        var response = response
        response.call = CallLine(call.request)
        call.noteCache(status)
        guard call.isCollected else { return .success(response) }
        return Conclusion.concluded(.success(response), call)
    }

    private nonisolated(nonsending) func invalidate(by head: ResponseHead, of request: TransportRequest) async {
        for url in CachePolicy.invalidated(by: head, of: request) {
            await cache.removeResponse(for: CacheStep.key(for: url, options: TransportOptions()))
            await cache.removeResponse(for: CacheStep.key(for: url, options: request.options))
        }
    }

    /// Sends `call`'s request again, conditional on `entry`'s validators, in a task of its own, storing what
    /// comes back (a `304` refreshes `entry`): the revalidation of a response that answered stale
    /// (`stale-while-revalidate`). A call of its own, through the same chain.
    private func revalidate(_ entry: CachedResponse, _ call: Call) {
        let revalidation = call.revalidation(with: CacheStep(revalidating: entry, of: call.request, cache: cache))
        Task { _ = await revalidation.chain.runCall(revalidation, from: 0) }
    }

    /// Revalidates `entry`, which answered while the route to its host was down, once the route returns: one
    /// revalidation per stored response however many calls it answered meanwhile, sent under the call's retry
    /// rules. It waits for the route up to the rules' ``AutoRetryConfiguration/maxNetworkWait`` (at least a
    /// minute), then gives up; the next call that needs the network sends its own.
    private func revalidateWhenReachable(_ entry: CachedResponse, _ call: Call) {
        let base = call.request, session = call.session
        guard let host = base.route.host else { return }
        let key = CacheStep.key(for: base.url, options: base.options)
        guard session.offlineRevalidations.withLock({ $0.insert(key).inserted }) else { return }
        let limit = max(call.rules.maxNetworkWait, .seconds(60))
        let revalidation = call.revalidation(with: CacheStep(revalidating: entry, of: base, cache: cache))
        Task {
            defer { session.offlineRevalidations.withLock { _ = $0.remove(key) } }
            guard await session.waitUntilReachable(host, limit: limit) == .reachable else { return }
            _ = await revalidation.chain.runCall(revalidation, from: 0)
        }
    }
}

/// A stored response's part in each attempt of a cached call: its conditional fields on the request (none
/// once a `304` matched no stored response, which asks the attempt loop for the attempt again), and the
/// answer absorbed (a `304` swapped for the refreshed stored response, a storable answer stored).
struct ValidatingCachedResponses: AttemptStage {
    @inline(__always)
    nonisolated(nonsending) func send(_ request: TransportRequest, _ call: Call, next: AttemptNext) async -> ResponseOutcome {
        guard let step = call.cacheStep else { return await next(request) }
        var request = request
        step.prepare(&request)
        step.willSend()
        let outcome = await step.absorb(await next(request), sent: request)
        if step.takeRequestToAskAgain() { call.repeatAttempt(reason: "a 304 matched no stored response: asked again without validators") }
        return outcome
    }
}
