import BrickRequest
import FoundationEssentials
import TestServers
import Testing

/// The client against Python's `websockets` (a peer no one here wrote), over the session's libcurl, and
/// against a peer that answers the handshake and nothing else.
@Suite(.serialized) struct ServerTests {
    let server: WebSocketServer
    init() throws { server = try WebSocketServer() }

    @Test func textAndBinaryComeBackCompressed() async throws {
        defer { server.stop() }
        let socket = try await Session().webSocket(server.url("/echo"))
        #expect(socket.isCompressed)
        try await socket.send(text: "héllo")
        let large = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
        try await socket.send(binary: large)
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("héllo"))
        #expect(try await iterator.next() == .binary(large))
        try await socket.ping()
        await socket.close()
        #expect(socket.peerClose?.code == 1000)
    }

    @Test func withoutCompressionTheSameMessagesPass() async throws {
        defer { server.stop() }
        var options = WebSocketOptions()
        options.compression = false
        let socket = try await Session().webSocket(server.url("/echo"), options: options)
        #expect(!socket.isCompressed)
        try await socket.send(text: String(repeating: "x", count: 70_000))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text(String(repeating: "x", count: 70_000)))
        await socket.close()
    }

    @Test func theHandshakeGoesThroughTheSessionsChain() async throws {
        defer { server.stop() }
        var configuration = Session.Configuration()
        configuration.baseURL = "http://127.0.0.1:\(server.port)"
        configuration.headers = ["X-Api-Key": "k-123"]
        let session = Session(configuration: configuration)
        var options = WebSocketOptions()
        options.subprotocols = ["chat.v1"]
        let socket = try await session.webSocket("/headers", headers: ["X-Trace": "t-1"], options: options)
        #expect(socket.subprotocol == "chat.v1")
        var iterator = socket.messages.makeAsyncIterator()
        guard case .text(let json)? = try await iterator.next() else { Issue.record("no headers message"); return }
        let fields = try JSONDecoder().decode([String: String].self, from: Data(json.utf8))
        #expect(fields["X-Api-Key"] == "k-123")
        #expect(fields["X-Trace"] == "t-1")
        #expect(fields["Sec-WebSocket-Protocol"] == "chat.v1")
        #expect(fields["Upgrade"] == "websocket")
        await socket.close()
    }

    @Test func thePeersCloseCodeAndReasonAreKept() async throws {
        defer { server.stop() }
        let socket = try await Session().webSocket(server.url("/close?code=4001&reason=gone"))
        for try await message in socket.messages { Issue.record("unexpected \(message)") }
        #expect(socket.peerClose == WebSocketClose(code: 4001, reason: "gone"))
    }

    @Test func aMessagePastTheLimitFailsTheConnectionWith1009() async throws {
        defer { server.stop() }
        var options = WebSocketOptions()
        options.maxMessageSize = 1 << 20
        let socket = try await Session().webSocket(server.url("/big?size=\(4 << 20)"), options: options)
        let error = await #expect(throws: WebSocketError.self) {
            for try await _ in socket.messages {}
        }
        #expect(error?.kind == .tooBig)
    }

    @Test func aRefusedHandshakeSaysWhatCame() async throws {
        defer { server.stop() }
        let error = await #expect(throws: WebSocketError.self) {
            _ = try await Session().webSocket(server.url("/refuse"))
        }
        #expect(error?.kind == .handshakeRefused)
        #expect(error?.message.contains("403") == true)
    }

    @Test func theHeartbeatKeepsALivePeer() async throws {
        defer { server.stop() }
        var options = WebSocketOptions()
        options.heartbeat = .milliseconds(20)
        let socket = try await Session().webSocket(server.url("/echo"), options: options)
        // Five messages sent and echoed, with heartbeats between them, answered by websockets' pongs.
        var iterator = socket.messages.makeAsyncIterator()
        for index in 0..<5 {
            try await socket.send(text: "beat \(index)")
            #expect(try await iterator.next() == .text("beat \(index)"))
        }
        await socket.close()
        #expect(socket.peerClose?.code == 1000)
    }

}


/// A peer that answers the handshake and nothing after it: no pong, no close.
struct SilentPeerTests {
    /// A connection to a new silent peer, without compression, with `change` applied to the options.
    func connect(_ change: (inout WebSocketOptions) -> Void) async throws -> (WebSocket, WebSocketServer) {
        let silent = try WebSocketServer(silent: true)
        var options = WebSocketOptions()
        options.compression = false
        options.closeTimeout = .milliseconds(200)
        change(&options)
        do {
            return (try await Session().webSocket(silent.url("/"), options: options), silent)
        } catch {
            silent.stop()
            throw error
        }
    }

