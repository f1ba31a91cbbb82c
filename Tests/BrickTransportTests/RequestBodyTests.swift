import BrickTransport
import Foundation
import Testing

@Suite struct RequestBodyTests {
    /// A body of one part is that part, whichever way it is made; empty bytes make no part; adjacent bytes
    /// are joined into one part.
    @Test func onePartIsThatPartAndEmptyBytesAreNone() throws {
        let bytes = Data("name=Ada".utf8)
        #expect(RequestBody.data(bytes).data == bytes)
        #expect(RequestBody.data(bytes).parts.count == 1)
        #expect(RequestBody([.data(bytes)]).data == bytes)
        #expect(RequestBody.data(Data()).parts.isEmpty)
        #expect(RequestBody.data(Data()).data == Data())
        #expect(RequestBody([.data(Data())]).parts.isEmpty)
        let file = RequestBody.file(path: "/tmp/x")
        #expect(file.parts.count == 1 && file.data == nil && file.isReplayable)
        let joined = RequestBody([.data(bytes), .data(Data()), .data(Data("&lang=swift".utf8))])
        #expect(joined.parts.count == 1 && joined.data == Data("name=Ada&lang=swift".utf8))
    }

    /// A body of several parts keeps them in order, bytes after bytes joined wherever they meet; it has no
    /// `data`, and a stream among them makes it one that cannot be sent again.
    @Test func severalPartsKeepTheirOrderAndBytesJoinWhereTheyMeet() throws {
        let stream = BodyStream(AsyncStream<Data> { $0.finish() }, length: 0)
        var body = RequestBody([.data(Data("a".utf8)), .file(path: "/tmp/x"), .data(Data("b".utf8))])
        body.append(.data(Data("c".utf8)))
        body.append(.data(Data()))
        #expect(body.data == nil && body.isReplayable)
        let described = body.parts.map { part in
            switch part {
            case .data(let bytes): String(decoding: bytes, as: UTF8.self)
            case .file(let path): path
            case .stream: "stream"
            }
        }
        #expect(described == ["a", "/tmp/x", "bc"])
        body.append(.stream(stream))
        #expect(body.parts.count == 4 && !body.isReplayable && body.data == nil)
        #expect(!RequestBody.stream(stream).isReplayable && RequestBody.stream(stream).data == nil)
        var grown = RequestBody.data(Data("x".utf8))
        grown.append(.data(Data("y".utf8)))
        #expect(grown.parts.count == 1 && grown.data == Data("xy".utf8))
    }
}
