/// How one attempt of a call ended, as the attempt loop sees it. (What a successful attempt produced —
/// a value, a stream, a file — stays with the caller: the loop is not generic, so that it is compiled once.)
struct Attempt: Sendable {
    enum Outcome: Sendable {
        /// The call is over: it succeeded.
        case done
        /// The attempt failed; the request's retry rules decide what follows.
        case failed(BrickError)
        /// An interceptor (`.replay`), an error handler (`.retry`) or a download (a range that no longer fits)
        /// asks for the request to go again after `delay`; `error` is what the call fails with if it cannot.
        case again(reason: String, delay: Duration, error: BrickError?)
    }

    /// The request as this attempt sent it (adapted by the interceptors).
    var sent: TransportRequest
    /// The response head, when one arrived.
    var head: ResponseHead?
    /// The whole response, for a collected call.
    var response: TransportResponse?
    var outcome: Outcome
}

extension Attempt {
    /// The attempt as observers see its end.
    var end: AttemptEnd {
        let error: BrickError? = switch outcome {
        case .done: nil
        case .failed(let error): error
        case .again(_, _, let error): error
        }
        return AttemptEnd(status: (head ?? response?.head)?.status, error: error)
    }
}

/// What the attempt loop ends a call with.
struct AttemptsOutcome: Sendable {
    /// Why the call failed; `nil` when its last attempt was ``Attempt/Outcome/done``.
    var error: BrickError?
    /// Every attempt, oldest first.
    var records: [AttemptRecord]
    /// The last attempt, if one was made.
    var last: Attempt?

    /// The call as observers see its end.
    var end: CallEnd { CallEnd(status: (last?.head ?? last?.response?.head)?.status, error: error, attempts: records.count) }
}

/// What the attempt loop needs to know of a call: its retry rules and idempotency, and its name for retry
/// events.
struct RepeatPolicy: Sendable {
    let rules: AutoRetryConfiguration
    let idempotency: Idempotency
    let requestType: any Any.Type
    /// The request's name in retry events: its type.
    var requestName: String { String(describing: requestType) }
}

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
    func runAttempts(
        _ plan: RepeatPolicy, base: TransportRequest, retryRules: Bool = true,
        _ attempt: (_ number: Int, _ previous: [AttemptRecord]) async -> Attempt
    ) async -> AttemptsOutcome {
        guard !configuration.observers.isEmpty else { return await loop(plan, base: base, retryRules: retryRules, attempt) }
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
    private func loop(
        _ plan: RepeatPolicy, base: TransportRequest, retryRules: Bool,
        _ attempt: (_ number: Int, _ previous: [AttemptRecord]) async -> Attempt
    ) async -> AttemptsOutcome {
        var retry = retryRules && plan.rules.isActive ? RetryState(base: base, clock: configuration.clock) : nil
        var records: [AttemptRecord] = []
        var last: Attempt?
        func end(_ error: BrickError?) -> AttemptsOutcome { AttemptsOutcome(error: error, records: records, last: last) }
        var pending: RetryVerdict?  // what the last attempt's verdict asks for before the next one
        // The session's clock since the call began (the retry rules' own), or since the first repeat was asked
        // for: what each attempt waited before it went.
        var watch = retry?.stopwatch
        var lastEnd: Duration = .zero
        while true {
            if let verdict = pending, let stop = await carryOut(verdict, plan, retry, records: records) {
                return end(stop)
            }
            // A wait for the network that just ended has answered the question a check before the attempt asks.
            let waited = if case .waitForNetwork? = pending { true } else { false }
            pending = nil
            if !waited, let state = retry, let verdict = await verdictBeforeAttempt(plan, state),
                let stop = await carryOut(verdict, plan, retry, records: records)
            {
                return end(stop)
            }
            let waitedBefore = watch.map { max(.zero, $0.elapsed - lastEnd) } ?? .zero
            let this = await attempt(records.count + 1, records)
            last = this
            func record(_ error: BrickError?, repeatReason: String? = nil) {
                records.append(AttemptRecord(
                    request: this.sent, head: this.head, error: error, repeatReason: repeatReason, waitedBefore: waitedBefore))
                guard repeatReason != nil else { return }
                if watch == nil { watch = Stopwatch(configuration.clock) }
                lastEnd = watch?.elapsed ?? .zero
            }
            /// `nil` when the request may go again after this attempt (asked for `reason`); otherwise what the
            /// call ends with: a body that cannot be sent twice, or the cap on attempts.
            func stop(asked reason: String, error: BrickError?) -> BrickError? {
                let why: RetryFailure.Reason
                if !(base.body?.isReplayable ?? true) {
                    if records.isEmpty, let error { return error }  // nothing was repeated: the plain error
                    why = .notRetryable
                } else if records.count + 1 >= configuration.maxAttempts {
                    why = .attemptsExhausted(lastReason: reason)
                } else {
                    return nil
                }
                let failure = RetryFailure(reason: why, attempts: records + [
                    AttemptRecord(request: this.sent, head: this.head, error: error, repeatReason: nil),
                ])
                notify(.gaveUp(request: plan.requestName, failure))
                return .gaveUp(failure)
            }
            switch this.outcome {
            case .done:
                record(nil)
                return end(nil)
            case .again(let reason, let delay, let error):
                if let stopped = Task.isCancelled ? .transport(.cancelled) : stop(asked: reason, error: error) {
                    record(error)
                    return end(stopped)
                }
                record(error, repeatReason: reason)
                pending = .retry(after: delay)
            case .failed(let error):
                guard let state = retry, !error.isCancelled else {
                    record(error)
                    return end(error)
                }
                let verdict = await retryVerdict(after: error, plan, state)
                if case .giveUp(let why) = verdict {
                    record(error)
                    return end(giveUp(plan, state, why, error: error, records: records))
                }
                let reason = RetryState.reason(for: error)
                if let stopped = stop(asked: reason, error: error) {
                    record(error)
                    return end(stopped)
                }
                record(error, repeatReason: reason)
                retry?.retries += 1
                let delay: Duration = if case .retry(let delay) = verdict { delay } else { .zero }
                notify(.retrying(request: plan.requestName, attempt: records.count, after: delay, failure: error))
                pending = verdict
            }
        }
    }

    /// Carries out `verdict` as returned: waits `delay`, or for the network up to `limit`, or gives up.
    /// Returns `nil` to go on with the next attempt, or the error to end the call with.
    private func carryOut(
        _ verdict: RetryVerdict, _ plan: RepeatPolicy, _ state: RetryState?, records: [AttemptRecord]
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
        _ plan: RepeatPolicy, _ state: RetryState?, _ why: RetryGiveUp, error: BrickError?, records: [AttemptRecord]
    ) -> BrickError {
        guard let state else { return error ?? .transport(.cancelled) }
        let failure = state.failure(why, error: error, attempts: records)
        if case .gaveUp(let gaveUp) = failure { notify(.gaveUp(request: plan.requestName, gaveUp)) }
        return failure
    }
}

extension DispatchPlan {
    /// What the attempt loop needs of the plan.
    var repeatPolicy: RepeatPolicy {
        RepeatPolicy(rules: autoRetryConfiguration, idempotency: idempotency, requestType: requestType)
    }
}
