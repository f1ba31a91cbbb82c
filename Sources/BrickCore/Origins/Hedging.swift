/// How a collected call is hedged: when its attempt has no response after ``delay``, the same request goes
/// again beside it (on another connection: the first one is busy), up to ``maxExtraAttempts`` more, one per
/// delay; the first response wins and the others are cancelled. For idempotent requests only.
///
/// A hedge goes only while its origin's retry budget holds more than half its tokens, as a retry does, and is
/// part of its attempt: one place among the origin's calls in flight, one entry in the attempts, one count
/// for the breaker. The delay runs to the whole response of a collected call (its head and body). Streams
/// and downloads are not hedged.
public struct Hedging: Sendable, Equatable {
    /// How long an attempt goes without a response before the next hedge. Between 1 ms and 1 minute.
    public let delay: Duration
    /// How many hedges at most besides the first request. Between 1 and 5.
    public let maxExtraAttempts: Int

    /// Creates a policy.
    /// - Throws: ``OriginSettingError`` when a value is out of its range.
    public init(delay: Duration, maxExtraAttempts: Int = 1) throws(OriginSettingError) {
        try OriginSettingError.check("Hedging.delay", delay.seconds, within: 0.001...60)
        try OriginSettingError.check("Hedging.maxExtraAttempts", Double(maxExtraAttempts), within: 1...5)
        self.init(checked: delay, maxExtraAttempts)
    }

    private init(checked delay: Duration, _ maxExtraAttempts: Int) {
        self.delay = delay
        self.maxExtraAttempts = maxExtraAttempts
    }

    /// A hedge after 50 ms without a response, two at most.
    public static let standard = Hedging(checked: .milliseconds(50), 2)
}
