/// What a session keeps of one origin: its retry budget's tokens, its breaker, and how long a `Retry-After`
/// holds it back. Pure: every time is a duration on the session's clock since the table was made, passed in.
struct OriginState: Sendable {
    /// The breaker's phase.
    enum Breaker: Sendable, Equatable {
        case closed
        /// Calls fail fast until then.
        case open(until: Duration)
        /// `inFlight` probes are out, `answered` came back answered.
        case halfOpen(inFlight: Int, answered: Int)
    }

    /// What the table says to a call about to send an attempt.
    enum Admission: Sendable, Equatable {
        /// Send it; `probe` when it is one of a half-open breaker's probes.
        case go(probe: Bool)
        /// A `Retry-After` holds the origin back until then.
        case hold(until: Duration)
        /// The breaker is open until then (`nil`: half open, its probes out).
        case circuitOpen(until: Duration?)
    }

    /// A breaker's change, for the retry observer.
    enum Transition: Sendable, Equatable { case opened(until: Duration), closed }

    var tokens: Double
    /// The window of the latest attempts, newest in bit 0: a set bit is a failure.
    var window: UInt64 = 0
    var windowCount = 0
    var breaker = Breaker.closed
    var heldUntil: Duration = .zero
    /// When a call last looked at the origin, and whether the table counts it among those that hold calls
    /// back (``OriginTable`` keeps both).
    var lastUsed: Duration
    var countedAsHolding = false
    /// Whether the table counts it among those whose budget is below its full count of tokens.
    var countedAsOwing = false

    init(tokens: Double, now: Duration) {
        self.tokens = tokens
        lastUsed = now
    }

    /// Whether calls to this origin may be kept from going: a hold or a breaker not closed.
    func holds(_ now: Duration) -> Bool { heldUntil > now || breaker != .closed }

    /// Whether an attempt of a call may go now.
    mutating func admit(now: Duration, breaking: Bool, _ settings: CircuitBreaker) -> Admission {
        if heldUntil > now { return .hold(until: heldUntil) }
        guard breaking else { return .go(probe: false) }
        switch breaker {
        case .closed: return .go(probe: false)
        case .open(let until) where now < until: return .circuitOpen(until: until)
        case .open: breaker = .halfOpen(inFlight: 0, answered: 0)
        case .halfOpen: break
        }
        guard case .halfOpen(let inFlight, let answered) = breaker, inFlight + answered < settings.probes else {
            return .circuitOpen(until: nil)
        }
        breaker = .halfOpen(inFlight: inFlight + 1, answered: answered)
        return .go(probe: true)
    }

    /// Counts an attempt's `outcome`: the budget's tokens (when `budget` is given), the breaker's window or its
    /// probe (when `breaking`). Returns the breaker's change, if any.
    mutating func record(
        _ outcome: OriginOutcome, probe: Bool, breaking: Bool, budget: RetryBudget?, _ settings: CircuitBreaker, now: Duration
    ) -> Transition? {
        if let budget {
            switch outcome.budget {
            case .refill: tokens = min(budget.maxTokens, tokens + budget.tokenRatio)
            case .charge: tokens = max(0, tokens - 1)
            case .none: break
            }
        }
        guard breaking else { return nil }
        if probe, case .halfOpen(let inFlight, let answered) = breaker {
            switch outcome.breaker {
            case .failure:
                breaker = .open(until: now + settings.openDuration)
                return .opened(until: now + settings.openDuration)
            case .success where answered + 1 >= settings.probes:
                breaker = .closed
                (window, windowCount) = (0, 0)
                return .closed
            case .success: breaker = .halfOpen(inFlight: inFlight - 1, answered: answered + 1)
            case .none: breaker = .halfOpen(inFlight: inFlight - 1, answered: answered)
            }
            return nil
        }
        guard breaker == .closed, outcome.breaker != .none else { return nil }
        let mask: UInt64 = settings.window == 64 ? .max : (1 << UInt64(settings.window)) - 1
        window = ((window << 1) | (outcome.breaker == .failure ? 1 : 0)) & mask
        windowCount = min(windowCount + 1, settings.window)
        let failures = window.nonzeroBitCount
        guard windowCount >= settings.minimumCalls, Double(failures) >= settings.failureRate * Double(windowCount) else { return nil }
        breaker = .open(until: now + settings.openDuration)
        (window, windowCount) = (0, 0)
        return .opened(until: now + settings.openDuration)
    }

    /// Whether a retry after a charged failure may go: more than half the budget's tokens are left.
    func allowsRetry(_ budget: RetryBudget) -> Bool { tokens > budget.maxTokens / 2 }

    /// Holds calls back until `until`, unless they already are for longer.
    mutating func hold(until: Duration) { heldUntil = max(heldUntil, until) }
}

/// How one attempt counts for its origin.
struct OriginOutcome: Sendable, Equatable {
    enum Budget: Sendable, Equatable { case refill, charge, none }
    enum Breaker: Sendable, Equatable { case success, failure, none }
    var budget: Budget
    var breaker: Breaker

    /// An attempt that got a response with `status`, or failed with `kind` before one arrived; `routeDown`
    /// when the route to the host was down (then it counts for nothing).
    static func of(status: Int?, failure kind: TransportError.Kind?, routeDown: Bool) -> OriginOutcome {
        if routeDown { return OriginOutcome(budget: .none, breaker: .none) }
        if let status {
            return fails(status) ? OriginOutcome(budget: .charge, breaker: .failure) : OriginOutcome(budget: .refill, breaker: .success)
        }
        switch kind {
        case .connectionLost?, .timedOut?, .stalled?: return OriginOutcome(budget: .charge, breaker: .failure)
        case .connectionRefused?, .connectTimeout?: return OriginOutcome(budget: .none, breaker: .failure)
        default: return OriginOutcome(budget: .none, breaker: .none)
        }
    }

    /// Whether an answer with `status` counts as its origin's failure: `408`, `429` and the `5xx`.
    static func fails(_ status: Int) -> Bool { status == 408 || status == 429 || (500...599).contains(status) }
}
