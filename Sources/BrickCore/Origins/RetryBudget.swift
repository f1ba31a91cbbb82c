/// A session's retry budget for each origin: a bucket of tokens that failures drain and successes refill,
/// and retries stop while it is half empty or less (the retry throttling gRPC clients use).
///
/// Every origin (scheme, host and port) starts with ``maxTokens``. An attempt that failed after it may have
/// reached the server (a retryable status, a connection lost or timed out) takes one token; an attempt that
/// got an answer the server meant adds ``tokenRatio``. A retry after such a failure goes only while the
/// origin has more than half of ``maxTokens``. So an origin whose failures are rare (fewer than about one
/// attempt in eleven with the defaults) retries them freely, and a failing origin gets about
/// `maxTokens / 2` retries from the whole session, then one attempt per call until it answers again.
///
/// The default, 30 tokens, is three times gRPC's example: one call alone on a healthy origin keeps every
/// retry of the stock presets (up to 14 in a row before the budget says no; ``AutoRetryConfiguration/hard``
/// makes 10), while a storm of failing calls adds about 15 requests in all.
///
/// A failure that never left the client (connection refused, no DNS answer, no route, connect timeout) is
/// not charged, and neither is waiting for a route: those retries cost the origin nothing.
public struct RetryBudget: Sendable, Equatable {
    /// The tokens an origin starts with and never exceeds; retries go while it holds more than half.
    /// Between 1 and 1,000. Default is 30.
    public let maxTokens: Double
    /// The tokens an answered attempt adds back. More than 0, at most 1. Default is 0.1.
    public let tokenRatio: Double

    /// Creates a budget.
    /// - Throws: ``OriginSettingError`` when a value is out of its range.
    public init(maxTokens: Double = 30, tokenRatio: Double = 0.1) throws(OriginSettingError) {
        try OriginSettingError.check("RetryBudget.maxTokens", maxTokens, within: 1...1_000)
        try OriginSettingError.check("RetryBudget.tokenRatio", tokenRatio, within: 0.000_001...1)
        self.init(checked: maxTokens, tokenRatio)
    }

    private init(checked maxTokens: Double, _ tokenRatio: Double) {
        self.maxTokens = maxTokens
        self.tokenRatio = tokenRatio
    }

    /// 30 tokens, 0.1 back per answered attempt.
    public static let standard = RetryBudget(checked: 30, 0.1)
}
