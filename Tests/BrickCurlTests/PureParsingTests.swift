@testable import BrickCurl
import Testing

@Suite struct HeadParserTests {
    @Test func keepsOnlyTheFinalHeadAfterInterimOnesAndNoTrailers() {
        var parser = HeadParser()
        for line in ["HTTP/1.1 100 Continue\r\n", "\r\n", "HTTP/1.1 103 Early Hints\r\n", "Link: </a>\r\n", "\r\n",
                     "HTTP/1.1 200 OK\r\n", "Content-Type: text/plain\r\n", "X-Two: a\r\n", "X-Two: b\r\n", "\r\n",
                     "HTTP/1.1 500 Trailer: x\r\n", "X-Checksum: abc\r\n", "\r\n"] {
            parser.feed(line[...])
        }
        #expect(parser.head?.status == 200)
        #expect(parser.head?.reason == "OK")
        #expect(parser.head?.headers["link"] == nil)
        #expect(parser.head?.headers["x-checksum"] == nil)
        #expect(parser.head?.headers["content-type"] == "text/plain")
        #expect(parser.head?.headers.values(for: "x-two") == ["a", "b"])
    }

    @Test func parsesHTTP2StatusLineWithoutReason() {
        let head = HeadParser.parseStatusLine("HTTP/2 204")
        #expect(head.status == 204)
        #expect(head.version == "2")
        #expect(head.reason == "")
    }

    @Test func joinsFoldedContinuationLines() {
        var parser = HeadParser()
        for line in ["HTTP/1.1 200 OK\r\n", "X-Long: first\r\n", "\t second\r\n"] { parser.feed(line[...]) }
        #expect(parser.head?.headers["X-Long"] == "first second")
    }

    /// A body is decoded only when the head names a `Content-Encoding`: the name in any case, spaces or tabs
    /// before its colon, and nothing else: every one-byte change of the name but a letter's case makes
    /// another name.
    @Test func recognizesTheContentEncodingFieldByItsNameAlone() {
        func names(_ line: [UInt8]) -> Bool {
            var parser = HeadParser()
            parser.feed("HTTP/1.1 200 OK\r\n"[...])
            (line + [0x0D, 0x0A]).withUnsafeBytes { parser.feed($0) }
            return parser.namesContentEncoding
        }
        for line in ["Content-Encoding: gzip", "content-encoding:br", "CONTENT-ENCODING \t: x", "cOnTeNt-EnCoDiNg:"] {
            #expect(names(Array(line.utf8)), "\(line)")
        }
        for line in ["Content-Encodings: gzip", "Content-Type: text/plain", "Content-Encoding", "X-Content-Encoding: gzip",
                     "Content-Encoding x: gzip", "Content_Encoding: gzip", "Content\rEncoding: gzip"] {
            #expect(!names(Array(line.utf8)), "\(line.debugDescription)")
        }
        let name = Array("Content-Encoding".utf8)
        for position in name.indices {
            for byte in UInt8.min...UInt8.max {
                let isLetter = (name[position] | 0x20) >= 0x61 && (name[position] | 0x20) <= 0x7A
                let sameName = byte == name[position] || (isLetter && byte == name[position] ^ 0x20)
                var changed = name
                changed[position] = byte
                #expect(names(changed + Array(": gzip".utf8)) == sameName, "byte \(byte) at \(position)")
            }
        }
    }

    /// Field lines gathered in the easy handle's room give the same head as lines kept in an array, whatever
    /// the room's size (lines that do not fit, a fold after lines in the room, an interim head) and wherever
    /// the room is given back.
    @Test func fieldLinesGatheredInTheHandlesRoomMakeTheSameHead() {
        let lines = ["HTTP/1.1 103 Early Hints\r\n", "Link: </a>\r\n", "\r\n", "HTTP/1.1 200 OK\r\n",
                     "Content-Type: text/plain\r\n", "X-Long: first\r\n", "\t second  \r\n",
                     "X-Two: a\r\n", "X-Two: b\r\n", "Set-Cookie: \(String(repeating: "c", count: 90))\r\n",
                     "Content-Encoding: gzip\r\n", "\r\n", "X-Trailer: t\r\n"]
        func parsed(roomSize: Int, releasingAfter release: Int?) -> (ResponseHead?, Bool) {
            let room = UnsafeMutableRawBufferPointer.allocate(byteCount: roomSize, alignment: 8)
            defer { room.deallocate() }
            var parser = HeadParser(room: room)
            for (index, line) in lines.enumerated() {
                parser.feed(line[...])
                if index == release { parser.releaseRoom() }
            }
            let head = parser.head
            parser.releaseRoom()
            #expect(parser.head == head)
            return (head, parser.namesContentEncoding)
        }
        var plain = HeadParser()
        for line in lines { plain.feed(line[...]) }
        #expect(plain.head?.headers["x-long"] == "first second")
        #expect(plain.head?.headers.values(for: "x-two") == ["a", "b"])
        #expect(plain.head?.headers["link"] == nil && plain.head?.headers["x-trailer"] == nil)
        for roomSize in [0, 1, 10, 25, 26, 40, 64, 100, 130, 2048] {
            for release in [nil] + Array(lines.indices) {
                let (head, namesEncoding) = parsed(roomSize: roomSize, releasingAfter: release)
                #expect(head == plain.head, "room \(roomSize), given back after line \(String(describing: release))")
                #expect(head?.headers.fields == plain.head?.headers.fields)
                #expect(namesEncoding)
            }
        }
    }

