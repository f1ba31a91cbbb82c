#if Observability  // the package trait that brings this module's dependency (Package.swift)
public import BrickCore
public import Bricks
import Synchronization
public import Tracing

/// One span per connection a session keeps open across failures (a reconnecting WebSocket), through
/// swift-distributed-tracing: kind `client`, named `WebSocket` (the protocol's name), from its opening to
/// its end, with `url.full` (redacted), `server.address` and `network.protocol.name`; an event `lost`
/// (with `error.message`) each time a connection is lost and `reconnected` (with `brick.reconnects` and
/// `brick.reconnect.after_ms`) each time one opens again; at the end `brick.reconnects` and, when
/// reconnecting gave up, an error status. Each connection's handshake is a call with spans of its own
/// (``TracingObserver``).
///
/// Added by `BrickCore/Session/Configuration/addTracing(_:redaction:)`.
public final class ConnectionTracing<T: Tracer>: ConnectionObserver {
    /// Where spans go.
    public let tracer: T
    /// What is hidden from `url.full`.
    public let redaction: Redaction
    /// The span of each connection open now, by its id.
    private let spans = Mutex<[UInt64: (span: T.Span, reconnects: Int)]>([:])

    /// Connection spans recorded to `tracer`.
    public init(tracer: T, redaction: Redaction = Redaction()) {
        self.tracer = tracer
        self.redaction = redaction
    }

    public func observe(_ event: ConnectionEvent, of connection: ObservedConnection) {
        switch event {
        case .opened:
            let span = tracer.startSpan(connection.protocolName == "websocket" ? "WebSocket" : connection.protocolName, ofKind: .client)
            span.attributes["url.full"] = redaction.url(connection.url)
            if let host = TransportRequest.host(of: connection.url) { span.attributes["server.address"] = host }
            span.attributes["network.protocol.name"] = connection.protocolName
            spans.withLock { $0[connection.id] = (span, 0) }
        case .lost(let reason):
            spans.withLock { $0[connection.id] }?.span.addEvent(SpanEvent(name: "lost", attributes: ["error.message": .string(reason)]))
        case .reconnected(let count, let after):
            let (seconds, attoseconds) = after.components
            let milliseconds = seconds.multipliedReportingOverflow(by: 1000).partialValue &+ attoseconds / 1_000_000_000_000_000
            let span = spans.withLock { spans -> T.Span? in
                spans[connection.id]?.reconnects = count
                return spans[connection.id]?.span
            }
            span?.addEvent(SpanEvent(name: "reconnected", attributes: ["brick.reconnects": .int64(Int64(count)), "brick.reconnect.after_ms": .int64(milliseconds)]))
        case .ended(let failure):
            guard let (span, reconnects) = spans.withLock({ $0.removeValue(forKey: connection.id) }) else { return }
            span.attributes["brick.reconnects"] = reconnects
            if let failure { span.setStatus(SpanStatus(code: .error, message: failure)) }
            span.end()
        }
    }
}
#endif
