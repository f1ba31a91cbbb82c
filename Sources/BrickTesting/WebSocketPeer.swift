public import BrickTransport
public import BrickWebSocket
import BrickSystem
public import FoundationEssentials

/// A WebSocket server in memory, for unit tests of WebSocket bricks with no network: a `Transport` that
/// answers every upgrade request with a proper `101` and connects the client to this peer, which sends what
/// the test tells it to and hands the test every message the client sent.
///
/// ```swift
/// let peer = WebSocketPeer()
/// let session = Session(transport: peer)
/// let socket = try await session.webSocket("ws://chat.example.test/room")
/// peer.send(text: "welcome")
/// try await socket.send(text: "hi")
/// #expect(await peer.nextMessage() == .text("hi"))
/// ```
///
/// The peer answers the client's pings, and its close with a close; a request that is not an upgrade gets a
/// `404`, and every upgrade a `503` while ``refusesUpgrades``. One connection at a time: a new handshake replaces the last one.
public final class WebSocketPeer: Transport, Sendable {
    private let state = Locked<(handshakes: [TransportRequest], connection: PeerConnection?)>(([], nil))
    /// The subprotocol the peer chooses when the client offers it, or `nil`.
    public let subprotocol: String?

    /// A peer that chooses `subprotocol` when offered (none by default).
    public init(subprotocol: String? = nil) { self.subprotocol = subprotocol }

    /// The handshake requests it answered, oldest first (their headers as the session's chain made them).
    public var handshakes: [TransportRequest] { state.withLock { $0.handshakes } }

    /// Whether it answers an upgrade request with `503` instead of a connection (a server that is down):
    /// what a test of a reconnect that gives up sets. Default is `false`.
    public var refusesUpgrades: Bool {
        get { refusing.withLock { $0 } }
        set { refusing.withLock { $0 = newValue } }
    }
    private let refusing = Locked(false)

    public func makeTransfer(for request: TransportRequest) -> any TransportTransfer {
        PeerTransfer(request: request, peer: self)
    }

    /// The answer to `request`: a `101` with the connection in its slot, or `404`.
    func answer(_ request: TransportRequest) -> TransportResponse {
        guard let slot = request.upgrade, let key = request.headers["Sec-WebSocket-Key"] else { return TransportResponse(head: ResponseHead(status: 404)) }
        if refusesUpgrades { return TransportResponse(head: ResponseHead(status: 503)) }
        var headers: HTTPHeaders = ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": Handshake.accept(for: key)]
        let offered = request.headers["Sec-WebSocket-Protocol"]?.split(separator: ",").map { String($0.trimmingPrefix(" ")) } ?? []
        if let subprotocol, offered.contains(subprotocol) { headers["Sec-WebSocket-Protocol"] = subprotocol }
        let connection = PeerConnection()
        let previous = state.withLock { state in
            state.handshakes.append(request)
            defer { state.connection = connection }
            return state.connection
        }
        previous?.close()
        slot.put(connection)
        return TransportResponse(head: ResponseHead(status: 101, headers: headers))
    }

    private var connection: PeerConnection? { state.withLock { $0.connection } }

    /// Sends a text message to the client.
    public func send(text: String) { connection?.toClient(Frame(opcode: .text, payload: Data(text.utf8))) }

    /// Sends a binary message to the client.
    public func send(binary: Data) { connection?.toClient(Frame(opcode: .binary, payload: binary)) }

    /// Sends raw bytes to the client as they are (a malformed frame, say).
    public func send(rawBytes: Data) { connection?.toClientRaw(rawBytes) }

    /// Starts the closing handshake with `code` and `reason`.
    public func close(code: UInt16 = 1000, reason: String = "") {
        var payload = Data([UInt8(code >> 8), UInt8(code & 0xFF)])
        payload.append(contentsOf: reason.utf8)
        connection?.toClient(Frame(opcode: .close, payload: payload))
    }

    /// Ends the connection without a close frame, as a network that went away would.
    public func drop() { connection?.close() }

    /// The next message the client sent, or `nil` once the connection closed.
    public func nextMessage() async -> WebSocketMessage? { await connection?.messages.next() }

    /// The close code the client sent, once it did.
    public var clientClose: WebSocketClose? { connection?.clientClose }

    /// The data frames the client sent on the current connection, each fragment of a message one
    /// (`WebSocketOptions.fragmentSize`).
    public var dataFramesReceived: Int { connection?.dataFrames.withLock { $0 } ?? 0 }
}

/// A transfer of the peer: answered at once.
private final class PeerTransfer: TransportTransfer {
    let request: TransportRequest
    let peer: WebSocketPeer
    init(request: TransportRequest, peer: WebSocketPeer) {
        self.request = request
        self.peer = peer
    }
    func response() async throws(TransportError) -> TransportResponse {
        try request.validate()
        return peer.answer(request)
    }
    func events() -> TransportEventStream {
        TransportEventStream(failing: TransportError(.other, message: "a WebSocketPeer answers collected requests only"))
    }
    func cancel(because reason: TransportError) {}
}
