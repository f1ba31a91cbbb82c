#if Postgres
import BrickQueue

/// The queue's tables in one PostgreSQL schema, which the store creates on first use and brings up to
/// ``current`` version, one numbered step at a time, under a lock that keeps two processes from doing it
/// at once. A step only adds: nothing the caller keeps is dropped.
///
/// - Version 1: `queues` (each queue's name and whether it is ordered), `requests`, the `claim_tokens`
///   sequence, and `claim`, the function that claims a request.
/// - Version 2: `requests.claimed_by`, which process holds a claim (`host:pid`), for operators.
/// - Version 3: `claim` again, its names resolved in `pg_catalog` before the schema's own and its arithmetic
///   on exact types, so that no operator or function another role planted can stand in for a built-in one.
///   Bodies are kept in `requests.body` alone from this version on: a row that names `body_file` is never
///   delivered.
///
/// The schema must be the current role's own, with no other role allowed to create objects in it: one that
/// could would be able to put functions where the `claim` function looks.
struct PostgresSchema {
    /// The schema's name as given.
    let name: String
    /// The name as a quoted identifier, safe to put in SQL whatever it holds.
    let quoted: String

    /// The version this library writes and reads.
    static let current = 3

    /// - Throws: `QueueError.schema(_:)` for a name PostgreSQL would cut (over 63 bytes) or cannot hold
    ///   (empty, a NUL byte).
    init(_ name: String) throws(QueueError) {
        guard !name.isEmpty, name.utf8.count <= 63, !name.utf8.contains(0) else {
            throw .schema("a schema name is 1 to 63 bytes with no NUL byte: \(name.debugDescription) is not")
        }
        self.name = name
        quoted = Self.identifier(name)
    }

    /// `name` as a quoted identifier: in double quotes, each double quote doubled.
    static func identifier(_ name: String) -> String { "\"" + name.replacing("\"", with: "\"\"") + "\"" }

    /// A table, sequence or function of the schema, qualified.
    func qualified(_ object: String) -> String { quoted + "." + object }

    /// Creates the schema or brings it to ``current``, in one transaction: all of it or nothing.
    /// - Throws: `QueueError.schema(_:)` when it is of a newer version, or holds tables that are not the
    ///   queue's; what the connection throws.
    func prepare(on connection: PostgresConnection, upTo target: Int = Self.current) throws(QueueError) {
        try connection.transaction { connection throws(QueueError) in
            // One process at a time lays out a schema (the key: this name's hash, under a fixed class).
            try connection.query("SELECT pg_advisory_xact_lock(1651664725, hashtext($1))", [.text(name)])
            try connection.execute("CREATE SCHEMA IF NOT EXISTS \(quoted)")
            try checkOwnership(on: connection)
            let version = try self.version(on: connection)
            guard version <= Self.current else {
                throw .schema("the schema \(quoted) is at version \(version), newer than this library's \(Self.current): upgrade the library")
            }
            for step in max(version, 0)..<target { try connection.execute(Self.steps(self)[step]) }
            if version < 0 {
                try connection.query("INSERT INTO \(qualified("layout")) (version) VALUES ($1)", [.integer(Int64(target))])
            } else if target > version {
                try connection.query("UPDATE \(qualified("layout")) SET version = $1", [.integer(Int64(target))])
            }
        }
    }

    /// Refuses a schema the current role does not own, or one in which another role may create objects.
    /// - Throws: `QueueError.schema(_:)` naming the owner or the grant.
    private func checkOwnership(on connection: PostgresConnection) throws(QueueError) {
        let rows = try connection.query(
            """
            SELECT pg_catalog.pg_get_userbyid(n.nspowner)::text, current_user::text,
                (SELECT count(*) FROM pg_catalog.aclexplode(n.nspacl) a WHERE a.privilege_type = 'CREATE' AND a.grantee <> n.nspowner)
            FROM pg_catalog.pg_namespace n WHERE n.nspname = $1::text
            """,
            [.text(name)])
        let owner = rows.text(0, 0) ?? "", role = rows.text(0, 1) ?? ""
        guard !owner.isEmpty, owner == role else {
            throw .schema("the schema \(quoted) belongs to the role \(owner.debugDescription), not to \(role.debugDescription): a queue's schema must be its own role's")
        }
        guard rows.integer(0, 2) == 0 else {
            throw .schema("other roles may create objects in the schema \(quoted) (GRANT CREATE): revoke it, or name a schema of the queue's own")
        }
    }

