/// A request ready for the session's pipeline: built once, adapted again on every attempt. (What the
/// response becomes is not part of it: a collected call hands its serializer to the pipeline beside it.)
///
/// A value, never changed once made, handed to each step of the pipeline as a borrowed argument (no copy):
/// the plain call makes none, so that its plan costs no allocation. Only the closures that outlive their
/// call (a stream's, a callback's) keep a copy, a dozen references retained once.
package struct CallPlan: Sendable {
    package let request: Result<TransportRequest, BrickError>
    let requestType: any Any.Type
    let modifiers: [any RequestModifier]
    let interceptors: [any Interceptor]
    let requestLogging: RequestLogging?
    package let autoRetryConfiguration: AutoRetryConfiguration
    let idempotency: Idempotency
    let cacheMode: CacheMode
    let validation: ResponseValidation
    let originPolicy: OriginPolicy
    let hedging: Hedging?
    let owner: ObjectIdentifier?
    /// Whether the call may go straight, on a session that allows it (``Session/takesStraightPath``): no
    /// interceptor of its own, retry rules that never act, no circuit breaker asked for, no hedging.
    let isPlain: Bool

    init(
        request: Result<TransportRequest, BrickError>, requestType: any Any.Type, modifiers: [any RequestModifier],
        interceptors: [any Interceptor], requestLogging: RequestLogging?, autoRetryConfiguration: AutoRetryConfiguration,
        idempotency: Idempotency, cacheMode: CacheMode, validation: ResponseValidation, originPolicy: OriginPolicy = .sessionDefault,
        hedging: Hedging? = nil, owner: ObjectIdentifier?
    ) {
        self.request = request
        self.requestType = requestType
        self.modifiers = modifiers
        self.interceptors = interceptors
        self.requestLogging = requestLogging
        self.autoRetryConfiguration = autoRetryConfiguration
        self.idempotency = idempotency
        self.cacheMode = cacheMode
        self.validation = validation
        self.originPolicy = originPolicy
        self.hedging = hedging
        self.owner = owner
        isPlain = interceptors.isEmpty && !autoRetryConfiguration.isActive && originPolicy.usesCircuitBreaker != true && hedging == nil
    }
}

extension CallPlan {
    /// The same plan, its request's headers changed by `change`.
    package func withHeaders(_ change: (inout HTTPHeaders) -> Void) -> CallPlan {
        CallPlan(
            request: request.map { request in
                var request = request
                change(&request.headers)
                return request
            },
            requestType: requestType, modifiers: modifiers, interceptors: interceptors, requestLogging: requestLogging,
            autoRetryConfiguration: autoRetryConfiguration, idempotency: idempotency, cacheMode: cacheMode,
            validation: validation, originPolicy: originPolicy, hedging: hedging, owner: owner)
    }
}
