#if Postgres
@testable import BrickQueue
@testable import BrickQueuePostgres
import BrickRequest
import BrickSystem
import Dispatch
import Foundation
import Glibc
import Testing
import TestServers

/// Several deliverers (each with its connections, as processes of a fleet have) on one queue in a real
/// PostgreSQL server.
@Suite struct FleetDeliveryTests {
    @Test func requestsArriveInOrderOnceEachAndAPostCarriesItsKey() async throws {
        let server = try FaultServer(keepAlive: true)
        defer { server.stop() }
        let queue = try Fleet.deliverer(Fleet.schema())
        let url = server.baseURL + "/ledger?key=pg"
        var queued: [QueuedRequest] = []
        for (index, method) in [HTTPMethod.post, .put, .post, .delete, .get].enumerated() {
            queued.append(try queue.enqueue(TransportRequest(method: method, url: url, body: .data(Data("\(index)".utf8))), label: "n\(index)"))
        }
        #expect(try queue.pending().map(\.id) == queued.map(\.id))
        let outcomes = queue.outcomes()
        queue.start()
        defer { queue.stop() }
        let delivered = await Fleet.collect(5, from: [outcomes])
        #expect(delivered.map(\.id) == queued.map(\.id))
        #expect(delivered.allSatisfy(Fleet.delivered))
        #expect(server.ledger("pg").map(\.body) == ["0", "1", "2", "3", "4"])
        #expect(server.ledger("pg").map(\.idempotencyKey) == queued.map(\.idempotencyKey))
        #expect(queued.filter { $0.method == .post }.allSatisfy { $0.idempotencyKey != nil })
        #expect(try queue.pending().isEmpty)
    }

    @Test func threeDeliverersOfAnOrderedQueueSendOneAtATimeOldestFirst() async throws {
        // A server that takes 2 ms per request: were two sent at once, it would hold both.
        let server = try CountingServer { _ in
            usleep(2000)
            return .text("ok")
        }
        defer { server.stop() }
        let schema = Fleet.schema()
        let fleet = try (0..<3).map { _ in try Fleet.deliverer(schema) }
        for index in 0..<30 {
            try fleet[index % 3].enqueue(TransportRequest(method: .post, url: server.server.baseURL + "/", body: .data(Data("\(index)".utf8))))
        }
        let streams = fleet.map { $0.outcomes() }
        fleet.forEach { $0.start() }
        defer { fleet.forEach { $0.stop() } }
        let outcomes = await Fleet.collect(30, from: streams)
        #expect(outcomes.count == 30 && outcomes.allSatisfy(Fleet.delivered))
        #expect(server.arrivals.withLock { $0 } == (0..<30).map { "\($0)" })
        #expect(server.peak == 1)
    }

    @Test func deliverersOfAnUnorderedQueueSendAtOnce() async throws {
        // Each request is held until two are in flight together: only parallel deliverers get answers.
        let gate = DispatchSemaphore(value: 0)
        let arrived = Locked(0)
        let server = try CountingServer { _ in
            if arrived.withLock({ count in count += 1; return count }) == 2 { gate.signal(); gate.signal() }
            return gate.wait(timeout: .now() + 30) == .success ? .text("together") : .text("alone", status: 504)
        }
        defer { server.stop() }
        let schema = Fleet.schema()
        let fleet = try (0..<2).map { _ in try Fleet.deliverer(schema, ordered: false) }
        for index in 0..<2 { try fleet[0].enqueue(TransportRequest(method: .put, url: server.server.baseURL + "/", body: .data(Data("\(index)".utf8)))) }
        let streams = fleet.map { $0.outcomes() }
        fleet.forEach { $0.start() }
        defer { fleet.forEach { $0.stop() } }
        let outcomes = await Fleet.collect(2, from: streams)
        #expect(outcomes.allSatisfy(Fleet.delivered))
        #expect(server.peak == 2)
        #expect(Set(outcomes.map(\.id)).count == 2)
    }