    /// The schema's version: -1 when it holds nothing yet (the version table is made here then).
    /// - Throws: `QueueError.schema(_:)` when it holds tables but no version: something else lives there.
    private func version(on connection: PostgresConnection) throws(QueueError) -> Int {
        let found = try connection.query("SELECT to_regclass($1) IS NOT NULL", [.text(qualified("layout"))])
        if found.bool(0, 0) {
            let rows = try connection.query("SELECT version FROM \(qualified("layout"))")
            return rows.isEmpty ? -1 : Int(rows.integer(0, 0))
        }
        let others = try connection.query("SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = $1::text", [.text(name)])
        guard others.integer(0, 0) == 0 else {
            throw .schema("the schema \(quoted) holds \(others.integer(0, 0)) tables that are not a delivery queue's: name another schema")
        }
        try connection.execute("CREATE TABLE \(qualified("layout")) (version integer NOT NULL)")
        return -1
    }

    /// The steps, each the statements that take the schema from its index's version to the next.
    private static func steps(_ schema: PostgresSchema) -> [String] {
        let s = schema.quoted
        return [
            """
            CREATE SEQUENCE \(s).claim_tokens;
            CREATE TABLE \(s).queues (name text PRIMARY KEY, ordered boolean NOT NULL);
            CREATE TABLE \(s).requests (
                id bigserial PRIMARY KEY,
                queue text NOT NULL REFERENCES \(s).queues (name),
                label text NOT NULL,
                state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'sending', 'dead')),
                method text NOT NULL,
                url text NOT NULL,
                headers bytea NOT NULL,
                body bytea,
                body_file text,
                idempotency_key text,
                queued_at timestamptz NOT NULL,
                attempts integer NOT NULL DEFAULT 0,
                token bigint,
                claimed_until timestamptz
            );
            CREATE INDEX requests_in_order ON \(s).requests (queue, state, id);
            \(claimFunction(s, recordsClaimant: false))
            """,
            """
            ALTER TABLE \(s).requests ADD COLUMN claimed_by text;
            DROP FUNCTION \(s).claim(text, bigint, bigint);
            \(claimFunction(s, recordsClaimant: true))
            """,
            """
            DROP FUNCTION \(s).claim(text, bigint, bigint, text);
            \(claimFunction(s, recordsClaimant: true, pinned: true))
            """,
        ]
    }

    /// `claim(queue, id, lease in ms[, claimant])`: claims request `id` unless another process has it (its
    /// lease still running) or, in an ordered queue, another request of the queue is being sent. Claims of
    /// an ordered queue take turns on the queue's row; each statement of the function sees what the one
    /// before it committed, so two processes never both find the queue free. Returns the new token and the
    /// attempt count, or no row.
    ///
    /// `pinned` (version 3 on): the function's names resolve in `pg_catalog` first, then in the schema, then
    /// (for tables alone) in `pg_temp`, and the lease is multiplied as `double precision`, for which an exact
    /// built-in operator exists; earlier versions looked in the schema alone (with `pg_catalog` implicitly
    /// first) and multiplied a `bigint`, which only a cast made fit.
    private static func claimFunction(_ s: String, recordsClaimant: Bool, pinned: Bool = false) -> String {
        let path = pinned ? "pg_catalog, \(s), pg_temp" : s
        let lease = pinned ? "p_lease_ms::double precision" : "p_lease_ms"
        return """
        CREATE FUNCTION \(s).claim(p_queue text, p_id bigint, p_lease_ms bigint\(recordsClaimant ? ", p_by text" : ""))
        RETURNS TABLE (claim_token bigint, claim_attempts integer) LANGUAGE plpgsql SET search_path TO \(path) AS $claim$
        BEGIN
            PERFORM 1 FROM queues q WHERE q.name = p_queue AND q.ordered FOR NO KEY UPDATE;
            IF FOUND AND EXISTS (
                SELECT 1 FROM requests o WHERE o.queue = p_queue AND o.state = 'sending' AND o.claimed_until > clock_timestamp() AND o.id <> p_id
            ) THEN
                RETURN;
            END IF;
            RETURN QUERY UPDATE requests r
                SET state = 'sending', token = nextval('claim_tokens'), attempts = r.attempts + 1,
                    claimed_until = clock_timestamp() + \(lease) * interval '1 millisecond'\(recordsClaimant ? ", claimed_by = p_by" : "")
                WHERE r.id = (
                    SELECT c.id FROM requests c
                    WHERE c.id = p_id AND c.queue = p_queue AND (c.state = 'pending' OR (c.state = 'sending' AND c.claimed_until <= clock_timestamp()))
                    FOR UPDATE SKIP LOCKED)
                RETURNING r.token, r.attempts;
        END
        $claim$;
        """
    }
}
#endif
