import BrickRequest
import Foundation
import TestServers
import Testing

/// The base URL of the shared httpbin, for the requests below.
private func httpbinBase() -> String { (try? Httpbin.shared.get().url("")) ?? "http://127.0.0.1:1" }

protocol OnHttpbin: RequestType {}
extension OnHttpbin { var baseURL: String? { httpbinBase() } }

final class EchoGet: Component, GETRequestType, APISessionRequestType, OnHttpbin, JSONResponseType { var path: String { "/get" } }
final class EchoForm: Component, PATCHRequestType, APISessionRequestType, OnHttpbin, FormURLEncodedBodyType, JSONResponseType { var path: String { "/patch" } }
final class EchoMultipart: Component, POSTRequestType, APISessionRequestType, OnHttpbin, MultipartBodyType, JSONResponseType { var path: String { "/post" } }
final class EchoJSON: Component, PUTRequestType, APISessionRequestType, OnHttpbin, JSONBodyType, JSONResponseType {
    var path: String { "/put" }
    let jsonBody: [String: [Int]]
    init(_ body: [String: [Int]]) { jsonBody = body; super.init() }
}
final class EchoRaw: Component, POSTRequestType, APISessionRequestType, OnHttpbin, RawBodyType, JSONResponseType {
    var path: String { "/post" }
    var rawBody: RequestBody { .data(Data("plain words".utf8)) }
    var rawBodyContentType: String { "text/plain; charset=utf-8" }
}

final class EchoBigNumbers: Component, POSTRequestType, APISessionRequestType, OnHttpbin, JSONBodyType, JSONResponseType {
    var path: String { "/post" }
    var jsonBody: [String: UInt64] { ["snowflake": 1_234_567_890_123_456_789, "max": UInt64.max] }
}
struct SearchQuery: Encodable { let term: String; let page: Int; let tags: [String]; let after: String? }
final class EchoEncodableQuery: Component, GETRequestType, APISessionRequestType, OnHttpbin, EncodableQueryType, JSONResponseType {
    var path: String { "/get" }
    var query: SearchQuery { SearchQuery(term: "a b&c", page: 3, tags: ["x", "y"], after: nil) }
}
final class EchoEncodableForm: Component, PUTRequestType, APISessionRequestType, OnHttpbin, EncodableFormType, JSONResponseType {
    var path: String { "/put" }
    var form: SearchQuery { SearchQuery(term: "Zürich 東京", page: 1, tags: [], after: "z") }
}

struct Slideshow: Decodable, Sendable { struct Show: Decodable, Sendable { let title: String }; let slideshow: Show }
struct WrongShape: Decodable, Sendable { let missing: Int }
final class GetSlides: Component, GETRequestType, APISessionRequestType, OnHttpbin, DecodableResponseType {
    typealias SerializedObject = Slideshow
    var path: String { "/json" }
}
final class GetWrongShape: Component, GETRequestType, APISessionRequestType, OnHttpbin, DecodableResponseType {
    typealias SerializedObject = WrongShape
    var path: String { "/json" }
}
final class GetHTMLAsJSON: Component, GETRequestType, APISessionRequestType, OnHttpbin, JSONResponseType { var path: String { "/html" } }
final class GetHTML: Component, GETRequestType, APISessionRequestType, OnHttpbin, StringResponseType { var path: String { "/encoding/utf8" } }
final class GetNothing: Component, GETRequestType, APISessionRequestType, OnHttpbin, JSONResponseType { var path: String { "/status/204" } }
final class HeadNothing: Component, HEADRequestType, APISessionRequestType, OnHttpbin, EmptyResponseType { var path: String { "/get" } }

/// Every body encoding and every serializer against a real httpbin.
@Suite struct HttpbinBodyTests {
    let tricky = ParameterBuilder {
        TextParameter("a b+c&d=e/f?g", name: "q")
        TextParameter("Zürich 東京 🧱", name: "city")
    }

    @Test func queryParametersArriveDecoded() async throws {
        let echo = try await EchoGet(parameterBuilder: tricky).response()
        #expect(echo["args"]?["q"] == .string("a b+c&d=e/f?g"))
        #expect(echo["args"]?["city"] == .string("Zürich 東京 🧱"))
    }

