import BrickRequest
import BrickTesting
import Foundation
import InMemoryLogging
import Logging
import Synchronization
import Testing

private let catalogueStub = StubTransport()
private let catalogueSession = Session(configuration: .init(baseURL: "https://cat.test/v1"), transport: catalogueStub)

protocol OnCatalogueSession: CustomSessionRequestType {}
extension OnCatalogueSession { static var customSession: Session { catalogueSession } }

final class Fetch<Response: ResponseProbe>: Component, GETRequestType, OnCatalogueSession, ResponseType {
    let path: String
    let modifiers: [any RequestModifier]
    var responseSerializer: ResponseSerializer<Response.Value> { Response.serializer }
    init(_ path: String, modifiers: [any RequestModifier] = []) {
        self.path = path
        self.modifiers = modifiers
        super.init()
    }
}

/// Gives `Fetch` the serializer of one stock response brick.
protocol ResponseProbe { associatedtype Value: Sendable; static var serializer: ResponseSerializer<Value> { get } }
final class TextBrick: Component, GETRequestType, OnCatalogueSession, StringResponseType {}
final class Latin1Default: Component, GETRequestType, OnCatalogueSession, StringResponseType {
    var defaultCharset: String.Encoding { .isoLatin1 }
}
enum Text: ResponseProbe { static var serializer: ResponseSerializer<String> { TextBrick().responseSerializer } }
enum Latin1Text: ResponseProbe { static var serializer: ResponseSerializer<String> { Latin1Default().responseSerializer } }
final class EmptyBrick: Component, HEADRequestType, OnCatalogueSession, EmptyResponseType {}
enum Empty: ResponseProbe { static var serializer: ResponseSerializer<Void> { EmptyBrick().responseSerializer } }

final class OnlyCreated: Component, POSTRequestType, OnCatalogueSession, StatusCodeValidationType, DataResponseType {
    var path: String { "/made" }
    var acceptableStatusCodes: [ClosedRange<Int>] { [201...201] }
}
final class OnlyJSON: Component, GETRequestType, OnCatalogueSession, ContentTypeValidationType, DataResponseType {
    let path: String
    init(path: String) { self.path = path; super.init() }
    var acceptableContentTypes: [String] { ["application/json", "+json"] }
}
final class Anything: Component, GETRequestType, OnCatalogueSession, NoValidationType, StringResponseType {
    var path: String { "/broken" }
}
final class Quick: Component, GETRequestType, OnCatalogueSession, ShortTimeoutType, DataResponseType {}
final class Slow: Component, GETRequestType, OnCatalogueSession, LongTimeoutType, DataResponseType {}
final class Exact: Component, GETRequestType, OnCatalogueSession, CustomTimeoutType, DataResponseType {
    var requestTimeout: Duration { .milliseconds(1500) }
}
final class OtherHost: Component, GETRequestType, OnCatalogueSession, CustomBaseURLType, DataResponseType {
    static var customBaseURL: String { "https://other.test/api/" }
    let path: String
    init(path: String) { self.path = path; super.init() }
}
final class NoBase: Component, GETRequestType, OnCatalogueSession, AbsoluteURLType, DataResponseType {
    var path: String { "https://absolute.test/x" }
}

@Suite struct CatalogueTests {
    func stubbed(_ path: String, status: Int = 200, type: String? = nil, body: [UInt8]) {
        catalogueStub.stub(.get, "https://cat.test/v1" + path, status: status,
                           headers: type.map { ["Content-Type": $0] } ?? [:], body: Data(body))
    }

    @Test func stringBrickReadsTheCharsetFromTheResponse() async throws {
        stubbed("/latin1", type: "text/plain; charset=\"ISO-8859-1\"", body: [0x63, 0x61, 0x66, 0xE9])
        stubbed("/utf16", type: "text/plain;charset=utf-16be", body: [0, 0x68, 0, 0x69])
        stubbed("/plain", type: "text/plain", body: Array("caf\u{E9}".utf8))
        #expect(try await Fetch<Text>("/latin1").response() == "café")
        #expect(try await Fetch<Text>("/utf16").response() == "hi")
        #expect(try await Fetch<Text>("/plain").response() == "café")
    }

