#if Postgres
@testable import BrickQueue
@testable import BrickQueuePostgres
import BrickRequest
import Foundation
import Testing
import TestServers

/// A database as an attacker with an ordinary role finds it: created the way every database before
/// PostgreSQL 15 was (any role may create objects in `public`), its search path putting `public` first, and
/// the deliverer's role reading `bytea` in the old escaped form. The attacker plants operators that fit the
/// queue's arithmetic better than the built-in ones, and functions that shadow the built-ins the queue's
/// statements call, each recording that it ran.
final class HostileDatabase {
    let server: PostgresServer
    let name = "hostile_\(UInt32.random(in: 0...UInt32.max))"
    let deliverer = "deliverer_\(UInt32.random(in: 0...UInt32.max))"
    let attacker = "mallory_\(UInt32.random(in: 0...UInt32.max))"
    let password = "pw-\(UInt32.random(in: 0...UInt32.max))"

    /// Built-in functions the queue's statements call, shadowed in `public`: name, arguments, result.
    static let shadowed: [(String, String, String)] = [
        ("clock_timestamp", "", "timestamptz"), ("now", "", "timestamptz"), ("random", "", "double precision"),
        ("length", "bytea", "integer"), ("octet_length", "text", "integer"), ("encode", "bytea, text", "text"),
        ("pg_notify", "text, text", "void"), ("nextval", "regclass", "bigint"), ("to_timestamp", "double precision", "timestamptz"),
        ("ceil", "numeric", "numeric"), ("hashtext", "text", "integer"), ("to_regclass", "text", "regclass"),
        ("pg_advisory_xact_lock", "integer, integer", "void"), ("pg_get_userbyid", "oid", "name"),
    ]
    /// Operators planted for the arithmetic the queue did before: a `numeric` by an `integer` (milliseconds
    /// left on a lease), a `bigint` by an `interval` (a lease's length), and the exact built-in one, which a
    /// search path with `public` first would find there first.
    static let operators: [(String, String, String)] = [
        ("numeric", "integer", "numeric"), ("bigint", "interval", "interval"), ("double precision", "interval", "interval"),
    ]

    init() throws {
        server = try Fleet.server()
        let admin = try connection(as: "brick", password: server.password, to: "postgres")
        try admin.execute("CREATE DATABASE \(name)")
        for role in [deliverer, attacker] { try admin.execute("CREATE ROLE \(role) LOGIN PASSWORD '\(password)'") }
        let inside = try connection(as: "brick", password: server.password, to: name)
        try inside.execute(
            """
            GRANT CREATE ON DATABASE \(name) TO \(deliverer);
            GRANT CREATE, USAGE ON SCHEMA public TO PUBLIC;
            ALTER DATABASE \(name) SET search_path = public, pg_catalog;
            ALTER ROLE \(deliverer) SET bytea_output = 'escape';
            """)
        try plant()
    }

    func connection(as role: String, password: String, to database: String) throws -> PostgresConnection {
        try PostgresConnection(PostgresDatabase("host=\(server.directory) port=5432 user=\(role) dbname=\(database) password=\(password)"))
    }

    /// The deliverer's database (its role, its password).
    func database() throws -> PostgresDatabase {
        try PostgresDatabase("host=\(server.directory) port=5432 user=\(deliverer) dbname=\(name) password=\(password)")
    }

    /// The attacker's objects, made by the attacker's role.
    private func plant() throws {
        let mallory = try connection(as: attacker, password: password, to: name)
        try mallory.execute("CREATE TABLE public.calls (what text); GRANT INSERT, SELECT ON public.calls TO PUBLIC")
        for (function, arguments, result) in Self.shadowed {
            let names = arguments.isEmpty ? [] : arguments.split(separator: ",").indices.map { "$\($0 + 1)" }
            let call = "pg_catalog.\(function)(\(names.joined(separator: ", ")))"
            let body = result == "void" ? "SELECT \(call)" : "SELECT \(call)::\(result)"
            try mallory.execute(
                """
                CREATE FUNCTION public.\(function)(\(arguments)) RETURNS \(result) LANGUAGE sql VOLATILE AS $f$
                INSERT INTO public.calls VALUES ('\(function)(\(arguments))'); \(body) $f$
                """)
        }
        for (index, (left, right, result)) in Self.operators.enumerated() {
            try mallory.execute(
                """
                CREATE FUNCTION public.stolen_\(index)(\(left), \(right)) RETURNS \(result) LANGUAGE sql VOLATILE AS $f$
                INSERT INTO public.calls VALUES ('\(left) * \(right)');
                SELECT $1::\(left == "numeric" ? "numeric" : "double precision") OPERATOR(pg_catalog.*) $2::\(right == "integer" ? "numeric" : right) $f$;
                CREATE OPERATOR public.* (LEFTARG = \(left), RIGHTARG = \(right), FUNCTION = public.stolen_\(index));
                """)
        }
    }

