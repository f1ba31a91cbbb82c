extension Session {
    /// Takes one token of the retry budget of `url`'s origin for a repeat made outside a call's attempt loop
    /// (a WebSocket's reconnect): `true` when the budget allows it (more than half its tokens left, as for a
    /// call's retry), `false` when it refuses. Always `true` on a session without a budget.
    package func takeRetryToken(for url: String) -> Bool {
        guard let origins, let budget = origins.settings.retryBudget else { return true }
        return origins.update(originName(of: url)) { origin, _ in
            guard origin.allowsRetry(budget) else { return false }
            origin.tokens = max(0, origin.tokens - 1)
            return true
        }
    }

    /// Gives `url`'s origin's retry budget what a success earns it (``RetryBudget/tokenRatio``), as an
    /// answered call does: a repeat that worked.
    package func noteRepeatSucceeded(for url: String) {
        guard let origins, let budget = origins.settings.retryBudget else { return }
        origins.update(originName(of: url)) { origin, _ in origin.tokens = min(budget.maxTokens, origin.tokens + budget.tokenRatio) }
    }
}
