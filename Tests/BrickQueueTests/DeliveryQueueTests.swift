@testable import BrickQueue
import BrickRequest
import BrickTesting
import Foundation
import Glibc
import Testing
import TestServers

/// The durable queue against the fault server's ledger, in this process (the restart in a network
/// namespace is `OutageTests.queuedRequestsSurviveAKilledProcessAndArriveOnceInOrder`).
@Suite struct DeliveryQueueTests {
    /// A scratch database path, removed after `body`.
    static func withDatabase(_ body: (String) async throws -> Void) async throws {
        let directory = try Paths.scratchDirectory("queue")
        defer { Paths.removeTree(directory) }
        try await body(directory + "/queue.sqlite")
    }

    static func session(_ reachability: ManualReachability) -> Session {
        var configuration = Session.Configuration()
        configuration.reachability = reachability
        return Session(configuration: configuration)
    }

    /// The next `count` outcomes of `stream`.
    static func collect(_ count: Int, from stream: AsyncStream<DeliveryOutcome>) async -> [DeliveryOutcome] {
        var outcomes: [DeliveryOutcome] = []
        for await outcome in stream {
            outcomes.append(outcome)
            if outcomes.count == count { break }
        }
        return outcomes
    }

    @Test func requestsWaitForTheNetworkThenArriveInOrderAndAPostCarriesItsKey() async throws {
        let server = try FaultServer(keepAlive: true)
        defer { server.stop() }
        try await Self.withDatabase { path in
            let reachability = ManualReachability(.unreachable)
            let queue = try DeliveryQueue(path: path, session: Self.session(reachability))
            let url = server.baseURL + "/ledger?key=order"
            var queued: [QueuedRequest] = []
            for (index, method) in [HTTPMethod.post, .put, .post, .delete, .post].enumerated() {
                queued.append(try queue.enqueue(TransportRequest(method: method, url: url, body: .data(Data("\(index)".utf8))), label: "n\(index)"))
            }
            let outcomes = queue.outcomes()
            queue.start()
            defer { queue.stop() }
            #expect(try queue.pending().map(\.id) == queued.map(\.id))
            var info = stat()
            #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
            reachability.goOnline()
            let delivered = await Self.collect(5, from: outcomes)
            #expect(delivered.map(\.id) == queued.map(\.id))
            #expect(delivered.allSatisfy { if case .delivered = $0.result { true } else { false } })
            let ledger = server.ledger("order")
            #expect(ledger.map(\.body) == ["0", "1", "2", "3", "4"])
            #expect(ledger.map(\.method) == ["POST", "PUT", "POST", "DELETE", "POST"])
            #expect(ledger.map(\.idempotencyKey) == queued.map(\.idempotencyKey))
            #expect(queued.filter { $0.method == .post }.allSatisfy { $0.idempotencyKey != nil })
            #expect(queued.filter { $0.method != .post }.allSatisfy { $0.idempotencyKey == nil })
            #expect(try queue.pending().isEmpty)
        }
    }

