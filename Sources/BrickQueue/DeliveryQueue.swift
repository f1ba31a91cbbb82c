public import BrickCore
import BrickSystem
import BrickTransport
import FoundationEssentials

/// Requests that outlive the process: each is written to a SQLite database before anything is sent, and
/// delivered in the order queued, when its host is reachable, by this process or by the next one that
/// opens the same queue. (The `BrickQueuePostgres` product keeps the same queue on a PostgreSQL database
/// that a fleet of processes shares: `DeliveryQueue(postgres:…)`.)
///
/// - **Durable**: a request is committed to the database (atomic, `synchronous = FULL`) before
///   ``enqueue(_:label:)`` returns, and removed only once its outcome is known. The file is owner-only
///   (0600): requests hold tokens and bodies, and what is deleted is overwritten (`secure_delete`).
/// - **In order**: one request at a time per queue, oldest first; a request that must wait (for the
///   network, or for a retryable failure to pass) holds back the ones behind it, for at most
///   ``Limits/maxAttempts`` attempts: then it becomes a dead letter (kept, listed by ``deadLetters()``,
///   never dropped silently) and the next one goes.
/// - **Never twice what must not arrive twice**: a request whose method is not idempotent (a POST) gets an
///   `Idempotency-Key` when queued, sent with every attempt, and is sent again only after a failure that
///   proves it never left (refused, no route). If it may have arrived (the connection broke after it went,
///   or the process ended while it was being sent) it is not sent again: its outcome is
///   ``DeliveryOutcome/Result/mayHaveArrived(_:)``. Idempotent requests are delivered at least once.
/// - **Waits for the network**: before a request is marked as being sent, its host (or proxy) must be
///   reachable (`Session.reachability`). Each claim sends once: a failure worth trying again (a `503`, a
///   refused connection) puts the request back in line, and the next claim waits the backoff of the
///   retry rules (`retry`'s `breakTime`, doubled up to `maxBreakTime`) first, so that a request is marked
///   as being sent only while it may be at the server, and a process that dies in a wait loses nothing.
/// - **Bounded**: at most ``Limits/maxRequests`` requests and ``Limits/maxBytes`` of fields and bodies per
///   queue; ``enqueue(_:label:)`` throws ``QueueError/full(_:)`` past them.
/// - **Failures surface**: if the database fails while delivering (damaged, gone, full), delivery stops,
///   every ``outcomes()`` stream ends, and ``failure`` says why.
///
/// One process at a time opens a database (a lock beside it); in that process, queues of several names
/// may share it. The queue sends with its session's options and interceptors (a queued request keeps its
/// method, URL, fields and body, not its options).
public final class DeliveryQueue: Sendable {
    /// Where its requests are kept: the SQLite file's path, or the PostgreSQL database and schema (never a
    /// password).
    public let path: String
    /// The queue's name: several queues can share one database, each in its own order.
    public let name: String
    /// The session every request of the queue is sent through (its options, interceptors and reachability).
    public let session: Session
    /// The retry rules of the sends: their backoff between attempts, their retryable statuses, their wait for
    /// the network (each claim sends once; the queue makes the retries).
    public let retry: AutoRetryConfiguration
    /// The queue's bounds.
    public let limits: Limits

    package let store: any QueueStore
    let subscribers = Locked<(next: Int, all: [Int: AsyncStream<DeliveryOutcome>.Continuation], failure: QueueError?)>((0, [:], nil))
    let wake: AsyncStream<Void>.Continuation
    let wakes: Locked<AsyncStream<Void>?>
    let loop = Locked<Task<Void, Never>?>(nil)
    let interrupted = Locked<QueueError?>(nil)

    /// The retry rules a queue sends with by default: the soft rules, waiting up to a day for the network.
    public static let defaultRetry: AutoRetryConfiguration = {
        var rules = AutoRetryConfiguration.soft
        rules.maxNetworkWait = .seconds(86_400)
        return rules
    }()

    /// How much a queue holds, and how long a request may hold it back.
    public struct Limits: Sendable {
        /// Attempts (one per claim) before a request that keeps failing in a way worth trying again (503,
        /// refused) becomes a dead letter. Default is 100.
        public var maxAttempts: Int
        /// Requests the queue holds at most, dead letters included. Default is 10,000.
        public var maxRequests: Int
        /// Bytes of fields and in-memory bodies the queue holds at most (a file body counts its path only).
        /// Default is 256 MiB.
        public var maxBytes: Int

        /// Bounds; the defaults suit a device's outbox.
        public init(maxAttempts: Int = 100, maxRequests: Int = 10_000, maxBytes: Int = 256 << 20) {
            self.maxAttempts = max(1, maxAttempts)
            self.maxRequests = max(1, maxRequests)
            self.maxBytes = max(1, maxBytes)
        }

        /// Throws ``QueueError/full(_:)`` unless a request of `size` bytes fits beside `count` requests of
        /// `bytes` bytes.
        package func check(count: Int, bytes: Int, adding size: Int) throws(QueueError) {
            guard count < maxRequests else { throw .full("it holds \(count) requests, its limit") }
            // Compared without adding: the counts come from the database.
            guard size <= maxBytes, bytes <= maxBytes - size else {
                throw .full("\(bytes) bytes held and \(size) more would pass its limit of \(maxBytes)")
            }
        }
    }

    /// Opens (or creates) the queue `name` in the database at `path`. Nothing is sent before ``start()``.
    /// - Throws: ``QueueError/database(_:)`` when the file cannot be opened, another process has it open, or
    ///   a queue of this name is already open on it in this process.
    public convenience init(
        path: String, name: String = "default", session: Session, retry: AutoRetryConfiguration = DeliveryQueue.defaultRetry,
        limits: Limits = Limits()
    ) throws(QueueError) {
        try self.init(store: SQLiteQueueStore(path: path, queue: name), name: name, session: session, retry: retry, limits: limits)
    }

    /// The queue `name` in `store`.
    package init(
        store: any QueueStore, name: String, session: Session, retry: AutoRetryConfiguration, limits: Limits
    ) {
        self.store = store
        path = store.location
        self.name = name
        self.session = session
        self.retry = retry
        self.limits = limits
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        wakes = Locked(stream)
        wake = continuation
    }

    deinit {
        stop()
        store.close(name)
    }

    /// Why delivery stopped, when the database failed under it; `nil` while it works.
    public var failure: QueueError? { subscribers.withLock { $0.failure } }

    /// Why delivery is paused: a shared database cannot be reached (``QueueError/unreachable(_:)``).
    /// Delivery goes on by itself once it can, and this is `nil` again.
    public var interruption: QueueError? { interrupted.withLock { $0 } }
}
