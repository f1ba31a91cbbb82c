// Generated from Docs/WebSockets.md by .ci/doc-samples.py: edit the page, not this file.

import BrickRequest
import Foundation

fileprivate final class LiveQuotes: Component, WebSocketRequestType, APISessionRequestType {
    var path: String { "/quotes/stream" }
    var headers: HTTPHeaders { ["X-Api-Key": "secret-key"] }
}


fileprivate enum SamplesOfWebSockets {

    // Swift block 1
    fileprivate static func sample1() async throws {
        let socket = try await LiveQuotes().connect()
        try await socket.send(text: #"{"subscribe": "ACME"}"#)
        for try await message in socket.messages {
            switch message {
            case .text(let text): print(text)
            case .binary(let bytes): print("\(bytes.count) bytes")
            }
        }
        print("closed:", socket.peerClose?.code ?? 1006)
    }

    // Swift block 2
    fileprivate static func sample2() async throws {
        let session = Session()
        let echo = try await session.webSocket("wss://echo.example.test/", headers: ["X-Client": "quotes/1.0"])
        try await echo.send(binary: Data([1, 2, 3]))
        await echo.close()
    }

    // Swift block 3
    fileprivate static func sample3() async throws {
        let session = Session()
        var options = WebSocketOptions()
        options.subprotocols = ["graphql-transport-ws"]
        options.maxMessageSize = 1 << 20
        let graph = try await session.webSocket("wss://api.example.test/graphql", options: options)
        print(graph.subprotocol ?? "none chosen")
    }
}
