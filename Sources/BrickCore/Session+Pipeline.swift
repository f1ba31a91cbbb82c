import FoundationEssentials

extension Session {
    /// Runs `plan` through the pipeline until it ends: interceptors adapt the request, the transport sends
    /// it, interceptors process the outcome (and may replay it), validation and `serializer` turn it into
    /// a value, and error handlers may replace a failure or retry. Never throws: the outcome is in the result.
    ///
    /// Only this wrapper knows `Value`: the pipeline under it is compiled once, not looked up by type at
    /// run time for every request.
    func run<Value>(_ plan: DispatchPlan, serializer: ResponseSerializer<Value>) async -> DataResponse<Value> {
        var value: Value?
        let outcome = await run(plan) { response throws(BrickError) in value = try serializer.serialize(response) }
        let result: Result<Value, BrickError> = if let error = outcome.error { .failure(error) } else if let value {
            .success(value)
        } else {
            .failure(.transport(.cancelled))  // not reached: a call that succeeded has its value
        }
        return DataResponse(
            request: outcome.request, response: outcome.response, result: result, attempts: outcome.attempts,
            cacheStatus: outcome.cacheStatus)
    }

    /// The pipeline of ``run(_:serializer:)``, with the serializer as `serialize`, which keeps the value it
    /// makes (the result here only says whether it failed).
    private func run(_ plan: DispatchPlan, serialize: Serialize) async -> DataResponse<Void> {
        let base: TransportRequest
        switch plan.request {
        case .success(let request): base = request
        case .failure(let error): return DataResponse(request: nil, response: nil, result: .failure(error))
        }
        guard let cache = configuration.responseCache else { return await run(plan, base: base, cacheStep: nil, serialize) }
        return await run(plan, base: base, cache: cache, serialize)
    }

    /// ``run(_:serialize:)`` with a response cache. Never inlined, like every step of the pipeline: an async
    /// function's frame holds the values of everything inlined into it, and every frame of the chain stays
    /// allocated while the request waits, so a frame of this path would cost every request without a cache.
    @inline(never)
    private func run(_ plan: DispatchPlan, base: TransportRequest, cache: any ResponseCache, _ serialize: Serialize) async -> DataResponse<Void> {
        var base = base
        guard let step = CacheStep(request: base, mode: plan.cacheMode, cache: cache) else {
            let outcome = await run(plan, base: base, cacheStep: nil, serialize)
            if !base.method.isSafe, let head = outcome.response?.head {
                for url in CachePolicy.invalidated(by: head, of: base) { await cache.removeResponse(for: CacheStep.key(for: url)) }
            }
            return outcome
        }
        let lookup = await step.lookup(base) { [reachability] in
            guard let host = base.route.host else { return false }
            return await reachability.status(of: host) == .unreachable
        }
        switch lookup {
        case .answer(let entry):
            var response = TransportResponse(head: CachePolicy.served(entry, now: Date()), body: entry.body)
            response.call = CallLine(base)
            var outcome = DataResponse(request: base, response: response, result: Self.validateAndSerialize(.success(response), plan, serialize))
            outcome.cacheStatus = step.status
            return outcome
        case .answerPart(var response):
            response.call = CallLine(base)
            var outcome = DataResponse(request: base, response: response, result: Self.validateAndSerialize(.success(response), plan, serialize))
            outcome.cacheStatus = step.status
            return outcome
        case .answerAndRevalidate(let entry, let conditional), .answerOffline(let entry, let conditional):
            if case .answerOffline = lookup {
                revalidateWhenReachable(entry, plan: plan, base: base, conditional: conditional, cache: cache)
            } else {
                revalidateInBackground(entry, plan: plan, base: base, conditional: conditional, cache: cache)
            }
            var response = TransportResponse(head: CachePolicy.served(entry, now: Date()), body: entry.body)
            response.call = CallLine(base)
            var outcome = DataResponse(request: base, response: response, result: Self.validateAndSerialize(.success(response), plan, serialize))
            outcome.cacheStatus = .stale
            return outcome
        case .notCached:
            return DataResponse(request: base, response: nil, result: .failure(.notCached(url: base.url)))
        case .send(let conditional):
            base.headers.merge(conditional)
        }
        var outcome = await run(plan, base: base, cacheStep: step, serialize)
        outcome.cacheStatus = step.status
        return outcome
    }

    /// Sends `plan`'s request with `conditional` in a task of its own, storing what comes back (a `304`
    /// refreshes `entry`): the revalidation of a response that answered stale (`stale-while-revalidate`).
    private func revalidateInBackground(
        _ entry: CachedResponse, plan: DispatchPlan, base: TransportRequest, conditional: HTTPHeaders, cache: any ResponseCache
    ) {
        var request = base
        request.headers.merge(conditional)
        Task { [self] in
            let step = CacheStep(revalidating: entry, of: request, cache: cache)
            _ = await run(plan, base: request, cacheStep: step) { _ throws(BrickError) in }
        }
    }

