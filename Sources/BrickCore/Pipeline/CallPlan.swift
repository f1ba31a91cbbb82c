/// A call not yet made: the request as built (or why it could not be), and everything the session needs to
/// run it, all `Sendable`, taken from a component (or a request value) once. A ``Call`` is made from it when
/// it runs; a stream that reconnects makes a new call from the same plan each time.
package struct CallPlan: Sendable {
    /// The request as built; when it could not be built (``failure``), an empty one that is never sent.
    let built: TransportRequest
    /// Why the request could not be built, or `nil`. Kept apart from ``built`` so that a call takes the
    /// request without copying a result around it.
    let failure: BrickError?
    /// The request as built, or why it could not be.
    package var request: Result<TransportRequest, BrickError> { failure.map { .failure($0) } ?? .success(built) }
    package let autoRetryConfiguration: AutoRetryConfiguration
    let idempotency: Idempotency
    let cacheMode: CacheMode
    let validation: ResponseValidation
    let originPolicy: OriginPolicy
    let hedging: Hedging?
    let parts: CallParts

    init(
        request: Result<TransportRequest, BrickError>, requestType: any Any.Type, modifiers: [any RequestModifier],
        interceptors: [any Interceptor], requestLogging: RequestLogging?, autoRetryConfiguration: AutoRetryConfiguration,
        idempotency: Idempotency, cacheMode: CacheMode, validation: ResponseValidation, originPolicy: OriginPolicy = .sessionDefault,
        hedging: Hedging? = nil, owner: ObjectIdentifier?, stages: [any AttemptStage] = []
    ) {
        (built, failure) = Self.split(request)
        self.autoRetryConfiguration = autoRetryConfiguration
        self.idempotency = idempotency
        self.cacheMode = cacheMode
        self.validation = validation
        self.originPolicy = originPolicy
        self.hedging = hedging
        parts = CallParts(
            requestType: requestType, owner: owner, modifiers: modifiers, interceptors: interceptors, requestLogging: requestLogging,
            stages: stages)
    }

    private init(
        _ plan: CallPlan, request: Result<TransportRequest, BrickError>, cacheMode: CacheMode? = nil, validation: ResponseValidation? = nil,
        hedged: Bool = true
    ) {
        (built, failure) = Self.split(request)
        autoRetryConfiguration = plan.autoRetryConfiguration
        idempotency = plan.idempotency
        self.cacheMode = cacheMode ?? plan.cacheMode
        self.validation = validation ?? plan.validation
        originPolicy = plan.originPolicy
        hedging = hedged ? plan.hedging : nil
        parts = plan.parts
    }

    private static func split(_ request: Result<TransportRequest, BrickError>) -> (TransportRequest, BrickError?) {
        switch request {
        case .success(let request): (request, nil)
        case .failure(let error): (TransportRequest(url: ""), error)
        }
    }

    /// The same plan as an upgrade handshake (a WebSocket's): its request changed by `change` (which sets
    /// ``TransportRequest/upgrade``), never answered from or stored in the cache, never hedged (one
    /// connection is wanted), and a `101` the one answer that succeeds.
    package func upgrading(_ change: (inout TransportRequest) -> Void) -> CallPlan {
        CallPlan(
            self,
            request: request.map { request in
                var request = request
                change(&request)
                return request
            }, cacheMode: .withoutCache, validation: ResponseValidation(statusCodes: [101...101]), hedged: false)
    }

    /// The same plan, its request's headers changed by `change`.
    package func withHeaders(_ change: (inout HTTPHeaders) -> Void) -> CallPlan {
        CallPlan(self, request: request.map { request in
            var request = request
            change(&request.headers)
            return request
        })
    }

    /// The call of this plan on `session`, taking its answer as `delivery`; the plan's failure when its
    /// request could not be built (nothing is sent).
    @inline(never)
    consuming func call(on session: Session, delivery: consuming Delivery) throws(BrickError) -> Call {
        if let failure { throw failure }
        return Call(plan: consume self, delivery: consume delivery, session: session)
    }
}
