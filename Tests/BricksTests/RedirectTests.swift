import BrickRequest
import Foundation
import Testing
import TestServers

/// A call with the headers and body of the test's choosing, following redirects under the session's rules.
final class RedirectCall: Component, RequestType, DataResponseType, NonAutoRetryType, NoValidationType {
    let method: HTTPMethod
    let session: Session
    let URLString: String
    let headers: HTTPHeaders
    let body: String
    let transportOptions: TransportOptions

    init(_ url: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:], body: String = "", session: Session,
         options: TransportOptions = TransportOptions()) {
        self.method = method
        self.session = session
        self.URLString = url
        self.headers = headers
        self.body = body
        self.transportOptions = options
        super.init()
    }

    func encodeBody(into request: inout TransportRequest) throws(RequestEncodingError) {
        guard !body.isEmpty else { return }
        request.body = .data(Data(body.utf8))
        request.headers["Content-Type"] = "text/plain"
    }
}

/// A POST of a given body (a file or a stream), following redirects.
final class FileRedirectCall: Component, POSTRequestType, RawBodyType, DataResponseType, NonAutoRetryType, NoValidationType {
    let session: Session
    let URLString: String
    let rawBody: RequestBody
    init(_ url: String, body: RequestBody, session: Session) {
        self.session = session
        self.URLString = url
        self.rawBody = body
        super.init()
    }
}

/// Redirects are followed by the session, one request per hop: secrets stay with their origin, https is
/// never downgraded, methods change as RFC 9110 says, and an unsafe method is not carried to another origin.
@Suite struct RedirectTests {
    let session = Session()
    let secrets: HTTPHeaders = ["Authorization": "Bearer s3cret", "X-API-Key": "k3y", "Cookie": "sid=1", "X-Visible": "yes"]

    func httpbin(_ path: String) throws -> String { try Httpbin.shared.get().url(path) }
    /// The same httpbin under another origin: `localhost` instead of `127.0.0.1`.
    func otherOrigin(_ path: String) throws -> String { try "http://localhost:\(Httpbin.shared.get().port)\(path)" }

    /// The headers httpbin's `/anything` or `/headers` saw, by name.
    func echoedHeaders(_ response: DataResponse<Data>) throws -> [String: String] {
        let object = try JSONSerialization.jsonObject(with: try response.result.get()) as? [String: Any]
        return object?["headers"] as? [String: String] ?? [:]
    }

    func redirect(to target: String, status: Int = 302) throws -> String {
        let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
        return try httpbin("/redirect-to?status_code=\(status)&url=\(encoded)")
    }

    @Test func secretsDoNotFollowARedirectToAnotherOrigin() async throws {
        let response = await RedirectCall(try redirect(to: otherOrigin("/headers")), headers: secrets, session: session).dataResponse()
        let seen = try echoedHeaders(response)
        #expect(response.response?.head.status == 200)
        #expect(seen["Authorization"] == nil)
        #expect(seen["X-Api-Key"] == nil)
        #expect(seen["Cookie"] == nil)
        #expect(seen["X-Visible"] == nil)
        #expect(seen["User-Agent"]?.hasPrefix("BrickRequest/") == true)
        #expect(response.response?.metrics.redirectCount == 1)
        #expect(response.response?.metrics.effectiveURL == (try otherOrigin("/headers")))
    }

    @Test func secretsFollowARedirectWithinTheOrigin() async throws {
        let response = await RedirectCall(try redirect(to: "/headers"), headers: secrets, session: session).dataResponse()
        let seen = try echoedHeaders(response)
        #expect(seen["Authorization"] == "Bearer s3cret")
        #expect(seen["X-Api-Key"] == "k3y")
    }

    @Test(arguments: [301, 302, 303])
    func aPostRedirectedWithinTheOriginBecomesAGetWithoutItsBody(status: Int) async throws {
        let call = RedirectCall(try redirect(to: "/anything", status: status), method: .post, body: "payload", session: session)
        let response = await call.dataResponse()
        let object = try JSONSerialization.jsonObject(with: try response.result.get()) as? [String: Any]
        #expect(object?["method"] as? String == "GET")
        #expect(object?["data"] as? String == "")
        #expect(try echoedHeaders(response)["Content-Type"] == nil)
    }

    @Test(arguments: [307, 308])
    func aPostRedirectedWithinTheOriginKeepsItsMethodAndBody(status: Int) async throws {
        let call = RedirectCall(try redirect(to: "/anything", status: status), method: .post, body: "payload", session: session)
        let object = try JSONSerialization.jsonObject(with: try await call.dataResponse().result.get()) as? [String: Any]
        #expect(object?["method"] as? String == "POST")
        #expect(object?["data"] as? String == "payload")
    }