    /// What the planted objects recorded, as the superuser reads it.
    func calls() throws -> [String] {
        try connection(as: "brick", password: server.password, to: name).query("SELECT what FROM public.calls").values.compactMap { $0.first ?? nil }
    }
}

/// The queue on a database where another role may plant code: no statement of the queue runs it, a row
/// cannot make a deliverer read a file of its own machine, and a schema the deliverer's role does not own
/// is refused.
@Suite struct HostileRoleTests {
    /// Proof that the plants work: the deliverer's role, under the search path its database gives it, calls
    /// them for the arithmetic the queue's statements did before.
    @Test func thePlantedObjectsRunForTheDeliverersRoleUnderItsOwnSearchPath() throws {
        let hostile = try HostileDatabase()
        let connection = try hostile.connection(as: hostile.deliverer, password: hostile.password, to: hostile.name)
        try connection.query("SET search_path TO DEFAULT")
        try connection.query("SELECT EXTRACT(EPOCH FROM interval '1 second') * 1000, 5::bigint * interval '1 millisecond', clock_timestamp()")
        #expect(Set(try hostile.calls()) == ["numeric * integer", "bigint * interval", "clock_timestamp()"])
    }

    /// Two deliverers with four-second leases renewed while a slow server holds each request: every request
    /// arrives (the POSTs once), its fields and its file body intact, and not one planted object ran.
    @Test func aFleetDeliveryWithLeaseRenewalsNeverCallsThePlantedObjects() async throws {
        let hostile = try HostileDatabase()
        let server = try CountingServer { request in
            usleep(4_500_000)  // longer than the lease: the claim lives on renewals alone
            return .text(request.header("X-Probe") ?? "no field")
        }
        defer { server.stop() }
        let file = try Paths.scratchDirectory("hostile") + "/body.txt"
        try Paths.write("from a file", to: file)
        let schema = "queue_\(UInt32.random(in: 0...UInt32.max))"
        let fleet = try (0..<2).map { _ in
            try DeliveryQueue(postgres: hostile.database(), schema: schema, lease: .seconds(4), session: Fleet.session())
        }
        let url = server.server.baseURL + "/"
        try fleet[0].enqueue(TransportRequest(method: .post, url: url, headers: ["X-Probe": "kept"], body: .data(Data("0".utf8))))
        try fleet[1].enqueue(TransportRequest(method: .put, url: url, headers: ["X-Probe": "kept"], body: .file(path: file)))
        try fleet[0].enqueue(TransportRequest(method: .post, url: url, headers: ["X-Probe": "kept"], body: .data(Data("2".utf8))))
        let streams = fleet.map { $0.outcomes() }
        fleet.forEach { $0.start() }
        defer { fleet.forEach { $0.stop() } }
        let outcomes = await Fleet.collect(3, from: streams)
        // Each is delivered, its field and body intact. A machine under load (a sanitizer's) may renew a lease
        // too late: the other deliverer then takes the request over, sends the PUT again (idempotent: at least
        // once) and reports a POST as one that may have arrived (never sent twice).
        let delivered = outcomes.compactMap { if case .delivered(let response) = $0.result { String(decoding: response.body, as: UTF8.self) } else { nil } }
        #expect(delivered.allSatisfy { $0 == "kept" } && !delivered.isEmpty, "\(outcomes)")
        #expect(outcomes.allSatisfy { outcome in
            if Fleet.delivered(outcome) { return true }
            if case .mayHaveArrived = outcome.result { return true }
            return false
        }, "\(outcomes)")
        let arrivals = server.arrivals.withLock { $0 }
        #expect(Set(arrivals) == ["0", "from a file", "2"] && arrivals.filter { $0 != "from a file" }.sorted() == ["0", "2"], "\(arrivals)")
        #expect(try hostile.calls() == [])
    }

    /// A row that names a file as its body (planted by a role with `INSERT` on the table) is kept as a dead
    /// letter, never sent: the server receives nothing of the file.
    @Test func aPlantedBodyFileRowIsRefusedAndTheFileNeverRead() async throws {
        let hostile = try HostileDatabase()
        let server = try CountingServer()
        defer { server.stop() }
        let secret = try Paths.scratchDirectory("hostile") + "/secret.txt"
        try Paths.write("the deliverer's own secret", to: secret)
        let schema = try PostgresSchema("queue_\(UInt32.random(in: 0...UInt32.max))")
        let queue = try DeliveryQueue(postgres: hostile.database(), schema: schema.name, session: Fleet.session())
        let admin = try hostile.connection(as: "brick", password: hostile.server.password, to: hostile.name)
        try admin.query(
            """
            INSERT INTO \(schema.qualified("requests")) (queue, label, method, url, headers, body_file, queued_at)
            VALUES ('default', 'planted', 'POST', $1, '\\x5b5d', $2, now())
            """,
            [.text(server.server.baseURL + "/exfiltrate"), .text(secret)])
        try queue.enqueue(TransportRequest(method: .post, url: server.server.baseURL + "/", body: .data(Data("honest".utf8))), label: "honest")
        let outcomes = queue.outcomes()
        queue.start()
        defer { queue.stop() }
        let ended = await Fleet.collect(2, from: [outcomes])
        let planted = try #require(ended.first { $0.label == "planted" })
        guard case .deadLettered(.requestEncoding(.refusedBody(let why))) = planted.result else {
            Issue.record("the planted row ended as \(planted.result)")
            return
        }
        #expect(why.contains("names a file"))
        #expect(ended.first { $0.label == "honest" }.map { Fleet.delivered($0) } == true)
        #expect(server.arrivals.withLock { $0 } == ["honest"])
        #expect(try queue.deadLetters().map(\.label) == ["planted"])
    }

    /// A schema another role owns, or one in which another role may create objects, is refused.
    @Test func aSchemaTheRoleDoesNotOwnOrSharesIsRefused() throws {
        let hostile = try HostileDatabase()
        let mallory = try hostile.connection(as: hostile.attacker, password: hostile.password, to: hostile.name)
        let admin = try hostile.connection(as: "brick", password: hostile.server.password, to: hostile.name)
        try admin.execute("GRANT CREATE ON DATABASE \(hostile.name) TO \(hostile.attacker)")
        try mallory.execute("CREATE SCHEMA theirs; GRANT USAGE, CREATE ON SCHEMA theirs TO PUBLIC")
        #expect {
            _ = try DeliveryQueue(postgres: hostile.database(), schema: "theirs", session: Fleet.session())
        } throws: { error in
            guard case QueueError.schema(let why) = error else { return false }
            return why.contains("belongs to the role \"\(hostile.attacker)\"")
        }
        let own = try DeliveryQueue(postgres: hostile.database(), schema: "shared", session: Fleet.session())
        own.stop()
        let deliverer = try hostile.connection(as: hostile.deliverer, password: hostile.password, to: hostile.name)
        try deliverer.execute("GRANT CREATE ON SCHEMA shared TO \(hostile.attacker)")
        #expect {
            _ = try DeliveryQueue(postgres: hostile.database(), schema: "shared", session: Fleet.session())
        } throws: { error in
            guard case QueueError.schema(let why) = error else { return false }
            return why.contains("other roles may create objects")
        }
    }

    /// The caller's statements of the outbox find the caller's tables under the role's own search path; the
    /// queue's statements after them call nothing planted.
    @Test func theOutboxRunsTheCallersStatementsUnderTheRolesPathAndItsOwnUnderThePinnedOne() throws {
        let hostile = try HostileDatabase()
        let deliverer = try hostile.connection(as: hostile.deliverer, password: hostile.password, to: hostile.name)
        try deliverer.execute("CREATE TABLE public.orders (n integer)")
        let queue = try DeliveryQueue(postgres: hostile.database(), schema: "outbox", session: Fleet.session())
        try queue.enqueue(TransportRequest(method: .post, url: "http://127.0.0.1:9/", body: .data(Data("o".utf8))),
                          alongside: [PostgresStatement("INSERT INTO orders (n) VALUES ($1)", ["7"])])
        #expect(try deliverer.query("SELECT n FROM public.orders").values == [["7"]])
        #expect(try queue.pending().count == 1)
        #expect(try hostile.calls() == [])
    }

    @Test func dumpingADatabaseOrAQueueNeverShowsThePassword() throws {
        let server = try Fleet.server()
        let database = try Fleet.database(server)
        var shown = ""
        dump(database, to: &shown)
        let queue = try Fleet.deliverer(Fleet.schema())
        dump(queue, to: &shown)
        #expect(shown.contains("postgresql://brick@"))
        #expect(!shown.contains(server.password))
    }
}
#endif
