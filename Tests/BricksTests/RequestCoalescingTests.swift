import BrickRequest
import BrickSystem
import Dispatch
import Foundation
import LoopbackServer
import Testing

/// Request coalescing, a stage written against the public stage API alone: identical in-flight GETs share
/// one transfer, different credentials do not, a cancelled waiter leaves the others their answer, and a
/// POST is never shared.
@Suite struct RequestCoalescingTests {
    /// A server that holds every request at a gate the test opens, and counts what arrived.
    final class GatedServer: Sendable {
        let server: LoopbackServer
        let arrivals = Locked<[String]>([])
        private let gate = DispatchSemaphore(value: 0)

        init() throws {
            let arrivals = arrivals, gate = gate
            server = try LoopbackServer { request in
                arrivals.withLock { $0.append(request.method + " " + (request.header("Authorization") ?? "-")) }
                gate.wait()
                return .text("answer")
            }
        }

        /// Lets `count` held requests answer.
        func open(_ count: Int) { for _ in 0..<count { gate.signal() } }

        var url: String { server.baseURL + "/thing" }
        deinit { server.stop() }
    }

    func session(_ stage: RequestCoalescing) -> Session {
        var configuration = Session.Configuration()
        configuration.callStages = [stage]
        return Session(configuration: configuration)
    }

    /// Waits (yielding, no sleep) until `condition` holds.
    func until(_ condition: () -> Bool) async {
        while !condition() { await Task.yield() }
    }

    @Test func aHundredIdenticalGetsShareOneTransfer() async throws {
        let server = try GatedServer()
        let stage = RequestCoalescing()
        let session = session(stage)
        let url = server.url
        let bodies = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<100 { group.addTask { try? String(decoding: await session.send(.get, url).body, as: UTF8.self) } }
            await until { stage.waiting == 100 }
            server.open(1)
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(bodies.count == 100 && bodies.allSatisfy { $0 == "answer" }, "\(bodies)")
        #expect(server.arrivals.withLock { $0 } == ["GET -"])
        #expect(stage.waiting == 0)
    }

    @Test func differentCredentialsAreDifferentCalls() async throws {
        let server = try GatedServer()
        let stage = RequestCoalescing()
        let session = session(stage)
        let url = server.url
        await withTaskGroup(of: Void.self) { group in
            for token in ["a", "b", "a", "b"] {
                group.addTask { _ = try? await session.send(.get, url, headers: ["Authorization": "Bearer " + token]) }
            }
            await until { stage.waiting == 4 }
            server.open(2)
        }
        #expect(Set(server.arrivals.withLock { $0 }) == ["GET Bearer a", "GET Bearer b"])
        #expect(server.arrivals.withLock { $0 }.count == 2)
    }

    @Test func aCancelledWaiterLeavesTheOthersTheirAnswer() async throws {
        let server = try GatedServer()
        let stage = RequestCoalescing()
        let session = session(stage)
        let url = server.url
        let first = Task { try await session.send(.get, url) }
        await until { server.arrivals.withLock { $0.count } == 1 }
        let others = (0..<2).map { _ in Task { try await session.send(.get, url) } }
        await until { stage.waiting == 3 }
        first.cancel()  // the call whose transfer the others share
        let cancelled = await first.result
        #expect((try? cancelled.get()) == nil)
        if case .failure(let error as BrickError) = cancelled { #expect(error.isCancelled, "\(error)") }
        server.open(1)
        for other in others { #expect(try await other.value.head.status == 200) }
        #expect(server.arrivals.withLock { $0 }.count == 1)
    }

    @Test func aPostIsNeverShared() async throws {
        let server = try GatedServer()
        let stage = RequestCoalescing()
        let session = session(stage)
        let url = server.url
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<2 { group.addTask { _ = try? await session.send(.post, url) } }
            await until { server.arrivals.withLock { $0.count } == 2 }
            #expect(stage.waiting == 0)
            server.open(2)
        }
        #expect(server.arrivals.withLock { $0 } == ["POST -", "POST -"])
    }
}
