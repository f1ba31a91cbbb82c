import BrickCurl
import Foundation
import TestServers
import Testing

/// Bodies sent through libcurl's read callback: files from disk, async streams, several parts in a row.
@Suite struct UploadTests {
    func sink() throws -> UploadSink { try UploadSink.shared.get() }

    /// An async sequence of chunks that can fail after some of them.
    struct Chunks: AsyncSequence, Sendable {
        let chunks: [Data]
        var failAfter: Int?
        struct Broken: Error {}

        func makeAsyncIterator() -> AsyncThrowingStream<Data, any Error>.Iterator {
            let (stream, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
            for (index, chunk) in chunks.enumerated() {
                if index == failAfter { continuation.finish(throwing: Broken()); break }
                continuation.yield(chunk)
            }
            continuation.finish()
            return stream.makeAsyncIterator()
        }
    }

    @Test func aFileBodyIsStreamedFromDiskWithItsLength() async throws {
        let path = try makeTestFile(size: 3 << 20, seed: 11)
        defer { unlink(path) }
        let response = try await send(try sink().url(), method: .put, bodyParts: .file(path: path))
        let answer = try SinkAnswer(json: response.body)
        #expect(answer.method == "PUT")
        #expect(answer.length == 3 << 20)
        #expect(answer.contentLength == String(3 << 20))
        #expect(answer.sha256 == (try sha256(ofFile: path)))
    }

    @Test func partsAreSentInOrderAndAStreamWithoutLengthGoesChunked() async throws {
        let path = try makeTestFile(size: 1000, seed: 12)
        defer { unlink(path) }
        let stream = BodyStream(Chunks(chunks: [Data("one-".utf8), Data(), Data("two".utf8)]), length: nil)
        let body = RequestBody([.data(Data("head|".utf8)), .file(path: path), .stream(stream), .data(Data("|tail".utf8))])
        let answer = try SinkAnswer(json: try await send(try sink().url(), method: .post, bodyParts: body).body)
        #expect(answer.chunked)
        let expected = Data("head|".utf8) + (try Data(contentsOf: URL(fileURLWithPath: path))) + Data("one-two|tail".utf8)
        #expect(answer.bytes == expected)
    }

    @Test func aStreamWithALengthKeepsContentLength() async throws {
        let chunks = (0..<40).map { Data(repeating: UInt8($0), count: 50_000) }
        let body = RequestBody.stream(BodyStream(Chunks(chunks: chunks), length: 2_000_000))
        let answer = try SinkAnswer(json: try await send(try sink().url(), method: .post, bodyParts: body).body)
        #expect(!answer.chunked)
        #expect(answer.contentLength == "2000000")
        #expect(answer.length == 2_000_000)
    }

    @Test func aMissingFileFailsBeforeSending() async throws {
        let error = try await #require(throws: TransportError.self) {
            try await send(try sink().url(), method: .post, bodyParts: .file(path: "/nonexistent/brick-\(UInt64.random(in: 0...UInt64.max))"))
        }
        #expect(error.kind == .uploadFailed)
        #expect(error.osErrno == ENOENT)
    }

    @Test func aStreamThatThrowsFailsTheUpload() async throws {
        let chunks = Chunks(chunks: [Data("a".utf8), Data("b".utf8), Data("c".utf8)], failAfter: 2)
        let error = try await #require(throws: TransportError.self) {
            try await send(try sink().url(), method: .post, bodyParts: .stream(BodyStream(chunks, length: nil)))
        }
        #expect(error.kind == .uploadFailed)
        #expect(error.message.contains("Broken"))
    }

    @Test(arguments: [3, 5])
    func aStreamOfAnotherLengthThanAnnouncedFails(announced: Int64) async throws {
        let chunks = Chunks(chunks: [Data("abcd".utf8)])
        let error = try await #require(throws: TransportError.self) {
            try await send(try sink().url(), method: .post, bodyParts: .stream(BodyStream(chunks, length: announced)))
        }
        #expect(error.kind == .uploadFailed)
    }

    @Test func aBodyWithoutContentTypeGetsNoneFromLibcurl() async throws {
        let answer = try SinkAnswer(json: try await send(try sink().url(), method: .post, body: Data("raw".utf8)).body)
        #expect(answer.contentType == "")
    }
}
