import FoundationEssentials

/// The session's protection of each origin (``OriginProtection``), on each hop: the origin the hop goes to
/// admits it (a `Retry-After` hold is waited out or fails the call, an open breaker fails it, a full line of
/// calls in flight makes it wait), and the hop's answer is counted for that origin (its budget's tokens, its
/// breaker's window or probe, a hold its `429` or `503` asks for). So a redirect target's answers are its
/// own: the origin that redirected is charged for its redirect alone.
///
/// A `503` holds every call to its origin; a `429` holds only the calls that carry the same credentials (the
/// `Authorization`, `Cookie` and API-key fields), since a server that limits one client says nothing of
/// another. A failure while the route to the host is down counts for nothing.
final class ProtectingOrigins: PassingStage {
    let origins: OriginTable
    let bulkheads: Bulkheads?

    init(origins: OriginTable, bulkheads: Bulkheads?) {
        self.origins = origins
        self.bulkheads = bulkheads
    }

    @inline(__always)
    nonisolated(nonsending) func send(_ request: TransportRequest, _ call: Call, next: AttemptNext) async -> ResponseOutcome {
        await sendPassing(request, call, next: next)
    }

    /// Whether the call draws on the origin's breaker, and on its budget (`nil`: none).
    private func draws(_ call: Call) -> (breaking: Bool, budget: RetryBudget?) {
        let settings = origins.settings
        let breaking = call.originPolicy.usesCircuitBreaker ?? settings.breaksEveryCall
        return (breaking, call.rules.isActive && call.originPolicy.usesRetryBudget ? settings.retryBudget : nil)
    }

    /// Nothing is held, no line limits the hop, the call draws on no breaker, and no budget it draws on is
    /// short of tokens: the origin's state would admit the hop as it is, and a success changes nothing.
    func passesDown(_ request: TransportRequest, _ call: Call) -> Bool {
        let (breaking, budget) = draws(call)
        return !(breaking || bulkheads != nil || origins.holdsAny || (budget != nil && origins.owesAny))
    }

    /// A success passes; a failure is counted (or, for a call that draws on no budget, only a hold its
    /// answer asks for is noted).
    func passesUp(_ status: Int?, _ request: TransportRequest, _ call: Call) -> Bool {
        guard let status else { return draws(call).budget == nil }
        return !OriginOutcome.fails(status) || (draws(call).budget == nil && status != 429 && status != 503)
    }

    @inline(never)
    nonisolated(nonsending) func finish(_ outcome: ResponseOutcome, _ request: TransportRequest, _ call: Call, next: AttemptNext) async -> ResponseOutcome {
        guard let budget = draws(call).budget else {
            if let head = outcome.head, let status = outcome.arrivedStatus, status == 429 || status == 503 { hold(after: head, request, call) }
            return outcome
        }
        let ticket = OriginTicket(origin: call.session.originName(of: request.url), budget: budget, breaking: false)
        return await counted(outcome, ticket, request, call)
    }

    nonisolated(nonsending) func sendInFull(_ request: TransportRequest, _ call: Call, next: AttemptNext) async -> ResponseOutcome {
        let (breaking, budget) = draws(call)
        return await protected(request, call, next, breaking: breaking, budget: budget)
    }

    /// The hop through its origin's admission, then counted.
    @inline(never)
    private func protected(
        _ request: TransportRequest, _ call: Call, _ next: AttemptNext, breaking: Bool, budget: RetryBudget?
    ) async -> ResponseOutcome {
        let origin = call.session.originName(of: request.url)
        var ticket = OriginTicket(origin: origin, budget: budget, breaking: breaking)
        // While no origin holds calls back, none has a hold or a breaker other than closed: its state would
        // admit the hop as it is, and with no line of calls to take a place in, nothing is asked before it.
        if origins.holdsAny || bulkheads != nil, let refusal = await admit(&ticket, request, call) { return .failure(refusal) }
        defer { if ticket.holdsPlace { bulkheads?.leave(origin) } }
        return await counted(await next(request), ticket, request, call)
    }

