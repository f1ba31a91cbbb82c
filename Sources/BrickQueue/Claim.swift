import BrickCore

/// A request of the queue that may be sent, or has been claimed for sending.
package struct Claim: Sendable {
    package let queue: String
    package let id: Int64
    package let label: String
    package let stored: StoredRequest
    /// Attempts made with this one (counting the one it is claimed for).
    package let attempts: Int
    /// The claim's token (0 before it is claimed): an outcome is recorded only under the current one.
    package let token: Int64
    /// Whether it was being sent by a claimant that is gone (a process that ended, a lease that ran out).
    package let interrupted: Bool

    package init(queue: String, id: Int64, label: String, stored: StoredRequest, attempts: Int, token: Int64 = 0, interrupted: Bool) {
        self.queue = queue
        self.id = id
        self.label = label
        self.stored = stored
        self.attempts = attempts
        self.token = token
        self.interrupted = interrupted
    }

    /// Whether it may be sent twice: its method is idempotent.
    package var repeatable: Bool { HTTPMethod(stored.method).isIdempotent }

    /// The same request, claimed under `token` for attempt `attempts`.
    package func claimed(token: Int64, attempts: Int) -> Claim {
        Claim(queue: queue, id: id, label: label, stored: stored, attempts: attempts, token: token, interrupted: interrupted)
    }
}
