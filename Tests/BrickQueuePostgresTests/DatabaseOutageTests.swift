#if Postgres
@testable import BrickQueue
@testable import BrickQueuePostgres
import BrickRequest
import Dispatch
import Foundation
import Testing
import TestServers

/// The database stops under a running deliverer, and starts again (a server of its own: the others' tests
/// keep theirs).
@Suite struct DatabaseOutageTests {
    @Test func deliveryPausesWithAnErrorTheOwnerSeesThenResumesAndNothingIsLost() async throws {
        let database = try PostgresServer()
        defer {
            database.stop()
            Paths.removeTree(database.directory)
        }
        let (held, holding) = AsyncStream<Void>.makeStream()
        let gate = DispatchSemaphore(value: 0)
        let server = try CountingServer { request in
            if request.body == Array("held".utf8) {
                holding.yield()
                gate.wait()
            }
            return .text("ok")
        }
        defer {
            gate.signal()
            server.stop()
        }
        let queue = try Fleet.deliverer(Fleet.schema(), on: database)
        for body in ["held", "after"] {
            try queue.enqueue(TransportRequest(method: .post, url: server.server.baseURL + "/", body: .data(Data(body.utf8))))
        }
        let outcomes = queue.outcomes()
        queue.start()
        defer { queue.stop() }
        for await _ in held { break }
        database.stop()
        // Enqueueing fails at once, typed; nothing is kept in memory for later.
        #expect {
            try queue.enqueue(TransportRequest(method: .post, url: server.server.baseURL + "/", body: .data(Data("lost".utf8))))
        } throws: { error in
            if case QueueError.unreachable = error { true } else { false }
        }
        gate.signal()  // the server answers: the outcome cannot be recorded while the database is away
        let deadline = ContinuousClock.now + .seconds(60)
        while queue.interruption == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        guard case .unreachable? = queue.interruption else {
            Issue.record("the deliverer did not report the database away: \(String(describing: queue.interruption))")
            return
        }
        try database.start()
        let ended = await Fleet.collect(2, from: [outcomes])
        #expect(ended.count == 2 && ended.allSatisfy(Fleet.delivered))
        #expect(queue.interruption == nil)
        #expect(queue.failure == nil)
        #expect(server.arrivals.withLock { $0 } == ["held", "after"])
        #expect(try queue.pending().isEmpty)
    }
}
#endif
