import BrickCurl
import Foundation
import TestServers
import Testing

@Suite struct DecompressionAndStreamingTests {
    @Test(arguments: [("/gzip", "gzipped"), ("/deflate", "deflated"), ("/brotli", "brotli")])
    func decompressesBodies(path: String, flag: String) async throws {
        let response = try await send(try httpbin().url(path))
        #expect(response.head.headers["Content-Encoding"] != nil)
        #expect(try json(response)[flag] as? Bool == true)
    }

    @Test func leavesBodiesCompressedWhenAsked() async throws {
        var options = TransportOptions()
        options.automaticDecompression = false
        let response = try await send(try httpbin().url("/gzip"), headers: ["Accept-Encoding": "gzip"], options: options)
        #expect(response.body.starts(with: [0x1F, 0x8B]))
    }

    /// The first half of a body reaches the consumer while the server still holds the second half back:
    /// the server sends it only once the test has seen the first (no timing involved).
    @Test func streamsTheFirstChunkBeforeTheServerSendsTheRest() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        let stream = try transport().makeTransfer(for: TransportRequest(url: server.baseURL + "/gated?key=drip")).events()
        var events: [String] = []
        var bytes = Data()
        for try await event in stream {
            switch event {
            case .head(let head): events.append("head \(head.status)")
            case .body(let chunk):
                if bytes.isEmpty { server.openGate("drip") }
                events.append("body")
                bytes += chunk
            case .uploadProgress, .downloadProgress: break
            case .end: events.append("end")
            }
        }
        #expect(events == ["head 200", "body", "body", "end"])
        #expect(bytes == Data("abcd".utf8))
    }

    @Test func streamsChunkedLinesAsTheyCome() async throws {
        let stream = try transport().makeTransfer(for: TransportRequest(url: try httpbin().url("/stream/5"))).events()
        var body = Data()
        var sawHeadFirst = false
        var index = 0
        for try await event in stream {
            if case .head(let head) = event { sawHeadFirst = index == 0 && head.headers["Transfer-Encoding"] == "chunked" }
            if case .body(let chunk) = event { body.append(chunk) }
            index += 1
        }
        #expect(sawHeadFirst)
        #expect(String(decoding: body, as: UTF8.self).split(separator: "\n").count == 5)
    }

    @Test func aHeadRequestStreamsHeadThenEnd() async throws {
        let stream = try transport().makeTransfer(for: TransportRequest(method: .head, url: try httpbin().url("/get"))).events()
        var kinds: [String] = []
        for try await event in stream {
            switch event {
            case .head: kinds.append("head")
            case .body: kinds.append("body")
            case .uploadProgress: kinds.append("upload")
            case .downloadProgress: kinds.append("download")
            case .end: kinds.append("end")
            }
        }
        #expect(kinds == ["head", "end"])
    }
}
