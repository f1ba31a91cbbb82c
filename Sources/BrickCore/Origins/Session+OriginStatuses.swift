import FoundationEssentials

extension Session {
    /// Each origin the session has called and whose state it keeps (``OriginProtection``): the budget's
    /// tokens, the breaker's phase and how long calls are held back. Empty when protection is off.
    public func originStatuses() -> [OriginStatus] {
        guard let origins else { return [] }
        let wallNow = Date()
        func date(_ at: Duration, _ now: Duration) -> Date { wallNow.addingTimeInterval((at - now).seconds) }
        return origins.snapshot().filter { !$0.origin.contains(" client:") }.map { origin, state, now in
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
}
