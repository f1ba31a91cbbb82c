/// How a request is retried when it fails, and how long it waits for the network.
///
/// Delays (exponential backoff with full jitter and a cap), a count, what to do while the host is
/// unreachable, an overall deadline, the statuses worth retrying, and a bound on `Retry-After`. The presets
/// ``none``, ``soft`` and ``hard`` are what the retry bricks set. What is retried, and when, is decided by
/// ``RetryDecision``; see Docs/RetryAndReachability.md.
public struct AutoRetryConfiguration: Sendable, Equatable {
    /// The base delay: retry *n* (from 0) waits a random time between zero and
    /// `min(maxBreakTime, breakTime × 2ⁿ)` ("full jitter"). Default is 5 seconds.
    public var breakTime: Duration
    /// How many times a failed request is retried, not counting the first attempt: exactly this many at most.
    /// Default is 5.
    public var maxRetryCount: Int
    /// Whether a request fails at once, without sending, while its host is unreachable, instead of waiting
    /// for the network. Default is `false`.
    public var failWhenNotReachable: Bool
    /// The cap of the backoff delay. Default is 60 seconds.
    public var maxBreakTime: Duration
    /// The longest a request waits for an unreachable host to come back, per wait; then it fails with
    /// ``RetryFailure/Reason/networkWaitExpired(host:waited:)``. Default is 5 minutes.
    public var maxNetworkWait: Duration
    /// The longest the whole call may take, all attempts and waits together, measured from its start on the
    /// session's clock; no retry starts past it. Default is `nil` (bounded only by the other limits).
    public var deadline: Duration?
    /// The response statuses that are retried. Default is 408, 429, 500, 502, 503 and 504.
    public var retryableStatuses: Set<Int>
    /// The longest `Retry-After` delay honoured; a longer one is cut to this. Default is 2 minutes.
    public var maxRetryAfter: Duration

    /// Creates a configuration; every default is the one documented on its property.
    public init(
        breakTime: Duration = .seconds(5), maxRetryCount: Int = 5, failWhenNotReachable: Bool = false,
        maxBreakTime: Duration = .seconds(60), maxNetworkWait: Duration = .seconds(300), deadline: Duration? = nil,
        retryableStatuses: Set<Int> = Self.defaultRetryableStatuses, maxRetryAfter: Duration = .seconds(120)
    ) {
        self.breakTime = breakTime
        self.maxRetryCount = max(0, maxRetryCount)
        self.failWhenNotReachable = failWhenNotReachable
        self.maxBreakTime = maxBreakTime
        self.maxNetworkWait = maxNetworkWait
        self.deadline = deadline
        self.retryableStatuses = retryableStatuses
        self.maxRetryAfter = maxRetryAfter
    }

    /// 408, 429, 500, 502, 503 and 504.
    public static let defaultRetryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]

    /// Never retried, never waits for the network: the first failure is the answer.
    public static let none = AutoRetryConfiguration(maxRetryCount: 0)
    /// Up to 3 retries from a 1 s base, capped at 30 s per delay; waits up to 1 minute for the network;
    /// at most 2 minutes in all.
    public static let soft = AutoRetryConfiguration(
        breakTime: .seconds(1), maxRetryCount: 3, maxBreakTime: .seconds(30), maxNetworkWait: .seconds(60),
        deadline: .seconds(120))
    /// Up to 10 retries from a 2 s base, capped at 60 s per delay; waits up to 10 minutes for the network;
    /// at most 30 minutes in all.
    public static let hard = AutoRetryConfiguration(
        breakTime: .seconds(2), maxRetryCount: 10, maxBreakTime: .seconds(60), maxNetworkWait: .seconds(600),
        deadline: .seconds(1800))

    /// Removed: a Linux process has no background state for it to mean.
    /// Retries run while the calling task awaits the call; to stop them, cancel the task.
    @available(*, unavailable, message: "has no meaning on Linux: retries run while the caller awaits; cancel the task to stop them")
    public var enableBackgroundRetry: Bool { true }
}
