import BrickCore
import BrickSystem
public import FoundationEssentials

/// A WebSocket that survives the network: when its connection is lost (it broke, the peer went away with
/// `1001`/`1011`–`1014`, no pong came by the heartbeat's deadline, or the session's reachability saw the
/// route to the host go down) it opens a new one by its ``ReconnectPolicy``, calls your resubscribe hook on
/// the new connection, then sends what its outbox kept. ``messages`` runs across the connections.
///
/// One task supervises the connections and reads them in turn; like ``WebSocket``'s, its ``messages``
/// hold at most ``WebSocketOptions/bufferedMessages``, and a consumer that falls behind stops the reading.
public final class ReconnectingWebSocket: Sendable {
    let core: Reconnector

    init(_ core: Reconnector) { self.core = core }

    deinit { core.abandon() }

    /// The limits and habits of every connection.
    public var options: WebSocketOptions { core.options }
    /// How it reconnects.
    public var policy: ReconnectPolicy { core.policy }
    /// What happened to its connections, in order (for one reader; the last 64 unread are kept).
    public var events: AsyncStream<ReconnectEvent> { core.events }
    /// The messages of every connection, in order; the sequence ends when ``close(code:reason:)`` is called
    /// or the peer closes for good, and throws ``WebSocketError`` when it gave up.
    public var messages: WebSocket.Messages { WebSocket.Messages(inbox: core.inbox) }
    /// How many times it reconnected.
    public var reconnects: Int { core.state.withLock { $0.reconnects } }
    /// Whether a connection is open now.
    public var isConnected: Bool { core.state.withLock { $0.socket != nil } }
    /// Messages the outbox dropped to make room (``ReconnectPolicy/Outbox/WhenFull/dropOldest``).
    public var droppedFromOutbox: Int { core.state.withLock { $0.dropped } }
    /// Messages waiting in the outbox.
    public var waitingInOutbox: Int { core.state.withLock { $0.outboxCount } }

    /// Sends a text message on the open connection, or keeps it in the outbox while there is none.
    /// - Throws: ``WebSocketError``: `notConnected` without an outbox, `outboxFull`, `closed` after a close,
    ///   or the connection's error.
    public func send(text: String) async throws(WebSocketError) { try await core.send(.text(text)) }

    /// Sends a binary message on the open connection, or keeps it in the outbox while there is none.
    /// - Throws: as ``send(text:)``.
    public func send(binary: Data) async throws(WebSocketError) { try await core.send(.binary(binary)) }

    /// Closes the open connection with the closing handshake and stops reconnecting; what the outbox holds
    /// is dropped. Safe to call more than once.
    public func close(code: UInt16 = 1000, reason: String = "") async { await core.close(code: code, reason: reason) }
}

/// What a ``ReconnectingWebSocket`` holds: its connections' state, its outbox and the task that supervises
/// them (which holds it alive until the messages end). Behind ``state``'s lock.
final class Reconnector: Sendable {
    struct State {
        var socket: WebSocket?
        /// Whether the outbox is being sent on a new connection: sends keep going to the outbox meanwhile,
        /// so that what waited goes first.
        var flushing = false
        var outbox: [WebSocketMessage] = []
        var outboxStart = 0
        var dropped = 0
        var reconnects = 0
        var closed = false
        var outboxCount: Int { outbox.count - outboxStart }
    }

    let options: WebSocketOptions
    let policy: ReconnectPolicy
    let events: AsyncStream<ReconnectEvent>
    let state: Locked<State>
    let inbox: Inbox
    let eventSink: AsyncStream<ReconnectEvent>.Continuation
    let session: Session
    let url: String
    let connect: @Sendable () async throws(WebSocketError) -> WebSocket
    let resubscribe: @Sendable (WebSocket) async throws -> Void
    let supervisor = Locked<Task<Void, Never>?>(nil)
    /// The connection as the session's ``ConnectionObserver``s know it, and whether they were told its end.
    let observed: ObservedConnection
    private let toldEnd = Locked(false)

