import FoundationEssentials

extension RequestType {
    /// The request as built from the bricks, before the session's interceptors adapt it: the session's
    /// headers then the request's, the parameters and body from ``encodeBody(into:)``, and the options.
    ///
    /// Nothing is sent. To see the request exactly as it would go out (after interceptors), use
    /// BrickTesting's `RequestInspector`.
    /// - Throws: ``BrickError/requestEncoding(_:)`` when the body cannot be encoded.
    public func makeTransportRequest() throws(BrickError) -> TransportRequest {
        try makeTransportRequest(on: session)
    }

    /// ``makeTransportRequest()`` on `session` (read once by the caller: each read of a component's session
    /// looks up the task's ``Session/current``).
    func makeTransportRequest(on session: Session) throws(BrickError) -> TransportRequest {
        var request = session.prepared(method: method, url: URLString, headers: headers, options: transportOptions, idempotency: idempotency)
        do { try encodeBody(into: &request) } catch { throw .requestEncoding(error) }
        return request
    }

    /// Everything the session needs to run the request, taken from the component now, all `Sendable`.
    package func makePlan() -> CallPlan { makePlan(on: session) }

    /// ``makePlan()`` for `session`, read once by the caller.
    func makePlan(on session: Session) -> CallPlan {
        var request: Result<TransportRequest, BrickError>
        do { request = .success(try makeTransportRequest(on: session)) } catch { request = .failure(error) }
        let hedging = hedging
        if hedging != nil, !idempotency.allowsRepeat(of: method) {
            request = .failure(.requestEncoding(.notHedgeable(method: method.rawValue)))
        }
        var interceptors = modifiers.compactMap { $0 as? any Interceptor }
        if let authentication { interceptors.append(authentication) }
        return CallPlan(
            request: consume request, requestType: Self.self, modifiers: modifiers, interceptors: interceptors,
            requestLogging: requestLogging, autoRetryConfiguration: autoRetryConfiguration, idempotency: idempotency,
            cacheMode: cacheMode, validation: validation, originPolicy: originPolicy, hedging: hedging, owner: ObjectIdentifier(self))
    }
}

extension RequestType {
    /// The request exactly as its first attempt would send it: built from the bricks, then adapted by the
    /// session's and the request's interceptors (headers, tokens). Nothing is sent.
    /// - Throws: ``BrickError/requestEncoding(_:)`` or ``BrickError/interceptor(_:)``.
    public nonisolated(nonsending) func adaptedRequest() async throws(BrickError) -> TransportRequest {
        try await session.firstAttemptRequest(makePlan())
    }
}