    @Test func stringBrickFallsBackToItsDefaultCharsetAndReportsBadOnes() async throws {
        stubbed("/untyped", body: [0x63, 0x61, 0x66, 0xE9])
        stubbed("/klingon", type: "text/plain; charset=x-klingon", body: Array("x".utf8))
        #expect(try await Fetch<Latin1Text>("/untyped").response() == "café")
        let invalid = await Fetch<Text>("/untyped").dataResponse().error
        guard case .serialization(let error as ResponseSerializationError, let response)? = invalid else {
            Issue.record("got \(String(describing: invalid))")
            return
        }
        #expect(error == .undecodableText(charset: "utf-8"))
        #expect(response.body == Data([0x63, 0x61, 0x66, 0xE9]))
        let unknown = await Fetch<Text>("/klingon").dataResponse().error
        guard case .serialization(let unknownError as ResponseSerializationError, _)? = unknown else {
            Issue.record("got \(String(describing: unknown))")
            return
        }
        #expect(unknownError == .undecodableText(charset: "x-klingon"))
    }

    @Test func emptyBrickAcceptsNoContentAndIgnoresAnyBody() async throws {
        stubbed("/gone", status: 204, body: [])
        stubbed("/chatty", status: 200, body: Array("ignored".utf8))
        try await Fetch<Empty>("/gone").response()
        try await Fetch<Empty>("/chatty").response()
    }

    @Test func statusCodeValidationAcceptsOnlyItsCodes() async {
        catalogueStub.stub(.post, "https://cat.test/v1/made", replies: [
            .response(TransportResponse(head: ResponseHead(status: 200))),
            .response(TransportResponse(head: ResponseHead(status: 201), body: Data("new".utf8))),
        ])
        guard case .validation(.unacceptableStatusCode(200), _)? = await OnlyCreated().dataResponse().error else {
            Issue.record("200 should not be accepted")
            return
        }
        #expect(await OnlyCreated().dataResponse().value == Data("new".utf8))
    }

    @Test(arguments: [("application/json; charset=utf-8", true), ("application/problem+json", true),
                      ("text/html", false), (nil, false)] as [(String?, Bool)])
    func contentTypeValidationChecksTheMediaType(type: String?, accepted: Bool) async {
        // One URL per case: the cases run in parallel on one stub.
        let path = "/typed/" + (type ?? "none").replacingOccurrences(of: " ", with: "")
        catalogueStub.stub(.get, "https://cat.test/v1" + path, status: 200, headers: type.map { ["Content-Type": $0] } ?? [:], body: Data("{}".utf8))
        let response = await OnlyJSON(path: path).dataResponse()
        if accepted {
            #expect(response.value == Data("{}".utf8))
        } else {
            guard case .validation(.unacceptableContentType(type, acceptable: ["application/json", "+json"]), _)? = response.error else {
                Issue.record("got \(String(describing: response.error))")
                return
            }
        }
    }

    @Test func noValidationLetsErrorBodiesThrough() async throws {
        stubbed("/broken", status: 500, body: Array("stack trace".utf8))
        #expect(try await Anything().response() == "stack trace")
    }

    @Test func timeoutBricksSetTheWholeRequestTimeoutOnTheSessionsOptions() {
        #expect(Quick().transportOptions.timeout == RequestTimeout.short)
        #expect(Slow().transportOptions.timeout == RequestTimeout.long)
        #expect(Exact().transportOptions.timeout == .milliseconds(1500))
        #expect(Exact().transportOptions.connectTimeout == catalogueSession.configuration.transportOptions.connectTimeout)
    }

    @Test func baseURLBricksReplaceOrDropTheSessionsBase() {
        #expect(OtherHost(path: "/users").URLString == "https://other.test/api/users")
        #expect(OtherHost(path: "https://absolute.test/y").URLString == "https://absolute.test/y")
        #expect(NoBase().URLString == "https://absolute.test/x")
    }

    @Test func headerModifiersSetTheirFields() async throws {
        let request = Fetch<Text>("/h", modifiers: [Headers.Accept.applicationJson, Headers.UserAgent("probe/1"),
                                                    Headers.Custom("X-Trace", "abc"), Headers.Charset.utf8])
        let sent = try await RequestInspector.inspect(request)
        #expect(sent.headers["Accept"] == "application/json")
        #expect(sent.headers["User-Agent"] == "probe/1")
        #expect(sent.headers.values(for: "User-Agent").count == 1)
        #expect(sent.headers["X-Trace"] == "abc")
        #expect(sent.headers["Accept-Charset"] == "utf-8")
    }
}
