import BrickTransport
import FoundationEssentials
import Testing

@testable import BrickWebSocket

/// The handshake's checks and the compression it agrees to, on values.
struct HandshakeTests {
    @Test func theAcceptValueIsRFC6455s() {
        #expect(Handshake.accept(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    func answer(_ handshake: Handshake, status: Int = 101, _ change: (inout HTTPHeaders) -> Void = { _ in }) -> ResponseHead {
        var headers: HTTPHeaders = ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Accept": Handshake.accept(for: handshake.key)]
        change(&headers)
        return ResponseHead(status: status, headers: headers)
    }

    @Test func onlyA101ThatProvesTheKeyOpens() throws {
        var options = WebSocketOptions()
        options.subprotocols = ["chat.v2"]
        let handshake = Handshake(options: options)
        #expect(try handshake.check(answer(handshake)).subprotocol == nil)
        #expect(try handshake.check(answer(handshake) { $0["Sec-WebSocket-Protocol"] = "chat.v2" }).subprotocol == "chat.v2")
        let refused: [ResponseHead] = [
            answer(handshake, status: 200),
            answer(handshake) { $0["Upgrade"] = "h2c" },
            answer(handshake) { $0["Connection"] = "keep-alive" },
            answer(handshake) { $0["Sec-WebSocket-Accept"] = Handshake.accept(for: "another key") },
            answer(handshake) { $0["Sec-WebSocket-Protocol"] = "chat.v1" },
            answer(handshake) { $0["Sec-WebSocket-Extensions"] = "x-webkit-deflate-frame" },
        ]
        for head in refused {
            let error = try #require(throws: WebSocketError.self) { try handshake.check(head) }
            #expect(error.kind == .handshakeRefused)
        }
    }

    @Test func theDeflateAnswerIsReadStrictly() throws {
        let agreed = try #require(try DeflateParameters.agreed("permessage-deflate; server_no_context_takeover; client_max_window_bits=9", offered: true))
        #expect(agreed.serverNoContextTakeover)
        #expect(agreed.clientMaxWindowBits == 9)
        #expect(try DeflateParameters.agreed(nil, offered: true) == nil)
        for refused in [
            "permessage-deflate; client_max_window_bits=16", "permessage-deflate; client_max_window_bits=7",
            "permessage-deflate; server_max_window_bits", "permessage-deflate; x=1", "permessage-deflate; server_no_context_takeover; server_no_context_takeover",
            "permessage-deflate, permessage-deflate",
        ] {
            #expect(throws: WebSocketError.self, "\(refused)") { try DeflateParameters.agreed(refused, offered: true) }
        }
        #expect(throws: WebSocketError.self) { try DeflateParameters.agreed("permessage-deflate", offered: false) }
    }

    @Test func aDeflatedMessageInflatesBackAndABombStopsAtTheLimit() throws {
        let parameters = DeflateParameters()
        let deflater = try #require(MessageDeflater(parameters))
        let inflater = try #require(MessageInflater(parameters))
        let text = Data(String(repeating: "the same words again and again ", count: 200).utf8)
        let compressed = deflater.deflate(text)
        #expect(compressed.count < text.count / 10)
        #expect(try inflater.inflate(compressed, limit: text.count) == text)
        // 16 MiB of zeros, compressed to a few KiB, against a 1 MiB limit: refused as it inflates.
        let bomb = deflater.deflate(Data(count: 16 << 20))
        #expect(bomb.count < 64 * 1024)
        let error = try #require(throws: WebSocketError.self) { try MessageInflater(parameters)?.inflate(bomb, limit: 1 << 20) }
        #expect(error.kind == .tooBig)
    }

    @Test func aWindowZlibCannotDeflateIntoSendsUncompressed() {
        var parameters = DeflateParameters()
        parameters.clientMaxWindowBits = 8
        #expect(MessageDeflater(parameters) == nil)
    }

    @Test func wsURLsAreTheirHTTPCounterparts() {
        #expect(Handshake.httpURL("ws://a.test/x") == "http://a.test/x")
        #expect(Handshake.httpURL("WSS://a.test/x") == "https://a.test/x")
        #expect(Handshake.httpURL("/relative") == "/relative")
    }
}
