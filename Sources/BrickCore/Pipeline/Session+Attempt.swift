import FoundationEssentials

extension Session {
    /// One attempt of a collected call: adapt, send (through the cache step), process (interceptors in
    /// reverse order, which may replay), validate, serialize, and on failure the error handlers (which may
    /// replace the error, recover with a response, or retry).
    @inline(never)
    nonisolated(nonsending) func attempt(
        _ plan: CallPlan, interceptors: [any Interceptor], cacheStep: CacheStep?, context: RequestContext,
        _ serialize: Serialize
    ) async -> Attempt {
        var context = context
        let outcome: ResponseOutcome
        do {
            cacheStep?.prepare(&context.request)
            // Nothing adapts a request without interceptors or a cookie jar: the step is left out then (the
            // full path takes it anyway, so that the suite shows it changes nothing).
            if !interceptors.isEmpty || configuration.cookies != nil || takesFullPath {
                context.request = try await adapt(interceptors, context: context)
            }
            outcome = await send(context.request, plan, cacheStep: cacheStep)
        } catch {
            outcome = .failure(error)
        }
        if let cacheStep, cacheStep.takeRequestToAskAgain() {
            let reason = "a 304 matched no stored response: asked again without validators"
            return Attempt(sent: context.request, head: nil, response: nil, outcome: .again(reason: reason, delay: .zero, error: outcome.error))
        }
        return await conclude(outcome, plan, interceptors: interceptors, context: context, serialize)
    }

    /// Sends the attempt's request, through the cache step when there is one, hedged when the plan asks.
    @inline(never)
    private nonisolated(nonsending) func send(_ request: TransportRequest, _ plan: CallPlan, cacheStep: CacheStep?) async -> ResponseOutcome {
        cacheStep?.willSend()
        let outcome = if let hedging = plan.hedging {
            await hedgedOutcome(request, plan, hedging)
        } else {
            await sendOutcome(request, owner: plan.owner)
        }
        guard let cacheStep else { return outcome }
        return await cacheStep.absorb(outcome, sent: request)
    }

    /// The rest of an attempt once its outcome came: process, validate, serialize, and the error handlers.
    @inline(never)
    private nonisolated(nonsending) func conclude(
        _ outcome: ResponseOutcome, _ plan: CallPlan, interceptors: [any Interceptor], context: RequestContext,
        _ serialize: Serialize
    ) async -> Attempt {
        var outcome = outcome
        func ended(_ end: Attempt.Outcome) -> Attempt {
            Attempt(sent: context.request, head: outcome.head, response: outcome.response, outcome: end)
        }
        for interceptor in interceptors.reversed() {
            switch await interceptor.process(outcome, context: context) {
            case .proceed(let next): outcome = next
            case .replay(let reason): return ended(.again(reason: reason, delay: .zero, error: outcome.error))
            }
        }
        var result = Self.validateAndSerialize(outcome, plan.validation, serialize)
        if case .failure(let error) = result, !error.isCancelled, !configuration.errorHandlers.isEmpty || takesFullPath {
            switch await CompositeErrorHandler(configuration.errorHandlers).handle(error, context: context) {
            case .unhandled: break
            case .fail(let replacement): result = .failure(replacement)
            case .recover(let response):
                outcome = .success(response)
                result = Self.serialize(response, serialize)
            case .retry(let delay, let reason): return ended(.again(reason: reason, delay: delay, error: error))
            }
        }
        switch result {
        case .success:
            return ended(.done)
        case .failure(let error): return ended(.failed(error))
        }
    }

    /// Sends `request` through the transport once and names the call in what comes back.
    nonisolated(nonsending) func sendOutcome(_ request: TransportRequest, owner: ObjectIdentifier?) async -> ResponseOutcome {
        do {
            return Self.named(try await transfer(request, ownerID: owner), request)
        } catch {
            return Self.named(error, request)
        }
    }

    /// `response` with the call that answered it: out of line, so that its values take no room in the frames
    /// of the async steps (which stay allocated while a request is on its way).
    @inline(never)
    private static func named(_ response: consuming TransportResponse, _ request: TransportRequest) -> ResponseOutcome {
        response.call = CallLine(request)
        return .success(response)
    }

    /// `error`, named by the call that failed (out of line, as the response is above).
    @inline(never)
    private static func named(_ error: BrickError, _ request: TransportRequest) -> ResponseOutcome {
        .failure(error.naming(CallLine(request)))
    }

    @inline(never)
    static func validateAndSerialize(_ outcome: ResponseOutcome, _ validation: ResponseValidation, _ serialize: Serialize) -> Result<Void, BrickError> {
        switch outcome {
        case .failure(let error): return .failure(error)
        case .success(let response):
            do { try validation.validate(response) } catch { return .failure(.validation(error, response: response)) }
            return Self.serialize(response, serialize)
        }
    }

    private static func serialize(_ response: TransportResponse, _ serialize: Serialize) -> Result<Void, BrickError> {
        do throws(BrickError) { try serialize(response) } catch { return .failure(error) }
        return .success(())
    }
}

extension Result where Failure == BrickError {
    var error: BrickError? { if case .failure(let error) = self { error } else { nil } }
}

extension Result where Success == TransportResponse, Failure == BrickError {
    var response: TransportResponse? {
        switch self {
        case .success(let response): response
        case .failure(let error): error.response
        }
    }
    var head: ResponseHead? { response?.head }
}
