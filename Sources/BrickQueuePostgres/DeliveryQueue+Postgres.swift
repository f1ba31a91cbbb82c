#if Postgres
public import BrickCore
public import BrickQueue

extension DeliveryQueue {
    /// Opens (or creates) the queue `name` in `schema` of a PostgreSQL database that any number of
    /// processes, on any number of machines, share: each may enqueue and deliver. Nothing is sent before
    /// `DeliveryQueue.start()`.
    ///
    /// The store lays out its tables in `schema` on first use (and brings an older layout up to date),
    /// never touching a schema that holds anything else. A process claims a request before sending it,
    /// under a lease of `lease` that it renews while it sends; if the process dies, the lease runs out and
    /// another takes the request (one that must not arrive twice and may have arrived ends as
    /// `mayHaveArrived`, as it does on one machine). An outcome is recorded only under the claim's token:
    /// a process whose lease ran out (paused, cut off) cannot overwrite its successor's.
    /// - Parameters:
    ///   - database: The database (its connection string).
    ///   - schema: The schema that holds the queue's tables; any name, quoted as needed. Default is
    ///     `brick_queue`.
    ///   - name: The queue's name: several queues share a schema, each in its own order.
    ///   - ordered: Whether one request at a time is sent, fleet-wide, oldest first (a request that must
    ///     wait holds back the others); `false` lets every process send at once. A queue keeps the
    ///     ordering it was created with. Default is `true`.
    ///   - lease: How long a claim holds without being renewed (renewed at a third of it), 1 s to a day.
    ///     Default is 30 s.
    ///   - session: The session every request is sent through.
    ///   - retry: The retry rules of each send.
    ///   - limits: The queue's bounds, counted across the fleet.
    /// - Throws: `QueueError.connection(_:)` (refused credentials, no such database),
    ///   `QueueError.unreachable(_:)` (no server now), `QueueError.schema(_:)` (a layout of a newer
    ///   version, or another application's tables), `QueueError.database(_:)` (the queue exists with the
    ///   other ordering).
    public convenience init(
        postgres database: PostgresDatabase, schema: String = "brick_queue", name: String = "default", ordered: Bool = true,
        lease: Duration = .seconds(30), session: Session, retry: AutoRetryConfiguration = DeliveryQueue.defaultRetry, limits: Limits = Limits()
    ) throws(QueueError) {
        let store = try PostgresQueueStore(
            database: database, schema: PostgresSchema(schema), queue: name, ordered: ordered, lease: min(max(lease, .seconds(1)), .seconds(86_400)))
        self.init(store: store, name: name, session: session, retry: retry, limits: limits)
    }

    /// Queues `request` in the same transaction as `statements` (the transactional outbox): the caller's
    /// rows and the request are committed together, or neither is. The statements run under the role's own
    /// `search_path` (the queue's own statements never do).
    /// - Parameters:
    ///   - request: The request to deliver.
    ///   - label: What queued it.
    ///   - statements: The caller's statements, run first, in order.
    /// - Throws: `QueueError.database(_:)` when a statement fails (then nothing is kept) or the queue is
    ///   not on PostgreSQL; what `DeliveryQueue.enqueue(_:label:)` throws.
    @discardableResult
    public func enqueue(_ request: TransportRequest, label: String = "request", alongside statements: [PostgresStatement]) throws(QueueError)
        -> QueuedRequest
    {
        guard let store = store as? PostgresQueueStore else { throw .database("\(path) is not a PostgreSQL database: statements need one") }
        let row = try row(for: request, label: label)
        let limits = limits
        let id = try store.connection.withLock { connection throws(QueueError) -> Int64 in
            try connection.transaction { connection throws(QueueError) -> Int64 in
                // The caller's statements name the caller's tables as the caller's role finds them: under the
                // role's own search path, for them alone; the queue's statements after them, under the pinned one.
                try connection.query("SET LOCAL search_path TO DEFAULT")
                for statement in statements { try connection.query(statement.sql, statement.parameters.map { $0.map { .untyped($0) } ?? .null }) }
                try connection.query("SET LOCAL search_path = pg_catalog, pg_temp")
                return try store.insert(row, limits: limits, on: connection)
            }
        }
        return queued(row, id: id)
    }
}

/// One of the caller's SQL statements, with its `$1`, `$2`… parameters given as text (the server reads
/// each as the type of where it goes; `nil` is NULL), never spliced into the SQL.
public struct PostgresStatement: Sendable {
    /// The statement.
    public let sql: String
    /// Its parameters, in order.
    public let parameters: [String?]

    /// The statement `sql` with `parameters`.
    public init(_ sql: String, _ parameters: [String?] = []) {
        self.sql = sql
        self.parameters = parameters
    }
}
#endif
