import BrickCurl
@testable import LoopbackServer
import Testing

@Suite struct RequestParserTests {
    @Test func readsPipelinedRequestsWithBodies() throws {
        var parser = RequestParser()
        parser.append(Array("POST /a?x=1 HTTP/1.1\r\nContent-Length: 3\r\n\r\nabcGET /b HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        let first = try #require(try parser.next())
        #expect(first.method == "POST")
        #expect(first.path == "/a")
        #expect(first.query == "x=1")
        #expect(first.body == Array("abc".utf8))
        let second = try #require(try parser.next())
        #expect(second.path == "/b")
        #expect(second.header("host") == "h")
        #expect(try parser.next() == nil)
    }

    @Test func waitsForTheRestOfABody() throws {
        var parser = RequestParser()
        parser.append(Array("PUT / HTTP/1.1\r\nContent-Length: 5\r\n\r\nab".utf8))
        #expect(try parser.next() == nil)
        parser.append(Array("cde".utf8))
        #expect(try parser.next()?.body == Array("abcde".utf8))
    }

    @Test(arguments: ["NONSENSE\r\n\r\n", "GET / SPDY/3\r\n\r\n", "GET / HTTP/1.1\r\nno colon\r\n\r\n",
                      "GET / HTTP/1.1\r\nContent-Length: -4\r\n\r\n"])
    func refusesMalformedRequests(text: String) {
        var parser = RequestParser()
        parser.append(Array(text.utf8))
        #expect(throws: RequestParser.ParseError.self) { try parser.next() }
    }

    @Test func servesKeepAliveRequestsOverOneConnection() async throws {
        let server = try LoopbackServer { request in .text("hello \(request.path)") }
        defer { server.stop() }
        let transport = try #require(CurlTransport())
        var reused: [Bool] = []
        for index in 0..<3 {
            let response = try await transport.makeTransfer(for: TransportRequest(url: server.baseURL + "/\(index)")).response()
            #expect(String(decoding: response.body, as: UTF8.self) == "hello /\(index)")
            reused.append(response.metrics.reusedConnection)
        }
        #expect(reused == [false, true, true])
    }
}
