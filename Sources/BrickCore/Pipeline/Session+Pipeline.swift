import FoundationEssentials

extension Session {
    /// Runs `plan` through the pipeline until it ends: interceptors adapt the request, the transport sends
    /// it, interceptors process the outcome (and may replay it), validation and `serializer` turn it into
    /// a value, and error handlers may replace a failure or retry. Never throws: the outcome is in the result.
    ///
    /// Only this step and ``collectInLoop(_:serializer:)`` know `Value`: the pipeline under them is compiled
    /// once, not looked up by type at run time for every request. A plain call goes straight and is
    /// serialized here, after the transfer, where nothing can retry it: no value of the serializer's waits
    /// across an await here, so this step's frame needs no `Optional<Value>`, which a generic function
    /// looks up at run time (~0.3 k instructions a request), and the plain call has one step fewer. For the
    /// stock bricks' bodies as bytes and as text it is also compiled for those types (`@_specialize`); it
    /// runs generic when called from the generic ``RequestType/dataResponse()``.
    @_specialize(where Value == Data)
    @_specialize(where Value == String)
    nonisolated(nonsending) func run<Value>(_ plan: consuming CallPlan, serializer: ResponseSerializer<Value>) async -> DataResponse<Value> {
        guard way(of: plan) == .straight else { return await collectInLoop(plan, serializer: serializer) }
        let outcome = await collectStraight(consume plan)
        return Self.serialized(outcome, serializer)
    }

    /// The pipeline for a call that does not go straight: `serializer` runs inside each attempt, where its
    /// failure may be retried or replaced, and the value it made waits in this step's frame.
    @inline(never)
    private func collectInLoop<Value>(_ plan: consuming CallPlan, serializer: ResponseSerializer<Value>) async -> DataResponse<Value> {
        var value: Value?
        let outcome = await collect(consume plan) { response throws(BrickError) in value = try serializer.serialize(response) }
        return Self.response(outcome, value: value)
    }

    /// A straight call's response with its body serialized: the response's own failure, or what `serializer`
    /// made of it.
    @inline(never)
    private static func serialized<Value>(_ outcome: consuming DataResponse<Void>, _ serializer: ResponseSerializer<Value>) -> DataResponse<Value> {
        let result: Result<Value, BrickError>
        if let error = outcome.error {
            result = .failure(error)
        } else if let response = outcome.response {
            do throws(BrickError) { result = .success(try serializer.serialize(response)) } catch { result = .failure(error) }
        } else {
            result = .failure(.transport(.cancelled))  // not reached: a straight call that succeeded has its response
        }
        return DataResponse(
            request: outcome.request.take(), response: outcome.response.take(), result: result, recorded: outcome.recorded.take(),
            cacheStatus: outcome.cacheStatus)
    }

    /// The call's response with the value the serializer made: out of line, so that the generic values take
    /// no room in the frame of ``collectInLoop(_:serializer:)``, which stays allocated while the request is
    /// on its way.
    @inline(never)
    private static func response<Value>(_ outcome: consuming DataResponse<Void>, value: consuming Value?) -> DataResponse<Value> {
        let result: Result<Value, BrickError> = if let error = outcome.error { .failure(error) } else if let value {
            .success(value)
        } else {
            .failure(.transport(.cancelled))  // not reached: a call that succeeded has its value
        }
        // The parts are taken out of `outcome` (read, they would be copied: a request's every string retained).
        return DataResponse(
            request: outcome.request.take(), response: outcome.response.take(), result: result, recorded: outcome.recorded.take(),
            cacheStatus: outcome.cacheStatus)
    }

    /// The pipeline of ``collectInLoop(_:serializer:)``, with the serializer as `serialize`, which keeps the
    /// value it makes (the result here only says whether it failed): through the attempt loop, with the
    /// cache around it when the session has one.
    ///
    /// Each way reads the request from `plan` itself, so that this step's frame (allocated while the request
    /// is on its way) holds no request.
    @inline(never)
    private func collect(_ plan: consuming CallPlan, serialize: Serialize) async -> DataResponse<Void> {
        switch way(of: plan) {
        case .straight, .loop: await collectAttempts(plan, serialize)
        case .cache: await collectThroughCache(plan, serialize)
        case .unbuilt: Self.unbuilt(plan)
        }
    }

