#if Postgres
@testable import BrickQueue
@testable import BrickQueuePostgres
import BrickRequest
import BrickSystem
import BrickTesting
import Foundation
import LoopbackServer
import Testing
import TestServers

/// The shared PostgreSQL server of this test process, and queues in schemas of their own (each test names a
/// new schema, so that tests running at once never see each other's rows).
enum Fleet {
    static func server() throws -> PostgresServer { try PostgresServer.shared.get() }

    static func database(_ server: PostgresServer? = nil) throws -> PostgresDatabase {
        try PostgresDatabase((server ?? Fleet.server()).connectionString)
    }

    /// A schema name no other test uses.
    static func schema() -> String { "test_\(UInt64.random(in: 0...UInt64.max))" }

    static func session() -> Session {
        var configuration = Session.Configuration()
        configuration.reachability = ManualReachability(.reachable)
        return Session(configuration: configuration)
    }

    /// One deliverer (a process of the fleet, with its own connections) of the queue `name` in `schema`.
    static func deliverer(
        _ schema: String, name: String = "default", ordered: Bool = true, lease: Duration = .seconds(30), limits: DeliveryQueue.Limits = .init(),
        retry: AutoRetryConfiguration = DeliveryQueue.defaultRetry, on server: PostgresServer? = nil
    ) throws -> DeliveryQueue {
        try DeliveryQueue(
            postgres: database(server), schema: schema, name: name, ordered: ordered, lease: lease, session: session(), retry: retry, limits: limits)
    }

    /// The queue's store (its connection, for statements a test runs itself).
    static func store(_ queue: DeliveryQueue) throws -> PostgresQueueStore { try #require(queue.store as? PostgresQueueStore) }

    /// Runs `sql` on the queue's connection.
    @discardableResult
    static func sql(_ queue: DeliveryQueue, _ sql: String, _ values: [PostgresConnection.Value] = []) throws -> Rows {
        try store(queue).connection.withLock { connection throws(QueueError) in try connection.query(sql, values) }
    }

    /// The next `count` outcomes of all `streams` together.
    static func collect(_ count: Int, from streams: [AsyncStream<DeliveryOutcome>]) async -> [DeliveryOutcome] {
        let (merged, continuation) = AsyncStream.makeStream(of: DeliveryOutcome.self)
        let forwarders = streams.map { stream in Task { for await outcome in stream { continuation.yield(outcome) } } }
        defer { forwarders.forEach { $0.cancel() } }
        var outcomes: [DeliveryOutcome] = []
        for await outcome in merged {
            outcomes.append(outcome)
            if outcomes.count == count { break }
        }
        return outcomes
    }

    static func delivered(_ outcome: DeliveryOutcome) -> Bool { if case .delivered = outcome.result { true } else { false } }
}

/// A loopback server that records the bodies in arrival order and how many requests it held at once.
final class CountingServer: Sendable {
    let server: LoopbackServer
    let arrivals = Locked<[String]>([])
    private let inFlight = Locked<(now: Int, peak: Int)>((0, 0))
    var peak: Int { inFlight.withLock { $0.peak } }

    /// `answer` runs while the request counts as in flight (a server taking its time, or one waiting).
    init(_ answer: @escaping @Sendable (ServerRequest) -> ServerResponse = { _ in .text("ok") }) throws {
        let arrivals = arrivals, inFlight = inFlight
        server = try LoopbackServer { request in
            arrivals.withLock { $0.append(String(decoding: request.body, as: UTF8.self)) }
            inFlight.withLock { state in
                state.now += 1
                state.peak = max(state.peak, state.now)
            }
            defer { inFlight.withLock { $0.now -= 1 } }
            return answer(request)
        }
    }

    func stop() { server.stop() }
}
#endif