    /// `outcome`, once counted for the ticket's origin (a failure without an answer counts for nothing while
    /// the route to the host is down).
    @inline(never)
    private nonisolated(nonsending) func counted(
        _ outcome: ResponseOutcome, _ ticket: OriginTicket, _ request: TransportRequest, _ call: Call
    ) async -> ResponseOutcome {
        let routeDown = !outcome.hasResponse ? await Self.routeDown(after: outcome, request, call) : false
        count(outcome, routeDown: routeDown, ticket, request, call)
        return outcome
    }

    /// Whether the hop may go now: waits out a hold (unless the rules fail fast or their deadline ends
    /// first), fails at an open breaker, takes a place in the origin's line. The error to fail with, or `nil`.
    private nonisolated(nonsending) func admit(_ ticket: inout OriginTicket, _ request: TransportRequest, _ call: Call) async -> BrickError? {
        let client = origins.holdsAny ? Self.clientKey(ticket.origin, request) : nil
        while true {
            let breaking = ticket.breaking
            let admission = origins.update(ticket.origin) { $0.admit(now: $1, breaking: breaking, origins.settings.circuitBreaker) }
            let clientHold = client.flatMap { key in origins.update(key) { state, now in state.heldUntil > now ? state.heldUntil : nil } }
            switch admission {
            case .go(let probe):
                ticket.probe = probe
                if let until = clientHold {
                    if probe { giveProbeBack(&ticket) }
                    guard await waitOut(until, ticket.origin, call) else { return heldBack(.retryAfter, ticket.origin, until: until) }
                    continue
                }
                return await takePlace(&ticket, call)
            case .circuitOpen(let until):
                return heldBack(.circuitOpen, ticket.origin, until: until)
            case .hold(let until):
                guard await waitOut(until, ticket.origin, call) else { return heldBack(.retryAfter, ticket.origin, until: until) }
            }
        }
    }

    /// Waits until `until` on the session's clock, when the call may: `false` when its rules fail fast, its
    /// deadline ends first, or its task is cancelled.
    private nonisolated(nonsending) func waitOut(_ until: Duration, _ origin: String, _ call: Call) async -> Bool {
        let wait = until - origins.now
        let remaining = call.rules.deadline.map { $0 - call.elapsed }
        if call.rules.failWhenNotReachable || remaining.map({ wait > $0 }) == true { return false }
        call.session.notify(.heldBack(request: call.requestName, origin: origin, for: wait))
        call.enter(.waiting)
        return await call.session.pause(for: wait) && !Task.isCancelled
    }

    /// Takes one of the origin's places, when the session limits them (``Bulkheads``), waiting for what the
    /// call's deadline leaves. A probe that gets no place gives its probe back.
    private nonisolated(nonsending) func takePlace(_ ticket: inout OriginTicket, _ call: Call) async -> BrickError? {
        guard let bulkheads else { return nil }
        let patience = call.rules.deadline.map { $0 - call.elapsed }
        let entry = await bulkheads.enter(ticket.origin, patience: patience)
        if entry == .admitted {
            ticket.holdsPlace = true
            return nil
        }
        if ticket.probe { giveProbeBack(&ticket) }
        switch entry {
        case .queueFull: return heldBack(.queueFull, ticket.origin, until: nil)
        case .expired: return heldBack(.queueWaitExpired, ticket.origin, until: nil)
        case .admitted, .cancelled: return .transport(.cancelled)
        }
    }

    private func giveProbeBack(_ ticket: inout OriginTicket) {
        _ = origins.update(ticket.origin) { origin, now in
            origin.record(OriginOutcome(budget: .none, breaker: .none), probe: true, breaking: true, budget: nil, origins.settings.circuitBreaker, now: now)
        }
        ticket.probe = false
    }

    private func heldBack(_ reason: HeldBack.Reason, _ origin: String, until: Duration?) -> BrickError {
        let now = origins.now
        return .heldBack(HeldBack(origin: origin, reason: reason, until: until.map { Date().addingTimeInterval(($0 - now).seconds) }))
    }

