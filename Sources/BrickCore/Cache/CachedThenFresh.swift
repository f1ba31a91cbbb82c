extension RequestType where Self: ResponseType {
    /// The stored value at once, then the fresh one when it arrives: for screens and dashboards that show
    /// what they have while they ask for what is new. At most two values, in order:
    ///
    /// 1. the response the session's cache holds, fresh or stale (``DataResponse/cacheStatus`` `.hit`, or
    ///    `.stale` with its `Age`), if it holds one; when it is fresh, nothing follows;
    /// 2. the answer from the network (stored as HTTP allows), or its failure.
    ///
    /// Without a cache, or with nothing stored, only the second comes. Stopping the iteration cancels the
    /// request.
    public func cachedThenFresh() -> AsyncStream<DataResponse<SerializedObject>> {
        let plan = makePlan()
        let session = session
        let serializer = responseSerializer
        return AsyncStream { continuation in
            let task = Task {
                if session.configuration.responseCache != nil {
                    let stored = await session.run(plan.with(cacheMode: .cacheOnly), serializer: serializer)
                    if stored.response != nil {
                        continuation.yield(stored)
                        if stored.cacheStatus == .hit {
                            continuation.finish()
                            return
                        }
                    }
                }
                continuation.yield(await session.run(plan.with(cacheMode: .notReturnCachedResponse), serializer: serializer))
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

extension CallPlan {
    /// This plan with another cache mode.
    func with(cacheMode: CacheMode) -> CallPlan {
        CallPlan(
            request: request, requestType: parts.requestType, modifiers: parts.modifiers, interceptors: parts.interceptors,
            requestLogging: parts.requestLogging, autoRetryConfiguration: autoRetryConfiguration, idempotency: idempotency, cacheMode: cacheMode,
            validation: validation, originPolicy: originPolicy, hedging: hedging, owner: parts.owner, stages: parts.stages)
    }
}
