/// A stage of a session's chain around one attempt of a call (or, below the redirects, one hop of it): it
/// may change the request on its way down and the outcome on its way up, send it more than once (a hedge, a
/// redirect), or answer without sending it. Add your own to ``Session/Configuration/attemptStages``: they run
/// below the interceptors and above the cache's validators, where the request is as the caller's
/// interceptors adapted it and the outcome as the server (or the cache) gave it.
///
/// ```swift
/// struct Stamp: AttemptStage {
///     func send(_ request: TransportRequest, _ call: Call, next: AttemptNext) async -> ResponseOutcome {
///         var request = request
///         request.headers["X-Attempt"] = "\(call.attemptNumber)"
///         return await next(request)
///     }
/// }
/// ```
public protocol AttemptStage: Sendable {
    /// Sends `request` for `call`'s running attempt: `next(request)` sends it through the stages below this
    /// one and the transport, and returns the response or the failure. A stage that answers by itself
    /// returns without calling it.
    nonisolated(nonsending) func send(_ request: TransportRequest, _ call: Call, next: AttemptNext) async -> ResponseOutcome
}

/// The rest of an attempt's chain, below the stage that holds it.
public struct AttemptNext: Sendable {
    let call: Call
    /// The chain's stage to go on with once ``inner``'s are done.
    let index: Int
    /// Stages of the call's own run at this point of the chain (``CallsOwnStages``), and which is next.
    let inner: (stages: [any AttemptStage], position: Int)?

    init(call: Call, index: Int, inner: (stages: [any AttemptStage], position: Int)? = nil) {
        self.call = call
        self.index = index
        self.inner = inner
    }

    /// Sends `request` through the rest of the chain. Inlined into the steps of the chain that call it (the
    /// attempt's top, a stage's send), so that going on to the next stage is not a step of its own.
    @inline(__always)
    public nonisolated(nonsending) func callAsFunction(_ request: TransportRequest) async -> ResponseOutcome {
        if let inner, inner.position < inner.stages.count {
            let next = AttemptNext(call: call, index: index, inner: (inner.stages, inner.position + 1))
            return await inner.stages[inner.position].send(request, call, next: next)
        }
        let chain = call.chain
        if index >= chain.attemptStages.count { return await call.session.exchange(request, call) }
        if index >= chain.passingFrom { return await chain.throughPassing(request, call, from: index) }
        return await chain.attemptStages[index].send(request, call, next: AttemptNext(call: call, index: index + 1))
    }
}

/// The attempt stages a call brings of its own (a delivery queue's), run below the session's.
struct CallsOwnStages: AttemptStage {
    nonisolated(nonsending) func send(_ request: TransportRequest, _ call: Call, next: AttemptNext) async -> ResponseOutcome {
        await AttemptNext(call: call, index: next.index, inner: (call.plan.stages, 0))(request)
    }
}
