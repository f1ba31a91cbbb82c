/// How one request takes part in its origin's protection on its session (``OriginProtection``).
public struct OriginPolicy: Sendable, Equatable {
    /// Whether the request's retries draw on the origin's ``RetryBudget``. Default is `true`.
    public var usesRetryBudget: Bool
    /// Whether the request goes through the origin's circuit breaker; `nil` leaves it to the session
    /// (``OriginProtection/breaksEveryCall``). Default is `nil`.
    public var usesCircuitBreaker: Bool?

    /// Creates a policy.
    public init(usesRetryBudget: Bool = true, usesCircuitBreaker: Bool? = nil) {
        self.usesRetryBudget = usesRetryBudget
        self.usesCircuitBreaker = usesCircuitBreaker
    }

    /// The session decides: retries on the budget, the breaker as the session says.
    public static let sessionDefault = OriginPolicy()
    /// Through the origin's circuit breaker (what `CircuitBreakerType` sets).
    public static let circuitBreaking = OriginPolicy(usesCircuitBreaker: true)
    /// Retries as the rules say, whatever the budget holds (what `UnbudgetedRetryType` sets): for the few
    /// calls that must be retried even while their origin fails, such as a health check.
    public static let unbudgeted = OriginPolicy(usesRetryBudget: false)
}
