#if Postgres
@testable import BrickQueue
@testable import BrickQueuePostgres
import BrickRequest
import Foundation
import Testing
import TestServers

/// Claims, leases and fencing tokens, between deliverers of one queue.
@Suite struct ClaimTests {
    /// The lease of every claim of `queue` runs out now (as it does when its claimant is paused or gone).
    static func expireLeases(_ queue: DeliveryQueue) throws {
        try Fleet.sql(queue, "UPDATE \(Fleet.store(queue).schema.qualified("requests")) SET claimed_until = clock_timestamp() - interval '1 second' WHERE state = 'sending'")
    }

    static func ready(_ candidate: QueueCandidate) throws -> Claim {
        guard case .ready(let claim) = candidate else {
            Issue.record("expected a request to claim, got \(candidate)")
            throw QueueError.database("nothing to claim")
        }
        return claim
    }

    @Test func aClaimantWhoseLeaseRanOutCannotRecordAnOutcomeOverItsSuccessors() throws {
        let schema = Fleet.schema()
        let first = try Fleet.deliverer(schema), second = try Fleet.deliverer(schema)
        let (a, b) = (try Fleet.store(first), try Fleet.store(second))
        let queued = try first.enqueue(TransportRequest(url: "http://127.0.0.1:9/report"))
        let claimA = try #require(try a.claim(Self.ready(a.next(in: "default"))))
        #expect(claimA.id == queued.id && claimA.attempts == 1)
        // While the lease runs, the other deliverer waits (the queue is ordered), at most until it ends.
        guard case .wait(let longest?) = try b.next(in: "default") else { Issue.record("the second deliverer did not wait"); return }
        #expect(longest > .seconds(25) && longest <= .seconds(31))
        #expect(try b.claim(claimA) == nil)
        // The first is paused past its lease: the second claims the request, under a greater token.
        try Self.expireLeases(first)
        let candidate = try Self.ready(b.next(in: "default"))
        #expect(candidate.interrupted)
        let claimB = try #require(try b.claim(candidate))
        #expect(claimB.token > claimA.token && claimB.attempts == 2)
        // The first comes back: its lease is not renewed and its outcome is not recorded.
        #expect(try a.renew(claimA) == false)
        #expect(try a.settle(claimA, .finished) == false)
        #expect(try a.settle(claimA, .requeued) == false)
        let row = try Fleet.sql(first, "SELECT state, token, claimed_by FROM \(a.schema.qualified("requests")) WHERE id = $1", [.integer(queued.id)])
        #expect(row.text(0, 0) == "sending" && row.integer(0, 1) == claimB.token)
        #expect(row.text(0, 2)?.hasSuffix(":\(getpid())") == true)
        #expect(try b.renew(claimB))
        #expect(try b.settle(claimB, .finished))
        #expect(try first.pending().isEmpty)
    }

    @Test func aRequestWhoseClaimantDiedIsSentAgainOnlyIfItMayGoTwice() async throws {
        let server = try FaultServer(keepAlive: true)
        defer { server.stop() }
        let schema = Fleet.schema()
        let dead = try Fleet.deliverer(schema, ordered: false)
        let url = server.baseURL + "/ledger?key=died"
        let get = try dead.enqueue(TransportRequest(url: url))
        let post = try dead.enqueue(TransportRequest(method: .post, url: url, body: .data(Data("once".utf8))))
        // The first deliverer claims both, then dies before recording anything.
        let store = try Fleet.store(dead)
        for _ in 0..<2 { _ = try #require(try store.claim(Self.ready(store.next(in: "default")))) }
        try Self.expireLeases(dead)
        let successor = try Fleet.deliverer(schema, ordered: false)
        let outcomes = successor.outcomes()
        successor.start()
        defer { successor.stop() }
        let ended = await Fleet.collect(2, from: [outcomes])
        let byID = Dictionary(uniqueKeysWithValues: ended.map { ($0.id, $0.result) })
        guard case .delivered = byID[get.id] else { Issue.record("the GET was not delivered: \(String(describing: byID[get.id]))"); return }
        guard case .mayHaveArrived(nil) = byID[post.id] else { Issue.record("the POST was not mayHaveArrived: \(String(describing: byID[post.id]))"); return }
        #expect(server.ledger("died").map(\.method) == ["GET"])
        #expect(try successor.pending().isEmpty)
    }

    @Test func anOrderedQueueWaitsForAnotherProcesssDeliveryThenGoesOn() async throws {
        let server = try CountingServer()
        defer { server.stop() }
        let schema = Fleet.schema()
        let holder = try Fleet.deliverer(schema)
        let first = try holder.enqueue(TransportRequest(method: .put, url: server.server.baseURL + "/", body: .data(Data("first".utf8))))
        try holder.enqueue(TransportRequest(method: .put, url: server.server.baseURL + "/", body: .data(Data("second".utf8))))
        let store = try Fleet.store(holder)
        let claim = try #require(try store.claim(Self.ready(store.next(in: "default"))))
        #expect(claim.id == first.id)
        let other = try Fleet.deliverer(schema)
        let outcomes = other.outcomes()
        other.start()
        defer { other.stop() }
        // The holder records its outcome (as if it had sent the first): the other, woken by the
        // notification, sends the second.
        #expect(try store.settle(claim, .finished))
        let delivered = await Fleet.collect(1, from: [outcomes])
        #expect(delivered.count == 1 && delivered.allSatisfy(Fleet.delivered))
        #expect(server.arrivals.withLock { $0 } == ["second"])
    }
}
#endif
