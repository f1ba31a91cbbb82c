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

/// Content codings the engine decodes itself (libcurl hands the bytes over as they came), against nginx
/// serving pre-encoded files, on a fresh connection and on a reused one.
@Suite struct ContentCodingTests {
    let own: CurlTransport
    init() throws { own = try #require(CurlTransport()) }

    @Test func zstdAndAChainOfCodingsAreDecodedAndAnUnknownCodingIsHandedOverAsItCame() async throws {
        let nginx = try nginx()
        for _ in 0..<2 {  // the second round on the kept-alive connection
            for path in ["/coded/zstd", "/coded/chain"] {
                let response = try await send(nginx.url(path), through: own)
                #expect(String(decoding: response.body, as: UTF8.self) == Nginx.compactJSON, "\(path)")
            }
            let unknown = try await send(nginx.url("/coded/unknown"), through: own)
            #expect(unknown.head.headers["Content-Encoding"] == "x-brick")
            #expect(String(decoding: unknown.body, as: UTF8.self) == Nginx.compactJSON)
            let damaged = try await failure(nginx.url("/coded/damaged"), through: own)
            #expect(damaged.kind == .invalidResponse && damaged.message.contains("gzip"), "\(damaged)")
        }
    }

    @Test func theRequestAsksForTheCodingsItDecodesUnlessItNamesItsOwn() async throws {
        let echoed = try json(try await send(try httpbin().url("/headers"), through: own))
        let headers = echoed["headers"] as? [String: Any]
        #expect(headers?["Accept-Encoding"] as? String == "deflate, gzip, br, zstd")
        let own = try json(try await send(try httpbin().url("/headers"), headers: ["Accept-Encoding": "identity"], through: own))
        #expect((own["headers"] as? [String: Any])?["Accept-Encoding"] as? String == "identity")
    }
}