    @Test func aFormBodyArrivesDecoded() async throws {
        let echo = try await EchoForm(parameterBuilder: tricky).response()
        #expect(echo["form"]?["q"] == .string("a b+c&d=e/f?g"))
        #expect(echo["form"]?["city"] == .string("Zürich 東京 🧱"))
        #expect(echo["headers"]?["Content-Type"] == .string("application/x-www-form-urlencoded"))
    }

    @Test func aMultipartBodyCarriesTextAndFilesFromEverySource() async throws {
        let path = try makeTestFile(size: 0)
        defer { unlink(path) }
        try Data("from disk".utf8).write(to: URL(fileURLWithPath: path))
        let stream = AsyncStream<Data> { continuation in
            continuation.yield(Data("from ".utf8))
            continuation.yield(Data("a stream".utf8))
            continuation.finish()
        }
        let parameters = ParameterBuilder {
            TextParameter("Zürich 東京", name: "city")
            FileParameter(data: Data("in memory".utf8), name: "memory", fileName: "m.txt")
            FileParameter(fileURL: URL(fileURLWithPath: path), name: "disk", fileName: "d.txt")
            FileParameter(stream: BodyStream(stream, length: nil), name: "stream", fileName: "s.txt")
        }
        let echo = try await EchoMultipart(parameterBuilder: parameters).response()
        #expect(echo["form"]?["city"] == .string("Zürich 東京"))
        #expect(echo["files"]?["memory"] == .string("in memory"))
        #expect(echo["files"]?["disk"] == .string("from disk"))
        #expect(echo["files"]?["stream"] == .string("from a stream"))
    }

    @Test func aJSONBodyArrivesAsJSON() async throws {
        let echo = try await EchoJSON(["primes": [2, 3, 5]]).response()
        #expect(echo["json"]?["primes"] == .array([.number(2), .number(3), .number(5)]))
        #expect(echo["headers"]?["Content-Type"] == .string("application/json"))
    }

    @Test func integersBeyondTwoToThe53MakeTheRoundTripExactlyThroughJSONResponseType() async throws {
        let echo = try await EchoBigNumbers().response()
        #expect(echo["json"]?["snowflake"]?.uint64Value == 1_234_567_890_123_456_789)
        #expect(echo["json"]?["max"]?.uint64Value == UInt64.max)
        #expect(echo["json"]?["max"]?.doubleValue != nil)  // and still reads as a number
    }

    @Test func encodableQueryAndFormArriveAsNamedParameters() async throws {
        let query = try await EchoEncodableQuery().response()
        #expect(query["args"]?["term"] == .string("a b&c"))
        #expect(query["args"]?["page"] == .string("3"))
        #expect(query["args"]?["tags"] == .array([.string("x"), .string("y")]))
        #expect(query["args"]?["after"] == nil)
        let form = try await EchoEncodableForm().response()
        #expect(form["form"]?["term"] == .string("Zürich 東京"))
        #expect(form["form"]?["after"] == .string("z"))
        #expect(form["headers"]?["Content-Type"] == .string("application/x-www-form-urlencoded"))
    }

    @Test func aRawBodyArrivesUntouched() async throws {
        let echo = try await EchoRaw().response()
        #expect(echo["data"] == .string("plain words"))
        #expect(echo["headers"]?["Content-Type"] == .string("text/plain; charset=utf-8"))
    }

    @Test func serializersHandleGoodAndBadBodies() async throws {
        #expect(try await GetSlides().response().slideshow.title == "Sample Slide Show")
        guard case .serialization(let mismatch as ResponseSerializationError, let raw)? = await GetWrongShape().dataResponse().error,
            case .undecodable = mismatch
        else { Issue.record("a mismatch must be undecodable"); return }
        #expect(raw.head.status == 200)
        guard case .serialization(let html as ResponseSerializationError, _)? = await GetHTMLAsJSON().dataResponse().error,
            case .invalidJSON = html
        else { Issue.record("HTML is not JSON"); return }
        #expect(try await GetHTML().response().contains("∮ E⋅da = Q"))
        guard case .serialization(let empty as ResponseSerializationError, let noContent)? = await GetNothing().dataResponse().error
        else { Issue.record("204 has no JSON"); return }
        #expect(empty == .emptyBody)
        #expect(noContent.head.status == 204)
        try await HeadNothing().response()
    }
}
