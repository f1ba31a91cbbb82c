/// How a session keeps its calls from making a failing origin's trouble worse: a retry budget per origin, a
/// circuit breaker per origin, a `Retry-After` that holds back every call to its origin, and optionally a
/// limit on the attempts in flight to each origin.
///
/// The state is kept per origin (scheme, host and port), for at most ``maxOrigins`` origins: the least
/// recently used is forgotten first, and one unused for ``idleExpiry`` may be. An origin's state takes about
/// 200 bytes besides its name. See Docs/RetryAndReachability.md for a worked example of each mechanism.
public struct OriginProtection: Sendable, Equatable {
    /// The budget retries draw on, per origin; `nil` turns budgets off. Default is ``RetryBudget/standard``.
    public var retryBudget: RetryBudget? = .standard
    /// The breaker's settings, for the calls that use one. Default is ``CircuitBreaker/standard``.
    public var circuitBreaker: CircuitBreaker = .standard
    /// Whether every call uses its origin's breaker, not only those whose ``OriginPolicy`` asks for it
    /// (the `CircuitBreakerType` brick). Default is `false`: a breaker fails calls fast, which a caller
    /// should choose.
    public var breaksEveryCall = false
    /// Whether a 429 or 503 with `Retry-After` holds back every call to its origin on the session until the
    /// time it names (at most ``maxHold``), not only the call that received it. Default is `true`.
    public var sharesRetryAfter = true
    /// The most attempts in flight to one origin (a bulkhead), apart from libcurl's limit on connections;
    /// `nil` for no limit. An attempt over it waits in its origin's line for what its deadline leaves, and
    /// fails with ``HeldBack/Reason/queueFull`` when ``maxQueuedCalls`` wait already. Default is `nil`.
    public private(set) var maxConcurrentCalls: Int?
    /// The most attempts waiting for a place under ``maxConcurrentCalls``, per origin. Default is 1,000.
    public private(set) var maxQueuedCalls = 1_000
    /// The longest one `Retry-After` holds an origin back. Default is 2 minutes.
    public private(set) var maxHold: Duration = .seconds(120)
    /// The most origins whose state is kept. Default is 1,024.
    public private(set) var maxOrigins = 1_024
    /// How long an origin's state is kept unused. Default is 10 minutes.
    public private(set) var idleExpiry: Duration = .seconds(600)

    /// The defaults: budgets on, breakers for the calls that ask, `Retry-After` shared.
    public init() {}

    /// Creates settings with bounds of your own.
    /// - Parameters:
    ///   - retryBudget: The budget retries draw on, or `nil`.
    ///   - circuitBreaker: The breakers' settings.
    ///   - breaksEveryCall: Whether every call uses its origin's breaker.
    ///   - sharesRetryAfter: Whether a `Retry-After` holds back every call to its origin.
    ///   - maxConcurrentCalls: Between 1 and 100,000, or `nil`.
    ///   - maxQueuedCalls: Between 0 and 1,000,000.
    ///   - maxHold: Between 0 and 1 hour.
    ///   - maxOrigins: Between 1 and 1,000,000.
    ///   - idleExpiry: Between 1 s and 1 day.
    /// - Throws: ``OriginSettingError`` when a value is out of its range.
    public init(
        retryBudget: RetryBudget? = .standard, circuitBreaker: CircuitBreaker = .standard, breaksEveryCall: Bool = false,
        sharesRetryAfter: Bool = true, maxConcurrentCalls: Int? = nil, maxQueuedCalls: Int = 1_000, maxHold: Duration = .seconds(120),
        maxOrigins: Int = 1_024, idleExpiry: Duration = .seconds(600)
    ) throws(OriginSettingError) {
        if let maxConcurrentCalls {
            try OriginSettingError.check("OriginProtection.maxConcurrentCalls", Double(maxConcurrentCalls), within: 1...100_000)
        }
        try OriginSettingError.check("OriginProtection.maxQueuedCalls", Double(maxQueuedCalls), within: 0...1_000_000)
        try OriginSettingError.check("OriginProtection.maxHold", maxHold.seconds, within: 0...3_600)
        try OriginSettingError.check("OriginProtection.maxOrigins", Double(maxOrigins), within: 1...1_000_000)
        try OriginSettingError.check("OriginProtection.idleExpiry", idleExpiry.seconds, within: 1...86_400)
        self.retryBudget = retryBudget
        self.circuitBreaker = circuitBreaker
        self.breaksEveryCall = breaksEveryCall
        self.sharesRetryAfter = sharesRetryAfter
        self.maxConcurrentCalls = maxConcurrentCalls
        self.maxQueuedCalls = maxQueuedCalls
        self.maxHold = maxHold
        self.maxOrigins = maxOrigins
        self.idleExpiry = idleExpiry
    }

    /// Nothing kept per origin: no budget, no breaker, each `Retry-After` for its own call alone.
    public static let off = OriginProtection(noneWith: ())

    private init(noneWith: Void) {
        retryBudget = nil
        sharesRetryAfter = false
    }

    /// Whether nothing at all is kept per origin.
    var isOff: Bool { retryBudget == nil && !sharesRetryAfter && !breaksEveryCall && maxConcurrentCalls == nil }
}
