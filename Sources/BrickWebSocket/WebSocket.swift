public import BrickTransport
public import FoundationEssentials

/// An open WebSocket connection (RFC 6455), as a value to hold: its messages as an `AsyncSequence`, and
/// sending, pinging and closing. Dropping the last reference to it closes the connection.
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
    /// The limits and habits it was opened with.
    public var options: WebSocketOptions { core.options }
    let core: WebSocketCore

    init(connection: any UpgradedConnection, response: ResponseHead, subprotocol: String?, deflate: DeflateParameters?, options: WebSocketOptions) {
        self.response = response
        self.subprotocol = subprotocol
        isCompressed = deflate != nil
        core = WebSocketCore(connection: connection, deflate: deflate, options: options)
    }

    deinit { core.connection.close() }

    /// The messages as they come; the sequence ends when the connection closes cleanly, and throws
    /// ``WebSocketError`` when it failed (the peer broke the protocol, the connection broke, a limit).
    public var messages: Messages { Messages(inbox: core.inbox) }

    /// How the peer closed the connection, once it did.
    public var peerClose: WebSocketClose? { core.status.withLock { $0.peerClose } }

    /// Sends a text message.
    /// - Throws: ``WebSocketError`` of kind `closed` after a close, or `connectionLost`.
    public func send(text: String) async throws(WebSocketError) {
        try await core.sender.send(.text, Data(text.utf8))
    }

    /// Sends a binary message.
    /// - Throws: ``WebSocketError`` of kind `closed` after a close, or `connectionLost`.
    public func send(binary: Data) async throws(WebSocketError) {
        try await core.sender.send(.binary, binary)
    }

    /// Sends a ping and waits for its pong, at most ``WebSocketOptions/pingTimeout``.
    ///
    /// A pong is read by the task that reads the connection, which stops while ``messages`` is full: keep
    /// consuming messages while pinging.
    /// - Throws: ``WebSocketError`` of kind `pingTimedOut` when no pong came in time: the connection is then
    ///   taken as dead and closed.
    public func ping() async throws(WebSocketError) { try await core.ping() }

    /// Starts the closing handshake with `code` and `reason` (at most 123 bytes of it are sent), waits for
    /// the peer's close frame (at most ``WebSocketOptions/closeTimeout``) and closes the connection. Messages
    /// not yet read are dropped. Safe to call more than once.
    public func close(code: UInt16 = 1000, reason: String = "") async { await core.close(code: code, reason: reason) }

    /// Starts the closing handshake as ``close(code:reason:)`` does, but goes on handing on the messages that
    /// arrive until the peer's close frame (at most ``WebSocketOptions/closeTimeout``), which ends
    /// ``messages``: what a client that is done sending and still wants the answers does (`brick ws` at the
    /// end of its input). Nothing more can be sent once it is called.
    public func closeAfterAnswers(code: UInt16 = 1000, reason: String = "") async {
        await core.close(code: code, reason: reason, readingOn: true)
    }

    /// The messages of a ``WebSocket``, read once.
    public struct Messages: AsyncSequence, Sendable {
        /// Each element is one whole message.
        public typealias Element = WebSocketMessage
        let inbox: Inbox
        /// An iterator over the messages.
        public func makeAsyncIterator() -> Iterator { Iterator(inbox: inbox) }

        /// Reads the messages in order.
        public struct Iterator: AsyncIteratorProtocol {
            let inbox: Inbox
            /// The next message, `nil` after a clean close.
            /// - Throws: ``WebSocketError`` when the connection failed.
            public mutating func next() async throws(WebSocketError) -> WebSocketMessage? { try await inbox.next() }
            /// The next message, `nil` after a clean close.
            /// - Throws: ``WebSocketError`` when the connection failed.
            public mutating func next(isolation actor: isolated (any Actor)?) async throws(WebSocketError) -> WebSocketMessage? {
                try await inbox.next()
            }
        }
    }
}
