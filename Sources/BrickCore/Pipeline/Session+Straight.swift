extension Session {
    /// A plain call's one attempt, straight: the transfer (registered, so that cancelling its owner or losing
    /// its route ends it), then validation; ``run(_:serializer:)`` serializes the body after it. What the
    /// attempt loop would do for such a call and no more: a plain call (``CallPlan/isPlain`` on a session
    /// that ``takesStraightPath``) has no interceptor to adapt it or replay it, no retry rule or error handler
    /// to repeat it, no observer to tell, no cookie jar and no cache; its origin holds nothing back (a 429 or
    /// 503 it receives may start a hold, after which calls take the loop). Its one attempt is made into
    /// ``DataResponse/attempts`` only when someone reads them.
    ///
    /// `BRICKREQUEST_FULL_PATH` sends every call through the loop instead, and the suite runs whole both ways
    /// (``FullPath``), so that the two stay equal in everything a caller can see.
    ///
    /// It runs on its caller's executor (`nonisolated(nonsending)`, as ``run(_:serializer:)`` does), so that
    /// entering it does not hop to the global executor first; and it is inlined into the step that chooses
    /// the way (``run(_:serializer:)``), whose frame holds the plan already: a step of its own held a second
    /// frame on the call's chain while the request was on its way.
    @inline(__always)
    nonisolated(nonsending) func collectStraight(_ plan: consuming CallPlan) async -> DataResponse<Void> {
        // The plan is read, never changed: changed, it would be moved into this step's frame (allocated while
        // the request is on its way), all 300 bytes of it.
        guard case .success(let request) = plan.request else { return Self.unbuilt(plan) }
        let outcome = await sendOutcome(request, owner: plan.owner)
        return straightResponse(outcome, of: request, plan)
    }

    /// The plain call's response, out of line (an async step's frame holds everything inlined into it): a
    /// `429` or `503` may hold its origin back, then validation; the response is moved into the call's, not
    /// copied.
    @inline(never)
    private func straightResponse(
        _ outcome: consuming ResponseOutcome, of request: consuming TransportRequest, _ plan: borrowing CallPlan
    ) -> DataResponse<Void> {
        if let status = outcome.response?.status, status == 429 || status == 503, let response = outcome.response {
            holdOrigin(after: response.head, url: request.url, requestType: plan.requestType, maxRetryAfter: plan.autoRetryConfiguration.maxRetryAfter)
        }
        let result = Self.validateAndSerialize(outcome, plan.validation) { _ throws(BrickError) in }  // serialized by `run`
        let response: TransportResponse? = switch consume outcome {
        case .success(let response): response
        case .failure: nil
        }
        return DataResponse(request: request, response: response, result: result, recorded: nil, cacheStatus: .notUsed)
    }
}
