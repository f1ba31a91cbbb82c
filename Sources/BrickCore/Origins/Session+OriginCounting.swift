import FoundationEssentials

extension Session {
    /// After an attempt: counts it for its origin (the budget's tokens, the breaker's window or probe), and
    /// holds the origin back when the answer is a 429 or 503 with `Retry-After`. A failure while the route
    /// to the host is down counts for nothing.
    @inline(never)
    nonisolated(nonsending) func countAttempt(_ this: Attempt, _ state: inout LoopState, _ plan: RepeatPolicy, base: TransportRequest) async {
        state.routeAnswer = nil
        if let place = state.origin, place.holdsPlace {
            bulkheads?.leave(place.origin)
            state.origin?.holdsPlace = false
        }
        guard let origins else { return }
        let head = this.head ?? this.response?.head
        let hold = head.flatMap { holdAsked(by: $0, maxRetryAfter: plan.rules.maxRetryAfter, origins.settings) }
        guard var ticket = state.origin ?? hold.map({ _ in OriginTicket(origin: OriginTicket.origin(of: base.url), budget: nil, breaking: false) }) else {
            return
        }
        var kind: TransportError.Kind?
        if case .failed(let error) = this.outcome { kind = error.rootCause.transportError?.kind }
        var routeDown = false
        if head == nil, let kind, RetryDecision.isNetworkFailure(.transport(kind)), let host = base.route.host {
            let answer = await reachability.status(of: host)
            state.routeAnswer = answer
            routeDown = answer == .unreachable
        }
        let outcome = OriginOutcome.of(status: head?.status, failure: kind, routeDown: routeDown)
        let counted = ticket
        let transition = origins.update(ticket.origin) { origin, now in
            if let hold { origin.hold(until: now + hold) }
            return origin.record(
                outcome, probe: counted.probe, breaking: counted.breaking, budget: counted.budget, origins.settings.circuitBreaker, now: now)
        }
        ticket.probe = false
        ticket.charged = outcome.budget == .charge
        state.origin = ticket
        if let hold { notify(.heldBack(request: plan.requestName, origin: ticket.origin, for: hold)) }
        switch transition {
        case .opened(let until)?: notify(.circuitOpened(origin: ticket.origin, for: until - origins.now))
        case .closed?: notify(.circuitClosed(origin: ticket.origin))
        case nil: break
        }
    }

    /// How long `head` holds its origin back: a 429 or 503 with `Retry-After`, capped by
    /// ``OriginProtection/maxHold`` and the rules' ``AutoRetryConfiguration/maxRetryAfter``; `nil` otherwise.
    private func holdAsked(by head: ResponseHead, maxRetryAfter: Duration, _ settings: OriginProtection) -> Duration? {
        guard settings.sharesRetryAfter, head.status == 429 || head.status == 503,
            let asked = RetryAfter.delay(in: head, now: Date()), asked > .zero
        else { return nil }
        return min(asked, settings.maxHold, maxRetryAfter)
    }

    /// A plain call's answer `head` from `url`: holds the origin back when it asks (the straight path counts
    /// nothing else), by the same rule as the attempt loop: capped by the call's own `maxRetryAfter`.
    @inline(never)
    func holdOrigin(after head: ResponseHead, url: String, requestType: any Any.Type, maxRetryAfter: Duration) {
        guard let origins, let hold = holdAsked(by: head, maxRetryAfter: maxRetryAfter, origins.settings) else { return }
        let origin = OriginTicket.origin(of: url)
        origins.update(origin) { state, now in state.hold(until: now + hold) }
        notify(.heldBack(request: String(describing: requestType), origin: origin, for: hold))
    }

    /// Whether the budget lets the call retry after its last attempt: always, unless that attempt's failure
    /// was charged and the origin has half its tokens or fewer.
    func budgetAllowsRetry(_ state: LoopState) -> Bool {
        guard let origins, let ticket = state.origin, ticket.charged, let budget = ticket.budget else { return true }
        return origins.update(ticket.origin) { origin, _ in origin.allowsRetry(budget) }
    }
}
