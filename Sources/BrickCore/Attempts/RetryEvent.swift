/// What the retry machinery is doing, as it happens: for logs, metrics and "waiting for network" displays.
/// Delivered to ``Session/Configuration/retryObserver`` on the request's own task, before the wait starts.
/// The library may add cases in a minor version: switch with a `default`.
public enum RetryEvent: Sendable {
    /// The request waits for `host` to become reachable (at most `limit`).
    case waitingForNetwork(request: String, host: String, limit: Duration)
    /// `host` became reachable after `waited`; the request goes out now.
    case networkReturned(request: String, host: String, waited: Duration)
    /// Attempt `attempt` failed with `failure`; attempt `attempt + 1` follows after `delay`.
    case retrying(request: String, attempt: Int, after: Duration, failure: BrickError)
    /// The retry rules gave up.
    case gaveUp(request: String, RetryFailure)
    /// The retry the rules asked for after `failure` did not go: `origin`'s ``RetryBudget`` is spent.
    case retryNotTaken(request: String, origin: String, failure: BrickError)
    /// A `Retry-After` holds calls to `origin` back for `duration`: the call that received it (told when it
    /// arrived), or a call that waits for it to end (told before it waits).
    case heldBack(request: String, origin: String, for: Duration)
    /// `origin`'s circuit breaker opened; calls that use it fail at once for `duration`.
    case circuitOpened(origin: String, for: Duration)
    /// `origin`'s circuit breaker closed: its probe calls were answered.
    case circuitClosed(origin: String)
    /// A hedged attempt sent its `hedge`-th extra request (``Hedging``).
    case hedging(request: String, hedge: Int)
}
