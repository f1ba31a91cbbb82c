import FoundationEssentials

extension Session {
    /// ``collect(_:serialize:)`` with a response cache. Never inlined, like every step of the pipeline: an async
    /// function's frame holds the values of everything inlined into it, and every frame of the chain stays
    /// allocated while the request waits, so a frame of this path would cost every request without a cache.
    @inline(never)
    func collectThroughCache(_ plan: CallPlan, _ serialize: Serialize) async -> DataResponse<Void> {
        guard case .success(let base) = plan.request, let cache = configuration.responseCache else {
            return await collectAttempts(plan, serialize)
        }
        guard let step = CacheStep(request: base, mode: plan.cacheMode, cache: cache) else {
            let outcome = await collectAttempts(plan, base: base, cacheStep: nil, serialize)
            if !base.method.isSafe, let head = outcome.response?.head {
                for url in CachePolicy.invalidated(by: head, of: base) {
                    await cache.removeResponse(for: CacheStep.key(for: url, options: TransportOptions()))
                    await cache.removeResponse(for: CacheStep.key(for: url, options: base.options))
                }
            }
            return outcome
        }
        let lookup = await step.lookup(base) { [reachability] in
            guard let host = base.route.host else { return false }
            return await reachability.status(of: host) == .unreachable
        }
        switch lookup {
        case .answer(let entry):
            var response = TransportResponse(head: CachePolicy.served(entry, now: Date()), body: entry.body)
            response.call = CallLine(base)
            var outcome = DataResponse(request: base, response: response, result: Self.validateAndSerialize(.success(response), plan.validation, serialize))
            outcome.cacheStatus = step.status
            return outcome
        case .answerPart(var response):
            response.call = CallLine(base)
            var outcome = DataResponse(request: base, response: response, result: Self.validateAndSerialize(.success(response), plan.validation, serialize))
            outcome.cacheStatus = step.status
            return outcome
        case .answerAndRevalidate(let entry), .answerOffline(let entry):
            if case .answerOffline = lookup {
                revalidateWhenReachable(entry, plan: plan, base: base, cache: cache)
            } else {
                revalidateInBackground(entry, plan: plan, base: base, cache: cache)
            }
            var response = TransportResponse(head: CachePolicy.served(entry, now: Date()), body: entry.body)
            response.call = CallLine(base)
            var outcome = DataResponse(request: base, response: response, result: Self.validateAndSerialize(.success(response), plan.validation, serialize))
            outcome.cacheStatus = .stale
            return outcome
        case .notCached:
            return DataResponse(request: base, response: nil, result: .failure(.notCached(url: base.url)))
        case .send: break
        }
        var outcome = await collectAttempts(plan, base: base, cacheStep: step, serialize)
        outcome.cacheStatus = step.status
        return outcome
    }

    /// Sends `plan`'s request, conditional on `entry`'s validators, in a task of its own, storing what comes
    /// back (a `304` refreshes `entry`): the revalidation of a response that answered stale
    /// (`stale-while-revalidate`).
    private func revalidateInBackground(_ entry: CachedResponse, plan: CallPlan, base: TransportRequest, cache: any ResponseCache) {
        Task { [self] in
            let step = CacheStep(revalidating: entry, of: base, cache: cache)
            _ = await collectAttempts(plan, base: base, cacheStep: step) { _ throws(BrickError) in }
        }
    }

    /// Revalidates `entry`, which answered while the route to its host was down, once the route returns: one
    /// revalidation per stored response however many calls it answered meanwhile, sent under `plan`'s retry
    /// rules. It waits for the route up to the rules' ``AutoRetryConfiguration/maxNetworkWait`` (at least a
    /// minute), then gives up; the next call that needs the network sends its own.
    private func revalidateWhenReachable(_ entry: CachedResponse, plan: CallPlan, base: TransportRequest, cache: any ResponseCache) {
        guard let host = base.route.host else { return }
        let key = CacheStep.key(for: base.url, options: base.options)
        guard offlineRevalidations.withLock({ $0.insert(key).inserted }) else { return }
        let limit = max(plan.autoRetryConfiguration.maxNetworkWait, .seconds(60))
        Task { [self] in
            defer { offlineRevalidations.withLock { _ = $0.remove(key) } }
            guard await waitUntilReachable(host, limit: limit) == .reachable else { return }
            let step = CacheStep(revalidating: entry, of: base, cache: cache)
            _ = await collectAttempts(plan, base: base, cacheStep: step) { _ throws(BrickError) in }
        }
    }
}