    init(
        first: WebSocket, session: Session, url: String, options: WebSocketOptions, policy: ReconnectPolicy,
        connect: @escaping @Sendable () async throws(WebSocketError) -> WebSocket, resubscribe: @escaping @Sendable (WebSocket) async throws -> Void
    ) {
        self.options = options
        self.policy = policy
        self.session = session
        self.url = url
        self.connect = connect
        self.resubscribe = resubscribe
        inbox = Inbox(capacity: options.bufferedMessages)
        (events, eventSink) = AsyncStream.makeStream(of: ReconnectEvent.self, bufferingPolicy: .bufferingNewest(64))
        state = Locked(State(socket: first))
        observed = ObservedConnection(url: url, protocolName: "websocket")
        tell(.opened)
        supervisor.withLock { $0 = Task { await self.supervise(first) } }
    }

    /// Tells the session's connection observers `event`; the end once only.
    func tell(_ event: ConnectionEvent) {
        let observers = session.configuration.connectionObservers
        guard !observers.isEmpty else { return }
        if case .ended = event, toldEnd.withLock({ told in defer { told = true }; return told }) { return }
        for observer in observers { observer.observe(event, of: observed) }
    }

    /// Stops at once, without a closing handshake: what dropping the last reference to the
    /// ``ReconnectingWebSocket`` does.
    func abandon() {
        let socket = state.withLock { state -> WebSocket? in
            state.closed = true
            return state.socket
        }
        supervisor.withLock { $0?.cancel() }
        socket?.core.fail(WebSocketError(.closed, "the reconnecting WebSocket was dropped"))
        inbox.finish(.success(()))
        eventSink.finish()
        tell(.ended(failure: nil))
    }

    /// ``ReconnectingWebSocket/close(code:reason:)``.
    func close(code: UInt16 = 1000, reason: String = "") async {
        let socket = state.withLock { state -> WebSocket? in
            state.closed = true
            state.outbox = []
            state.outboxStart = 0
            return state.socket
        }
        supervisor.withLock { $0?.cancel() }
        await socket?.close(code: code, reason: reason)
        inbox.finish(.success(()))
        eventSink.finish()
        tell(.ended(failure: nil))
    }

    func send(_ message: WebSocketMessage) async throws(WebSocketError) {
        let target = try state.withLock { state throws(WebSocketError) -> WebSocket? in
            if state.closed { throw WebSocketError(.closed, "the reconnecting WebSocket was closed") }
            if let socket = state.socket, !state.flushing { return socket }
            try Self.keep(message, in: &state, policy.outbox)
            return nil
        }
        if let target { try await Self.send(message, on: target) }
    }

    /// Keeps `message` in the outbox by its rule.
    static func keep(_ message: WebSocketMessage, in state: inout State, _ outbox: ReconnectPolicy.Outbox?) throws(WebSocketError) {
        guard let outbox else {
            throw WebSocketError(.notConnected, "between connections, with no outbox (ReconnectPolicy.outbox keeps such messages)")
        }
        if state.outboxCount >= outbox.capacity {
            guard outbox.whenFull == .dropOldest else {
                throw WebSocketError(.outboxFull, "the outbox holds \(outbox.capacity) messages (ReconnectPolicy.Outbox.capacity)")
            }
            state.outboxStart += 1
            state.dropped += 1
        }
        if state.outboxStart > 64, state.outboxStart * 2 > state.outbox.count {
            state.outbox.removeFirst(state.outboxStart)
            state.outboxStart = 0
        }
        state.outbox.append(message)
    }

    static func send(_ message: WebSocketMessage, on socket: WebSocket) async throws(WebSocketError) {
        switch message {
        case .text(let text): try await socket.send(text: text)
        case .binary(let data): try await socket.send(binary: data)
        }
    }
}
