/// Why repeating a request stopped, with every attempt made: found in ``BrickError/gaveUp(_:)``.
///
/// A request whose retry configuration is ``AutoRetryConfiguration/none``, or that failed on its first
/// attempt in a way retrying cannot cure, fails with the plain error instead; a request that was repeated
/// until ``Session/Configuration/maxAttempts`` fails with ``Reason/attemptsExhausted(lastReason:)``.
public struct RetryFailure: Error, Sendable, CustomStringConvertible {
    /// Why retrying stopped. The library may add reasons in a minor version: switch with a `default`.
    public enum Reason: Sendable, Equatable {
        /// Every retry the configuration allows was made; the last attempt failed too.
        case retriesExhausted(retries: Int)
        /// After retries, the last failure is one retrying cannot cure.
        case notRetryable
        /// The last failure may have reached the server, the rules would have repeated it, and the request is
        /// not idempotent: after retries, or after the first attempt alone.
        case notIdempotent
        /// The host is unreachable and the request fails at once rather than wait
        /// (``AutoRetryConfiguration/failWhenNotReachable``).
        case notReachable(host: String)
        /// The host stayed unreachable for the longest wait allowed (``AutoRetryConfiguration/maxNetworkWait``
        /// or what was left of the deadline).
        case networkWaitExpired(host: String, waited: Duration)
        /// The next retry would have started past ``AutoRetryConfiguration/deadline``.
        case deadlineExceeded
        /// Interceptors' replays, error handlers' retries and the rules' retries together reached
        /// ``Session/Configuration/maxAttempts``; `lastReason` is why the last attempt asked to go again.
        case attemptsExhausted(lastReason: String)
        /// The origin's ``RetryBudget`` had half its tokens or fewer: the retry the rules asked for did not go
        /// (``AttemptRecord/retryNotTaken``), so that retries cannot multiply a failing origin's load.
        case retryBudgetSpent(origin: String)
        /// The origin held the next attempt back: its circuit breaker opened, or a `Retry-After` holds it
        /// back past what the call may wait.
        case heldBack(HeldBack)
    }

    /// Why retrying stopped.
    public let reason: Reason
    /// Every attempt made, oldest first, each with its error and why it was repeated.
    public let attempts: [AttemptRecord]
    /// The last attempt's error; `nil` when nothing was sent (an unreachable host failed at once).
    public var lastError: BrickError? { attempts.last?.error }

    /// Creates a failure.
    public init(reason: Reason, attempts: [AttemptRecord]) {
        self.reason = reason
        self.attempts = attempts
    }

    public var description: String {
        // The last error without its call: a gave-up error names the call once, before all of it.
        let last = lastError.map { ": last error: \($0.explanation)" } ?? ""
        return "gave up after \(attempts.count) attempt\(attempts.count == 1 ? "" : "s") (\(reason))\(last)"
    }
}

extension RetryFailure.Reason: CustomStringConvertible {
    /// Why retrying stopped, in words.
    public var description: String {
        switch self {
        case .retriesExhausted(let retries): "\(retries) retr\(retries == 1 ? "y" : "ies") spent"
        case .notRetryable: "the last failure is not one a retry cures"
        case .notIdempotent:
            "the request may have arrived and is not idempotent, so the rules do not send it twice (IdempotencyKeyType allows a repeat)"
        case .notReachable(let host): "\(host) is not reachable"
        case .networkWaitExpired(let host, let waited): "\(host) stayed unreachable for \(waited)"
        case .deadlineExceeded: "the deadline would have passed"
        case .attemptsExhausted(let lastReason): "the session's attempts ran out (the last one asked to repeat: \(lastReason))"
        case .retryBudgetSpent(let origin): "retry not taken: the retry budget of \(origin) is spent"
        case .heldBack(let held): "\(held)"
        }
    }
}