    /// The usual `HTTP/1.1` line is read at fixed places; these lines sit on both sides of what that reading
    /// accepts, and each must come out as the word-by-word reading makes it.
    @Test(arguments: [
        ("HTTP/1.1 200 OK", 200, "1.1", "OK"), ("HTTP/1.1 404 Not Found", 404, "1.1", "Not Found"),
        ("HTTP/1.1 204", 204, "1.1", ""), ("HTTP/1.1 200  OK", 200, "1.1", "OK"), ("HTTP/1.1 200 ", 200, "1.1", ""),
        ("HTTP/1.1 2000 Big", 2000, "1.1", "Big"), ("HTTP/1.1 20 OK", 20, "1.1", "OK"), ("HTTP/1.0 200 OK", 200, "1.0", "OK"),
        ("HTTP/1.1  200 OK", 200, "1.1", "OK"), ("HTTP/1.1 2x0 OK", 0, "1.1", "OK"), ("HTTP/1.1 200OK", 0, "1.1", ""),
        ("http/1.1 200 OK", 200, "1.1", "OK"), ("HTTP/1.1 999 Ünïcode", 999, "1.1", "Ünïcode"),
    ])
    func readsStatusLinesTheUsualOneAtFixedPlaces(line: String, status: Int, version: String, reason: String) {
        let head = HeadParser.parseStatusLine(line[...])
        #expect(head.status == status)
        #expect(head.version == version)
        #expect(head.reason == reason)
    }

    @Test func aMalformedStatusBecomesZeroNotACrash() {
        #expect(HeadParser.parseStatusLine("HTTP/1.1 abc nope").status == 0)
        #expect(HeadParser.parseStatusLine("HTTP/").status == 0)
    }
}

@Suite struct CurlErrorMappingTests {
    typealias Context = CurlErrorMapping.Context

    @Test(arguments: [
        (7, Int32(111), true, TransportError.Kind.connectionRefused),
        (7, 101, false, .networkUnreachable),
        (7, 113, false, .networkUnreachable),
        (7, 110, false, .connectTimeout),
        (6, 0, false, .cannotResolveHost),
        (28, 110, false, .connectTimeout),
        (28, 0, true, .timedOut),
        (56, 104, true, .connectionLost),
        (7, 104, false, .connectionLost),
        (18, 0, true, .connectionLost),
        (52, 0, true, .connectionLost),
        (60, 0, true, .tlsFailure),
        (35, 0, true, .tlsFailure),
        (47, 0, true, .tooManyRedirects),
        (1, 0, true, .redirectRefused),
        (63, 0, true, .responseTooLarge),
        (8, 0, true, .invalidResponse),
        (3, 0, false, .invalidURL),
        (97, 0, true, .proxyFailure),
        (7, 2, false, .connectionRefused),  // a Unix socket path where nothing listens
    ])
    func classifiesCurlCodes(code: Int, errno: Int32, connected: Bool, expected: TransportError.Kind) {
        let context = Context(osErrno: errno, connected: connected)
        #expect(CurlErrorMapping.kind(code: code, message: "", context: context) == expected)
    }

    @Test func aTunnelTheProxyRefusedIsAProxyFailureNotALostConnection() {
        let message = "CONNECT tunnel failed, response 407"
        #expect(CurlErrorMapping.kind(code: 56, message: message, context: Context(connected: true)) == .proxyFailure)
        #expect(CurlErrorMapping.kind(code: 56, message: "Recv failure: Connection reset by peer", context: Context(connected: true))
            == .connectionLost)
    }

    @Test func aLowSpeedAbortIsStalledNotTimedOut() {
        let kind = CurlErrorMapping.kind(
            code: 28, message: "Operation too slow. Less than 100 bytes/sec transferred", context: Context(connected: true))
        #expect(kind == .stalled)
    }

    @Test func anAnswerThatIsNotHttpIsAnInvalidResponseNotARefusedRedirect() {
        #expect(CurlErrorMapping.kind(code: 1, message: "Received HTTP/0.9 when not allowed", context: Context()) == .invalidResponse)
        #expect(CurlErrorMapping.kind(code: 1, message: "Unsupported HTTP version in response", context: Context()) == .invalidResponse)
        #expect(CurlErrorMapping.kind(code: 1, message: "Protocol \"ftp\" not supported", context: Context()) == .redirectRefused)
    }

    @Test func theCapAndCancellationWinOverTheWriteError() {
        #expect(CurlErrorMapping.kind(code: 23, message: "", context: Context(exceededCap: true)) == .responseTooLarge)
        #expect(CurlErrorMapping.kind(code: 23, message: "", context: Context(cancelled: true)) == .cancelled)
        #expect(CurlErrorMapping.kind(code: 23, message: "", context: Context()) == .other)
    }

    @Test func keepsCodeErrnoAndMessage() {
        let error = CurlErrorMapping.error(code: 7, message: "refused", context: Context(osErrno: 111))
        #expect(error.curlCode == 7)
        #expect(error.osErrno == 111)
        #expect(error.message == "refused")
    }
}

@Suite struct ParsedURLTests {
    /// A URL libcurl refuses fails as the transfer would have, had libcurl parsed it itself: curl 3,
    /// `invalidURL`, libcurl's reason.
    @Test(arguments: ["http://[::1/", "http://h:99999/", "http://h:8a/"])
    func aURLLibcurlRefusesIsAnInvalidURL(url: String) {
        #expect {
            _ = try ParsedURL(url)
        } throws: { error in
            guard let error = error as? TransportError else { return false }
            return error.kind == .invalidURL && error.curlCode == 3 && error.message.hasPrefix("URL rejected: ")
        }
    }

    @Test func aURLLibcurlTakesKeepsItsText() throws {
        let url = "http://127.0.0.1:8080/a/b?c=d"
        #expect(try ParsedURL(url).url == url)
    }
}
