/// Sends the request through its origin's circuit breaker: while the origin keeps failing, the request
/// fails at once with `BrickError.heldBack` instead of adding to its load (the session's
/// `OriginProtection.circuitBreaker` says when the breaker opens and for how long).
/// Sets: `originPolicy` = `.circuitBreaking`.
public protocol CircuitBreakerType: RequestType {}

extension CircuitBreakerType {
    public var originPolicy: OriginPolicy { .circuitBreaking }
}
