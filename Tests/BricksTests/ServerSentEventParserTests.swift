import BrickTransport
import Bricks
import Testing

/// The event-stream parser against the WHATWG rules, fed every way a body can be cut into chunks.
@Suite struct ServerSentEventParserTests {
    static let document = Array(
        "\u{FEFF}: comment\r\nretry: 250\r\n\r\nid: 7\r\ndata: one\r\n\r\nevent: update\ndata:two\ndata:  three\n\n"
            .utf8)
        + Array("id: 8\rdata: caf\u{E9} \u{1F9F1}\r\rdata\n\nid\ndata: no id\n\nfield-without-meaning: x\ndata: cut".utf8)

    static let expected = [
        ServerSentEvent(type: "message", data: "one", id: "7"),
        ServerSentEvent(type: "update", data: "two\n three", id: "7"),
        ServerSentEvent(type: "message", data: "caf\u{E9} \u{1F9F1}", id: "8"),
        ServerSentEvent(type: "message", data: "", id: "8"),
        ServerSentEvent(type: "message", data: "no id", id: ""),
    ]

    @Test func everyWayOfCuttingTheBodyGivesTheSameEvents() throws {
        // Whole, byte by byte, and every split into two chunks (inside CRLFs and UTF-8 characters included).
        var cuts: [[Int]] = [[], Array(1..<Self.document.count)]
        cuts += (1..<Self.document.count).map { [$0] }
        for cut in cuts {
            var parser = ServerSentEventParser()
            var events: [ServerSentEvent] = []
            var start = 0
            for end in cut + [Self.document.count] {
                events += try parser.feed(Self.document[start..<end])
                start = end
            }
            #expect(events == Self.expected, "cut at \(cut.prefix(3))")
            #expect(parser.reconnectionTime == .milliseconds(250))
            #expect(parser.lastEventID == "")  // the bare `id` line reset it
        }
    }

    @Test func anUnfinishedEventIsDroppedWhenTheConnectionEndsWithItsID() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.feed(Array("id: 1\ndata: whole\n\nid: 2\ndata: half".utf8)) == [ServerSentEvent(data: "whole", id: "1")])
        parser.connectionEnded()
        #expect(parser.lastEventID == "1")  // what a reconnection sends: the last event dispatched
        #expect(try parser.feed(Array("data: next\n\n".utf8)) == [ServerSentEvent(data: "next", id: "1")])
    }

    @Test func retryAndIDAreReadOnlyWhenValid() throws {
        var parser = ServerSentEventParser()
        _ = try parser.feed(Array("retry: 12a\nretry: -5\nretry: 99999999999999999999\nid: a\u{0}b\n\n".utf8))
        #expect(parser.reconnectionTime == nil)  // not digits, or more digits than any retry needs
        #expect(parser.lastEventID == "")  // an id with NUL is ignored
        _ = try parser.feed(Array("retry: 999999999999\n".utf8))
        #expect(parser.reconnectionTime == .seconds(86_400))  // bounded to a day
    }

    @Test func aServerCannotMakeItHoldUnboundedMemory() throws {
        var parser = ServerSentEventParser(maxEventSize: 1024)
        #expect(throws: TransportError.self) { _ = try parser.feed(Array(repeating: UInt8(ascii: "a"), count: 2000)) }
        var lines = ServerSentEventParser(maxEventSize: 1024)
        let many = Array(String(repeating: "data: " + String(repeating: "b", count: 100) + "\n", count: 20).utf8)
        #expect(throws: TransportError.self) { _ = try lines.feed(many) }
    }
}
