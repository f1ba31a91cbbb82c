import BrickRequest
import BrickTesting
import Foundation
import Testing

private let bodySession = Session(configuration: .init(baseURL: "https://api.test"), transport: StubTransport())

/// A brick of the tests' own, composed from stock ones: the stub session, `/items`, data responses.
protocol BodyProbe: CustomSessionRequestType, DataResponseType {}
extension BodyProbe {
    static var customSession: Session { bodySession }
    var path: String { "/items" }
}

final class QueryPost: Component, BodyProbe, POSTRequestType, QueryParametersType {}
final class FormPut: Component, BodyProbe, PUTRequestType, FormURLEncodedBodyType {}
final class MultipartPost: Component, BodyProbe, POSTRequestType, MultipartBodyType {}
final class DefaultPost: Component, BodyProbe, POSTRequestType {}
final class DefaultGet: Component, BodyProbe, GETRequestType {}

struct NewItem: Codable, Equatable {
    let name: String
    let tags: [String]
}

final class JSONPost: Component, BodyProbe, POSTRequestType, JSONBodyType {
    let jsonBody: NewItem
    var jsonEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
    init(_ item: NewItem, parameters: ParameterBuilder = ParameterBuilder()) {
        jsonBody = item
        super.init(parameterBuilder: parameters)
    }
}

struct Unencodable: Encodable {
    func encode(to encoder: any Encoder) throws { throw EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: "no")) }
}

final class BrokenJSONPost: Component, BodyProbe, POSTRequestType, JSONBodyType {
    var jsonBody: Unencodable { Unencodable() }
}

final class RawPatch: Component, BodyProbe, PATCHRequestType, RawBodyType {
    var rawBody: RequestBody { .data(Data([0, 1, 2, 0xFF])) }
    var rawBodyContentType: String { "application/x-bricks" }
}

@Suite struct BodyBrickTests {
    let tricky = ParameterBuilder {
        TextParameter("a b+c&d=e/f?g#h", name: "q x")
        TextParameter("Zürich 東京 🧱", name: "city")
        TextParameter(value: nil as Int?, name: "skipped")
    }

    @Test func queryBrickPutsParametersInTheURLEvenForPOST() async throws {
        let sent = try await RequestInspector.inspect(QueryPost(parameterBuilder: tricky))
        #expect(sent.url == "https://api.test/items?q%20x=a%20b%2Bc%26d%3De%2Ff%3Fg%23h&city=Z%C3%BCrich%20%E6%9D%B1%E4%BA%AC%20%F0%9F%A7%B1")
        #expect(sent.request.body == nil)
        #expect(sent.headers["Content-Type"] == nil)
    }

    @Test func formBrickEncodesTheSameWayInTheBody() async throws {
        let sent = try await RequestInspector.inspect(FormPut(parameterBuilder: tricky))
        #expect(sent.url == "https://api.test/items")
        #expect(sent.bodyText == "q%20x=a%20b%2Bc%26d%3De%2Ff%3Fg%23h&city=Z%C3%BCrich%20%E6%9D%B1%E4%BA%AC%20%F0%9F%A7%B1")
        #expect(sent.headers["Content-Type"] == "application/x-www-form-urlencoded")
    }

    @Test func theDefaultDependsOnTheMethod() async throws {
        let parameters = ParameterBuilder { TextParameter(1, name: "id") }
        #expect(try await RequestInspector.inspect(DefaultGet(parameterBuilder: parameters)).url == "https://api.test/items?id=1")
        let post = try await RequestInspector.inspect(DefaultPost(parameterBuilder: parameters))
        #expect(post.bodyText == "id=1")
    }

    @Test func filesMakeTheDefaultBodyMultipart() async throws {
        let parameters = ParameterBuilder { FileParameter(data: Data("x".utf8), name: "f", fileName: "f.txt") }
        let sent = try await RequestInspector.inspect(DefaultPost(parameterBuilder: parameters))
        #expect(sent.headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=BrickBoundary-") == true)
    }

