public import FoundationEssentials

/// Why a call was not sent to its origin: the origin's circuit breaker is open, a `Retry-After` holds calls
/// to it back and the call may not wait, or the attempts in flight to it are at their limit and the line
/// of those waiting is full or outlasted the call's deadline. Found in ``BrickError/heldBack(_:)``; nothing was sent.
public struct HeldBack: Error, Sendable, Equatable, CustomStringConvertible {
    /// What holds the origin back. The library may add reasons in a minor version: switch with a `default`.
    public enum Reason: Sendable, Equatable {
        /// The origin's breaker is open (or half open with its probes out).
        case circuitOpen
        /// A 429 or 503 answer's `Retry-After` holds calls back, and the call fails rather than wait
        /// (``AutoRetryConfiguration/failWhenNotReachable``, or a deadline that ends first).
        case retryAfter
        /// The origin's line of attempts waiting for a place (``OriginProtection/maxConcurrentCalls``) is full.
        case queueFull
        /// The attempt waited in the origin's line until its deadline.
        case queueWaitExpired
    }

    /// The origin: `https://api.example.com:443`.
    public let origin: String
    /// What holds it back.
    public let reason: Reason
    /// When calls may go again, on the wall clock; `nil` while a half-open breaker waits for its probes, and
    /// for a full line.
    public let until: Date?

    /// Creates the error.
    public init(origin: String, reason: Reason, until: Date?) {
        self.origin = origin
        self.reason = reason
        self.until = until
    }

    public var description: String {
        let when = until.map { "until \($0.formatted(Date.ISO8601FormatStyle()))" } ?? "until its probe calls are answered"
        return switch reason {
        case .circuitOpen: "the circuit breaker of \(origin) is open \(when): the call was not sent"
        case .retryAfter: "\(origin) asked for calls to wait (Retry-After) \(when): the call was not sent"
        case .queueFull: "too many calls wait for a place among the calls in flight to \(origin): the call was not sent"
        case .queueWaitExpired: "the call waited for a place among the calls in flight to \(origin) until its deadline: it was not sent"
        }
    }
}
