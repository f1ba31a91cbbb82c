public import BrickCore
import BrickTransport
import FoundationEssentials
import Glibc

/// Requests that outlive the process: each is written to a SQLite database before anything is sent, and
/// delivered in the order queued, when its host is reachable, by this process or by the next one that
/// opens the same queue.
///
/// - **Durable**: a request is committed to the database (atomic, `synchronous = FULL`) before
///   ``enqueue(_:label:)`` returns, and removed only once its outcome is known. The file is owner-only
///   (0600): requests hold tokens and bodies.
/// - **In order**: one request at a time per queue, oldest first; a request that must wait (for the
///   network, or for a retryable failure to pass) holds back the ones behind it.
/// - **Never twice what must not arrive twice**: a request whose method is not idempotent (a POST) gets an
///   `Idempotency-Key` when queued, sent with every attempt, and is sent again only after a failure that
///   proves it never left (refused, no route). If it may have arrived (the connection broke after it went,
///   or the process ended while it was being sent) it is not sent again: its outcome is
///   ``DeliveryOutcome/Result/mayHaveArrived(_:)``. Idempotent requests are delivered at least once.
/// - **Waits for the network**: before a request is marked as being sent, its host (or proxy) must be
///   reachable (`Session.reachability`); the session's retry rules (`retry`) then apply to the send.
///
/// One process at a time opens a database (a lock beside it); the queue sends with its session's
/// options and interceptors (a queued request keeps its method, URL, fields and body, not its options).
public final class DeliveryQueue: Sendable {
    /// The database file.
    public let path: String
    /// The queue's name: several queues can share one database, each in its own order.
    public let name: String
    public let session: Session
    /// The retry rules of each send.
    public let retry: AutoRetryConfiguration

    private let database: Locked<SQLiteDatabase>
    private let lockFile: Int32
    private let subscribers = Locked<(next: Int, all: [Int: AsyncStream<DeliveryOutcome>.Continuation])>((0, [:]))
    private let wake: AsyncStream<Void>.Continuation
    private let wakes: Locked<AsyncStream<Void>?>
    private let loop = Locked<Task<Void, Never>?>(nil)

    /// The retry rules a queue sends with by default: the soft rules, waiting up to a day for the network.
    public static let defaultRetry: AutoRetryConfiguration = {
        var rules = AutoRetryConfiguration.soft
        rules.maxNetworkWait = .seconds(86_400)
        return rules
    }()

    /// Opens (or creates) the queue `name` in the database at `path`. Nothing is sent before ``start()``.
    /// - Throws: ``QueueError/database(_:)`` when the file cannot be opened, or another process has it open.
    public init(path: String, name: String = "default", session: Session, retry: AutoRetryConfiguration = DeliveryQueue.defaultRetry)
        throws(QueueError)
    {
        let lockPath = path + ".lock"
        let lockFile = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard lockFile >= 0 else { throw .database("cannot open \(lockPath): \(String(cString: strerror(errno)))") }
        guard flock(lockFile, LOCK_EX | LOCK_NB) == 0 else {
            close(lockFile)
            throw .database("\(path) is open in another process")
        }
        let database: SQLiteDatabase
        do {
            database = try SQLiteDatabase(path: path)
            try database.execute(Self.schema)
        } catch {
            close(lockFile)
            throw error
        }
        self.path = path
        self.name = name
        self.session = session
        self.retry = retry
        self.lockFile = lockFile
        self.database = Locked(database)
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        wakes = Locked(stream)
        wake = continuation
    }

    deinit {
        stop()
        close(lockFile)
    }

    static let schema = """
        PRAGMA synchronous = FULL;
        CREATE TABLE IF NOT EXISTS requests (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            queue TEXT NOT NULL,
            label TEXT NOT NULL,
            state TEXT NOT NULL DEFAULT 'pending',
            method TEXT NOT NULL,
            url TEXT NOT NULL,
            headers BLOB NOT NULL,
            body BLOB,
            body_file TEXT,
            idempotency_key TEXT,
            queued_at REAL NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX IF NOT EXISTS requests_in_order ON requests (queue, state, id);
        """

    // MARK: Queueing, listing, cancelling, observing

