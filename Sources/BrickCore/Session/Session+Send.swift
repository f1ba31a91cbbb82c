import FoundationEssentials

/// A request value sent through the whole pipeline, for callers that build requests themselves (an OpenAPI
/// transport, a proxy, a test) rather than declaring a `Component`: they lose nothing a brick class gets.
extension Session {
    /// Sends `request` through the session's pipeline and returns its response.
    ///
    /// The same pipeline a `Component` goes through: a relative URL is resolved against the session's base
    /// URL, the session's headers go under the request's own, the session's interceptors adapt it on every
    /// attempt and process every outcome, reachability is checked, `retry` decides what failures are tried
    /// again (never a request that may have arrived unless `idempotency` allows it), `validation` judges the
    /// response, the error handlers and the response cache apply.
    /// - Parameters:
    ///   - request: The request. The options it sets (timeouts, caps, trust, proxy) are kept; every option
    ///     it does not set is the session's.
    ///   - retry: The retry rules. Default is ``AutoRetryConfiguration/none``.
    ///   - idempotency: Whether it may be sent twice. Default is ``Idempotency/byMethod``.
    ///   - validation: What responses count as success. Default is ``ResponseValidation/none``: any status is
    ///     an answer.
    ///   - owner: The component it belongs to, so that ``cancel(_:)`` finds it.
    /// - Throws: ``BrickError``.
    public func send(
        _ request: TransportRequest, retry: AutoRetryConfiguration = .none, idempotency: Idempotency = .byMethod,
        validation: ResponseValidation = .none, owner: Component? = nil
    ) async throws(BrickError) -> TransportResponse {
        try await dataResponse(for: request, retry: retry, idempotency: idempotency, validation: validation, owner: owner)
            .result.get()
    }

    /// Sends `request` through the session's pipeline, as ``send(_:retry:idempotency:validation:owner:)``
    /// does, and returns everything about it (the request sent, each attempt, the result). Never throws.
    public func dataResponse(
        for request: TransportRequest, retry: AutoRetryConfiguration = .none, idempotency: Idempotency = .byMethod,
        validation: ResponseValidation = .none, owner: Component? = nil
    ) async -> DataResponse<TransportResponse> {
        await run(
            plan(for: request, retry: retry, idempotency: idempotency, validation: validation, owner: owner),
            serializer: ResponseSerializer { $0 })
    }

    /// Streams `request`'s events (head, body chunks, end) as they arrive, with back-pressure.
    ///
    /// The request goes out when iteration starts, prepared as ``send(_:retry:idempotency:validation:owner:)``
    /// prepares it and adapted by the session's interceptors; a stream is not validated, and `retry` applies
    /// until the response head arrives (a failure after it reaches the caller).
    public func stream(
        _ request: TransportRequest, retry: AutoRetryConfiguration = .none, idempotency: Idempotency = .byMethod,
        owner: Component? = nil
    ) -> ResponseStream {
        stream(plan(for: request, retry: retry, idempotency: idempotency, validation: .none, owner: owner))
    }

    package func plan(
        for request: TransportRequest, retry: AutoRetryConfiguration, idempotency: Idempotency,
        validation: ResponseValidation, owner: Component?, stages: [any AttemptStage] = []
    ) -> CallPlan {
        var prepared = prepared(
            method: request.method, url: URLResolution.resolve(request.url, against: configuration.baseURL), headers: request.headers,
            options: request.options, idempotency: idempotency)
        prepared.body = request.body
        prepared.needsFreshConnection = request.needsFreshConnection
        prepared.upgrade = request.upgrade
        return CallPlan(
            request: .success(prepared), requestType: TransportRequest.self, modifiers: [], interceptors: [],
            requestLogging: nil, autoRetryConfiguration: retry, idempotency: idempotency, cacheMode: .default,
            validation: validation, owner: owner.map(ObjectIdentifier.init), stages: stages)
    }

    /// A request as every call of the session starts, whether a component's or a request value's: the
    /// session's headers (all of them to its origin, the cross-origin ones elsewhere) under the request's
    /// own, an idempotency key when the request asks for one and has none, its options over the session's,
    /// and whether it may be sent twice. The one place a request is prepared; a component's body goes in
    /// after.
    func prepared(method: HTTPMethod, url: String, headers: HTTPHeaders, options: TransportOptions, idempotency: Idempotency) -> TransportRequest {
        var fields = headersSent(to: url)
        fields.merge(headers)
        if case .key(let header) = idempotency, fields[header] == nil { fields[header] = UUID().uuidString }
        let mayBeSentTwice = idempotency.allowsRepeat(of: method)
        return TransportRequest(
            method: method, url: url, headers: fields, options: options.applied(over: configuredTransportOptions), mayBeSentTwice: mayBeSentTwice)
    }
}

extension Session.Configuration {
    /// The session's `headers` as they go with a request to `url`: all of them within the origin of the
    /// session's base URL (or when it has none); to any other origin (an absolute URL a server handed out,
    /// a lookalike of the base URL) only the fields every origin may see, so that an API key among them
    /// stays with its server. Origins are compared (``Origin/isSame(_:as:)``), never prefixes of the text.
    func headersSent(_ headers: HTTPHeaders, to url: String) -> HTTPHeaders {
        guard let base = baseURL, !base.isEmpty, !Origin.isSame(url, as: base) else { return headers }
        return HTTPHeaders(headers.filter { RedirectRule.crossOriginFields.contains($0.name.lowercased()) })
    }
}
