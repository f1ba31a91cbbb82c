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
}