    @Test(arguments: [HTTPMethod.post, .put, .patch, .delete])
    func anUnsafeMethodIsNotCarriedToAnotherOrigin(method: HTTPMethod) async throws {
        let call = RedirectCall(try redirect(to: otherOrigin("/anything"), status: 307), method: method, body: "x", session: session)
        let response = await call.dataResponse()
        #expect(response.response?.head.status == 307)
        #expect(response.response?.metrics.redirectCount == 0)
    }

    @Test func aFileBodyIsSentAgainAfterA307WithinTheOrigin() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("redirect-\(UInt64.random(in: 0...UInt64.max)).txt").path
        let text = String(repeating: "brick ", count: 20_000)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let call = FileRedirectCall(try redirect(to: "/anything", status: 307), body: .file(path: path), session: session)
        let object = try JSONSerialization.jsonObject(with: try await call.dataResponse().result.get()) as? [String: Any]
        #expect(object?["method"] as? String == "POST")
        #expect(object?["data"] as? String == text)
    }

    /// A stream cannot be sent twice: a 307 to it is handed back rather than followed with half a body.
    @Test func aStreamedBodyIsNotFollowedThroughA307() async throws {
        let stream = RequestBody.stream(BodyStream(AsyncStream { $0.yield(Data("once".utf8)); $0.finish() }, length: 4))
        let response = await FileRedirectCall(try redirect(to: "/anything", status: 307), body: stream, session: session).dataResponse()
        #expect(response.response?.head.status == 307)
    }

    @Test func aRedirectFromHTTPSToHTTPIsRefused() async throws {
        let server = try Nginx.shared.get()
        var options = TransportOptions()
        options.caBundlePath = server.certificatePath
        let response = await RedirectCall(server.tlsURL("/to-http"), session: session, options: options).dataResponse()
        #expect(response.error?.transportError?.kind == .redirectRefused)
    }

    @Test func redirectsAreCountedAndLimited() async throws {
        let followed = await RedirectCall(try httpbin("/redirect/3"), session: session).dataResponse()
        #expect(followed.response?.head.status == 200)
        #expect(followed.response?.metrics.redirectCount == 3)
        #expect(followed.response?.metrics.effectiveURL.hasSuffix("/get") == true)
        // Each hop: the request sent and the 302 that answered it, oldest first.
        let hops = followed.response?.redirects ?? []
        #expect(hops.map(\.head.status) == [302, 302, 302])
        #expect(hops.first?.request.url.hasSuffix("/redirect/3") == true && hops.last?.request.url.hasSuffix("/get") == false)
        var options = TransportOptions()
        options.maxRedirects = 2
        let limited = await RedirectCall(try httpbin("/redirect/5"), session: session, options: options).dataResponse()
        #expect(limited.error?.transportError?.kind == .tooManyRedirects)
        #expect(limited.error?.transportError?.message.contains("stopped after 2 redirects") == true)
    }

    @Test(arguments: ["ftp://127.0.0.1/file", "file:///etc/passwd", "gopher://127.0.0.1/"])
    func aRedirectToAnotherSchemeIsRefused(target: String) async throws {
        let response = await RedirectCall(try redirect(to: target), session: session).dataResponse()
        #expect(response.error?.transportError?.kind == .redirectRefused)
    }

    @Test func streamsFollowRedirectsUnderTheSameRules() async throws {
        var events: [TransportEvent] = []
        for try await event in RedirectCall(try redirect(to: otherOrigin("/headers")), headers: secrets, session: session).stream() {
            events.append(event)
        }
        guard case .head(let head)? = events.first else { Issue.record("no head first"); return }
        #expect(head.status == 200)
        let body = events.reduce(into: Data()) { if case .body(let chunk) = $1 { $0.append(chunk) } }
        let object = try JSONSerialization.jsonObject(with: body) as? [String: Any]
        #expect((object?["headers"] as? [String: String])?["Authorization"] == nil)
        guard case .end(let metrics)? = events.last else { Issue.record("no end last"); return }
        #expect(metrics.redirectCount == 1)
    }

    @Test(arguments: [
        ("/a/b?q", "http://h:1/x/y", "http://h:1/a/b?q"), ("c", "http://h/x/y?z", "http://h/x/c"),
        ("../c", "http://h/x/y/z", "http://h/x/c"), ("?n=1", "http://h/p?o=2", "http://h/p?n=1"),
        ("//o.test/p", "https://h/x", "https://o.test/p"), ("http://o.test/a b#frag", "http://h/", "http://o.test/a%20b"),
        ("/../../etc", "http://h/x", "http://h/etc"),
    ])
    func locationsResolveAgainstTheRequestedURL(location: String, base: String, expected: String) {
        var request = TransportRequest(url: base)
        request.options.maxRedirects = 1
        let next = try? RedirectRule.next(after: ResponseHead(status: 302, headers: ["Location": location]), of: request, hops: 0)
        #expect(next?.url == expected)
    }
}
