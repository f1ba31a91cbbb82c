extension Session {
    /// The one loop that carries out a call's attempts — collected, streamed and downloaded calls alike.
    ///
    /// Every way of repeating a request goes through it, in one order, under one cap
    /// (``Configuration/maxAttempts``) and only with a body that can be sent again:
    /// 1. before an attempt, the host's reachability (``RetryDecision/beforeAttempt(_:)``): wait for the
    ///    network, or give up at once with `failWhenNotReachable`;
    /// 2. `attempt` runs: adapt, send, and — for collected calls — process, validate, serialize and ask the
    ///    error handlers, any of which may ask for the request to go again (``Attempt/Outcome/again(reason:delay:error:)``);
    /// 3. a failed attempt goes to the request's retry rules (``RetryDecision/decide(_:)``), whose verdict
    ///    (retry after a delay, wait for the network up to a limit, give up) is carried out as returned.
    ///
    /// - Parameters:
    ///   - retryRules: Whether the request's retry rules apply (steps 1 and 3); `false` for streams, whose
    ///     events reach the caller as they arrive, so that a failure cannot be taken back.
    ///   - attempt: Runs attempt number `number`, given the attempts before it.
    @inline(never)
    func runAttempts(
        _ plan: RepeatPolicy, base: TransportRequest, retryRules: Bool = true,
        _ attempt: (_ number: Int, _ previous: [AttemptRecord]) async -> Attempt
    ) async -> AttemptsOutcome {
        guard !configuration.observers.isEmpty || takesFullPath else { return await loop(plan, base: base, retryRules: retryRules, attempt) }
        return await observedLoop(plan, base: base, retryRules: retryRules, attempt)
    }

    /// ``loop(_:base:retryRules:_:)`` with the session's observers told of the call and each attempt.
    @inline(never)
    private func observedLoop(
        _ plan: RepeatPolicy, base: TransportRequest, retryRules: Bool,
        _ attempt: (_ number: Int, _ previous: [AttemptRecord]) async -> Attempt
    ) async -> AttemptsOutcome {
        let call = ObservedCall(requestName: plan.requestName, method: base.method, url: base.url)
        var outcome: AttemptsOutcome?
        _ = await observingCall(call) {
            let ended = await loop(plan, base: base, retryRules: retryRules) { number, previous in
                var made: Attempt?
                _ = await observingAttempt(ObservedAttempt(call: call, number: number)) {
                    let this = await attempt(number, previous)
                    made = this
                    return this.end
                }
                return made ?? Attempt(sent: base, outcome: .failed(.transport(.cancelled)))  // not reached: the body ran
            }
            outcome = ended
            return ended.end
        }
        return outcome ?? AttemptsOutcome(error: .transport(.cancelled), records: [], last: nil)  // not reached either
    }

    /// ``runAttempts(_:base:retryRules:_:)`` without the observers.
    ///
    /// Its awaits are the only thing it does itself; every decision is made in a synchronous step that is
    /// never inlined (``LoopState``). An async function's frame holds every value of everything inlined into
    /// it, and this frame stays allocated for as long as the request is on its way: written inline, the loop's
    /// frame took ~10 KB per request in flight.
    @inline(never)
    private func loop(
        _ plan: RepeatPolicy, base: TransportRequest, retryRules: Bool,
        _ attempt: (_ number: Int, _ previous: [AttemptRecord]) async -> Attempt
    ) async -> AttemptsOutcome {
        var state = LoopState(
            retry: retryRules && plan.rules.isActive ? RetryState(base: base, clock: configuration.clock) : nil,
            origin: originTicket(plan, base: base, retryRules: retryRules))
        while true {
            if state.pending != nil || state.retry != nil || takesFullPath, let stop = await beforeAttempt(&state, plan) { return state.end(stop) }
            if state.origin != nil || origins?.holdsAny == true, let stop = await admitAttempt(&state, plan, base: base) { return state.end(stop) }
            state.noteAttemptStart()
            let this = await attempt(state.records.count + 1, state.records)
            if origins != nil { await countAttempt(this, &state, plan, base: base) }
            switch settle(this, &state, plan, base: base) {
            case .end(let error): return state.end(error)
            case .next: continue
            case .askRules(let error, let rules):
                let verdict = await retryVerdict(after: error, plan, rules, known: state.takeRouteAnswer())
                if let stop = apply(verdict, after: error, &state, plan, base: base) { return state.end(stop) }
            }
        }
    }

    /// Before an attempt: carries out what the last attempt's verdict asked for (a delay, a wait for the
    /// network), then asks the host's reachability, unless a wait for the network just answered that.
    /// Returns the error to end the call with, or `nil` to send the attempt.
    @inline(never)
    private nonisolated(nonsending) func beforeAttempt(_ state: inout LoopState, _ plan: RepeatPolicy) async -> BrickError? {
        let pending = state.pending
        state.pending = nil
        if let pending, let stop = await carryOut(pending, plan, state.retry, records: state.records) { return stop }
        // A wait for the network that just ended has answered the question a check before the attempt asks.
        if case .waitForNetwork? = pending { return nil }
        guard let rules = state.retry, let verdict = await verdictBeforeAttempt(plan, rules) else { return nil }
        return await carryOut(verdict, plan, state.retry, records: state.records)
    }

    /// What follows an attempt that just ended.
    enum AfterAttempt {
        /// The call ends, with this error or without one.
        case end(BrickError?)
        /// The next attempt goes (after what ``LoopState/pending`` asks).
        case next
        /// The attempt failed: the request's retry rules decide.
        case askRules(BrickError, RetryState)
    }

    /// Records `this` attempt (as ``LoopState/last`` too) and decides what follows, except what the retry
    /// rules decide (asked by the loop, then applied by ``apply(_:after:_:_:base:)``).
    @inline(never)
    private func settle(_ this: Attempt, _ state: inout LoopState, _ plan: RepeatPolicy, base: TransportRequest) -> AfterAttempt {
        state.last = this
        switch this.outcome {
        case .done:
            state.record(this, error: nil)
            return .end(nil)
        case .again(let reason, let delay, let error):
            if let stopped = Task.isCancelled ? .transport(.cancelled) : stop(this, asked: reason, error: error, state, plan, base: base) {
                state.record(this, error: error)
                return .end(stopped)
            }
            state.record(this, error: error, repeatReason: reason, clock: configuration.clock)
            state.pending = .retry(after: delay)
            return .next
        case .failed(let error):
            guard let rules = state.retry, !error.isCancelled else {
                state.record(this, error: error)
                return .end(error)
            }
            return .askRules(error, rules)
        }
    }

    /// Carries on after the retry rules' `verdict` on the last attempt's `error`: gives up, or records the
    /// attempt as repeated and leaves the verdict for ``beforeAttempt(_:_:)``. Returns the error to end the
    /// call with, or `nil` to go on.
    @inline(never)
    private func apply(
        _ verdict: RetryDecision.Verdict, after error: BrickError, _ state: inout LoopState, _ plan: RepeatPolicy, base: TransportRequest
    ) -> BrickError? {
        guard let this = state.last else { return error }
        if case .giveUp(let why) = verdict {
            state.record(this, error: error)
            return giveUp(plan, state.retry, why, error: error, records: state.records)
        }
        if case .retry = verdict, !budgetAllowsRetry(state) {
            state.record(this, error: error, retryNotTaken: "budget")
            let origin = state.origin?.origin ?? ""
            let failure = RetryFailure(reason: .retryBudgetSpent(origin: origin), attempts: state.records)
            notify(.retryNotTaken(request: plan.requestName, origin: origin, failure: error))
            notify(.gaveUp(request: plan.requestName, failure))
            return .gaveUp(failure)
        }
        let reason = RetryState.reason(for: error)
        if let stopped = stop(this, asked: reason, error: error, state, plan, base: base) {
            state.record(this, error: error)
            return stopped
        }
        state.record(this, error: error, repeatReason: reason, clock: configuration.clock)
        state.retry?.retries += 1
        let delay: Duration = if case .retry(let delay) = verdict { delay } else { .zero }
        notify(.retrying(request: plan.requestName, attempt: state.records.count, after: delay, failure: error))
        state.pending = verdict
        return nil
    }

    /// `nil` when the request may go again after `this` attempt (asked for `reason`); otherwise what the call
    /// ends with: a body that cannot be sent twice, or the cap on attempts.
    private func stop(
        _ this: Attempt, asked reason: String, error: BrickError?, _ state: LoopState, _ plan: RepeatPolicy, base: TransportRequest
    ) -> BrickError? {
        let why: RetryFailure.Reason
        if !(base.body?.isReplayable ?? true) {
            if state.records.isEmpty, let error { return error }  // nothing was repeated: the plain error
            why = .notRetryable
        } else if state.records.count + 1 >= configuration.maxAttempts {
            why = .attemptsExhausted(lastReason: reason)
        } else {
            return nil
        }
        let failure = RetryFailure(reason: why, attempts: state.records + [
            AttemptRecord(request: this.sent, head: this.head, error: error, repeatReason: nil),
        ])
        notify(.gaveUp(request: plan.requestName, failure))
        return .gaveUp(failure)
    }

    /// Carries out `verdict` as returned: waits `delay`, or for the network up to `limit`, or gives up.
    /// Returns `nil` to go on with the next attempt, or the error to end the call with.
    @inline(never)
    private nonisolated(nonsending) func carryOut(
        _ verdict: RetryDecision.Verdict, _ plan: RepeatPolicy, _ state: RetryState?, records: [AttemptRecord]
    ) async -> BrickError? {
        switch verdict {
        case .retry(let delay):
            return await pause(for: delay) ? nil : .transport(.cancelled)
        case .waitForNetwork(let limit):
            guard let state else { return nil }
            switch await waitForNetwork(plan, state, upTo: limit) {
            case .reachable: return nil
            case .cancelled: return .transport(.cancelled)
            case .expired:
                let failure = RetryFailure(reason: .networkWaitExpired(host: state.host, waited: limit), attempts: records)
                notify(.gaveUp(request: plan.requestName, failure))
                return .gaveUp(failure)
            }
        case .giveUp(let why):
            return giveUp(plan, state, why, error: nil, records: records)
        }
    }

    /// What a call ends with when the rules give up (``RetryState/failure(_:error:attempts:)``), told to the
    /// retry observer when it is a ``BrickError/gaveUp(_:)``.
    private func giveUp(
        _ plan: RepeatPolicy, _ state: RetryState?, _ why: RetryDecision.GiveUp, error: BrickError?, records: [AttemptRecord]
    ) -> BrickError {
        guard let state else { return error ?? .transport(.cancelled) }
        let failure = state.failure(why, error: error, attempts: records)
        if case .gaveUp(let gaveUp) = failure { notify(.gaveUp(request: plan.requestName, gaveUp)) }
        return failure
    }
}

extension CallPlan {
    /// What the attempt loop needs of the plan.
    var repeatPolicy: RepeatPolicy {
        RepeatPolicy(rules: autoRetryConfiguration, idempotency: idempotency, requestType: requestType, origin: originPolicy)
    }
}
