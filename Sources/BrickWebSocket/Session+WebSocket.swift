public import BrickCore
public import BrickTransport

extension Session {
    /// Opens a WebSocket to `url` (`ws`, `wss`, `http`, `https`, or a path against the session's base URL)
    /// through the session's chain, as a request brick would.
    ///
    /// - Parameters:
    ///   - url: Where to connect: `ws://`, `wss://`, `http://` or `https://`, or a path against the session's
    ///     base URL.
    ///   - headers: Fields of the handshake request, under the handshake's own.
    ///   - options: Limits, subprotocols, compression. Default is ``WebSocketOptions/default``.
    ///   - retry: Retry rules for the handshake (a `503`, a refused connection). Default is none.
    /// - Throws: ``WebSocketError``.
    public func webSocket(
        _ url: String, headers: HTTPHeaders = [:], options: WebSocketOptions = .default, retry: AutoRetryConfiguration = .none
    ) async throws(WebSocketError) -> WebSocket {
        let request = TransportRequest(method: .get, url: url, headers: headers)
        return try await openWebSocket(plan(for: request, retry: retry, idempotency: .byMethod, validation: .none, owner: nil), options: options)
    }

    /// Runs `plan` as a WebSocket's opening handshake: the handshake's fields and an ``UpgradeSlot`` added to
    /// its request, then the whole chain (interceptors, authentication, cookies, origin protection,
    /// observers, retries), a `101` the one success; then the answer checked, and the connection the
    /// transport left in the slot opened as a ``WebSocket``.
    package func openWebSocket(_ plan: CallPlan, options: WebSocketOptions) async throws(WebSocketError) -> WebSocket {
        let handshake = Handshake(options: options)
        let slot = UpgradeSlot(upgradeProtocol: "websocket")
        let upgrading = plan.upgrading { request in
            request.url = Handshake.httpURL(request.url)
            handshake.addFields(to: &request.headers)
            request.upgrade = slot
        }
        let outcome = await run(upgrading, serializer: ResponseSerializer { $0 })
        let response: TransportResponse
        switch outcome.result {
        case .success(let answer): response = answer
        case .failure(let error):
            slot.take()?.close()
            if case .validation(_, let answer) = error {
                throw WebSocketError(.handshakeRefused, "the server answered \(answer.head.status), not 101 Switching Protocols", underlying: error)
            }
            throw WebSocketError(.call, "the handshake failed: \(error)", underlying: error)
        }
        guard let connection = slot.take() else {
            throw WebSocketError(.handshakeRefused, "the session's transport answered 101 but handed over no connection: it cannot upgrade")
        }
        do {
            let (subprotocol, deflate) = try handshake.check(response.head)
            return WebSocket(connection: connection, response: response.head, subprotocol: subprotocol, deflate: deflate, options: options)
        } catch {
            connection.close()
            throw error
        }
    }
}

extension Session {
    /// Opens a WebSocket to `url` that reconnects by `policy` whenever it is lost (``ReconnectingWebSocket``);
    /// `resubscribe` runs on each new connection, before the outbox is sent.
    ///
    /// - Parameters:
    ///   - url: Where to connect, as for ``webSocket(_:headers:options:retry:)``.
    ///   - headers: Fields of every handshake request.
    ///   - options: Limits, subprotocols, compression, heartbeat. Default is ``WebSocketOptions/default``.
    ///   - policy: How it reconnects, and its outbox. Default is ``ReconnectPolicy/default``.
    ///   - resubscribe: What to send again on each new connection. Default is nothing.
    /// - Throws: ``WebSocketError`` when the first connection cannot be opened.
    public func reconnectingWebSocket(
        _ url: String, headers: HTTPHeaders = [:], options: WebSocketOptions = .default, policy: ReconnectPolicy = .default,
        resubscribe: @escaping @Sendable (WebSocket) async throws -> Void = { _ in }
    ) async throws(WebSocketError) -> ReconnectingWebSocket {
        let connect: @Sendable () async throws(WebSocketError) -> WebSocket = { [self] () async throws(WebSocketError) -> WebSocket in
            try await webSocket(url, headers: headers, options: options)
        }
        let first = try await connect()
        let resolved = (try? plan(for: TransportRequest(method: .get, url: url), retry: .none, idempotency: .byMethod, validation: .none, owner: nil).request.get().url) ?? url
        return ReconnectingWebSocket(Reconnector(
            first: first, session: self, url: resolved, options: options, policy: policy, connect: connect, resubscribe: resubscribe))
    }
}
