public import FoundationEssentials
public import BrickCore

/// A request waiting in a ``DeliveryQueue``, as ``DeliveryQueue/pending()`` lists it.
public struct QueuedRequest: Sendable, Equatable, Identifiable {
    /// Its number in the queue's database, increasing in the order requests were queued.
    public let id: Int64
    /// What queued it (the request class's name, or the label given).
    public let label: String
    /// Its method.
    public let method: HTTPMethod
    /// Its URL.
    public let url: String
    /// When it was queued.
    public let queuedAt: Date
    /// Attempts made so far (in every process).
    public let attempts: Int
    /// The `Idempotency-Key` it goes with, made when it was queued (requests whose method is not idempotent).
    public let idempotencyKey: String?

    package init(id: Int64, label: String, method: HTTPMethod, url: String, queuedAt: Date, attempts: Int, idempotencyKey: String?) {
        self.id = id
        self.label = label
        self.method = method
        self.url = url
        self.queuedAt = queuedAt
        self.attempts = attempts
        self.idempotencyKey = idempotencyKey
    }
}

/// What became of a queued request.
public struct DeliveryOutcome: Sendable {
    /// The request's number (``QueuedRequest/id``).
    public let id: Int64
    /// Its label (``QueuedRequest/label``).
    public let label: String
    /// How it ended.
    public let result: Result

    /// How its delivery ended.
    public enum Result: Sendable {
        /// The server answered with a 2xx.
        case delivered(TransportResponse)
        /// The server answered, but not with a 2xx, and the retry rules do not repeat that answer; or the
        /// request could not be sent at all (its file is gone).
        case failed(BrickError)
        /// A request that must not arrive twice may have arrived, and was not sent again: the connection
        /// broke after it went, or the process ended while it was being sent. Its idempotency key lets you
        /// ask the server, or send it again yourself under the same key.
        case mayHaveArrived(BrickError?)
        /// ``DeliveryQueue/cancel(_:)`` took it out before it was sent.
        case cancelled
        /// It failed ``DeliveryQueue/Limits/maxAttempts`` times in a way worth trying again (the last
        /// failure here): it stays in the database as a dead letter (``DeliveryQueue/deadLetters()``), no
        /// longer holding back the requests behind it.
        case deadLettered(BrickError)
    }
}
