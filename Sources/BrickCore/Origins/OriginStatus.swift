public import FoundationEssentials

/// What a session keeps of one origin now (``Session/originStatuses()``).
public struct OriginStatus: Sendable, Equatable {
    /// The breaker's phase.
    public enum Breaker: Sendable, Equatable {
        /// Calls go.
        case closed
        /// Calls that use the breaker fail at once until then.
        case open(until: Date)
        /// Probe calls go; the rest fail at once.
        case halfOpen
    }

    /// `scheme://host:port`.
    public let origin: String
    /// The retry budget's tokens; `nil` when the session has no budget.
    public let retryTokens: Double?
    /// The breaker's phase.
    public let breaker: Breaker
    /// Until when a `Retry-After` holds calls back; `nil` when none does.
    public let heldUntil: Date?
    /// The attempts in flight and waiting for a place, when the session limits them
    /// (``OriginProtection/maxConcurrentCalls``); `nil` otherwise.
    public let calls: (inFlight: Int, waiting: Int)?

    public static func == (lhs: OriginStatus, rhs: OriginStatus) -> Bool {
        lhs.origin == rhs.origin && lhs.retryTokens == rhs.retryTokens && lhs.breaker == rhs.breaker && lhs.heldUntil == rhs.heldUntil
            && lhs.calls?.inFlight == rhs.calls?.inFlight && lhs.calls?.waiting == rhs.calls?.waiting
    }
}
