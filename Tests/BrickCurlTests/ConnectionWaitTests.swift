import BrickCurl
import BrickSystem
import BrickTransport
import Dispatch
import FoundationEssentials
import LoopbackServer
import Testing

/// Requests beyond the pool's connections to a host wait in the engine, in order, bounded by their connect
/// timeout (or their whole timeout), and can be cancelled while they wait.
@Suite struct ConnectionWaitTests {
    /// A server whose `/hold` answers only once the test lets it (``release()`` or ``stop()``), recording the
    /// order in which requests arrived. The hold has no timeout of its own: one that ran out while a slow run
    /// (sanitizers, a loaded machine) was still waiting would free the connection and turn the test's
    /// expected failures into answers.
    final class HoldingServer: Sendable {
        let server: LoopbackServer
        private let gate = DispatchSemaphore(value: 0)
        private let held: AsyncStream<Void>
        let arrivals = Locked<[String]>([])

        init() throws {
            let (held, holding) = AsyncStream<Void>.makeStream()
            self.held = held
            let gate = gate, arrivals = arrivals
            server = try LoopbackServer { request in
                arrivals.withLock { $0.append(request.path) }
                guard request.path == "/hold" else { return .text("ok") }
                holding.yield()
                gate.wait()
                return .text("released")
            }
        }

        /// Returns once a `/hold` request is being held (the server's thread says so; nothing here blocks).
        func waitUntilHeld() async {
            for await _ in held { return }
        }

        func release() { gate.signal() }
        /// Lets a hold still in place go (a test that failed before releasing it), then stops the server.
        func stop() {
            gate.signal()
            server.stop()
        }
    }

    /// A server, a transport with one connection per host, and a `/hold` request on that connection that the
    /// server holds (until ``HoldingServer/release()``).
    func holdingTheOnlyConnection() async throws -> (HoldingServer, CurlTransport, TransportEventStream) {
        let server = try HoldingServer()
        var configuration = CurlTransport.Configuration()
        configuration.maxConnectionsPerHost = 1
        let narrow = try #require(CurlTransport(configuration: configuration))
        let first = start(server.server.baseURL + "/hold", on: narrow)
        await server.waitUntilHeld()
        return (server, narrow, first)
    }

    func start(_ url: String, options: TransportOptions = TransportOptions(), on transport: CurlTransport) -> TransportEventStream {
        transport.makeTransfer(for: TransportRequest(url: url, options: options)).events()
    }

    /// The metrics a stream ends with.
    func endMetrics(_ stream: TransportEventStream) async throws -> TransferMetrics? {
        for try await event in stream { if case .end(let metrics) = event { return metrics } }
        return nil
    }

    @Test func requestsBeyondThePerHostLimitWaitTheirTurnInTheOrderTheyCameAndTheirWaitIsMeasured() async throws {
        let (server, narrow, first) = try await holdingTheOnlyConnection()
        defer { server.stop() }
        // Every wait begins after this instant (the engine starts each one's clock when it receives it).
        let heldFor = ContinuousClock.now
        // Started in this order from one task: the engine receives them in this order.
        let waiting = (1...5).map { start(server.server.baseURL + "/\($0)", on: narrow) }
        server.release()
        _ = try await endMetrics(first)
        var waits: [Duration] = []
        for stream in waiting {
            let metrics = try #require(try await endMetrics(stream))
            waits.append(metrics.connectionWait)
            #expect(metrics.total >= metrics.connectionWait)
        }
        let bound = ContinuousClock.now - heldFor
        #expect(server.arrivals.withLock { $0 } == ["/hold", "/1", "/2", "/3", "/4", "/5"])
        #expect(waits.allSatisfy { $0 > .zero && $0 <= bound })
    }

    @Test func aRequestThatGetsNoConnectionInTimeFailsWithItsTimeoutAndTheOthersStillRun() async throws {
        let (server, narrow, first) = try await holdingTheOnlyConnection()
        defer { server.stop() }
        var shortConnect = TransportOptions()
        shortConnect.connectTimeout = .milliseconds(200)
        var shortTotal = TransportOptions()
        shortTotal.timeout = .milliseconds(300)
        async let connectFailure = failure(server.server.baseURL + "/connect", options: shortConnect, through: narrow)
        async let totalFailure = failure(server.server.baseURL + "/total", options: shortTotal, through: narrow)
        let (connect, total) = try await (connectFailure, totalFailure)
        #expect(connect.kind == .connectTimeout)
        #expect(connect.message.contains("no connection to http://127.0.0.1:\(server.server.port) became free"))
        #expect(total.kind == .timedOut)
        server.release()
        _ = try await endMetrics(first)
        #expect(try await send(server.server.baseURL + "/after", through: narrow).head.status == 200)
        #expect(server.arrivals.withLock { $0 } == ["/hold", "/after"])
    }

    @Test func aCancelledWaitingRequestEndsAtOnceAndNeverGoesOut() async throws {
        let (server, narrow, first) = try await holdingTheOnlyConnection()
        defer { server.stop() }
        // Started, then cancelled, from this task: the engine has it waiting when the cancellation comes.
        let transfer = narrow.makeTransfer(for: TransportRequest(url: server.server.baseURL + "/cancelled"))
        let cancelled = transfer.events()
        let behind = Task { try await send(server.server.baseURL + "/behind", through: narrow) }
        transfer.cancel()
        await #expect(throws: TransportError.cancelled) { _ = try await endMetrics(cancelled) }
        server.release()
        _ = try await endMetrics(first)
        #expect(try await behind.value.head.status == 200)
        #expect(!server.arrivals.withLock { $0 }.contains("/cancelled"))
    }
}
