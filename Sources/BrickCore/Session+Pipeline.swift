extension Session {
    /// Runs `plan` through the pipeline until it ends: interceptors adapt the request, the transport sends
    /// it, interceptors process the outcome (and may replay it), validation and serialization turn it into
    /// a value, and error handlers may replace a failure or retry. Never throws: the outcome is in the result.
    func run<Value>(_ plan: DispatchPlan<Value>) async -> DataResponse<Value> {
        var base: TransportRequest
        switch plan.request {
        case .success(let request): base = request
        case .failure(let error): return DataResponse(request: nil, response: nil, result: .failure(error))
        }
        guard let cache = configuration.responseCache else { return await run(plan, base: base, cacheStep: nil) }
        guard let step = CacheStep(request: base, mode: plan.cacheMode, cache: cache) else {
            let outcome = await run(plan, base: base, cacheStep: nil)
            if !base.method.isSafe, outcome.error == nil { await cache.removeResponse(for: CacheStep.key(for: base.url)) }
            return outcome
        }
        switch await step.lookup(base) {
        case .answer(let entry):
            let response = TransportResponse(head: entry.head, body: entry.body)
            var outcome = DataResponse(request: base, response: response, result: Self.validateAndSerialize(.success(response), plan))
            outcome.cacheStatus = .hit
            return outcome
        case .notCached:
            return DataResponse(request: base, response: nil, result: .failure(.notCached(url: base.url)))
        case .send(let conditional):
            base.headers.merge(conditional)
        }
        var outcome = await run(plan, base: base, cacheStep: step)
        outcome.cacheStatus = step.status
        return outcome
    }

    /// The pipeline's attempts, with `cacheStep` (if any) storing answers and swapping `304`s.
    private func run<Value>(_ plan: DispatchPlan<Value>, base: TransportRequest, cacheStep: CacheStep?) async -> DataResponse<Value> {
        let interceptors = interceptors(for: plan)
        var retry = plan.autoRetryConfiguration.isActive ? RetryState(base: base, clock: configuration.clock) : nil
        var attempts: [AttemptRecord] = []
        while true {
            if let state = retry, let stop = await awaitReachableHost(plan, state, attempts: attempts) {
                return DataResponse(request: attempts.last?.request, response: nil, result: .failure(stop), attempts: attempts)
            }
            var context = context(for: plan, request: base, attempt: attempts.count + 1, previousAttempts: attempts)
            let round = await attempt(plan, base: base, interceptors: interceptors, cacheStep: cacheStep, context: &context)
            let sent = context.request
            switch round {
            case .finished(let outcome, let result):
                if let state = retry, case .failure(let error) = result, !error.isCancelled {
                    let verdict = await retryVerdict(after: error, plan, state, attempts: attempts.count)
                    if case .giveUp(let why) = verdict {
                        attempts.append(AttemptRecord(request: sent, head: outcome.head, error: error, repeatReason: nil))
                        let failure = state.failure(why, error: error, attempts: attempts)
                        if case .gaveUp(let gaveUp) = failure { notify(.gaveUp(request: context.requestName, gaveUp)) }
                        return DataResponse(request: sent, response: outcome.response, result: .failure(failure), attempts: attempts)
                    }
                    let delay: Duration = if case .retry(let delay) = verdict { delay } else { .zero }
                    attempts.append(AttemptRecord(
                        request: sent, head: outcome.head, error: error, repeatReason: RetryState.reason(for: error)))
                    retry?.retries += 1
                    notify(.retrying(request: context.requestName, attempt: attempts.count, after: delay, failure: error))
                    guard await pause(for: delay) else {
                        return DataResponse(request: sent, response: nil, result: .failure(.transport(.cancelled)), attempts: attempts)
                    }
                    continue
                }
                attempts.append(AttemptRecord(request: sent, head: outcome.head, error: result.error, repeatReason: nil))
                return DataResponse(request: sent, response: outcome.response, result: result, attempts: attempts)
            case .again(let outcome, let reason, let delay):
                let canRepeat = attempts.count + 1 < configuration.maxAttempts && (base.body?.isReplayable ?? true)
                    && !Task.isCancelled
                guard canRepeat else {
                    let result: Result<Value, BrickError> = outcome.error.map { .failure($0) } ?? .failure(.interceptor(
                        PipelineError.attemptsExhausted(attempts.count + 1, lastReason: reason)))
                    attempts.append(AttemptRecord(request: sent, head: outcome.head, error: result.error, repeatReason: nil))
                    return DataResponse(request: sent, response: outcome.response, result: result, attempts: attempts)
                }
                attempts.append(AttemptRecord(request: sent, head: outcome.head, error: outcome.error, repeatReason: reason))
                guard await pause(for: delay) else {
                    return DataResponse(request: sent, response: nil, result: .failure(.transport(.cancelled)), attempts: attempts)
                }
            }
        }
    }

    /// Waits `delay` on the session's clock; `false` when the task was cancelled meanwhile.
    func pause(for delay: Duration) async -> Bool {
        guard delay > .zero else { return true }
        do { try await configuration.clock.sleep(for: delay) } catch { return false }
        return true
    }

    /// The context of attempt number `attempt` of `plan`, whose request is `request`.
    func context<Value>(
        for plan: DispatchPlan<Value>, request: TransportRequest, attempt: Int = 1, previousAttempts: [AttemptRecord] = []
    ) -> RequestContext {
        RequestContext(
            requestType: plan.requestType, attempt: attempt, previousAttempts: previousAttempts,
            modifiers: plan.modifiers + configuration.interceptors, requestLogging: plan.requestLogging,
            autoRetryConfiguration: plan.autoRetryConfiguration, request: request, sessionBaseURL: configuration.baseURL)
    }

    /// The session's and the plan's interceptors, in running order.
    func interceptors<Value>(for plan: DispatchPlan<Value>) -> [any Interceptor] {
        (configuration.interceptors + plan.interceptors).inRunningOrder()
    }

    /// `plan`'s request as its first attempt sends it: built, then adapted (for streams and inspection).
    func firstAttemptRequest<Value>(_ plan: DispatchPlan<Value>) async throws(BrickError) -> TransportRequest {
        try await adapt(interceptors(for: plan), context: context(for: plan, request: try plan.request.get()))
    }

    /// `context.request` adapted by `interceptors`, in order.
    func adapt(_ interceptors: [any Interceptor], context: RequestContext) async throws(BrickError) -> TransportRequest {
        var request = context.request
        do {
            for interceptor in interceptors { try await interceptor.adapt(&request, context: context) }
        } catch let error as BrickError { throw error } catch { throw .interceptor(error) }
        return request
    }

    /// How one attempt ended.
    private enum Round<Value: Sendable> {
        case finished(ResponseOutcome, Result<Value, BrickError>)
        case again(ResponseOutcome, reason: String, delay: Duration)
    }

    private func attempt<Value>(
        _ plan: DispatchPlan<Value>, base: TransportRequest, interceptors: [any Interceptor], cacheStep: CacheStep?,
        context: inout RequestContext
    ) async -> Round<Value> {
        var request = base
        var outcome: ResponseOutcome
        do {
            request = try await adapt(interceptors, context: context)
            context.request = request
            cacheStep?.willSend()
            outcome = await sendOutcome(request, owner: plan.owner)
            if let cacheStep { outcome = await cacheStep.absorb(outcome, sent: request) }
        } catch {
            outcome = .failure(error)
        }
        context.request = request
        for interceptor in interceptors.reversed() {
            switch await interceptor.process(outcome, context: context) {
            case .proceed(let next): outcome = next
            case .replay(let reason): return .again(outcome, reason: reason, delay: .zero)
            }
        }
        var result = Self.validateAndSerialize(outcome, plan)
        guard case .failure(let error) = result, !error.isCancelled, !configuration.errorHandlers.isEmpty else {
            return .finished(outcome, result)
        }
        switch await CompositeErrorHandler(configuration.errorHandlers).handle(error, context: context) {
        case .unhandled: break
        case .fail(let replacement): result = .failure(replacement)
        case .recover(let response):
            outcome = .success(response)
            result = Self.serialize(response, plan)
        case .retry(let delay, let reason): return .again(outcome, reason: reason, delay: delay)
        }
        return .finished(outcome, result)
    }

    private func sendOutcome(_ request: TransportRequest, owner: ObjectIdentifier) async -> ResponseOutcome {
        do { return .success(try await send(request, ownerID: owner)) } catch { return .failure(error) }
    }

    static func validateAndSerialize<Value>(_ outcome: ResponseOutcome, _ plan: DispatchPlan<Value>) -> Result<Value, BrickError> {
        switch outcome {
        case .failure(let error): return .failure(error)
        case .success(let response):
            do { try plan.validation.validate(response) } catch { return .failure(.validation(error, response: response)) }
            return serialize(response, plan)
        }
    }

    private static func serialize<Value>(_ response: TransportResponse, _ plan: DispatchPlan<Value>) -> Result<Value, BrickError> {
        do { return .success(try plan.serializer.serialize(response)) } catch { return .failure(error) }
    }
}

/// Why the pipeline stopped repeating a request; found in ``BrickError/interceptor(_:)``.
public enum PipelineError: Error, Sendable, Equatable {
    /// Interceptors or error handlers asked for more attempts than ``Session/Configuration/maxAttempts``.
    case attemptsExhausted(Int, lastReason: String)
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
