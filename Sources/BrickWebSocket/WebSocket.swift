public import BrickTransport
import BrickSystem
public import FoundationEssentials

/// An open WebSocket connection (RFC 6455), as a value to hold: its messages as an `AsyncSequence`, and
/// sending, pinging and closing.
///
/// One task reads the connection from the moment it opens: it answers pings, checks every frame and every
/// text, inflates compressed messages and hands whole messages to ``messages``, holding at most
/// ``WebSocketOptions/bufferedMessages`` of them: a consumer that falls behind stops the reading.
public final class WebSocket: Sendable {
    /// The head of the server's `101`.
    public let response: ResponseHead
    /// The subprotocol the server chose among those offered, or `nil`.
    public let subprotocol: String?
    /// Whether permessage-deflate was agreed.
    public let isCompressed: Bool
    public let options: WebSocketOptions

    let connection: any UpgradedConnection
    let sender: Sender
    let inbox: Inbox
    let status = Locked(Status())
    private let reading = Locked<Task<Void, Never>?>(nil)

    struct Status {
        /// The peer's close frame, once it came.
        var peerClose: WebSocketClose?
        /// Pings waiting for their pong, by payload.
        var pings: [Data: UnsafeContinuation<Result<Void, WebSocketError>, Never>] = [:]
    }

    init(connection: any UpgradedConnection, response: ResponseHead, subprotocol: String?, deflate: DeflateParameters?, options: WebSocketOptions) {
        self.connection = connection
        self.response = response
        self.subprotocol = subprotocol
        isCompressed = deflate != nil
        self.options = options
        sender = Sender(connection: connection, deflate: deflate)
        inbox = Inbox(capacity: options.bufferedMessages)
        reading.withLock { [self] task in
            task = Task { await self.readLoop(deflate: deflate) }
        }
    }

    deinit { connection.close() }

    /// The messages as they come; the sequence ends when the connection closes cleanly, and throws
    /// ``WebSocketError`` when it failed (the peer broke the protocol, the connection broke, a limit).
    public var messages: Messages { Messages(inbox: inbox) }

    /// How the peer closed the connection, once it did.
    public var peerClose: WebSocketClose? { status.withLock { $0.peerClose } }

    /// Sends a text message.
    /// - Throws: ``WebSocketError`` of kind `closed` after a close, or `connectionLost`.
    public func send(text: String) async throws(WebSocketError) {
        try await sender.send(.text, Data(text.utf8))
    }

    /// Sends a binary message.
    /// - Throws: ``WebSocketError`` of kind `closed` after a close, or `connectionLost`.
    public func send(binary: Data) async throws(WebSocketError) {
        try await sender.send(.binary, binary)
    }

    /// Sends a ping and waits for its pong, at most ``WebSocketOptions/pingTimeout``.
    ///
    /// A pong is read by the task that reads the connection, which stops while ``messages`` is full: keep
    /// consuming messages while pinging.
    /// - Throws: ``WebSocketError`` of kind `pingTimedOut` when no pong came in time: the connection is then
    ///   taken as dead and closed.
    public func ping() async throws(WebSocketError) {
        var generator = SystemRandomNumberGenerator()
        let payload = Data((0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let timeout = options.pingTimeout
        var timer: Task<Void, Never>?
        let outcome = await withUnsafeContinuation { (waiter: UnsafeContinuation<Result<Void, WebSocketError>, Never>) in
            status.withLock { $0.pings[payload] = waiter }
            timer = Task { [self] in
                do throws(WebSocketError) {
                    try await sender.send(.ping, payload)
                    try? await Task.sleep(for: timeout)
                    guard !Task.isCancelled else { return }
                    let error = WebSocketError(.pingTimedOut, "no pong within \(timeout) (WebSocketOptions.pingTimeout): the connection is taken as dead")
                    if answerPing(payload, with: .failure(error)) { fail(error) }
                } catch {
                    answerPing(payload, with: .failure(error))
                }
            }
        }
        timer?.cancel()
        try outcome.get()
    }

    /// Resumes the ping waiting for `payload`; `false` when none waits (answered already).
    @discardableResult
    func answerPing(_ payload: Data, with outcome: Result<Void, WebSocketError>) -> Bool {
        guard let waiter = status.withLock({ $0.pings.removeValue(forKey: payload) }) else { return false }
        waiter.resume(returning: outcome)
        return true
    }

    /// Starts the closing handshake with `code` and `reason` (at most 123 bytes of it are sent), waits for
    /// the peer's close frame (at most ``WebSocketOptions/closeTimeout``) and closes the connection. Messages
    /// not yet read are dropped. Safe to call more than once.
    public func close(code: UInt16 = 1000, reason: String = "") async {
        inbox.finish(.success(()))
        await sender.sendClose(code: WebSocketClose.isSendable(code) ? code : 1000, reason: reason)
        await waitForReading(atMost: options.closeTimeout)
        connection.close()
    }

    /// Waits until the reading task ended (the peer's close came, or the connection ended), or `limit`.
    func waitForReading(atMost limit: Duration) async {
        guard let task = reading.withLock({ $0 }) else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await task.value }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Fails the connection for `error`: the messages end with it, and the connection closes.
    func fail(_ error: WebSocketError) {
        inbox.finish(.failure(error))
        connection.close(because: TransportError(.connectionLost, message: error.description))
        let pings = status.withLock { status in
            defer { status.pings = [:] }
            return status.pings
        }
        pings.values.forEach { $0.resume(returning: .failure(error)) }
    }

    /// The messages of a ``WebSocket``, read once.
    public struct Messages: AsyncSequence, Sendable {
        public typealias Element = WebSocketMessage
        let inbox: Inbox
        public func makeAsyncIterator() -> Iterator { Iterator(inbox: inbox) }

        public struct Iterator: AsyncIteratorProtocol {
            let inbox: Inbox
            public mutating func next() async throws(WebSocketError) -> WebSocketMessage? { try await inbox.next() }
            public mutating func next(isolation actor: isolated (any Actor)?) async throws(WebSocketError) -> WebSocketMessage? {
                try await inbox.next()
            }
        }
    }
}
