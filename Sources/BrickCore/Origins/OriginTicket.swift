/// What the attempt loop holds of a call's origin: its name in the session's ``OriginTable``, what the call
/// draws on there, and whether its current attempt is a half-open breaker's probe.
struct OriginTicket: Sendable {
    /// `scheme://host:port`.
    let origin: String
    /// The budget the call's retries draw on; `nil` when they draw on none.
    let budget: RetryBudget?
    /// Whether the call goes through the origin's breaker.
    let breaking: Bool
    /// Whether the attempt in flight is a probe.
    var probe = false
    /// Whether the attempt in flight holds one of the origin's places (``Bulkheads``).
    var holdsPlace = false
    /// Whether the last attempt's failure was charged to the budget (a retry after it needs the budget's leave).
    var charged = false

    /// The origin of `url` (``Origin``) as the session's tables name it: `scheme://host:port`; a URL with no
    /// origin is named by its text, so that it still has a state of its own.
    static func origin(of url: String) -> String { Origin(url)?.description ?? url }
}