    /// Revalidates `entry`, which answered while the route to its host was down, once the route returns: one
    /// revalidation per stored response however many calls it answered meanwhile, sent under `plan`'s retry
    /// rules. It waits for the route up to the rules' ``AutoRetryConfiguration/maxNetworkWait`` (at least a
    /// minute), then gives up; the next call that needs the network sends its own.
    private func revalidateWhenReachable(
        _ entry: CachedResponse, plan: DispatchPlan, base: TransportRequest, conditional: HTTPHeaders, cache: any ResponseCache
    ) {
        guard let host = base.route.host else { return }
        let key = CacheStep.key(for: base.url)
        guard offlineRevalidations.withLock({ $0.insert(key).inserted }) else { return }
        var request = base
        request.headers.merge(conditional)
        let limit = max(plan.autoRetryConfiguration.maxNetworkWait, .seconds(60))
        Task { [self] in
            defer { offlineRevalidations.withLock { _ = $0.remove(key) } }
            let changes = reachability.changes()  // subscribed before the look: no change is missed
            if await reachability.status(of: host) == .unreachable {
                guard await waitUntilReachable(host, changes: changes, limit: limit) == .reachable else { return }
            }
            let step = CacheStep(revalidating: entry, of: request, cache: cache)
            _ = await run(plan, base: request, cacheStep: step) { _ throws(BrickError) in }
        }
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
    private func run(_ plan: DispatchPlan, base: TransportRequest, cacheStep: CacheStep?, _ serialize: Serialize) async -> DataResponse<Void> {
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
        for plan: DispatchPlan, request: TransportRequest, attempt: Int = 1, previousAttempts: [AttemptRecord] = []
    ) -> RequestContext {
        RequestContext(
            requestType: plan.requestType, attempt: attempt, previousAttempts: previousAttempts,
            modifiers: plan.modifiers + configuration.interceptors, requestLogging: plan.requestLogging,
            autoRetryConfiguration: plan.autoRetryConfiguration, request: request, sessionBaseURL: configuration.baseURL)
    }

    /// The session's and the plan's interceptors, in running order.
    func interceptors(for plan: DispatchPlan) -> [any Interceptor] {
        (configuration.interceptors + plan.interceptors).inRunningOrder()
    }

    /// `plan`'s request as its first attempt sends it: built, then adapted (for streams and inspection).
    func firstAttemptRequest(_ plan: DispatchPlan) async throws(BrickError) -> TransportRequest {
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

    /// One attempt of a collected call: adapt, send (through the cache step), process (interceptors in
    /// reverse order, which may replay), validate, serialize, and on failure the error handlers (which may
    /// replace the error, recover with a response, or retry).
    @inline(never)
    private nonisolated(nonsending) func attempt(
        _ plan: DispatchPlan, interceptors: [any Interceptor], cacheStep: CacheStep?, context: RequestContext,
        _ serialize: Serialize
    ) async -> Attempt {
        var context = context
        let outcome: ResponseOutcome
        do {
            context.request = try await adapt(interceptors, context: context)
            outcome = await send(context.request, owner: plan.owner, cacheStep: cacheStep)
        } catch {
            outcome = .failure(error)
        }
        return await conclude(outcome, plan, interceptors: interceptors, context: context, serialize)
    }

    /// Sends the attempt's request, through the cache step when there is one.
    @inline(never)
    private nonisolated(nonsending) func send(_ request: TransportRequest, owner: ObjectIdentifier?, cacheStep: CacheStep?) async -> ResponseOutcome {
        cacheStep?.willSend()
        let outcome = await sendOutcome(request, owner: owner)
        guard let cacheStep else { return outcome }
        return await cacheStep.absorb(outcome, sent: request)
    }

    /// The rest of an attempt once its outcome came: process, validate, serialize, and the error handlers.
    @inline(never)
    private nonisolated(nonsending) func conclude(
        _ outcome: ResponseOutcome, _ plan: DispatchPlan, interceptors: [any Interceptor], context: RequestContext,
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
        var result = Self.validateAndSerialize(outcome, plan, serialize)
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

    private nonisolated(nonsending) func sendOutcome(_ request: TransportRequest, owner: ObjectIdentifier?) async -> ResponseOutcome {
        do {
            var response = try await transfer(request, ownerID: owner)
            response.call = CallLine(request)
            return .success(response)
        } catch {
            return .failure(error.naming(CallLine(request)))
        }
    }

    private static func validateAndSerialize(_ outcome: ResponseOutcome, _ plan: DispatchPlan, _ serialize: Serialize) -> Result<Void, BrickError> {
        switch outcome {
        case .failure(let error): return .failure(error)
        case .success(let response):
            do { try plan.validation.validate(response) } catch { return .failure(.validation(error, response: response)) }
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
