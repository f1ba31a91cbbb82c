#if Postgres
import BrickCore
import BrickQueue
import BrickSystem
import FoundationEssentials

/// The store of a queue on a PostgreSQL database that any number of processes share (``QueueStore``):
/// claims with leases and fencing tokens (the `claim` function of ``PostgresSchema``), outcomes recorded
/// only under the current token, and a notification on the schema's channel whenever a queue changes,
/// which every process's ``PostgresListener`` turns into a wake-up.
final class PostgresQueueStore: QueueStore {
    let connection: Locked<PostgresConnection>
    let schema: PostgresSchema
    let location: String
    let lease: Duration
    var leaseDuration: Duration? { lease }
    /// Whether the queue sends one request at a time, fleet-wide, oldest first.
    let ordered: Bool
    /// The channel of the schema's notifications (the payload is the queue's name).
    let channel: String
    /// Who claims: this process, as `host:pid`.
    private let claimant = processIdentity()
    private let listener: PostgresListener

    /// Connects, lays out the schema (``PostgresSchema/prepare(on:upTo:)``) and declares the queue `name`.
    /// - Throws: `QueueError.connection(_:)`, `QueueError.unreachable(_:)`, `QueueError.schema(_:)`;
    ///   `QueueError.database(_:)` when the queue exists with the other ordering.
    init(database: PostgresDatabase, schema: PostgresSchema, queue name: String, ordered: Bool, lease: Duration) throws(QueueError) {
        let connection = try PostgresConnection(database)
        try schema.prepare(on: connection)
        try connection.query(
            "INSERT INTO \(schema.qualified("queues")) (name, ordered) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
            [.text(name), .bool(ordered)])
        let declared = try connection.query("SELECT ordered FROM \(schema.qualified("queues")) WHERE name = $1", [.text(name)])
        guard declared.bool(0, 0) == ordered else {
            throw .database("the queue \"\(name)\" in \(schema.quoted) is \(ordered ? "unordered" : "ordered"); open it as such")
        }
        self.connection = Locked(connection)
        self.schema = schema
        self.ordered = ordered
        self.lease = max(lease, .seconds(1))
        location = "\(database), schema \(schema.quoted)"
        channel = Self.channel(for: schema.name)
        listener = PostgresListener(database: database, channel: channel)
    }

