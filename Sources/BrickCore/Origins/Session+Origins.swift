import FoundationEssentials

extension Session {
    /// Each origin the session has called and whose state it keeps (``OriginProtection``): the budget's
    /// tokens, the breaker's phase and how long calls are held back. Empty when protection is off.
    public func originStatuses() -> [OriginStatus] {
        guard let origins else { return [] }
        let wallNow = Date()
        func date(_ at: Duration, _ now: Duration) -> Date { wallNow.addingTimeInterval((at - now).seconds) }
        return origins.snapshot().map { origin, state, now in
            let breaker: OriginStatus.Breaker = switch state.breaker {
            case .closed: .closed
            case .open(let until): until > now ? .open(until: date(until, now)) : .halfOpen
            case .halfOpen: .halfOpen
            }
            return OriginStatus(
                origin: origin, retryTokens: origins.settings.retryBudget == nil ? nil : state.tokens, breaker: breaker,
                heldUntil: state.heldUntil > now ? date(state.heldUntil, now) : nil, calls: bulkheads?.occupancy(origin))
        }.sorted { $0.origin < $1.origin }
    }

    /// The ticket of a call under `plan` to `base`'s origin: `nil` when the call draws on nothing there (it
    /// may still be held back: the loop makes a ticket then).
    func originTicket(_ plan: RepeatPolicy, base: TransportRequest, retryRules: Bool) -> OriginTicket? {
        guard let origins else { return nil }
        let budget = retryRules && plan.rules.isActive && plan.origin.usesRetryBudget ? origins.settings.retryBudget : nil
        let breaking = plan.origin.usesCircuitBreaker ?? origins.settings.breaksEveryCall
        guard budget != nil || breaking || bulkheads != nil else { return nil }
        return OriginTicket(origin: OriginTicket.origin(of: base.url), budget: budget, breaking: breaking)
    }

    /// Before an attempt: whether its origin lets it go. A hold (`Retry-After`) is waited out unless the rules
    /// fail fast or their deadline ends first; an open breaker fails the call at once. Returns the error to
    /// end the call with, or `nil` to send the attempt.
    @inline(never)
    nonisolated(nonsending) func admitAttempt(_ state: inout LoopState, _ plan: RepeatPolicy, base: TransportRequest) async -> BrickError? {
        guard let origins else { return nil }
        var ticket = state.origin ?? OriginTicket(origin: OriginTicket.origin(of: base.url), budget: nil, breaking: false)
        while true {
            let admission = origins.update(ticket.origin) { $0.admit(now: $1, breaking: ticket.breaking, origins.settings.circuitBreaker) }
            switch admission {
            case .go(let probe):
                ticket.probe = probe
                state.origin = ticket
                return await takePlace(&state, plan)
            case .circuitOpen(let until):
                return heldBack(HeldBack.Reason.circuitOpen, ticket.origin, until: until, state, plan)
            case .hold(let until):
                let wait = until - origins.now
                let remaining = plan.rules.deadline.map { $0 - (state.retry?.stopwatch.elapsed ?? .zero) }
                if plan.rules.failWhenNotReachable || remaining.map({ wait > $0 }) == true {
                    return heldBack(HeldBack.Reason.retryAfter, ticket.origin, until: until, state, plan)
                }
                notify(.heldBack(request: plan.requestName, origin: ticket.origin, for: wait))
                guard await pause(for: wait) else { return .transport(.cancelled) }
            }
        }
    }

    /// Takes one of the origin's places for the attempt, when the session limits them (``Bulkheads``),
    /// waiting for what the call's deadline leaves. A probe that gets no place gives its probe back.
    private nonisolated(nonsending) func takePlace(_ state: inout LoopState, _ plan: RepeatPolicy) async -> BrickError? {
        guard let bulkheads, let origins, var ticket = state.origin else { return nil }
        let patience = plan.rules.deadline.map { $0 - (state.retry?.stopwatch.elapsed ?? .zero) }
        let entry = await bulkheads.enter(ticket.origin, patience: patience)
        if entry == .admitted {
            ticket.holdsPlace = true
            state.origin = ticket
            return nil
        }
        if ticket.probe {
            _ = origins.update(ticket.origin) { origin, now in
                origin.record(OriginOutcome(budget: .none, breaker: .none), probe: true, breaking: true, budget: nil, origins.settings.circuitBreaker, now: now)
            }
            ticket.probe = false
            state.origin = ticket
        }
        switch entry {
        case .queueFull: return heldBack(.queueFull, ticket.origin, until: nil, state, plan)
        case .expired: return heldBack(.queueWaitExpired, ticket.origin, until: nil, state, plan)
        case .admitted, .cancelled: return .transport(.cancelled)
        }
    }

    /// What a call ends with when its origin holds it back: the plain error before any attempt, else a
    /// give-up with the attempts made.
    private func heldBack(_ reason: HeldBack.Reason, _ origin: String, until: Duration?, _ state: LoopState, _ plan: RepeatPolicy) -> BrickError {
        let now = origins?.now ?? .zero
        let held = HeldBack(origin: origin, reason: reason, until: until.map { Date().addingTimeInterval(($0 - now).seconds) })
        guard !state.records.isEmpty else { return .heldBack(held) }
        let failure = RetryFailure(reason: .heldBack(held), attempts: state.records)
        notify(.gaveUp(request: plan.requestName, failure))
        return .gaveUp(failure)
    }
}
