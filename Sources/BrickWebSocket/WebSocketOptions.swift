/// The limits and habits of one WebSocket connection. Every limit bounds memory: a peer cannot make the
/// client hold more than ``maxMessageSize`` plus one read buffer.
public struct WebSocketOptions: Sendable, Equatable {
    /// The largest frame accepted, announced length checked before anything is read. Default is 16 MiB.
    public var maxFrameSize = 16 * 1024 * 1024
    /// The largest message accepted (all its fragments, inflated). Default is 16 MiB.
    public var maxMessageSize = 16 * 1024 * 1024
    /// Subprotocols offered in `Sec-WebSocket-Protocol`, preferred first; the server must pick one of them
    /// or none. Default is none.
    public var subprotocols: [String] = []
    /// Whether permessage-deflate (RFC 7692) is offered. Default is `true`.
    public var compression = true
    /// The largest payload of a frame this side sends: a longer message (its bytes after compression) goes
    /// out as fragments of this size, a first frame and continuations, written together so that no other
    /// message comes between them (RFC 6455 §5.4). At least 1. Default is `nil`: each message in one frame.
    public var fragmentSize: Int?
    /// How long ``WebSocket/close(code:reason:)`` waits for the peer's close frame before closing the
    /// connection anyway. Default is 5 s.
    public var closeTimeout: Duration = .seconds(5)
    /// How long ``WebSocket/ping()`` waits for its pong. Default is 10 s.
    public var pingTimeout: Duration = .seconds(10)
    /// When set, the connection pings on its own this long after each pong (a heartbeat): no pong within
    /// ``pingTimeout`` and the connection is taken as dead, ``WebSocket/messages`` failing with
    /// `pingTimedOut` — a route that went down silently is found within `heartbeat + pingTimeout`. Default
    /// is `nil`: no heartbeat.
    public var heartbeat: Duration?
    /// Messages received and not yet read that are held before the client stops reading from the socket
    /// (the peer is then slowed down by TCP). Default is 16.
    public var bufferedMessages = 16

    /// The defaults.
    public init() {}

    /// The defaults.
    public static let `default` = WebSocketOptions()
}
