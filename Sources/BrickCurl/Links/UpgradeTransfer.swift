import BrickSystem
import BrickTransport
import FoundationEssentials

/// An upgrade request (``TransportRequest/upgrade`` set) through the libcurl transport: libcurl makes the
/// connection (``SocketLink``), the head is written and read here, and on a `101` the connection goes to the
/// request's ``UpgradeSlot`` instead of a body being read. Any other answer is returned with the body its
/// `Content-Length` announces (up to ``bodyCap``), and the connection closed.
final class UpgradeTransfer: TransportTransfer, TransportEventSource, Sendable {
    let request: TransportRequest
    let link: SocketLink
    /// What ``nextEvent()`` has handed out: the response, then its end.
    private let streamed = Locked<(response: TransportResponse?, ended: Bool)>((nil, false))

    /// The most of a refused answer's body that is read (an error page is for the error's message).
    static let bodyCap = 64 * 1024

    init(request: TransportRequest, transport: CurlTransport) {
        self.request = request
        link = SocketLink(request: request, transport: transport)
    }

    func response() async throws(TransportError) -> TransportResponse {
        try request.validate()
        let upgradeProtocol = request.upgrade?.upgradeProtocol ?? ""
        guard !upgradeProtocol.isEmpty, upgradeProtocol.utf8.allSatisfy(HTTPHeaders.isTokenByte) else {
            throw TransportError(.invalidRequest, message: "the upgrade's protocol \(upgradeProtocol.debugDescription) is not a token")
        }
        let deadline = Task { [link, limit = request.options.timeout ?? request.options.collectTimeout ?? .seconds(30)] in
            try? await Task.sleep(for: limit)
            if !Task.isCancelled { link.close(because: TransportError(.timedOut, message: "no answer to the upgrade request within \(limit)")) }
        }
        defer { deadline.cancel() }
        try await link.connect()
        try await link.write(HandshakeHead.bytes(of: request, upgradeProtocol: upgradeProtocol))
        var received = Data()
        var headEnd: Int?
        while headEnd == nil {
            guard let more = try await link.read() else {
                throw TransportError(.connectionLost, message: "the server closed the connection before answering the upgrade request")
            }
            received.append(more)
            headEnd = HandshakeHead.end(in: received)
            if headEnd == nil, received.count > request.options.maxHeaderSize {
                link.close()
                throw TransportError(.responseTooLarge, message: "the answer's head passed TransportOptions.maxHeaderSize (\(request.options.maxHeaderSize) bytes)")
            }
        }
        let end = headEnd ?? received.count
        let head = try HandshakeHead.parse(received.prefix(end))
        let rest = received.dropFirst(end)
        if head.status == 101, let slot = request.upgrade {
            if !rest.isEmpty { link.pushBack(Data(rest)) }
            slot.put(link)
            return TransportResponse(head: head)
        }
        defer { link.close() }
        return TransportResponse(head: head, body: try await body(of: head, after: Data(rest)))
    }

    /// The body of a refused answer: what its `Content-Length` says, at most ``bodyCap`` bytes; none when it
    /// has no length.
    private func body(of head: ResponseHead, after start: Data) async throws(TransportError) -> Data {
        guard let length = head.headers["Content-Length"].flatMap({ Int($0) }), length > 0 else { return Data() }
        let wanted = min(length, Self.bodyCap)
        var body = start.prefix(wanted)
        while body.count < wanted, let more = try await link.read() { body.append(more.prefix(wanted - body.count)) }
        return Data(body)
    }

    func events() -> TransportEventStream { TransportEventStream(source: self) }

    func nextEvent() async throws(TransportError) -> TransportEvent? {
        let (response, ended) = streamed.withLock { $0 }
        if ended { return nil }
        if let response {
            streamed.withLock { $0.ended = true }
            return .end(response.metrics)
        }
        let fetched = try await self.response()
        streamed.withLock { $0.response = fetched }
        return .head(fetched.head)
    }

    func cancel(because reason: TransportError) { link.close(because: reason) }
}