    @Test func multipartHoldsTextAndFilesFromEverySource() async throws {
        let fileURL = FileManager.default.temporaryDirectory.appendingPathComponent("brick-\(UUID().uuidString).csv")
        try Data("a,b\n1,2\n".utf8).write(to: fileURL)
        defer { try? FileManager.default.removeItem(at: fileURL) }
        let chunks = AsyncStream<Data> { continuation in
            continuation.yield(Data("stre".utf8))
            continuation.yield(Data("amed".utf8))
            continuation.finish()
        }
        let parameters = ParameterBuilder {
            TextParameter("Ada \"the first\"", name: "who")
            FileParameter(data: Data("hello".utf8), name: "note", fileName: "note.txt")
            FileParameter(fileURL: fileURL, name: "table")
            FileParameter(stream: BodyStream(chunks, length: 8), name: "live", fileName: "live.bin")
        }
        let sent = try await RequestInspector.inspect(MultipartPost(parameterBuilder: parameters))
        let contentType = try #require(sent.headers["Content-Type"])
        let boundary = String(try #require(contentType.split(separator: "=").last))
        let expected = """
            --\(boundary)\r
            Content-Disposition: form-data; name="who"\r
            \r
            Ada "the first"\r
            --\(boundary)\r
            Content-Disposition: form-data; name="note"; filename="note.txt"\r
            Content-Type: text/plain\r
            \r
            hello\r
            --\(boundary)\r
            Content-Disposition: form-data; name="table"; filename="\(fileURL.lastPathComponent)"\r
            Content-Type: text/csv\r
            \r
            a,b
            1,2
            \r
            --\(boundary)\r
            Content-Disposition: form-data; name="live"; filename="live.bin"\r
            Content-Type: application/octet-stream\r
            \r
            streamed\r
            --\(boundary)--\r

            """
        #expect(sent.bodyText == expected)
        #expect(sent.request.body?.isReplayable == false)
    }

    @Test func multipartEscapesQuotesAndLineBreaksInNames() {
        #expect(MultipartFormData.escape("a\"b\r\nc é") == "a%22b%0D%0Ac é")
    }

    @Test func aFileParameterMustBeAFileURL() async throws {
        let web = try #require(URL(string: "https://example.com/a.png"))
        let parameters = ParameterBuilder { FileParameter(fileURL: web, name: "f") }
        let error = await #expect(throws: BrickError.self) { try await RequestInspector.inspect(MultipartPost(parameterBuilder: parameters)) }
        guard case .requestEncoding(.notAFileURL(let url))? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(url == "https://example.com/a.png")
    }

    @Test func filesCannotGoInAQueryOrAForm() async throws {
        let parameters = ParameterBuilder { FileParameter(data: Data(), name: "f", fileName: "f") }
        let responses = [await QueryPost(parameterBuilder: parameters).dataResponse(),
                         await FormPut(parameterBuilder: parameters).dataResponse()]
        for response in responses {
            guard case .requestEncoding(.unsupportedParameters)? = response.error else {
                Issue.record("got \(String(describing: response.error))")
                continue
            }
            #expect(response.attempts.isEmpty)
        }
    }

    @Test func jsonBrickEncodesTheBodyWithItsEncoderAndKeepsParametersInTheQuery() async throws {
        let sent = try await RequestInspector.inspect(JSONPost(NewItem(name: "brick", tags: ["a", "b"]),
                                                               parameters: ParameterBuilder { TextParameter(true, name: "dry") }))
        #expect(sent.url == "https://api.test/items?dry=true")
        #expect(sent.headers["Content-Type"] == "application/json")
        #expect(sent.bodyText == #"{"name":"brick","tags":["a","b"]}"#)
    }

    @Test func anUnencodableJSONBodyIsATypedErrorAndNothingIsSent() async {
        let response = await BrokenJSONPost().dataResponse()
        guard case .requestEncoding(.unencodableBody(let reason))? = response.error else {
            Issue.record("got \(String(describing: response.error))")
            return
        }
        #expect(reason.contains("no"))
        #expect(response.request == nil)
    }

    @Test func rawBrickSendsItsBytesAndType() async throws {
        let sent = try await RequestInspector.inspect(RawPatch())
        #expect(sent.method == .patch)
        #expect(sent.body == Data([0, 1, 2, 0xFF]))
        #expect(sent.headers["Content-Type"] == "application/x-bricks")
    }

    @Test func mimeTypesAreGuessedFromTheExtension() {
        #expect(MIMEType.guess(forFileName: "photo.JPG") == "image/jpeg")
        #expect(MIMEType.guess(forFileName: "archive.tar.gz") == "application/gzip")
        #expect(MIMEType.guess(forFileName: "noextension") == "application/octet-stream")
        #expect(MIMEType.guess(forFileName: ".hidden") == "application/octet-stream")
    }
}
