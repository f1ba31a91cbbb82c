package import FoundationEssentials

/// Where a ``DeliveryQueue`` keeps its requests: the SQLite file of one process (``SQLiteQueueStore``), or a
/// database a fleet of processes shares (the PostgreSQL store, a product of its own). The queue's loop
/// decides what to send and what an outcome means; a store keeps rows and hands out claims on them.
///
/// A request is claimed before it is sent: the claim marks it as being sent, counts an attempt and carries
/// a token that grows with every claim. A store shared by several processes also gives the claim a lease
/// (``leaseDuration``) that the claimant renews while it sends; once the lease has run out another process
/// may claim the request, and an outcome is recorded only under the current token (``settle(_:_:)``), so a
/// claimant that lost its lease cannot overwrite the new claimant's outcome.
package protocol QueueStore: Sendable {
    /// Where the rows are, for ``DeliveryQueue/path`` (never a password).
    var location: String { get }
    /// How long a claim holds when not renewed; `nil` when one process alone uses the store.
    var leaseDuration: Duration? { get }

    /// Adds a request to the queue, within the queue's limits; its number.
    func enqueue(_ row: QueueRow, limits: DeliveryQueue.Limits) throws(QueueError) -> Int64
    /// What to do next in `queue`.
    func next(in queue: String) throws(QueueError) -> QueueCandidate
    /// Claims `candidate` (marked as being sent, an attempt counted, a new token), or `nil` when it can no
    /// longer be claimed (another process took it, or another request of an ordered queue is being sent).
    func claim(_ candidate: Claim) throws(QueueError) -> Claim?
    /// Extends the claim's lease; `false` when the claim is no longer this one's.
    func renew(_ claim: Claim) throws(QueueError) -> Bool
    /// Records what became of a claimed request; `false` when the claim is no longer this one's (nothing
    /// was recorded).
    func settle(_ claim: Claim, _ settlement: Settlement) throws(QueueError) -> Bool
    /// The requests of `queue`: the dead letters, or all the others, oldest first.
    func list(_ queue: String, deadLetters: Bool) throws(QueueError) -> [QueuedRequest]
    /// Puts a dead letter back in line with its attempts counted from zero; whether it was one.
    func retryDeadLetter(_ id: Int64, in queue: String) throws(QueueError) -> Bool
    /// Takes a request that is not being sent out of `queue`; its label, or `nil` if there was none.
    func cancel(_ id: Int64, in queue: String) throws(QueueError) -> String?
    /// Wakes when another process changed `queue` (queued, settled); `nil` when no other process can.
    func changes(of queue: String) -> AsyncStream<Void>?
    /// The queue `queue` is closed in this process.
    func close(_ queue: String)
}

/// A request as it is queued.
package struct QueueRow: Sendable {
    package let queue: String
    package let label: String
    package let stored: StoredRequest
    package let idempotencyKey: String?
    package let queuedAt: Date
}

/// What a queue does next.
package enum QueueCandidate: Sendable {
    /// This request may be claimed.
    case ready(Claim)
    /// Nothing can be claimed now: wait for a change, or at most this long (a lease that may run out).
    case wait(Duration?)
}

/// What became of a claimed request.
package enum Settlement: Sendable {
    /// Out of the queue with its outcome.
    case finished
    /// Back in line for a later attempt.
    case requeued
    /// Kept as a dead letter.
    case deadLettered
}
