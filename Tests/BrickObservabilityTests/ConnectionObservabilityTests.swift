import BrickObservability
import BrickRequest
import BrickTesting
import InMemoryTracing
import MetricsTestKit
import Testing
import Tracing

/// A reconnecting WebSocket's life in spans and metrics: one span from its opening to its close, an event
/// for the loss and one for the reconnect, and the counters, on BrickTesting's in-memory peer.
struct ConnectionObservabilityTests {
    let peer = WebSocketPeer(), tracer = InMemoryTracer(), metrics = TestMetrics()
    let session: Session
    /// Reconnects at once (no backoff), at most `maxAttempts` times.
    static func policy(maxAttempts: Int = 10) -> ReconnectPolicy {
        var policy = ReconnectPolicy()
        policy.initialDelay = .zero
        policy.maxAttempts = maxAttempts
        return policy
    }

    init() {
        var configuration = Session.Configuration()
        configuration.addTracing(tracer)
        configuration.addMetrics(factory: metrics)
        session = Session(configuration: configuration, transport: peer)
    }

    @Test func aReconnectIsAnEventOfTheConnectionsSpanAndACountInTheMetrics() async throws {
        let socket = try await session.reconnectingWebSocket("ws://chat.example.test/room?access_token=s3cr3t", policy: Self.policy())
        var events = socket.events.makeAsyncIterator()
        peer.drop()
        guard case .lost = await events.next() else { Issue.record("no loss"); return }
        guard case .reconnected(count: 1, _) = await events.next() else { Issue.record("no reconnect"); return }
        await socket.close()

        let span = try #require(tracer.finishedSpans.first { $0.operationName == "WebSocket" })
        #expect(span.kind == .client)
        #expect(span.events.map(\.name) == ["lost", "reconnected"])
        #expect(span.attributes["brick.reconnects"]?.toSpanAttribute() == 1)
        #expect(span.attributes["url.full"]?.toSpanAttribute() == "ws://chat.example.test/room?access_token=<redacted>")
        #expect(span.attributes["network.protocol.name"]?.toSpanAttribute() == "websocket")
        #expect(span.status == nil)
        // Each connection's handshake is a call of its own, with its own spans.
        #expect(tracer.finishedSpans.filter { $0.kind == .internal }.count == 2)

        let dimensions = [("network.protocol.name", "websocket"), ("server.address", "chat.example.test")]
        #expect(try metrics.expectCounter("brick.connection.reconnects", dimensions).totalValue == 1)
        #expect(try metrics.expectCounter("brick.connection.losses", dimensions).totalValue == 1)
        #expect(try metrics.expectMeter("brick.connection.open", dimensions).values == [1, 0])
    }

    @Test func aConnectionThatGivesUpEndsItsSpanAsAnError() async throws {
        let socket = try await session.reconnectingWebSocket("ws://chat.example.test/room", policy: Self.policy(maxAttempts: 1))
        peer.refusesUpgrades = true
        peer.drop()
        await #expect(throws: WebSocketError.self) { for try await _ in socket.messages {} }

        let span = try #require(tracer.finishedSpans.first { $0.operationName == "WebSocket" })
        #expect(span.status?.code == .error)
        #expect(span.events.map(\.name) == ["lost"])
        let dimensions = [("network.protocol.name", "websocket"), ("server.address", "chat.example.test")]
        #expect(try metrics.expectCounter("brick.connection.gave_up", dimensions).totalValue == 1)
        #expect(try metrics.expectMeter("brick.connection.open", dimensions).values == [1, 0])
    }
}