    @Test func aPeerThatNeverAnswersAPingIsDeclaredDead() async throws {
        let (socket, silent) = try await connect { $0.pingTimeout = .milliseconds(300) }
        defer { silent.stop() }
        let error = await #expect(throws: WebSocketError.self) { try await socket.ping() }
        #expect(error?.kind == .pingTimedOut, "\(String(describing: error))")
        await #expect(throws: WebSocketError.self) { for try await _ in socket.messages {} }
    }

    @Test func theHeartbeatFindsAPeerThatStoppedAnswering() async throws {
        let (socket, silent) = try await connect { options in
            options.heartbeat = .milliseconds(100)
            options.pingTimeout = .milliseconds(300)
        }
        defer { silent.stop() }
        let error = await #expect(throws: WebSocketError.self) { for try await _ in socket.messages {} }
        #expect(error?.kind == .pingTimedOut)
    }

    @Test func aPeerThatNeverAnswersTheCloseIsClosedAfterTheTimeout() async throws {
        let (socket, silent) = try await connect { _ in }
        defer { silent.stop() }
        await socket.close()
        #expect(socket.peerClose == nil)
        await #expect(throws: WebSocketError.self) { try await socket.send(text: "after close") }
    }
}

/// The routes a connection can take: libcurl makes them all, the frames go over whatever it made.
@Suite(.serialized) struct RouteTests {
    @Test func overTLSBehindNginxAsAReverseProxy() async throws {
        let nginx = try Nginx.shared.get()
        let server = try WebSocketServer(unixSocket: nginx.webSocketSocketPath)
        defer { server.stop() }
        var configuration = Session.Configuration()
        configuration.transportOptions.caBundlePath = nginx.certificatePath
        let session = Session(configuration: configuration)
        let socket = try await session.webSocket("wss://localhost:\(nginx.tlsPort)/ws-proxy/echo")
        try await socket.send(text: "through nginx")
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("through nginx"))
        await socket.close()
    }

    @Test func overAUnixSocket() async throws {
        let path = try Paths.scratchDirectory("ws-unix") + "/ws.sock"
        let server = try WebSocketServer(unixSocket: path)
        defer { server.stop() }
        var configuration = Session.Configuration()
        configuration.transportOptions.unixSocketPath = path
        let socket = try await Session(configuration: configuration).webSocket("ws://localhost/echo")
        try await socket.send(binary: Data([1, 2, 3]))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .binary(Data([1, 2, 3])))
        await socket.close()
    }

    @Test func plainWSThroughAnHTTPProxyGoesThroughItsTunnel() async throws {
        let server = try WebSocketServer()
        defer { server.stop() }
        let proxy = try ForwardProxy()
        defer { proxy.stop() }
        try await Self.echo("tunnelled", through: proxy.url, to: server)
        #expect(proxy.requests.map(\.line) == ["CONNECT 127.0.0.1:\(server.port)"])
    }

    /// Sends `text` to `server`'s echo through the proxy at `proxyURL` and reads it back.
    static func echo(_ text: String, through proxyURL: String, to server: WebSocketServer) async throws {
        var configuration = Session.Configuration()
        configuration.transportOptions.proxy = .through(Proxy(url: proxyURL))
        let socket = try await Session(configuration: configuration).webSocket(server.url("/echo"))
        try await socket.send(text: text)
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text(text))
        await socket.close()
    }

    @Test func plainWSThroughTinyproxyGoesThroughItsTunnel() async throws {
        let server = try WebSocketServer()
        defer { server.stop() }
        let proxy = try Tinyproxy()
        defer { proxy.stop() }
        try await Self.echo("through tinyproxy", through: proxy.url, to: server)
        #expect(proxy.log.contains("CONNECT 127.0.0.1:\(server.port)"), "\(proxy.log)")
    }

    @Test func fragmentedCompressedMessagesComeBackWhole() async throws {
        let server = try WebSocketServer()
        defer { server.stop() }
        var options = WebSocketOptions()
        options.fragmentSize = 100
        let socket = try await Session().webSocket(server.url("/echo"), options: options)
        let text = (0..<2_000).map { "line \($0) of a message sent in fragments\n" }.joined()
        try await socket.send(text: text)
        try await socket.send(binary: Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text(text))
        #expect(try await iterator.next() == .binary(Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })))
        await socket.close()
    }
}
