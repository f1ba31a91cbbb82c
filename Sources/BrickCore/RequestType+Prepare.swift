import FoundationEssentials

extension RequestType {
    /// The request as built from the bricks, before the session's interceptors adapt it: the session's
    /// headers then the request's, the parameters and body from ``encodeBody(into:)``, and the options.
    ///
    /// Nothing is sent. To see the request exactly as it would go out (after interceptors), use
    /// BrickTesting's `RequestInspector`.
    /// - Throws: ``BrickError/requestEncoding(_:)`` when the body cannot be encoded.
    public func makeTransportRequest() throws(BrickError) -> TransportRequest {
        let url = URLString
        var headers = session.headersSent(to: url)
        headers.merge(self.headers)
        if case .key(let header) = idempotency, headers[header] == nil { headers[header] = UUID().uuidString }
        let options = transportOptions.applied(over: session.configuredTransportOptions)
        var request = TransportRequest(method: method, url: url, headers: headers, options: options)
        request.mayBeSentTwice = idempotency.allowsRepeat(of: method)
        do { try encodeBody(into: &request) } catch { throw .requestEncoding(error) }
        return request
    }

    /// Everything the session needs to run the request, taken from the component now, all `Sendable`.
    func makePlan() -> DispatchPlan {
        let request: Result<TransportRequest, BrickError>
        do { request = .success(try makeTransportRequest()) } catch { request = .failure(error) }
        var interceptors = modifiers.compactMap { $0 as? any Interceptor }
        if let authentication { interceptors.append(authentication) }
        return DispatchPlan(
            request: request, requestType: Self.self, modifiers: modifiers, interceptors: interceptors,
            requestLogging: requestLogging, autoRetryConfiguration: autoRetryConfiguration, idempotency: idempotency,
            cacheMode: cacheMode, validation: validation, owner: ObjectIdentifier(self))
    }
}

/// A request ready for the session's pipeline: built once, adapted again on every attempt. (What the
/// response becomes is not part of it: a collected call hands its serializer to the pipeline beside it.)
///
/// A class, never changed once made: the pipeline's steps and closures each hold the plan, and sharing one
/// costs a reference count where copying its dozen references cost a dozen.
final class DispatchPlan: Sendable {
    let request: Result<TransportRequest, BrickError>
    let requestType: any Any.Type
    let modifiers: [any RequestModifier]
    let interceptors: [any Interceptor]
    let requestLogging: RequestLogging?
    let autoRetryConfiguration: AutoRetryConfiguration
    let idempotency: Idempotency
    let cacheMode: CacheMode
    let validation: ResponseValidation
    let owner: ObjectIdentifier?

    init(
        request: Result<TransportRequest, BrickError>, requestType: any Any.Type, modifiers: [any RequestModifier],
        interceptors: [any Interceptor], requestLogging: RequestLogging?, autoRetryConfiguration: AutoRetryConfiguration,
        idempotency: Idempotency, cacheMode: CacheMode, validation: ResponseValidation, owner: ObjectIdentifier?
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
        self.owner = owner
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
