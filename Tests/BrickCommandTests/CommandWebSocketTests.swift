import BrickRequest
import Foundation
import Testing
import TestServers

/// `brick ws URL`: lines of standard input sent as messages, messages printed, against Python's
/// `websockets` (`ws_server.py`).
struct CommandWebSocketTests {
    let server: WebSocketServer
    init() throws { server = try WebSocketServer() }

    @Test func theHandshakeCarriesTheCommandLinesHeadersAndWhatTheServerSendsIsPrinted() async throws {
        defer { server.stop() }
        let outcome = try await PipedChild.run([try Brick.path(), "ws", server.url("/headers"), "X-Room:lobby"], input: [])
        #expect(outcome.status == 0, "\(outcome.error)")
        let line = try #require(String(decoding: outcome.output, as: UTF8.self).split(separator: "\n").first)
        let fields = try JSON.parse(Data(line.utf8))
        #expect(fields["X-Room"]?.stringValue == "lobby")
        #expect(fields["Upgrade"]?.stringValue == "websocket")
    }

    @Test func eachLineOfStandardInputIsSentAsATextMessage() async throws {
        defer { server.stop() }
        let marker = "line-\(UUID().uuidString)"
        let sent = try await PipedChild.run([try Brick.path(), "ws", server.url("/counted")], input: Array((marker + "\n").utf8))
        #expect(sent.status == 0, "\(sent.error)")
        // The server's handler keeps the message in its ledger on its own task, which may run after it
        // answered the close: the ledger is asked again (a new connection each time) until it holds it.
        var held = false
        for _ in 0..<50 where !held {
            let ledger = try await PipedChild.run([try Brick.path(), "ws", server.url("/ledger")], input: [])
            held = String(decoding: ledger.output, as: UTF8.self).contains(marker)
        }
        #expect(held)
    }

    @Test func theServersCloseIsSaidAndARefusedHandshakeFails() async throws {
        defer { server.stop() }
        let closed = try await PipedChild.run([try Brick.path(), "ws", server.url("/close"), "code==4001", "reason==bye"], input: [])
        #expect(closed.status == 0)
        #expect(closed.error.contains("closed: 4001 bye"))
        let refused = try await PipedChild.run([try Brick.path(), "ws", server.url("/refuse")], input: [])
        #expect(refused.status == 1)
        #expect(refused.error.contains("403"))
    }

    @Test func aBodyItemIsRefusedAndNothingIsSent() async throws {
        defer { server.stop() }
        let outcome = try await Brick.run("ws", server.url("/echo"), "name=value")
        #expect(outcome.status == 2)
        #expect(outcome.error.contains("headers (Name:value) and query fields"))
    }
}
