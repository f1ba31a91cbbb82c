import FoundationEssentials

/// What one call's retry rules keep between attempts.
struct RetryState: Sendable {
    /// The host whose reachability is watched: the URL's, or the proxy's (empty when there is none, as for a
    /// Unix socket: then never waited for).
    let host: String
    /// Retries made so far.
    var retries = 0
    /// The method the last attempt sent (an interceptor may have changed it): what idempotency is judged on.
    var sentMethod: HTTPMethod

    /// The state of a call of `method` to `host` (``Session/routeHost(of:)``).
    init(host: String?, method: HTTPMethod) {
        self.host = host ?? ""
        sentMethod = method
    }

    /// What the call fails with when the rules give up after `error` (`nil` before any attempt): the plain
    /// error when the first attempt failed in a way retrying cannot cure, otherwise ``BrickError/gaveUp(_:)``
    /// with every attempt (a status not retried for the request's method alone included, after one attempt).
    func failure(_ why: RetryDecision.GiveUp, error: BrickError?, attempts: [AttemptRecord]) -> BrickError {
        let reason: RetryFailure.Reason
        switch why {
        case .notRetryable:
            if retries == 0, let error { return error }
            reason = .notRetryable
        case .notIdempotent:
            // A first attempt cut off after sending keeps its transport error, whose words say it may have
            // arrived; one answered with a status the rules would have retried but for the method gives up
            // after that attempt, saying so (a plain status error would leave the caller to guess).
            if retries == 0, let error, error.response == nil { return error }
            reason = .notIdempotent
        case .retriesExhausted: reason = .retriesExhausted(retries: retries)
        case .notReachable: reason = .notReachable(host: host)
        case .deadlineExceeded: reason = .deadlineExceeded
        }
        return .gaveUp(RetryFailure(reason: reason, attempts: attempts))
    }

    /// The ``AttemptRecord/repeatReason`` of an attempt retried after `error`.
    static func reason(for error: BrickError) -> String {
        switch error {
        case .transport(let error): "retry after \(error.kind.words)"
        case .validation(_, let response): "retry after status \(response.head.status)"
        default: "retry after \(error)"
        }
    }
}

extension AutoRetryConfiguration {
    /// Whether the rules have anything to do: retries allowed, or unreachable hosts to fail fast on.
    var isActive: Bool { maxRetryCount > 0 || failWhenNotReachable }
}

extension Session {
    /// The retry rules' verdict on `error` (``RetryDecision``), with the host's reachability asked only when
    /// a lost network could explain the failure, and only when the attempt's count for its origin did not
    /// just ask (`known`).
    @inline(never)
    nonisolated(nonsending) func retryVerdict(
        after error: BrickError, _ call: Call, _ state: RetryState, known: ReachabilityStatus? = nil
    ) async -> RetryDecision.Verdict {
        let failure: RetryDecision.FailureKind
        switch error.rootCause {
        case .transport(let transport): failure = .transport(transport.kind)
        case .validation(_, let response): failure = .status(response.head)
        default: failure = .other
        }
        let reachability = if RetryDecision.isNetworkFailure(failure) && !state.host.isEmpty {
            if let known { known } else { await reachability.status(of: state.host) }
        } else { ReachabilityStatus.reachable }
        return RetryDecision.decide(RetryDecision.Input(
            configuration: call.rules, retriesSoFar: state.retries, method: state.sentMethod,
            idempotency: call.idempotency, failure: failure, reachability: reachability, elapsed: call.elapsed,
            now: Date(), jitter: Double.random(in: 0..<1)))
    }

    /// The rules' verdict before an attempt (``RetryDecision/beforeAttempt(_:)``): `nil` to go ahead, or
    /// wait for the network, or give up. Asks the host's reachability once.
    @inline(never)
    nonisolated(nonsending) func verdictBeforeAttempt(_ call: Call, _ state: RetryState) async -> RetryDecision.Verdict? {
        guard !state.host.isEmpty else { return nil }
        return RetryDecision.beforeAttempt(RetryDecision.Input(
            configuration: call.rules, retriesSoFar: state.retries, method: state.sentMethod,
            idempotency: call.idempotency, failure: .other, reachability: await reachability.status(of: state.host),
            elapsed: call.elapsed))
    }

    /// Carries out ``RetryDecision/Verdict/waitForNetwork(upTo:)``: waits until the host is no longer unreachable,
    /// `limit` passes on the session's clock, or the task is cancelled. Tells the retry observer when the
    /// wait starts and when the network returned.
    @inline(never)
    nonisolated(nonsending) func waitForNetwork(_ call: Call, _ state: RetryState, upTo limit: Duration) async -> NetworkWait {
        _ = routeWatch.value  // the watch that wakes parked requests runs from before the look: no change is missed
        guard await reachability.status(of: state.host) == .unreachable else { return .reachable }
        notify(.waitingForNetwork(request: call.requestName, host: state.host, limit: limit))
        call.enter(.waiting)
        let start = call.elapsed
        let outcome = await waitUntilReachable(state.host, limit: limit)
        if outcome == .reachable {
            notify(.networkReturned(request: call.requestName, host: state.host, waited: call.elapsed - start))
        }
        return outcome
    }

    typealias NetworkWait = RouteWaiters.Outcome

    /// Waits until `host` is no longer unreachable, `limit` passes on the session's clock, or the task is
    /// cancelled, whichever comes first: parked with the session's other requests for the route
    /// (``RouteWaiters``), which the session's watch of routes wakes.
    nonisolated(nonsending) func waitUntilReachable(_ host: String, limit: Duration) async -> NetworkWait {
        _ = routeWatch.value
        let outcome = await routeWaiters.wait(for: host, upTo: limit, reachability)
        return Task.isCancelled ? .cancelled : outcome
    }

    /// Tells the session's retry observer, if it has one (the event is built only then).
    func notify(_ event: @autoclosure () -> RetryEvent) {
        if let observer = configuration.retryObserver { observer(event()) }
    }
}
