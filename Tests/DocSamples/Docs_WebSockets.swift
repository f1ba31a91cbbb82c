// Generated from Docs/WebSockets.md by .ci/doc-samples.py: edit the page, not this file.

import BrickRequest
import Foundation

fileprivate final class LiveQuotes: Component, WebSocketRequestType, APISessionRequestType {
    var path: String { "/quotes/stream" }
    var headers: HTTPHeaders { ["X-Api-Key": "secret-key"] }
}

fileprivate func show(_ message: WebSocketMessage) {}
fileprivate final class Prices: Component, WebSocketRequestType, AutoReconnectType, APISessionRequestType {
    var URLString: String { "wss://api.example.com/prices" }
    var webSocketOptions: WebSocketOptions {
        var options = WebSocketOptions.default
        options.heartbeat = .seconds(15)                      // a silent connection is found dead too
        return options
    }
    var reconnectPolicy: ReconnectPolicy { ReconnectPolicy(outbox: .init(capacity: 100, whenFull: .dropOldest)) }
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

    // Swift block 4
    fileprivate static func sample4() async throws {
        let api = Session(configuration: Session.Configuration(baseURL: "https://api.example.com"))
        let prices = try await Prices().connectReconnecting { socket in
            try await socket.send(text: #"{"subscribe": "EURUSD"}"#)  // on every new connection, before the outbox
        }
        try await prices.send(text: "hello")                           // sent now, or kept in the outbox while down
        for try await message in prices.messages { show(message) }
        let same = try await api.reconnectingWebSocket("wss://api.example.com/prices", policy: .default)
    }
}