    /// Whether the route to the host was down when the hop failed without an answer in a way a lost network
    /// explains (the answer noted for the retry rules, which need not ask again).
    @inline(never)
    private static nonisolated(nonsending) func routeDown(after outcome: ResponseOutcome, _ request: TransportRequest, _ call: Call) async -> Bool {
        guard case .failure(let error) = outcome, let kind = error.rootCause.transportError?.kind,
            RetryDecision.isNetworkFailure(.transport(kind)), let host = call.session.routeHost(of: request)
        else { return false }
        let answer = await call.session.reachability.status(of: host)
        call.noteRouteAnswer(answer)
        return answer == .unreachable
    }

    /// Counts the hop's outcome for its origin, and notes for the retry rules what was charged where.
    @inline(never)
    private func count(_ outcome: ResponseOutcome, routeDown: Bool, _ ticket: OriginTicket, _ request: TransportRequest, _ call: Call) {
        let head = outcome.head
        var kind: TransportError.Kind?
        if case .failure(let error) = outcome { kind = error.rootCause.transportError?.kind }
        let counted = OriginOutcome.of(status: head?.status, failure: kind, routeDown: routeDown)
        let settings = origins.settings
        let transition = origins.update(ticket.origin) { origin, now in
            origin.record(counted, probe: ticket.probe, breaking: ticket.breaking, budget: ticket.budget, settings.circuitBreaker, now: now)
        }
        if let head, head.status == 429 || head.status == 503 { hold(after: head, request, call) }
        if let budget = ticket.budget { call.lastCharge = (ticket.origin, budget, counted.budget == .charge) }
        switch transition {
        case .opened(let until)?: call.session.notify(.circuitOpened(origin: ticket.origin, for: until - origins.now))
        case .closed?: call.session.notify(.circuitClosed(origin: ticket.origin))
        case nil: break
        }
    }

    /// Holds back the calls `head` (a `429` or `503`) asks to wait, for at most
    /// ``OriginProtection/maxHold`` and the call's ``AutoRetryConfiguration/maxRetryAfter``: a `503`'s every
    /// call to the origin, a `429`'s the calls with the same credentials.
    private func hold(after head: ResponseHead, _ request: TransportRequest, _ call: Call) {
        let settings = origins.settings
        guard settings.sharesRetryAfter, let asked = RetryAfter.delay(in: head, now: Date()), asked > .zero else { return }
        let hold = min(asked, settings.maxHold, call.rules.maxRetryAfter)
        let origin = call.session.originName(of: request.url)
        let key = head.status == 429 ? Self.clientKey(origin, request) : origin
        origins.update(key) { state, now in state.hold(until: now + hold) }
        call.session.notify(.heldBack(request: call.requestName, origin: origin, for: hold))
    }

    /// The key of a `429`'s hold: the origin and a digest of the request's credentials, so that only calls
    /// sending the same ones are held (one tenant's limit never holds another's).
    static func clientKey(_ origin: String, _ request: TransportRequest) -> String {
        let credentials = request.headers.filter { field in
            let name = field.name.lowercased()
            return Secrets.headerNames.contains(name) || Secrets.soundsSecret(name)
        }
        guard !credentials.isEmpty else { return origin + " client:none" }
        let text = credentials.map { $0.name.lowercased() + ":" + $0.value }.joined(separator: "\n")
        return origin + " client:" + SHA256.hex(text.utf8).prefix(32)
    }
}

extension Session {
    /// The origin the last attempt was charged to, when the budget there refuses a retry after it: the hop's
    /// failure was charged, and the origin has half its tokens or fewer. `nil` when the retry may go.
    func budgetRefusesRetry(_ call: Call) -> String? {
        guard let origins, let charge = call.lastCharge, charge.charged else { return nil }
        return origins.update(charge.origin) { origin, _ in origin.allowsRetry(charge.budget) } ? nil : charge.origin
    }
}
