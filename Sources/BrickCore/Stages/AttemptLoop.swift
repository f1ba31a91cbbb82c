/// The attempts of a call: the call-level stage that runs the attempt-level chain again for as long as the
/// retry rules, an interceptor's replay, an error handler's retry or a download's restart ask, under one cap
/// (``Session/Configuration/maxAttempts``) and only with a body that can be sent again. Collected, streamed
/// and downloaded calls alike. In order, each turn:
/// 1. before an attempt, what the last verdict asked for (a delay, a wait for the network), then the host's
///    reachability (``RetryDecision/beforeAttempt(_:)``): wait for the network, or give up at once with
///    `failWhenNotReachable`;
/// 2. the attempt, through the attempt-level stages;
/// 3. a failed attempt goes to the request's retry rules (``RetryDecision/decide(_:)``), judged on the
///    request as the attempt sent it; their verdict (retry after a delay, wait for the network up to a limit,
///    give up) is carried out as returned, a retry only while the origin that was charged has budget left.
///
/// Its decisions are made in synchronous steps that are never inlined: an async function's frame holds every
/// value of everything inlined into it, and this frame stays allocated for as long as the request is on its
/// way.
struct AttemptLoop: CallStage {
    @inline(__always)
    nonisolated(nonsending) func run(_ call: Call, next _: CallNext) async -> ResponseOutcome {
        let session = call.session
        var state = LoopState(retry: call.rules.isActive ? RetryState(host: session.routeHost(of: call.request), method: call.request.method) : nil)
        while true {
            if state.pending != nil || !session.routeKnownClear(state), let stop = await session.beforeAttempt(&state, call) {
                return session.end(state, stop, call)
            }
            state.noteAttemptStart(session.timeline)
            let this = await call.chain.attempt(call, number: state.attempts + 1)
            switch session.settle(this, &state, call) {
            case .end(let outcome): return outcome
            case .next: continue
            case .askRules(let error, let rules):
                let verdict = await session.retryVerdict(after: error, call, rules, known: call.takeRouteAnswer())
                if let stop = session.apply(verdict, after: error, this, &state, call) { return session.end(state, stop, call) }
            }
        }
    }
}

/// What the attempt loop keeps between its awaits.
struct LoopState {
    var retry: RetryState?
    /// Attempts made so far.
    var attempts = 0
    /// What the last attempt's verdict asks for before the next one.
    var pending: RetryDecision.Verdict?
    /// When the last attempt ended, and how long the attempt about to go waited for it, on the session's
    /// timeline (zero when nothing was waited for: no delay, no wait for the network or an origin).
    var lastEnd: Duration?
    var waitedBefore: Duration = .zero

    init(retry: RetryState?) { self.retry = retry }

    mutating func noteAttemptStart(_ timeline: any Timeline) {
        waitedBefore = lastEnd.map { max(.zero, timeline.now() - $0) } ?? .zero
    }
}

extension Session {
    /// What follows an attempt that just ended.
    enum AfterAttempt {
        /// The call ends with this outcome.
        case end(ResponseOutcome)
        /// The next attempt goes (after what ``LoopState/pending`` asks).
        case next
        /// The attempt failed: the request's retry rules decide.
        case askRules(BrickError, RetryState)
    }

    /// Before an attempt: carries out what the last attempt's verdict asked for (a delay, a wait for the
    /// network), then asks the host's reachability, unless a wait for the network just answered that.
    /// Returns the error to end the call with, or `nil` to send the attempt.
    @inline(never)
    nonisolated(nonsending) func beforeAttempt(_ state: inout LoopState, _ call: Call) async -> BrickError? {
        let pending = state.pending
        state.pending = nil
        if let pending, let stop = await carryOut(pending, call, state.retry) { return stop }
        if case .waitForNetwork? = pending { return nil }
        guard let rules = state.retry, let verdict = await verdictBeforeAttempt(call, rules) else { return nil }
        // A wait for the route before the first attempt shows in the timeline as the wait before it.
        if state.attempts == 0, case .waitForNetwork = verdict { state.lastEnd = timeline.now() }
        return await carryOut(verdict, call, state.retry)
    }

    /// Whether the attempt about to go (none pending before it) may go at once: the call has no retry rules,
    /// or its host's route is known without waiting not to be down, so that the rules have nothing to say
    /// before it (``RetryDecision/beforeAttempt(_:)`` answers `nil` for a host that is not unreachable).
    @inline(never)
    func routeKnownClear(_ state: LoopState) -> Bool {
        guard let host = state.retry?.host else { return true }
        if host.isEmpty { return true }
        guard let known = reachability.knownStatus(of: host) else { return false }
        return known != .unreachable
    }

    /// Records `this` attempt and decides what follows, except what the retry rules decide.
    @inline(never)
    func settle(_ this: AttemptResult, _ state: inout LoopState, _ call: Call) -> AfterAttempt {
        state.attempts += 1
        state.retry?.sentMethod = this.sent.method
        if let asked = this.repeatAsked {
            let error = this.outcome.error
            if let stopped = Task.isCancelled ? .transport(.cancelled) : stop(this, asked: asked.reason, error: error, state, call) {
                record(this, error: error, state, call)
                return .end(.failure(stopped))
            }
            record(this, error: error, repeatReason: asked.reason, state, call)
            state.pending = .retry(after: asked.delay)
            state.lastEnd = timeline.now()
            return .next
        }
        switch this.outcome {
        case .success:
            record(this, error: nil, state, call)
            return .end(this.outcome)
        case .failure(.heldBack(let held)) where state.attempts > 1:
            let failure = RetryFailure(reason: .heldBack(held), attempts: call.attempts)
            notify(.gaveUp(request: call.requestName, failure))
            return .end(.failure(.gaveUp(failure)))
        case .failure(let error):
            guard let rules = state.retry, !error.isCancelled else {
                record(this, error: error, state, call)
                return .end(this.outcome)
            }
            return .askRules(error, rules)
        }
    }