    /// Writes `request` to the queue and returns once it is on disk; ``start()`` delivers it.
    /// - Throws: ``QueueError/unstorableBody`` for a streamed body, ``QueueError/database(_:)``.
    @discardableResult
    public func enqueue(_ request: TransportRequest, label: String = "request") throws(QueueError) -> QueuedRequest {
        var request = request
        var key: String?
        if !request.method.isIdempotent {
            key = request.headers["Idempotency-Key"] ?? UUID().uuidString
            request.headers["Idempotency-Key"] = key
        }
        guard let stored = StoredRequest(request) else { throw .unstorableBody }
        let queuedAt = Date()
        let id = try database.withLock { database throws(QueueError) -> Int64 in
            try database.query(
                "INSERT INTO requests (queue, label, method, url, headers, body, body_file, idempotency_key, queued_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [.text(name), .text(label), .text(stored.method), .text(stored.url), .blob(stored.headers),
                 stored.body.map { .blob($0) } ?? .null, stored.bodyFile.map { .text($0) } ?? .null,
                 key.map { .text($0) } ?? .null, .real(queuedAt.timeIntervalSince1970)])
            return database.lastInsertedID
        }
        wake.yield()
        return QueuedRequest(id: id, label: label, method: request.method, url: request.url, queuedAt: queuedAt, attempts: 0,
                             idempotencyKey: key)
    }

    /// The requests still to be delivered, oldest first (the one being sent included).
    public func pending() throws(QueueError) -> [QueuedRequest] {
        try database.withLock { database throws(QueueError) -> [QueuedRequest] in
            var listed: [QueuedRequest] = []
            try database.query(
                "SELECT id, label, method, url, queued_at, attempts, idempotency_key FROM requests WHERE queue = ? ORDER BY id",
                [.text(name)]
            ) { row in
                listed.append(QueuedRequest(
                    id: row.integer(0), label: row.text(1) ?? "", method: HTTPMethod(row.text(2) ?? "GET"), url: row.text(3) ?? "",
                    queuedAt: Date(timeIntervalSince1970: row.real(4)), attempts: Int(row.integer(5)), idempotencyKey: row.text(6)))
            }
            return listed
        }
    }

    /// Takes request `id` out of the queue unless it is being sent; its outcome is ``DeliveryOutcome/Result/cancelled``.
    /// - Returns: Whether it was taken out.
    @discardableResult
    public func cancel(_ id: Int64) throws(QueueError) -> Bool {
        let label = try database.withLock { database throws(QueueError) -> String? in
            var label: String?
            try database.query("SELECT label FROM requests WHERE id = ? AND queue = ? AND state = 'pending'", [.integer(id), .text(name)]) {
                label = $0.text(0)
            }
            guard label != nil else { return nil }
            try database.query("DELETE FROM requests WHERE id = ?", [.integer(id)])
            return label
        }
        guard let label else { return false }
        announce(DeliveryOutcome(id: id, label: label, result: .cancelled))
        return true
    }

    /// Every outcome from now on, as deliveries end (in this process).
    public func outcomes() -> AsyncStream<DeliveryOutcome> {
        let (stream, continuation) = AsyncStream.makeStream(of: DeliveryOutcome.self)
        let id = subscribers.withLock { state in
            state.next += 1
            state.all[state.next] = continuation
            return state.next
        }
        continuation.onTermination = { [weak self] _ in self?.subscribers.withLock { _ = $0.all.removeValue(forKey: id) } }
        return stream
    }

    private func announce(_ outcome: DeliveryOutcome) {
        subscribers.withLock { Array($0.all.values) }.forEach { $0.yield(outcome) }
    }

    // MARK: Delivering

    /// Starts delivering, in a task of its own: first the outcome of requests a previous process left being
    /// sent, then the queue in order, waiting for new requests when it is empty. The task keeps the queue
    /// (and its database and lock) open until ``stop()``.
    public func start() {
        loop.withLock { task in
            guard task == nil, let wakes = wakes.withLock({ $0.take() }) else { return }
            task = Task { [self] in await run(wakes) }
        }
    }

    /// Stops delivering (a request being sent is cancelled and stays queued if it never left).
    public func stop() {
        loop.withLock { $0 }?.cancel()
    }

    private func run(_ wakes: AsyncStream<Void>) async {
        var waiting = wakes.makeAsyncIterator()
        recoverInterrupted()
        var backoff = retry.breakTime
        while !Task.isCancelled {
            let claimed: Claim?
            do { claimed = try await claimNext() } catch { return }
            guard let claimed else {
                guard !Task.isCancelled, await waiting.next() != nil else { return }
                continue
            }
            let outcome = await session.dataResponse(
                for: claimed.stored.request(options: session.configuration.transportOptions), retry: retry, idempotency: .byMethod,
                validation: .successful)
            switch settle(claimed, outcome) {
            case .done: backoff = retry.breakTime
            case .later:
                guard !Task.isCancelled, (try? await session.configuration.clock.sleep(for: backoff)) != nil else { return }
                backoff = min(backoff * 2, retry.maxBreakTime)
            case .stop: return
            }
        }
    }

    /// The request claimed for sending.
    struct Claim {
        let id: Int64
        let label: String
        let stored: StoredRequest
        let repeatable: Bool
    }

    /// The oldest pending request, once its host is reachable, marked as being sent (`nil` when none waits).
    private func claimNext() async throws(QueueError) -> Claim? {
        guard let next = try oldestPending() else { return nil }
        let request = next.stored.request(options: session.configuration.transportOptions)
        if let host = request.route.host {
            var changes = session.reachability.changes().makeAsyncIterator()
            while await session.reachability.status(of: host) == .unreachable {
                guard !Task.isCancelled, await changes.next() != nil else { return nil }
            }
        }
        try database.withLock { database throws(QueueError) in
            try database.query("UPDATE requests SET state = 'sending', attempts = attempts + 1 WHERE id = ?", [.integer(next.id)])
        }
        return next
    }

    private func oldestPending() throws(QueueError) -> Claim? {
        try database.withLock { database throws(QueueError) -> Claim? in
            var claim: Claim?
            try database.query(
                "SELECT id, label, method, url, headers, body, body_file FROM requests WHERE queue = ? AND state = 'pending' ORDER BY id LIMIT 1",
                [.text(name)]
            ) { row in
                let method = row.text(2) ?? "GET"
                let stored = StoredRequest(method: method, url: row.text(3) ?? "", headers: row.blob(4) ?? Data(), body: row.blob(5),
                                           bodyFile: row.text(6))
                claim = Claim(id: row.integer(0), label: row.text(1) ?? "", stored: stored, repeatable: HTTPMethod(method).isIdempotent)
            }
            return claim
        }
    }

    private enum Next { case done, later, stop }

    /// Records what one send ended with: removed with its outcome, or back in line for a later try.
    private func settle(_ claim: Claim, _ outcome: DataResponse<TransportResponse>) -> Next {
        let error: BrickError
        switch outcome.result {
        case .success(let response):
            finish(claim, .delivered(response))
            return .done
        case .failure(let failure): error = failure
        }
        let mayBeLost = error.requestMayHaveArrived && !claim.repeatable
        switch error {
        case .shutDown:
            requeue(claim)
            return .stop
        case _ where error.isCancelled || Task.isCancelled:
            if mayBeLost { finish(claim, .mayHaveArrived(error)) } else { requeue(claim) }
            return .stop
        case .requestEncoding, .file, .interceptor:
            finish(claim, .failed(error))  // nothing later would change it
            return .done
        case .gaveUp where error.response != nil:
            requeue(claim)  // the rules ran out on a retryable answer (503): try again later
            return .later
        case _ where error.response != nil:
            finish(claim, .failed(error))  // an answer the rules do not repeat (404)
            return .done
        case _ where mayBeLost:
            finish(claim, .mayHaveArrived(error))
            return .done
        default:
            requeue(claim)  // it never left, or it may go twice
            return .later
        }
    }

    private func requeue(_ claim: Claim) {
        _ = try? database.withLock { database throws(QueueError) in
            try database.query("UPDATE requests SET state = 'pending' WHERE id = ?", [.integer(claim.id)])
        }
    }

    private func finish(_ claim: Claim, _ result: DeliveryOutcome.Result) {
        _ = try? database.withLock { database throws(QueueError) in
            try database.query("DELETE FROM requests WHERE id = ?", [.integer(claim.id)])
        }
        announce(DeliveryOutcome(id: claim.id, label: claim.label, result: result))
    }

    /// Requests a previous process left being sent: an idempotent one goes back in line; any other may
    /// have arrived, so it is taken out with that outcome.
    private func recoverInterrupted() {
        var interrupted: [Claim] = []
        _ = try? database.withLock { database throws(QueueError) in
            try database.query("SELECT id, label, method FROM requests WHERE queue = ? AND state = 'sending' ORDER BY id", [.text(name)]) { row in
                let method = row.text(2) ?? "GET"
                interrupted.append(Claim(
                    id: row.integer(0), label: row.text(1) ?? "",
                    stored: StoredRequest(method: method, url: "", headers: Data(), body: nil, bodyFile: nil),
                    repeatable: HTTPMethod(method).isIdempotent))
            }
        }
        for claim in interrupted {
            if claim.repeatable { requeue(claim) } else { finish(claim, .mayHaveArrived(nil)) }
        }
    }
}
