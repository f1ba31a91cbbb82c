public import BrickCore
import BrickTransport

/// Why a WebSocket could not connect or ended badly.
///
/// A struct with static members rather than an enum, so that the library can add kinds without breaking a
/// user's `switch`: compare ``kind`` with the static values.
public struct WebSocketError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in one word.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        let name: String
        /// The handshake failed: not a `101`, or a `101` that does not prove it is a WebSocket for this key.
        public static let handshakeRefused = Kind(name: "handshake refused")
        /// The peer broke RFC 6455 or RFC 7692: the connection was failed with close code 1002.
        public static let protocolViolation = Kind(name: "protocol violation")
        /// A text message was not UTF-8: failed with 1007.
        public static let invalidText = Kind(name: "invalid text")
        /// A frame or a message passed ``WebSocketOptions/maxFrameSize`` or ``WebSocketOptions/maxMessageSize``
        /// (a compressed one counted as it inflates): failed with 1009.
        public static let tooBig = Kind(name: "message too big")
        /// The connection broke, or the peer closed it without a closing handshake (1006).
        public static let connectionLost = Kind(name: "connection lost")
        /// No pong came within the ping's deadline; the connection is taken as dead.
        public static let pingTimedOut = Kind(name: "ping timed out")
        /// The connection is closed (by this side or the peer): nothing more can be sent.
        public static let closed = Kind(name: "closed")
        /// The handshake call failed in the session (the transport, an interceptor, the route).
        public static let call = Kind(name: "call failed")
        /// A ``ReconnectingWebSocket`` is between connections and has no outbox to keep the message in.
        public static let notConnected = Kind(name: "not connected")
        /// A ``ReconnectingWebSocket``'s outbox is full and refuses new messages.
        public static let outboxFull = Kind(name: "outbox full")
        /// The kind's name.
        public var description: String { name }
    }

    /// What went wrong.
    public let kind: Kind
    /// What happened, in words.
    public let message: String
    /// The session's error, for ``Kind/call``.
    public let underlying: BrickError?

    init(_ kind: Kind, _ message: String, underlying: BrickError? = nil) {
        self.kind = kind
        self.message = message
        self.underlying = underlying
    }

    static func protocolViolation(_ message: String) -> WebSocketError { WebSocketError(.protocolViolation, message) }
    static func tooBig(_ message: String) -> WebSocketError { WebSocketError(.tooBig, message) }
    static func lost(_ error: TransportError) -> WebSocketError { WebSocketError(.connectionLost, error.description) }

    /// The close code this side sends when it fails the connection for this error (RFC 6455 §7.4.1).
    var closeCode: UInt16 {
        switch kind {
        case .invalidText: 1007
        case .tooBig: 1009
        default: 1002
        }
    }

    /// `WebSocket <kind>: <message>`.
    public var description: String { "WebSocket \(kind): \(message)" }
}