    /// The response of a call whose request could not be built: its error, and nothing sent.
    @inline(never)
    static func unbuilt(_ plan: CallPlan) -> DataResponse<Void> {
        let error: BrickError = if case .failure(let error) = plan.request { error } else { .shutDown }  // always a failure here
        return DataResponse(request: nil, response: nil, result: .failure(error))
    }

    /// The ways a collected call goes (``collect(_:serialize:)``).
    private enum Way {
        case straight, loop, cache
        /// The request could not be built: nothing is sent.
        case unbuilt
    }

    private func way(of plan: CallPlan) -> Way {
        if case .failure = plan.request { return .unbuilt }
        if hasResponseCache { return .cache }
        return plan.isPlain && takesStraightPath && origins?.holdsAny != true ? .straight : .loop
    }

    /// ``collectAttempts(_:base:cacheStep:_:)`` with no cache, for `plan`'s request.
    @inline(never)
    func collectAttempts(_ plan: CallPlan, _ serialize: Serialize) async -> DataResponse<Void> {
        guard case .success(let base) = plan.request else { return Self.unbuilt(plan) }
        return await collectAttempts(plan, base: base, cacheStep: nil, serialize)
    }

    /// Turns a response into the caller's value, kept by the closure; throws what serialization threw.
    typealias Serialize = (TransportResponse) throws(BrickError) -> Void

    /// The pipeline's attempts (``runAttempts(_:base:_:)``), with `cacheStep` (if any) storing answers and
    /// swapping `304`s.
    ///
    /// This and every async step under it is never inlined, and does little besides its awaits: an async
    /// function's frame holds the values of everything inlined into it, and the frames of the whole chain stay
    /// allocated while the request is on its way (written inline, ~40 KB per request in flight).
    @inline(never)
    func collectAttempts(_ plan: CallPlan, base: TransportRequest, cacheStep: CacheStep?, _ serialize: Serialize) async -> DataResponse<Void> {
        let interceptors = interceptors(for: plan)
        let outcome = await runAttempts(plan.repeatPolicy, base: base) { number, previous in
            await attempt(plan, interceptors: interceptors, cacheStep: cacheStep, context: context(for: plan, request: base, attempt: number, previousAttempts: previous), serialize)
        }
        return Self.response(of: outcome)
    }

    /// The call's response: its last attempt's request and response, whether it failed, and every attempt.
    @inline(never)
    private static func response(of outcome: AttemptsOutcome) -> DataResponse<Void> {
        let result: Result<Void, BrickError> = if let error = outcome.error { .failure(error) } else { .success(()) }
        return DataResponse(request: outcome.last?.sent, response: outcome.last?.response, result: result, attempts: outcome.records)
    }

    /// Waits `delay` on the session's clock; `false` when the task was cancelled meanwhile.
    func pause(for delay: Duration) async -> Bool {
        guard delay > .zero else { return true }
        do { try await configuration.clock.sleep(for: delay) } catch { return false }
        return true
    }

    /// The context of attempt number `attempt` of `plan`, whose request is `request`.
    @inline(never)
    func context(
        for plan: CallPlan, request: TransportRequest, attempt: Int = 1, previousAttempts: [AttemptRecord] = []
    ) -> RequestContext {
        RequestContext(
            requestType: plan.requestType, attempt: attempt, previousAttempts: previousAttempts,
            modifiers: plan.modifiers + configuration.interceptors, requestLogging: plan.requestLogging,
            autoRetryConfiguration: plan.autoRetryConfiguration, request: request, sessionBaseURL: configuration.baseURL)
    }

    /// The session's and the plan's interceptors, in running order.
    func interceptors(for plan: CallPlan) -> [any Interceptor] {
        (configuration.interceptors + plan.interceptors).inRunningOrder()
    }

    /// `plan`'s request as its first attempt sends it: built, then adapted (for streams and inspection).
    func firstAttemptRequest(_ plan: CallPlan) async throws(BrickError) -> TransportRequest {
        try await adapt(interceptors(for: plan), context: context(for: plan, request: try plan.request.get()))
    }

    /// `context.request` adapted by `interceptors`, in order.
    @inline(never)
    nonisolated(nonsending) func adapt(_ interceptors: [any Interceptor], context: RequestContext) async throws(BrickError) -> TransportRequest {
        var request = context.request
        configuration.cookies?.attach(to: &request)  // first, so that interceptors, logs and the cache see them
        do {
            for interceptor in interceptors { try await interceptor.adapt(&request, context: context) }
        } catch let error as BrickError { throw error } catch { throw .interceptor(error) }
        return request
    }
}
