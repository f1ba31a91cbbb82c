import BrickRequest
import BrickTesting
import FoundationEssentials
import Testing

/// BrickTesting's in-memory peer: a WebSocket brick tested with no network, as a user would.
struct PeerTests {
    final class Room: Component, WebSocketRequestType {
        let session: Session
        var URLString: String { "ws://chat.example.test/room" }
        var headers: HTTPHeaders { ["X-Room": "lobby"] }
        var webSocketOptions: WebSocketOptions {
            var options = WebSocketOptions()
            options.subprotocols = ["chat.v1"]
            return options
        }
        init(session: Session) {
            self.session = session
            super.init()
        }
    }

    @Test func aBrickTalksToThePeerWithNoNetwork() async throws {
        let peer = WebSocketPeer(subprotocol: "chat.v1")
        let socket = try await Room(session: Session(transport: peer)).connect()
        #expect(socket.subprotocol == "chat.v1")
        #expect(peer.handshakes.first?.headers["X-Room"] == "lobby")
        #expect(peer.handshakes.first?.url == "http://chat.example.test/room")
        peer.send(text: "welcome")
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("welcome"))
        try await socket.send(binary: Data([9, 8, 7]))
        #expect(await peer.nextMessage() == .binary(Data([9, 8, 7])))
        try await socket.ping()
        peer.close(code: 4002, reason: "bye")
        #expect(try await iterator.next() == nil)
        #expect(socket.peerClose == WebSocketClose(code: 4002, reason: "bye"))
    }

    @Test func aMalformedFrameFromThePeerFailsTheConnection() async throws {
        let peer = WebSocketPeer()
        let socket = try await Session(transport: peer).webSocket("ws://chat.example.test/")
        peer.send(rawBytes: Data([0x83, 0x00]))  // reserved opcode 3
        let error = await #expect(throws: WebSocketError.self) { for try await _ in socket.messages {} }
        #expect(error?.kind == .protocolViolation)
        #expect(peer.clientClose?.code == 1002)
    }

    @Test func aDroppedConnectionEndsTheMessagesAsLost() async throws {
        let peer = WebSocketPeer()
        let socket = try await Session(transport: peer).webSocket("ws://chat.example.test/")
        peer.drop()
        let error = await #expect(throws: WebSocketError.self) { for try await _ in socket.messages {} }
        #expect(error?.kind == .connectionLost)
        await #expect(throws: WebSocketError.self) { try await socket.send(text: "late") }
    }

    @Test func closingAfterTheAnswersStillHandsOnWhatArrivesBeforeThePeersClose() async throws {
        let peer = WebSocketPeer()
        let socket = try await Session(transport: peer).webSocket("ws://chat.example.test/")
        peer.send(text: "the answer")
        await socket.closeAfterAnswers(code: 1000)
        var received: [WebSocketMessage] = []
        for try await message in socket.messages { received.append(message) }
        #expect(received == [.text("the answer")])
        #expect(peer.clientClose?.code == 1000)
        #expect(socket.peerClose?.code == 1000)
    }

    @Test func aPlainCloseDropsWhatWasNotRead() async throws {
        let peer = WebSocketPeer()
        let socket = try await Session(transport: peer).webSocket("ws://chat.example.test/")
        peer.send(text: "never read")
        await socket.close()
        var received: [WebSocketMessage] = []
        for try await message in socket.messages { received.append(message) }
        #expect(received.isEmpty)
    }

    @Test func aMessageLongerThanTheFragmentSizeGoesOutInFragments() async throws {
        let peer = WebSocketPeer()
        var options = WebSocketOptions()
        options.fragmentSize = 4
        let socket = try await Session(transport: peer).webSocket("ws://chat.example.test/", options: options)
        try await socket.send(text: "hello world")  // 11 bytes: 4 + 4 + 3
        #expect(await peer.nextMessage() == .text("hello world"))
        #expect(peer.dataFramesReceived == 3)
        try await socket.send(text: "hi")
        #expect(await peer.nextMessage() == .text("hi"))
        #expect(peer.dataFramesReceived == 4)
    }
}
