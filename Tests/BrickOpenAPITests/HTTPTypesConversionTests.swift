import BrickHTTPTypes
import BrickRequest
import Foundation
import HTTPTypes
import TestServers
import Testing

/// swift-http-types' values and ours, converted both ways without losing or inventing anything.
@Suite struct HTTPTypesConversionTests {
    @Test func fieldsKeepTheirOrderRepeatsAndSpelling() throws {
        let headers: HTTPHeaders = HTTPHeaders([
            .init(name: "X-Multi", value: "1"), .init(name: "accept", value: "text/plain"), .init(name: "X-Multi", value: "2"),
        ])
        let fields = try #require(HTTPFields(headers))
        #expect(fields[values: HTTPField.Name("x-multi")!] == ["1", "2"])
        #expect(HTTPHeaders(fields) == headers)
        let badName: HTTPHeaders = ["Bad Name": "x"]
        #expect(HTTPFields(badName) == nil)  // not a token: refused, not rewritten
    }

    @Test func requestsAndResponsesMakeTheRoundTrip() throws {
        let request = TransportRequest(method: .patch, url: "https://api.test:8443/v1/items?x=1#frag", headers: ["X-A": "b"])
        let converted = try #require(HTTPRequest(request))
        #expect(converted.method == .patch)
        #expect(converted.scheme == "https" && converted.authority == "api.test:8443" && converted.path == "/v1/items?x=1")
        let back = TransportRequest(converted)
        #expect(back.method == .patch && back.url == "https://api.test:8443/v1/items?x=1" && back.headers["X-A"] == "b")
        #expect(HTTPRequest(TransportRequest(url: "/relative")) == nil)

        let head = ResponseHead(status: 429, reason: "Too Many Requests", headers: ["Retry-After": "3"])
        let response = try #require(HTTPResponse(head))
        #expect(response.status == .tooManyRequests && response.headerFields[.retryAfter] == "3")
        #expect(ResponseHead(response).status == 429 && ResponseHead(response).headers == head.headers)
    }

    @Test func aSessionSendsAnHTTPRequestThroughItsPipeline() async throws {
        let session = Session(configuration: Session.Configuration(baseURL: try Httpbin.shared.get().url("")))
        let request = HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/anything?q=1", headerFields: [.contentType: "text/plain"])
        let (response, body) = try await session.send(request, body: Data("hello".utf8))
        #expect(response.status == .ok)
        let echo = try JSON.parse(body)
        #expect(echo["data"]?.stringValue == "hello")
        #expect(echo["args"]?["q"]?.stringValue == "1")
    }
}
