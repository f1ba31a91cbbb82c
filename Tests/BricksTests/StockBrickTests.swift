import BrickRequest
import BrickTesting
import Foundation
import Testing

private let stub = StubTransport()
private let stubbed = Session(configuration: .init(baseURL: "https://api.test"), transport: stub)

extension Session {
    fileprivate static let named = Session(configuration: .init(baseURL: "https://named.test"), transport: stub)
}

final class Get: Component, GETRequestType, CustomSessionRequestType, DataResponseType { static var customSession: Session { stubbed } }
final class Post: Component, POSTRequestType, CustomSessionRequestType, DataResponseType { static var customSession: Session { stubbed } }
final class Put: Component, PUTRequestType, CustomSessionRequestType, DataResponseType { static var customSession: Session { stubbed } }
final class Patch: Component, PATCHRequestType, CustomSessionRequestType, DataResponseType { static var customSession: Session { stubbed } }
final class Delete: Component, DELETERequestType, CustomSessionRequestType, DataResponseType { static var customSession: Session { stubbed } }
final class Head: Component, HEADRequestType, CustomSessionRequestType, DataResponseType { static var customSession: Session { stubbed } }
final class Options: Component, OPTIONSRequestType, CustomSessionRequestType, DataResponseType { static var customSession: Session { stubbed } }
final class Trace: Component, TRACERequestType, CustomSessionRequestType, DataResponseType { static var customSession: Session { stubbed } }
final class Connect: Component, CONNECTRequestType, CustomSessionRequestType, DataResponseType { static var customSession: Session { stubbed } }

final class Named: Component, GETRequestType, CustomSessionRequestType, HardAutoRetryType, StringResponseType {
    static var customSession: Session { .named }
    var path: String { "/text" }
}

final class NoRetry: Component, GETRequestType, APISessionRequestType, NonAutoRetryType, DataResponseType {}

struct Profile: Decodable, Sendable, Equatable {
    let id: Int
    let name: String
}

final class GetProfile: Component, GETRequestType, CustomSessionRequestType, DecodableResponseType {
    typealias SerializedObject = Profile
    static var customSession: Session { stubbed }
    let path: String
    init(path: String) {
        self.path = path
        super.init()
    }
}

final class GetJSON: Component, GETRequestType, CustomSessionRequestType, JSONResponseType {
    static var customSession: Session { stubbed }
    let path: String
    init(path: String) {
        self.path = path
        super.init()
    }
}

@Suite struct StockBrickTests {
    @Test func eachMethodBrickSetsItsMethod() {
        let methods = [Get().method, Post().method, Put().method, Patch().method, Delete().method, Head().method,
                       Options().method, Trace().method, Connect().method]
        #expect(methods.map(\.rawValue) == ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT"])
    }

    @Test func sessionBricksNameTheirSession() throws {
        #expect(NoRetry().session === Session.shared)
        #expect(Named().session === Session.named)
        #expect(try Named().makeTransportRequest().url == "https://named.test/text")
    }

    @Test func retryBricksSetTheirPresets() {
        #expect(NoRetry().autoRetryConfiguration == .none)
        #expect(NoRetry().autoRetryConfiguration.maxRetryCount == 0)
        #expect(Named().autoRetryConfiguration.maxRetryCount == 10)
    }

    @Test func jsonBrickParsesATypedValue() async throws {
        stub.stub(.get, "https://api.test/json-ok", json: #"{"a":[1,2.5,true,null,"s"],"b":{"c":"d"}}"#)
        let json = try await GetJSON(path: "/json-ok").response()
        #expect(json["a"]?[0]?.intValue == 1)
        #expect(json["a"]?[1]?.doubleValue == 2.5)
        #expect(json["a"]?[2]?.boolValue == true)
        #expect(json["a"]?[3]?.isNull == true)
        #expect(json["a"]?[4]?.stringValue == "s")
        #expect(json["b"]?["c"]?.stringValue == "d")
    }

    @Test(arguments: [("{not json", ResponseSerializationError.invalidJSON("")), ("", .emptyBody)])
    func jsonBrickRefusesBadBodiesKeepingTheResponse(body: String, expected: ResponseSerializationError) async {
        let path = "/json-bad-\(body.count)"
        stub.stub(.get, "https://api.test" + path, status: 200, body: Data(body.utf8))
        let outcome = await GetJSON(path: path).dataResponse()
        guard case .failure(.serialization(let error as ResponseSerializationError, let response)) = outcome.result else {
            Issue.record("expected a serialization error, got \(outcome.result)")
            return
        }
        switch (error, expected) {
        case (.invalidJSON, .invalidJSON), (.emptyBody, .emptyBody): break
        default: Issue.record("got \(error), expected \(expected)")
        }
        #expect(response.body == Data(body.utf8))
    }

    @Test func decodableBrickDecodesAndReportsMismatches() async throws {
        stub.stub(.get, "https://api.test/profile", json: #"{"id":7,"name":"Ada"}"#)
        #expect(try await GetProfile(path: "/profile").response() == Profile(id: 7, name: "Ada"))
        stub.stub(.get, "https://api.test/profile-bad", json: #"{"id":"seven"}"#)
        let outcome = await GetProfile(path: "/profile-bad").dataResponse()
        guard case .failure(.serialization(let error as ResponseSerializationError, _)) = outcome.result,
              case .undecodable(let failure) = error else {
            Issue.record("expected undecodable, got \(outcome.result)")
            return
        }
        #expect(failure.codingPath == "id")
        #expect(failure.bodyExcerpt == #"{"id":"seven"}"#)
        guard case .typeMismatch = failure.error else { Issue.record("the decoder's own error is kept: \(failure.error)"); return }
    }

    @Test func stringBrickRefusesInvalidUTF8() async throws {
        stub.stub(.get, "https://named.test/text", body: Data([0x68, 0x69]))
        #expect(try await Named().response() == "hi")
        stub.stub(.get, "https://named.test/text", body: Data([0xFF, 0xFE, 0x00]))
        let outcome = await Named().dataResponse()
        guard case .failure(.serialization(let error as ResponseSerializationError, _)) = outcome.result else {
            Issue.record("expected a serialization failure")
            return
        }
        #expect(error == .undecodableText(charset: "utf-8"))
    }
}
