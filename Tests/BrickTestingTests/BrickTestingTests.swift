import BrickCore
import BrickTesting
import Foundation
import Testing

@Suite struct ManualClockTests {
    @Test func sleepersWakeInDeadlineOrderOnlyWhenTheClockPassesThem() async throws {
        let clock = ManualClock()
        let order = AsyncStream<Int>.makeStream()
        let first = Task { try await clock.sleep(for: .seconds(10)); order.continuation.yield(10) }
        let second = Task { try await clock.sleep(for: .seconds(5)); order.continuation.yield(5) }
        await clock.waitForSleepers(count: 2)
        clock.advance(by: .seconds(4))
        #expect(clock.sleeperCount == 2)
        clock.advance(by: .seconds(6))
        try await first.value
        try await second.value
        order.continuation.finish()
        var woken: [Int] = []
        for await value in order.stream { woken.append(value) }
        #expect(Set(woken) == [5, 10])
        #expect(clock.now.offset == .seconds(10))
    }

    @Test func aCancelledSleeperThrowsAndLeaves() async {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(1)) }
        await clock.waitForSleepers(count: 1)
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func aPastDeadlineReturnsAtOnce() async throws {
        let clock = ManualClock()
        clock.advance(by: .seconds(3))
        try await clock.sleep(until: ManualClock.Instant(offset: .seconds(1)), tolerance: nil)
    }
}

@Suite struct StubTransportTests {
    let url = "https://stub.test/a"

    @Test func scriptedRepliesAreUsedInOrderAndTheLastRepeats() async throws {
        let stub = StubTransport()
        stub.stub(.get, url, replies: [.failure(TransportError(.connectionRefused, message: "no")),
                                       .response(TransportResponse(head: ResponseHead(status: 200)))])
        let statuses = await (0..<3).asyncMap { _ in
            (try? await stub.makeTransfer(for: TransportRequest(url: url)).response())?.head.status
        }
        #expect(statuses == [nil, 200, 200])
        #expect(stub.requests.count == 3)
    }

    func status(of stub: StubTransport, _ request: TransportRequest) async -> Int? {
        (try? await stub.makeTransfer(for: request).response())?.head.status
    }

    @Test func aStubMayIgnoreTheOrderOfTheQueryButNotItsPairs() async {
        let stub = StubTransport()
        stub.stub(.request(.get, "https://stub.test/s?q=swift&page=2&q=c", ignoringQueryOrder: true), status: 204)
        #expect(await status(of: stub, TransportRequest(url: "https://stub.test/s?page=2&q=c&q=swift")) == 204)
        #expect(await status(of: stub, TransportRequest(url: "https://stub.test/s?page=2&q=swift")) == nil)  // one q short
        #expect(await status(of: stub, TransportRequest(url: "https://stub.test/s?page=3&q=c&q=swift")) == nil)
        #expect(await status(of: stub, TransportRequest(url: "https://stub.test/t?page=2&q=c&q=swift")) == nil)
        #expect(await status(of: stub, TransportRequest(method: .post, url: "https://stub.test/s?page=2&q=c&q=swift")) == nil)
        // Exact matching (the default) keeps the order.
        stub.stub(.get, "https://stub.test/x?a=1&b=2", status: 200)
        #expect(await status(of: stub, TransportRequest(url: "https://stub.test/x?b=2&a=1")) == nil)
    }

    @Test func aStubMatchesByPredicate() async {
        let stub = StubTransport()
        stub.stub(.where { $0.method == .post && $0.headers["Idempotency-Key"] != nil }, status: 201)
        var keyed = TransportRequest(method: .post, url: url)
        keyed.headers["Idempotency-Key"] = "k1"
        #expect(await status(of: stub, keyed) == 201)
        #expect(await status(of: stub, TransportRequest(method: .post, url: url)) == nil)
    }

    @Test func aDelayedReplyWaitsForTheClock() async throws {
        let clock = ManualClock()
        let stub = StubTransport(clock: clock)
        stub.stub(.get, url, reply: .delayed(.seconds(2), .response(TransportResponse(head: ResponseHead(status: 202)))))
        let transfer = stub.makeTransfer(for: TransportRequest(url: url))
        async let response = transfer.response()
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(2))
        #expect(try await response.head.status == 202)
    }

    @Test func cancellingADelayedReplyEndsItWithoutTheClock() async throws {
        let stub = StubTransport()
        stub.stub(.get, url, reply: .delayed(.seconds(60), .response(TransportResponse(head: ResponseHead(status: 200)))))
        let transfer = stub.makeTransfer(for: TransportRequest(url: url))
        let waiting = Task { try await transfer.response() }
        while stub.requests.isEmpty { await Task.yield() }
        transfer.cancel()
        let error = await #expect(throws: TransportError.self) { try await waiting.value }
        #expect(error?.kind == .cancelled)
    }

    @Test func unstubbedRequestsAreRefusedAndRecorded() async {
        let stub = StubTransport()
        let error = await #expect(throws: TransportError.self) {
            try await stub.makeTransfer(for: TransportRequest(method: .delete, url: "https://stub.test/none")).response()
        }
        #expect(error?.kind == .connectionRefused)
        #expect(stub.requests.map(\.method) == [.delete])
    }
}

@Suite struct ManualReachabilityTests {
    @Test func goingOfflineAndOnlineIsHeardBySubscribers() async {
        let reachability = ManualReachability()
        var changes = reachability.changes().makeAsyncIterator()
        #expect(await reachability.status(of: "api.test") == .reachable)
        reachability.goOffline("API.test")
        await changes.next()
        #expect(await reachability.status(of: "api.test") == .unreachable)
        #expect(await reachability.status(of: "other.test") == .reachable)
        reachability.goOffline()
        reachability.goOnline()
        await changes.next()
        #expect(await reachability.status(of: "api.test") == .reachable)
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async -> T) async -> [T] {
        var results: [T] = []
        for element in self { results.append(await transform(element)) }
        return results
    }
}