    @Test func anIdleDelivererWakesOnAnotherProcesssEnqueue() async throws {
        let server = try CountingServer()
        defer { server.stop() }
        let schema = Fleet.schema()
        let producer = try Fleet.deliverer(schema)  // enqueues only: never started
        let deliverer = try Fleet.deliverer(schema)
        let outcomes = deliverer.outcomes()
        deliverer.start()
        defer { deliverer.stop() }
        let queued = try producer.enqueue(TransportRequest(method: .post, url: server.server.baseURL + "/", body: .data(Data("hello".utf8))))
        let delivered = await Fleet.collect(1, from: [outcomes])
        #expect(delivered.map(\.id) == [queued.id])
        #expect(server.arrivals.withLock { $0 } == ["hello"])
    }

    @Test func theOutboxCommitsTheCallersRowAndTheRequestTogetherOrNeither() async throws {
        let queue = try Fleet.deliverer(Fleet.schema())
        let table = "orders_\(UInt32.random(in: 0...UInt32.max))"
        // The test's own statements name the table's schema (the queue's connection resolves names in
        // pg_catalog alone); the outbox's statements find it under the role's search path.
        try Fleet.sql(queue, "CREATE TABLE public.\(table) (id integer PRIMARY KEY, total numeric NOT NULL)")
        defer { _ = try? Fleet.sql(queue, "DROP TABLE public.\(table)") }
        let insert = PostgresStatement("INSERT INTO \(table) (id, total) VALUES ($1, $2)", ["42", "9.99"])
        let request = TransportRequest(method: .post, url: "http://127.0.0.1:9/orders", body: .data(Data("42".utf8)))
        try queue.enqueue(request, label: "order 42", alongside: [insert])
        #expect(try Fleet.sql(queue, "SELECT total FROM public.\(table)").values == [["9.99"]])
        #expect(try queue.pending().map(\.label) == ["order 42"])
        // The same order again: its row is refused, and the request is not queued either.
        #expect(throws: QueueError.self) { try queue.enqueue(request, label: "order 42 again", alongside: [insert]) }
        #expect(try queue.pending().map(\.label) == ["order 42"])
        #expect(try Fleet.sql(queue, "SELECT count(*) FROM public.\(table)").values == [["1"]])
    }

    @Test func theLimitsHoldAcrossTheFleet() throws {
        let schema = Fleet.schema()
        let first = try Fleet.deliverer(schema, limits: .init(maxRequests: 2))
        let second = try Fleet.deliverer(schema, limits: .init(maxRequests: 2))
        let request = TransportRequest(url: "http://127.0.0.1:9/")
        try first.enqueue(request)
        try second.enqueue(request)
        #expect {
            try first.enqueue(request)
        } throws: { error in
            guard case QueueError.full(let why) = error else { return false }
            return why.contains("2 requests")
        }
    }

    @Test func aDeadLetterIsSeenRetriedAndCancelledFromAnotherProcess() async throws {
        let server = try FaultServer(keepAlive: true)
        defer { server.stop() }
        let schema = Fleet.schema()
        let rules = AutoRetryConfiguration(breakTime: .milliseconds(5), maxRetryCount: 1, maxBreakTime: .milliseconds(5))
        let deliverer = try Fleet.deliverer(schema, limits: .init(maxAttempts: 3), retry: rules)
        let stuck = try deliverer.enqueue(TransportRequest(url: server.baseURL + "/status?code=503&key=forever"))
        let behind = try deliverer.enqueue(TransportRequest(method: .post, url: server.baseURL + "/ledger?key=behind"))
        let outcomes = deliverer.outcomes()
        deliverer.start()
        defer { deliverer.stop() }
        var seen = outcomes.makeAsyncIterator()
        guard case .deadLettered(let error)? = await seen.next()?.result else { Issue.record("no dead letter first"); return }
        #expect(error.response?.head.status == 503)
        #expect(await seen.next()?.id == behind.id)
        #expect(server.count("forever") == 3, "3 attempts, one send each")
        // Another process sees the dead letter, puts it back in line (the deliverer, woken by the
        // notification, tries it three times more), then takes it out.
        let operator_ = try Fleet.deliverer(schema)
        #expect(try operator_.deadLetters().map(\.id) == [stuck.id] && operator_.deadLetters().first?.attempts == 3)
        #expect(try operator_.retryDeadLetter(stuck.id))
        guard case .deadLettered? = await seen.next()?.result else { Issue.record("no second dead letter"); return }
        #expect(server.count("forever") == 6)
        #expect(try operator_.cancel(stuck.id))
        #expect(try deliverer.deadLetters().isEmpty && deliverer.pending().isEmpty)
    }
}
#endif
