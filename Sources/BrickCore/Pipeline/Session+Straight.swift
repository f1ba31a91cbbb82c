extension Session {
    /// A plain call's one attempt, straight: the transfer (registered, so that cancelling its owner or losing
    /// its route ends it), then validation and the serializer. What the attempt loop would do for such a call
    /// and no more: a plain call (``CallPlan/isPlain`` on a session that ``takesStraightPath``) has no
    /// interceptor to adapt it or replay it, no retry rule or error handler to repeat it, no observer to tell,
    /// no cookie jar and no cache; its origin holds nothing back (a 429 or 503 it receives may start a hold,
    /// after which calls take the loop). Its one attempt is made into ``DataResponse/attempts`` only when someone
    /// reads them.
    ///
    /// `BRICKREQUEST_FULL_PATH` sends every call through the loop instead, and the suite runs whole both ways
    /// (``FullPath``), so that the two stay equal in everything a caller can see.
    ///
    /// It runs on its caller's executor (`nonisolated(nonsending)`, as ``run(_:serializer:)`` does), so that
    /// entering it does not hop to the global executor first.
    @inline(never)
    nonisolated(nonsending) func collectStraight(_ plan: consuming CallPlan, _ serialize: Serialize) async -> DataResponse<Void> {
        let owner = plan.owner, requestType = plan.requestType, validation = plan.validation
        // The plan's request is taken out of it, not copied: it goes to the response at the end.
        let request: TransportRequest
        switch plan.takeRequest() {
        case .success(let built): request = built
        case .failure(let error): return DataResponse(request: nil, response: nil, result: .failure(error))
        }
        let outcome = await sendOutcome(request, owner: owner)
        if let response = outcome.response, response.status == 429 || response.status == 503 {
            holdOrigin(after: response.head, url: request.url, requestType: requestType)
        }
        return Self.straightResponse(outcome, of: consume request, validation, serialize)
    }

    /// The plain call's response, out of line (an async step's frame holds everything inlined into it).
    @inline(never)
    private static func straightResponse(
        _ outcome: ResponseOutcome, of request: consuming TransportRequest, _ validation: ResponseValidation, _ serialize: Serialize
    ) -> DataResponse<Void> {
        let result = validateAndSerialize(outcome, validation, serialize)
        return DataResponse(request: request, response: outcome.response, result: result, recorded: nil, cacheStatus: .notUsed)
    }
}