    /// A channel name of fixed length (a channel is an identifier of at most 63 bytes): the schema name's
    /// 64-bit FNV-1a hash.
    static func channel(for schema: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in schema.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return "brick_queue_" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    private var requests: String { schema.qualified("requests") }

    /// The lease, in whole milliseconds.
    private var leaseMilliseconds: Int64 { lease.components.seconds * 1000 + lease.components.attoseconds / 1_000_000_000_000_000 }

    func enqueue(_ row: QueueRow, limits: DeliveryQueue.Limits) throws(QueueError) -> Int64 {
        try connection.withLock { connection throws(QueueError) -> Int64 in
            try connection.transaction { connection throws(QueueError) in try insert(row, limits: limits, on: connection) }
        }
    }

    /// Inserts `row` within the queue's limits, and tells the other processes, inside the caller's
    /// transaction: the count is taken under the queue's row lock, so that processes enqueueing at once
    /// see each other's rows.
    func insert(_ row: QueueRow, limits: DeliveryQueue.Limits, on connection: PostgresConnection) throws(QueueError) -> Int64 {
        try connection.query("SELECT 1 FROM \(schema.qualified("queues")) WHERE name = $1 FOR NO KEY UPDATE", [.text(row.queue)])
        let held = try connection.query(
            "SELECT count(*), COALESCE(sum(length(headers) + COALESCE(length(body), 0) + COALESCE(octet_length(body_file), 0)), 0) FROM \(requests) WHERE queue = $1",
            [.text(row.queue)])
        let stored = try Self.inline(row.stored, limit: limits.maxBytes)
        try limits.check(count: Int(held.integer(0, 0)), bytes: Int(held.integer(0, 1)), adding: stored.size)
        let inserted = try connection.query(
            """
            INSERT INTO \(requests) (queue, label, method, url, headers, body, body_file, idempotency_key, queued_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, to_timestamp($9::double precision)) RETURNING id
            """,
            [.text(row.queue), .text(row.label), .text(stored.method), .text(stored.url), .bytes(stored.headers),
             stored.body.map { .bytes($0) } ?? .null, .null,
             row.idempotencyKey.map { .text($0) } ?? .null, .text(String(row.queuedAt.timeIntervalSince1970))])
        try connection.query("SELECT pg_notify($1, $2)", [.text(channel), .text(row.queue)])
        return inserted.integer(0, 0)
    }

    /// `stored` with a file body read into it: a shared database keeps every body inline, so that no row can
    /// make a deliverer read a file of its own machine (a row that names one is refused: ``next(in:)``).
    /// - Throws: `QueueError.full(_:)` for a file larger than the queue may hold; `QueueError.request(_:)`
    ///   when it cannot be read.
    static func inline(_ stored: StoredRequest, limit: Int) throws(QueueError) -> StoredRequest {
        guard let path = stored.bodyFile else { return stored }
        switch FileDescriptor.readWhole(path, limit: limit, followingLinks: true) {
        case .success(let bytes):
            return StoredRequest(method: stored.method, url: stored.url, headers: stored.headers, body: Data(bytes), bodyFile: nil)
        case .failure(let error) where error == .tooLarge:
            throw .full("the body file \(path) is larger than the queue's limit of \(limit) bytes")
        case .failure(let error):
            throw .request(.file(FileError(.open, path: path, osErrno: error.code)))
        }
    }

    /// An ordered queue: the request another process is sending (wait for it, at most until its lease ends),
    /// else one whose claimant's lease ran out, else the oldest waiting. An unordered queue: one whose
    /// claimant's lease ran out, else one of the oldest waiting (one of the first four, at random, so that
    /// processes looking at once seldom race for the same), else, when every one is being sent, wait at most
    /// until the first lease ends. Each part reads the `(queue, state, id)` index, never the whole queue.
    func next(in queue: String) throws(QueueError) -> QueueCandidate {
        let live = "(state = 'sending' AND claimed_until > clock_timestamp())"
        let columns = """
            id, label, method, url, pg_catalog.encode(headers, 'hex'), pg_catalog.encode(body, 'hex'), body_file IS NOT NULL, attempts, state,
            \(live) AS live, GREATEST(0, ceil(EXTRACT(EPOCH FROM claimed_until - clock_timestamp()) * 1000::numeric))::bigint AS remaining
            """
        // Ranks: ordered, live 0, lapsed 1, waiting 2; unordered, lapsed 0, waiting 1, live 2.
        let sending = ordered
            ? "SELECT \(columns), CASE WHEN \(live) THEN 0 ELSE 1 END AS rank FROM \(requests) WHERE queue = $1 AND state = 'sending' ORDER BY \(live) DESC, id LIMIT 1"
            : "SELECT \(columns), CASE WHEN \(live) THEN 2 ELSE 0 END AS rank FROM \(requests) WHERE queue = $1 AND state = 'sending' ORDER BY \(live), claimed_until, id LIMIT 1"
        let waiting = ordered
            ? "SELECT \(columns), 2 AS rank FROM \(requests) WHERE queue = $1 AND state = 'pending' ORDER BY id LIMIT 1"
            : "SELECT * FROM (SELECT \(columns), 1 AS rank FROM \(requests) WHERE queue = $1 AND state = 'pending' ORDER BY id LIMIT 4) oldest ORDER BY random() LIMIT 1"
        let rows = try connection.withLock { connection throws(QueueError) in
            try connection.query("SELECT * FROM ((\(sending)) UNION ALL (\(waiting))) candidates ORDER BY rank LIMIT 1", [.text(queue)])
        }
        guard !rows.isEmpty else { return .wait(nil) }
        // Another process holds the request: wait for its outcome, at most until its lease (a day at most) ends.
        if rows.bool(0, 9) { return .wait(.milliseconds(min(max(rows.integer(0, 10), 0), 86_400_000) + 10)) }
        var stored = StoredRequest(method: rows.text(0, 2) ?? "GET", url: rows.text(0, 3) ?? "", headers: rows.bytes(0, 4) ?? Data(),
                                   body: rows.bytes(0, 5), bodyFile: nil)
        if rows.bool(0, 6) {
            stored.refusal = "its row names a file as its body: a queue on a shared database delivers bodies kept in the database alone, never a file a row names"
        }
        return .ready(Claim(queue: queue, id: rows.integer(0, 0), label: rows.text(0, 1) ?? "", stored: stored,
                            attempts: Int(rows.integer(0, 7)), interrupted: rows.text(0, 8) == "sending"))
    }

    func claim(_ candidate: Claim) throws(QueueError) -> Claim? {
        let rows = try connection.withLock { connection throws(QueueError) in
            try connection.query(
                "SELECT claim_token, claim_attempts FROM \(schema.qualified("claim"))($1, $2, $3, $4)",
                [.text(candidate.queue), .integer(candidate.id), .integer(leaseMilliseconds), .text(claimant)])
        }
        guard !rows.isEmpty else { return nil }
        return candidate.claimed(token: rows.integer(0, 0), attempts: Int(rows.integer(0, 1)))
    }

    func renew(_ claim: Claim) throws(QueueError) -> Bool {
        try connection.withLock { connection throws(QueueError) -> Bool in
            try connection.query(
                """
                UPDATE \(requests) SET claimed_until = clock_timestamp() + $3::double precision * interval '1 millisecond'
                WHERE id = $1 AND token = $2 AND state = 'sending'
                """,
                [.integer(claim.id), .integer(claim.token), .integer(leaseMilliseconds)]
            ).changed > 0
        }
    }

    func settle(_ claim: Claim, _ settlement: Settlement) throws(QueueError) -> Bool {
        let change = switch settlement {
        case .finished: "DELETE FROM \(requests)"
        case .requeued: "UPDATE \(requests) SET state = 'pending', claimed_until = NULL, claimed_by = NULL"
        case .deadLettered: "UPDATE \(requests) SET state = 'dead', claimed_until = NULL, claimed_by = NULL"
        }
        return try connection.withLock { connection throws(QueueError) -> Bool in
            !(try connection.query(
                """
                WITH settled AS (\(change) WHERE id = $1 AND token = $2 AND state = 'sending' RETURNING queue)
                SELECT pg_notify($3, queue) FROM settled
                """,
                [.integer(claim.id), .integer(claim.token), .text(channel)]
            ).isEmpty)
        }
    }

    func changes(of queue: String) -> AsyncStream<Void>? { listener.changes(of: queue) }

    func close(_ queue: String) { listener.stop() }
}
#endif