    /// Notes `this` attempt in the call's records: always once another attempt follows or came before, or
    /// when it waited; a call of one attempt that waited for nothing keeps no list (its one record is made
    /// from its request, response and error when someone asks: ``DataResponse/attempts``).
    private func record(
        _ this: AttemptResult, error: BrickError?, repeatReason: String? = nil, retryNotTaken: String? = nil, _ state: LoopState, _ call: Call
    ) {
        guard repeatReason != nil || retryNotTaken != nil || state.attempts > 1 || state.waitedBefore > .zero else { return }
        call.record(AttemptRecord(
            request: this.sent, head: this.head, error: error, repeatReason: repeatReason, waitedBefore: state.waitedBefore,
            retryNotTaken: retryNotTaken))
    }

    /// Carries on after the retry rules' `verdict` on the last attempt's `error`: gives up, or records the
    /// attempt as repeated and leaves the verdict for ``beforeAttempt(_:_:)``. Returns the error to end the
    /// call with, or `nil` to go on.
    @inline(never)
    func apply(_ verdict: RetryDecision.Verdict, after error: BrickError, _ this: AttemptResult, _ state: inout LoopState, _ call: Call) -> BrickError? {
        if case .giveUp(let why) = verdict {
            // A request the rules would have repeated but for its method says so in the timeline.
            let notTaken = why == .notIdempotent ? "\(this.sent.method.rawValue) is not idempotent (IdempotencyKeyType allows a repeat)" : nil
            record(this, error: error, retryNotTaken: notTaken, state, call)
            return giveUp(call, state.retry, why, error: error)
        }
        if case .retry = verdict, let origin = budgetRefusesRetry(call) {
            record(this, error: error, retryNotTaken: "budget", state, call)
            let failure = RetryFailure(reason: .retryBudgetSpent(origin: origin), attempts: call.attempts)
            notify(.retryNotTaken(request: call.requestName, origin: origin, failure: error))
            notify(.gaveUp(request: call.requestName, failure))
            return .gaveUp(failure)
        }
        let reason = RetryState.reason(for: error)
        if let stopped = stop(this, asked: reason, error: error, state, call) {
            record(this, error: error, state, call)
            return stopped
        }
        record(this, error: error, repeatReason: reason, state, call)
        state.retry?.retries += 1
        state.lastEnd = timeline.now()
        let delay: Duration = if case .retry(let delay) = verdict { delay } else { .zero }
        notify(.retrying(request: call.requestName, attempt: state.attempts, after: delay, failure: error))
        state.pending = verdict
        return nil
    }

    /// `nil` when the request may go again after `this` attempt (asked for `reason`); otherwise what the call
    /// ends with: a body that cannot be sent twice, or the cap on attempts.
    private func stop(_ this: AttemptResult, asked reason: String, error: BrickError?, _ state: LoopState, _ call: Call) -> BrickError? {
        let why: RetryFailure.Reason
        if !(call.request.body?.isReplayable ?? true) {
            if state.attempts <= 1, let error { return error }  // nothing was repeated: the plain error
            why = .notRetryable
        } else if state.attempts >= configuration.maxAttempts {
            why = .attemptsExhausted(lastReason: reason)
        } else {
            return nil
        }
        let failure = RetryFailure(reason: why, attempts: call.attempts + [
            AttemptRecord(request: this.sent, head: this.head, error: error, repeatReason: nil),
        ])
        notify(.gaveUp(request: call.requestName, failure))
        return .gaveUp(failure)
    }

    /// Carries out `verdict` as returned: waits `delay`, or for the network up to `limit`, or gives up.
    /// Returns `nil` to go on with the next attempt, or the error to end the call with.
    @inline(never)
    nonisolated(nonsending) func carryOut(_ verdict: RetryDecision.Verdict, _ call: Call, _ state: RetryState?) async -> BrickError? {
        switch verdict {
        case .retry(let delay):
            call.enter(.repeating(after: call.attemptNumber))
            return await pause(for: delay) ? nil : .transport(.cancelled)
        case .waitForNetwork(let limit):
            guard let state else { return nil }
            switch await waitForNetwork(call, state, upTo: limit) {
            case .reachable: return nil
            case .cancelled: return .transport(.cancelled)
            case .expired:
                let failure = RetryFailure(reason: .networkWaitExpired(host: state.host, waited: limit), attempts: call.attempts)
                notify(.gaveUp(request: call.requestName, failure))
                return .gaveUp(failure)
            }
        case .giveUp(let why):
            return giveUp(call, state, why, error: nil)
        }
    }

    /// What a call ends with when the rules give up, told to the retry observer when it is a give-up.
    private func giveUp(_ call: Call, _ state: RetryState?, _ why: RetryDecision.GiveUp, error: BrickError?) -> BrickError {
        guard let state else { return error ?? .transport(.cancelled) }
        let failure = state.failure(why, error: error, attempts: call.attempts)
        if case .gaveUp(let gaveUp) = failure { notify(.gaveUp(request: call.requestName, gaveUp)) }
        return failure
    }

    /// The call's end with `error`.
    func end(_ state: LoopState, _ error: BrickError, _ call: Call) -> ResponseOutcome { .failure(error) }

    /// Waits `delay` on the session's clock; `false` when the task was cancelled meanwhile.
    nonisolated(nonsending) func pause(for delay: Duration) async -> Bool {
        guard delay > .zero else { return true }
        do { try await configuration.clock.sleep(for: delay) } catch { return false }
        return true
    }
}
