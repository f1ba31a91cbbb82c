#if Postgres
@testable import BrickQueue
@testable import BrickQueuePostgres
import BrickRequest
import Foundation
import Testing
import TestServers

/// Opening a queue on PostgreSQL: the schema's layout and its versions, names that are not plain, and the
/// typed errors of a bad connection string, refused credentials and a server out of reach.
@Suite struct SetupTests {
    @Test func aNewerLayoutIsRefusedAndLeftAsItWas() throws {
        let schema = Fleet.schema()
        let queue = try Fleet.deliverer(schema)
        try queue.enqueue(TransportRequest(url: "http://127.0.0.1:9/kept"))
        try Fleet.sql(queue, "UPDATE \(PostgresSchema(schema).qualified("layout")) SET version = 99")
        #expect {
            _ = try Fleet.deliverer(schema)
        } throws: { error in
            guard case QueueError.schema(let why) = error else { return false }
            return why.contains("version 99") && why.contains("newer")
        }
        #expect(try Fleet.sql(queue, "SELECT version FROM \(PostgresSchema(schema).qualified("layout"))").values == [["99"]])
        #expect(try queue.pending().map(\.url) == ["http://127.0.0.1:9/kept"])
    }

    @Test func aSchemaHoldingAnotherApplicationsTablesIsRefusedUntouched() throws {
        let probe = try Fleet.deliverer(Fleet.schema())
        let theirs = Fleet.schema()
        try Fleet.sql(probe, "CREATE SCHEMA \(theirs)")
        try Fleet.sql(probe, "CREATE TABLE \(theirs).requests (note text)")
        try Fleet.sql(probe, "INSERT INTO \(theirs).requests VALUES ('mine')")
        #expect {
            _ = try Fleet.deliverer(theirs)
        } throws: { error in
            guard case QueueError.schema(let why) = error else { return false }
            return why.contains("not a delivery queue's")
        }
        #expect(try Fleet.sql(probe, "SELECT note FROM \(theirs).requests").values == [["mine"]])
        #expect(try Fleet.sql(probe, "SELECT count(*) FROM pg_tables WHERE schemaname = $1", [.text(theirs)]).values == [["1"]])
    }

    @Test func aVersionOneLayoutIsUpgradedAndItsRequestsAreDelivered() async throws {
        let server = try FaultServer(keepAlive: true)
        defer { server.stop() }
        let probe = try Fleet.deliverer(Fleet.schema())
        let schema = try PostgresSchema(Fleet.schema())
        // A database laid out by version 1, with a request queued in it.
        try Fleet.store(probe).connection.withLock { connection throws(QueueError) in try schema.prepare(on: connection, upTo: 1) }
        try Fleet.sql(probe, "INSERT INTO \(schema.qualified("queues")) VALUES ('default', true)")
        try Fleet.sql(
            probe,
            "INSERT INTO \(schema.qualified("requests")) (queue, label, method, url, headers, queued_at) VALUES ('default', 'old', 'PUT', $1, $2, now())",
            [.text(server.baseURL + "/ledger?key=upgraded"), .bytes(Data("[]".utf8))])
        let claimedBy = "SELECT count(*) FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'requests' AND column_name = 'claimed_by'"
        #expect(try Fleet.sql(probe, claimedBy, [.text(schema.name)]).values == [["0"]])
        let queue = try Fleet.deliverer(schema.name)
        #expect(try Fleet.sql(queue, claimedBy, [.text(schema.name)]).values == [["1"]])
        #expect(try Fleet.sql(queue, "SELECT version FROM \(schema.qualified("layout"))").values == [["\(PostgresSchema.current)"]])
        #expect(try queue.pending().map(\.label) == ["old"])
        let outcomes = queue.outcomes()
        queue.start()
        defer { queue.stop() }
        #expect(await Fleet.collect(1, from: [outcomes]).allSatisfy(Fleet.delivered))
        #expect(server.ledger("upgraded").map(\.method) == ["PUT"])
    }

    @Test func schemaAndQueueNamesWithQuotesAndSQLAreKeptAsNames() async throws {
        let server = try CountingServer()
        defer { server.stop() }
        let schema = #"we"ird; DROP SCHEMA public CASCADE; --"#
        let name = #"o'brien"); DELETE FROM requests; --"#
        let queue = try Fleet.deliverer(schema, name: name)
        try queue.enqueue(TransportRequest(method: .post, url: server.server.baseURL + "/", body: .data(Data("quoted".utf8))), label: name)
        #expect(try queue.pending().map(\.label) == [name])
        let outcomes = queue.outcomes()
        queue.start()
        defer { queue.stop() }
        #expect(await Fleet.collect(1, from: [outcomes]).allSatisfy(Fleet.delivered))
        #expect(server.arrivals.withLock { $0 } == ["quoted"])
        #expect(try Fleet.sql(queue, "SELECT count(*) FROM pg_namespace WHERE nspname IN ('public', $1)", [.text(schema)]).values == [["2"]])
        #expect(throws: QueueError.self) { _ = try Fleet.deliverer(String(repeating: "s", count: 64)) }
    }

    @Test func aMalformedConnectionStringIsRefusedWithoutItsPassword() throws {
        for malformed in ["host='unterminated password=hunter2-secret", "postgresql://brick:hunter2-secret@[::1/db", "password=hunter2-secret nonsense"] {
            #expect {
                _ = try PostgresDatabase(malformed)
            } throws: { error in
                guard case QueueError.connection(let why) = error else { return false }
                return why.contains("malformed") && !"\(error)".contains("hunter2")
            }
        }
        let database = try PostgresDatabase("postgresql://brick:hunter2-secret@db.internal:6543/app?sslmode=verify-full")
        #expect(database.description == "postgresql://brick@db.internal:6543/app?sslmode=verify-full")
    }

    @Test func credentialsTheServerRefusesAreAConnectionErrorThatDoesNotShowThem() throws {
        let server = try Fleet.server()
        let wrong = "wrong-\(server.password)"
        let database = try PostgresDatabase("host=\(server.directory) user=brick dbname=postgres password=\(wrong)")
        #expect(!database.description.contains(wrong) && !"\(database)".contains("password"))
        #expect {
            _ = try DeliveryQueue(postgres: database, schema: Fleet.schema(), session: Fleet.session())
        } throws: { error in
            guard case QueueError.connection(let why) = error else { return false }
            return why.contains("password authentication failed") && !"\(error)".contains(wrong)
        }
        #expect {
            _ = try DeliveryQueue(postgres: PostgresDatabase("host=\(server.directory) user=brick dbname=nosuchdb password=\(server.password)"),
                                  session: Fleet.session())
        } throws: { error in
            guard case QueueError.connection(let why) = error else { return false }
            return why.contains("nosuchdb") && !"\(error)".contains(server.password)
        }
    }

    @Test func aServerOutOfReachIsUnreachableAtOnce() throws {
        let directory = try Paths.scratchDirectory("no-postgres")
        defer { Paths.removeTree(directory) }
        let database = try PostgresDatabase("host=\(directory) user=brick dbname=postgres password=unused-secret")
        #expect {
            _ = try DeliveryQueue(postgres: database, session: Fleet.session())
        } throws: { error in
            guard case QueueError.unreachable(let why) = error else { return false }
            return why.contains(directory) && !why.contains("unused-secret")
        }
    }

    @Test func thePGEnvironmentVariablesCompleteTheConnectionAsForPsql() async throws {
        let server = try Fleet.server()
        let schema = Fleet.schema()
        let program = try #require(Paths.builtProduct("queue-fleet"))
        // The string names only the database; host, user and password come from the environment.
        let environment = ["BRICK_PG": "dbname=postgres", "PGHOST": server.directory, "PGUSER": "brick", "PGPASSWORD": server.password]
        let queued = try await PipedChild.run([program, schema, "q", "--enqueue", "1", "http://127.0.0.1:9/", "env"], environment: environment)
        #expect(queued.status == 0, "\(queued.error)")
        #expect(queued.error.contains("queued q ") && !queued.error.contains(server.password))
        #expect(try Fleet.deliverer(schema, name: "q").pending().count == 1)
        let refused = try await PipedChild.run(
            [program, schema, "q", "--enqueue", "1", "http://127.0.0.1:9/", "env"], environment: environment.merging(["PGPASSWORD": "not-it-secret"]) { $1 })
        #expect(refused.status == 1 && refused.error.contains("refused the connection") && !refused.error.contains("not-it-secret"))
    }
}
#endif
