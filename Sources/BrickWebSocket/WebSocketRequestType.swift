public import BrickCore
public import BrickTransport

/// Makes the request a WebSocket's opening handshake: ``connect()`` opens the connection through the
/// session, with everything the class's other bricks give it (URL and parameters, headers, authentication,
/// retry rules for the handshake, transport options). No method brick: the handshake is a `GET`.
/// Sets: `method` = `.get`, `webSocketOptions` = ``WebSocketOptions/default``.
public protocol WebSocketRequestType: RequestType {
    /// Limits, subprotocols and compression of the connection.
    var webSocketOptions: WebSocketOptions { get }
}

extension WebSocketRequestType {
    /// `GET`: the handshake's method.
    public var method: HTTPMethod { .get }
    /// ``WebSocketOptions/default``.
    public var webSocketOptions: WebSocketOptions { .default }

    /// Opens the WebSocket.
    /// - Throws: ``WebSocketError``: the handshake was refused or failed in the session.
    public func connect() async throws(WebSocketError) -> WebSocket {
        try await session.openWebSocket(makePlan(), options: webSocketOptions)
    }
}