    @Test func theNextQueueOnTheSameFileDeliversWhatTheLastOneLeftAndOnlyOneOpensIt() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        try await Self.withDatabase { path in
            let reachability = ManualReachability()
            do {
                let first = try DeliveryQueue(path: path, session: Self.session(reachability))
                try first.enqueue(TransportRequest(method: .post, url: server.baseURL + "/ledger?key=restart", body: .data(Data("a".utf8))))
                try first.enqueue(TransportRequest(method: .post, url: server.baseURL + "/ledger?key=restart", body: .data(Data("b".utf8))))
                #expect(throws: QueueError.self) { _ = try DeliveryQueue(path: path, session: Self.session(reachability)) }
            }
            let next = try DeliveryQueue(path: path, session: Self.session(reachability))
            #expect(try next.pending().count == 2)
            let outcomes = next.outcomes()
            next.start()
            defer { next.stop() }
            _ = await Self.collect(2, from: outcomes)
            #expect(server.ledger("restart").map(\.body) == ["a", "b"])
        }
    }

    @Test func cancelledRefusedAndMaybeArrivedRequestsLeaveWithTheirOutcome() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        try await Self.withDatabase { path in
            var rules = DeliveryQueue.defaultRetry
            rules.breakTime = .milliseconds(10)
            let queue = try DeliveryQueue(path: path, session: Self.session(ManualReachability()), retry: rules)
            let refused = try queue.enqueue(TransportRequest(url: server.baseURL + "/status?code=404&key=refused"))
            let cancelled = try queue.enqueue(TransportRequest(method: .post, url: server.baseURL + "/ledger?key=cancelled"))
            let lost = try queue.enqueue(TransportRequest(method: .post, url: server.baseURL + "/close-after-read?key=lost", body: .data(Data("x".utf8))))
            let busy = try queue.enqueue(TransportRequest(url: server.baseURL + "/status?code=503&times=1&key=busy"))
            #expect(throws: QueueError.self) {
                _ = try queue.enqueue(TransportRequest(method: .post, url: server.baseURL + "/ledger", body: .stream(BodyStream(AsyncStream<Data> { $0.finish() }, length: nil))))
            }
            let outcomes = queue.outcomes()
            #expect(try queue.cancel(cancelled.id))
            queue.start()
            defer { queue.stop() }
            let results = await Self.collect(4, from: outcomes)
            func result(_ id: Int64) -> DeliveryOutcome.Result? { results.first { $0.id == id }?.result }
            guard case .cancelled? = result(cancelled.id) else { Issue.record("\(results)"); return }
            guard case .failed(let error)? = result(refused.id) else { Issue.record("\(results)"); return }
            #expect(error.response?.head.status == 404)
            guard case .mayHaveArrived? = result(lost.id) else { Issue.record("\(results)"); return }
            #expect(server.count("lost") == 1, "a POST that may have arrived is not sent again")
            guard case .delivered(let response)? = result(busy.id) else { Issue.record("\(results)"); return }
            #expect(response.head.status == 200)
            #expect(server.count("cancelled") == 0)
        }
    }

    @Test func aPostLeftBeingSentByADeadProcessIsNotSentAgainButAGetIs() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        try await Self.withDatabase { path in
            let reachability = ManualReachability()
            let post: QueuedRequest, get: QueuedRequest
            do {
                let dead = try DeliveryQueue(path: path, session: Self.session(reachability))
                post = try dead.enqueue(TransportRequest(method: .post, url: server.baseURL + "/ledger?key=dead"))
                get = try dead.enqueue(TransportRequest(url: server.baseURL + "/ledger?key=dead"))
            }
            // What a process killed while sending leaves behind.
            try SQLiteDatabase(path: path).execute("UPDATE requests SET state = 'sending'")
            let next = try DeliveryQueue(path: path, session: Self.session(reachability))
            let outcomes = next.outcomes()
            next.start()
            defer { next.stop() }
            let results = await Self.collect(2, from: outcomes)
            guard case .mayHaveArrived(nil)? = results.first(where: { $0.id == post.id })?.result else { Issue.record("\(results)"); return }
            guard case .delivered? = results.first(where: { $0.id == get.id })?.result else { Issue.record("\(results)"); return }
            #expect(server.ledger("dead").map(\.method) == ["GET"])
        }
    }

    @Test func queuesOfSeveralNamesShareOneFileInOneProcessButNotOneName() async throws {
        let server = try FaultServer(keepAlive: true)
        defer { server.stop() }
        try await Self.withDatabase { path in
            let session = Self.session(ManualReachability())
            let red = try DeliveryQueue(path: path, name: "red", session: session)
            let blue = try DeliveryQueue(path: path, name: "blue", session: session)
            #expect(throws: QueueError.self) { _ = try DeliveryQueue(path: path, name: "red", session: session) }
            for index in 0..<3 {
                try red.enqueue(TransportRequest(method: .post, url: server.baseURL + "/ledger?key=red", body: .data(Data("r\(index)".utf8))))
                try blue.enqueue(TransportRequest(method: .post, url: server.baseURL + "/ledger?key=blue", body: .data(Data("b\(index)".utf8))))
            }
            let (redOutcomes, blueOutcomes) = (red.outcomes(), blue.outcomes())
            red.start()
            blue.start()
            defer { red.stop(); blue.stop() }
            _ = await Self.collect(3, from: redOutcomes)
            _ = await Self.collect(3, from: blueOutcomes)
            #expect(server.ledger("red").map(\.body) == ["r0", "r1", "r2"])
            #expect(server.ledger("blue").map(\.body) == ["b0", "b1", "b2"])
        }
    }

    /// A symbolic link planted at the database's path or at its lock file is never opened through: the
    /// queue is refused and the link's target is not created.
    @Test func aLinkPlantedAtTheDatabaseOrItsLockIsNotFollowed() async throws {
        try await Self.withDatabase { path in
            let session = Self.session(ManualReachability())
            let target = path + ".elsewhere"
            for planted in [path + ".lock", path] {
                try FileManager.default.createSymbolicLink(atPath: planted, withDestinationPath: target)
                #expect(throws: QueueError.self) { _ = try DeliveryQueue(path: path, name: "q", session: session) }
                #expect(!FileManager.default.fileExists(atPath: target))
                try FileManager.default.removeItem(atPath: planted)
            }
            _ = try DeliveryQueue(path: path, name: "q", session: session)  // and with nothing planted, it opens
        }
    }

    @Test func aDatabaseDamagedAfterItOpenedStopsDeliveryWithAnErrorItsOwnerSees() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        try await Self.withDatabase { path in
            let reachability = ManualReachability(.unreachable)
            let queue = try DeliveryQueue(path: path, session: Self.session(reachability))
            try queue.enqueue(TransportRequest(url: server.baseURL + "/ledger?key=damaged"))
            let outcomes = queue.outcomes()
            queue.start()
            defer { queue.stop() }
            // Garbage over the whole file, header included, while the queue waits for the network.
            let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.write(contentsOf: Data(repeating: 0xA5, count: size))
            try handle.close()
            reachability.goOnline()
            var delivered = 0
            for await _ in outcomes { delivered += 1 }  // ends when delivery stops
            #expect(delivered == 0)
            let failure = try #require(queue.failure)
            #expect("\(failure)".contains("database"), "\(failure)")
            #expect(server.count("damaged") == 0)
            #expect(throws: QueueError.self) { try queue.enqueue(TransportRequest(url: server.baseURL + "/ledger?key=damaged")) }
        }
    }

    @Test func aRequestAnsweredWithA503ForeverBecomesADeadLetterAndNoLongerHoldsBackTheQueue() async throws {
        let server = try FaultServer(keepAlive: true)
        defer { server.stop() }
        try await Self.withDatabase { path in
            let rules = AutoRetryConfiguration(breakTime: .milliseconds(5), maxRetryCount: 1, maxBreakTime: .milliseconds(5))
            let queue = try DeliveryQueue(
                path: path, session: Self.session(ManualReachability()), retry: rules, limits: .init(maxAttempts: 3, maxRequests: 3))
            let stuck = try queue.enqueue(TransportRequest(url: server.baseURL + "/status?code=503&key=forever"))
            let next = try queue.enqueue(TransportRequest(method: .post, url: server.baseURL + "/ledger?key=behind"))
            let outcomes = queue.outcomes()
            queue.start()
            defer { queue.stop() }
            let results = await Self.collect(2, from: outcomes)
            guard case .deadLettered(let error)? = results.first?.result, results.first?.id == stuck.id else { Issue.record("\(results)"); return }
            #expect(error.response?.head.status == 503)
            #expect(server.count("forever") == 3, "3 attempts, one send each")
            guard case .delivered? = results.last?.result, results.last?.id == next.id else { Issue.record("\(results)"); return }
            #expect(try queue.deadLetters().map(\.id) == [stuck.id])
            #expect(try queue.deadLetters().first?.attempts == 3)
            #expect(try queue.pending().isEmpty)

            // Bounded: the dead letter counts; past the limit of requests, enqueue refuses with a typed error.
            try queue.enqueue(TransportRequest(url: server.baseURL + "/status?code=503&key=forever"))
            queue.stop()
            try queue.enqueue(TransportRequest(url: server.baseURL + "/ok?key=third"))
            #expect {
                try queue.enqueue(TransportRequest(url: server.baseURL + "/ok?key=fourth"))
            } throws: { error in
                guard case QueueError.full = error else { return false }
                return true
            }
            #expect(try queue.retryDeadLetter(stuck.id))
            #expect(try queue.deadLetters().isEmpty)
            #expect(try queue.cancel(stuck.id))
        }
    }

    @Test func theBytesAQueueHoldsAreBoundedAndWhatIsDeliveredIsOverwritten() async throws {
        let server = try FaultServer(keepAlive: true)
        defer { server.stop() }
        try await Self.withDatabase { path in
            let queue = try DeliveryQueue(path: path, session: Self.session(ManualReachability()), limits: .init(maxBytes: 64 << 10))
            #expect(throws: QueueError.self) {
                try queue.enqueue(TransportRequest(method: .post, url: server.baseURL + "/ledger?key=big", body: .data(Data(count: 65 << 10))))
            }
            let secret = "s3cr3t-" + UUID().uuidString
            try queue.enqueue(TransportRequest(method: .post, url: server.baseURL + "/ledger?key=secret", body: .data(Data(secret.utf8))))
            let outcomes = queue.outcomes()
            queue.start()
            defer { queue.stop() }
            _ = await Self.collect(1, from: outcomes)
            #expect(server.ledger("secret").map(\.body) == [secret])
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(bytes.range(of: Data(secret.utf8)) == nil, "a delivered request's body is overwritten, not just unlinked")
        }
    }
}
