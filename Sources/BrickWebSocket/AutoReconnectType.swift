import BrickCore

/// Makes a WebSocket brick come back after its connection is lost: ``connectReconnecting(resubscribe:)``
/// opens a ``ReconnectingWebSocket`` that reconnects by ``reconnectPolicy``, each connection opened through
/// the session's chain as ``WebSocketRequestType/connect()`` opens one: the class's bricks are read once,
/// the chain (interceptors, cookies, origin protection, observers) runs again for every handshake.
/// Sets: `reconnectPolicy` = ``ReconnectPolicy/default``.
public protocol AutoReconnectType: WebSocketRequestType {
    /// How it reconnects, and whether messages sent while disconnected wait in an outbox.
    var reconnectPolicy: ReconnectPolicy { get }
}

extension AutoReconnectType {
    /// ``ReconnectPolicy/default``: no outbox.
    public var reconnectPolicy: ReconnectPolicy { .default }

    /// Opens the WebSocket, to be reopened whenever it is lost; `resubscribe` runs on each new connection
    /// (not the first) before the outbox is sent: send there what the server must hear again (a
    /// subscription, an authentication message).
    /// - Throws: ``WebSocketError`` when the first connection cannot be opened.
    public func connectReconnecting(
        resubscribe: @escaping @Sendable (WebSocket) async throws -> Void = { _ in }
    ) async throws(WebSocketError) -> ReconnectingWebSocket {
        let session = session, options = webSocketOptions
        let plan = makePlan()
        let url = (try? plan.request.get().url) ?? URLString
        let connect: @Sendable () async throws(WebSocketError) -> WebSocket = { () async throws(WebSocketError) -> WebSocket in
            try await session.openWebSocket(plan, options: options)
        }
        let first = try await connect()
        return ReconnectingWebSocket(Reconnector(
            first: first, session: session, url: url, options: options, policy: reconnectPolicy, connect: connect, resubscribe: resubscribe))
    }
}
