import BrickRequest
import BrickSystem
import BrickTesting
import BrickTransport
import Foundation
import InMemoryLogging
import Logging
import LoopbackServer
import TestServers
import Testing

/// Hands out `token-0`, then `token-1`, `token-2`… on refresh; counts the refreshes; can be told to fail.
final class CountingProvider: TokenProvider {
    struct Refused: Error {}
    private let state = Locked((issued: 0, refreshes: 0))
    let failRefresh: Bool
    let gate: (@Sendable () async -> Void)?

    init(failRefresh: Bool = false, gate: (@Sendable () async -> Void)? = nil) {
        self.failRefresh = failRefresh
        self.gate = gate
    }

    var refreshes: Int { state.withLock { $0.refreshes } }

    func initialToken() async throws -> String { "token-0" }

    func refreshToken(rejected: String) async throws -> String {
        let number = state.withLock { state in
            state.refreshes += 1
            state.issued += 1
            return state.issued
        }
        await gate?()
        if failRefresh { throw Refused() }
        return "token-\(number)"
    }
}

/// Names the shared session, as a production class would; tests run it in a scope (`Session.$current`).
final class Secret: Component, GETRequestType, APISessionRequestType, BearerAuthType, StringResponseType {
    let bearerAuthenticator: BearerAuthenticator
    var path: String { "https://auth.test/secret" }
    init(_ authenticator: BearerAuthenticator) { bearerAuthenticator = authenticator; super.init() }
}

final class Basic: Component, GETRequestType, APISessionRequestType, BasicAuthType, DataResponseType {
    var path: String { "https://basic.test/" }
    var basicCredentials: BasicCredentials { BasicCredentials(username: "Aladdin", password: "open sesame") }
}

/// A bearer-authenticated GET of `path` through a session of the test's choosing.
final class TokenCall: Component, GETRequestType, BearerAuthType, DataResponseType {
    let session: Session
    let path: String
    let bearerAuthenticator: BearerAuthenticator
    init(_ path: String, session: Session, authenticator: BearerAuthenticator) {
        self.session = session
        self.path = path
        bearerAuthenticator = authenticator
        super.init()
    }
}

/// A GET of `path` through a session of the test's choosing.
final class SessionGet: Component, GETRequestType, DataResponseType {
    let session: Session
    let path: String
    init(_ path: String, session: Session) {
        self.session = session
        self.path = path
        super.init()
    }
}

/// Credentials stay with the origin they belong to: httpbin under `127.0.0.1` is the session's origin, and
/// the same httpbin under `localhost` is another one.
@Suite struct CredentialScopeTests {
    func authorization(_ path: String, scope: CredentialScope = .sessionOrigin) async throws -> String? {
        let httpbin = try Httpbin.shared.get()
        let session = Session(configuration: Session.Configuration(baseURL: httpbin.url("")))
        let call = TokenCall(path, session: session, authenticator: BearerAuthenticator(provider: CountingProvider(), scope: scope))
        let echo = try JSONSerialization.jsonObject(with: try await call.response()) as? [String: Any]
        return (echo?["headers"] as? [String: String])?["Authorization"]
    }

    @Test func aTokenGoesToTheSessionsOrigin() async throws {
        #expect(try await authorization("/headers") == "Bearer token-0")
    }

    /// The session's own headers (an API key set once for the API) stay with the base URL's origin too.
    @Test func theSessionsHeadersStayWithItsOrigin() async throws {
        let httpbin = try Httpbin.shared.get()
        var configuration = Session.Configuration(baseURL: httpbin.url(""))
        configuration.headers = ["X-API-Key": "k3y", "User-Agent": "brick-test"]
        let session = Session(configuration: configuration)
        func headers(_ path: String) async throws -> [String: String] {
            let echo = try JSONSerialization.jsonObject(with: try await SessionGet(path, session: session).response()) as? [String: Any]
            return echo?["headers"] as? [String: String] ?? [:]
        }
        #expect(try await headers("/headers")["X-Api-Key"] == "k3y")
        let elsewhere = try await headers("http://localhost:\(httpbin.port)/headers")
        #expect(elsewhere["X-Api-Key"] == nil)
        #expect(elsewhere["User-Agent"] == "brick-test")
    }

    @Test func aTokenDoesNotFollowAnAbsoluteURLToAnotherOrigin() async throws {
        let port = try Httpbin.shared.get().port
        #expect(try await authorization("http://localhost:\(port)/headers") == nil)
        #expect(try await authorization("http://localhost:\(port)/headers", scope: .origins(["http://localhost:\(port)"])) == "Bearer token-0")
        #expect(try await authorization("http://localhost:\(port)/headers", scope: .anyOrigin) == "Bearer token-0")
    }
}

/// Answers 200 to `Bearer <fresh>` and 401 to anything else.
func bearerStub(accepting fresh: String) -> (StubTransport, Session) {
    let stub = StubTransport()
    stub.stub(.get, "https://auth.test/secret", reply: .computed { request in
        let ok = request.headers["Authorization"] == "Bearer \(fresh)"
        return .response(TransportResponse(head: ResponseHead(status: ok ? 200 : 401), body: Data((ok ? "in" : "out").utf8)))
    })
    return (stub, Session(transport: stub))
}

/// Each test runs its `Secret` in a scope of its own (`Session.$current`), so they run in parallel.
/// The guide's token provider (Docs/RequestBuilding.md): a login gives the first token and each new one.
struct LoginTokens: TokenProvider {
    let login: @Sendable () async throws -> String
    func initialToken() async throws -> String { try await login() }
    func refreshToken(rejected: String) async throws -> String { try await login() }
}

@Suite struct AuthTests {
    /// The guide's example: the authenticator in a session's interceptors, one-line calls through it, a server
    /// that takes only the second token; and a call to another origin goes without it.
    @Test func anAuthenticatorOnASessionAuthenticatesEveryCallAndRefreshesOnce() async throws {
        let server = try LoopbackServer { request in
            request.header("Authorization") == "Bearer token-2" ? .json("[1, 2]") : .text("expired", status: 401)
        }
        defer { server.stop() }
        let elsewhere = try LoopbackServer { request in .text(request.header("Authorization") ?? "none") }
        defer { elsewhere.stop() }
        let logins = Locked(0)
        let tokens = LoginTokens(login: { "token-\(logins.withLock { $0 += 1; return $0 })" })
        var configuration = Session.Configuration(baseURL: server.baseURL)
        configuration.interceptors = [BearerAuthenticator(provider: tokens)]
        let api = Session(configuration: configuration)
        for _ in 1...3 { #expect(try await api.send(.get, "/orders", as: [Int].self) == [1, 2]) }
        #expect(logins.withLock { $0 } == 2)  // the first token, refused once; the second kept
        let other = await api.dataResponse(for: TransportRequest(url: elsewhere.baseURL + "/"))
        #expect(other.value.map { String(decoding: $0.body, as: UTF8.self) } == "none")
    }

    @Test func basicAuthSendsTheEncodedCredentials() async throws {
        let sent = try await RequestInspector.inspect(Basic())
        #expect(sent.headers["Authorization"] == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==")
    }

    @Test func a401RefreshesTheTokenAndReplaysOnce() async throws {
        let (stub, session) = bearerStub(accepting: "token-1")
        let provider = CountingProvider()
        let response = await Session.$current.withValue(session) { await Secret(BearerAuthenticator(provider: provider)).dataResponse() }
        #expect(response.value == "in")
        #expect(provider.refreshes == 1)
        #expect(stub.requests.map { $0.headers["Authorization"] } == ["Bearer token-0", "Bearer token-1"])
        #expect(response.attempts.map(\.repeatReason) == [BearerAuthenticator.replayReason, nil])
    }

    @Test func aTokenRefusedAgainAfterTheReplayIsNotRefreshedTwice() async {
        let (stub, session) = bearerStub(accepting: "never")
        let provider = CountingProvider()
        let response = await Session.$current.withValue(session) { await Secret(BearerAuthenticator(provider: provider)).dataResponse() }
        guard case .validation(.unacceptableStatusCode(401), _)? = response.error else {
            Issue.record("got \(String(describing: response.error))")
            return
        }
        #expect(provider.refreshes == 1)
        #expect(stub.requests.count == 2)
    }

    @Test func aFailedRefreshFailsClearly() async {
        let (stub, session) = bearerStub(accepting: "token-1")
        let authenticator = BearerAuthenticator(provider: CountingProvider(failRefresh: true))
        let response = await Session.$current.withValue(session) { await Secret(authenticator).dataResponse() }
        guard case .interceptor(let error)? = response.error,
            case .refreshFailed(let reason)? = error as? AuthenticationError
        else { Issue.record("got \(String(describing: response.error))"); return }
        #expect(reason.contains("Refused"))
        #expect(stub.requests.count == 1)
    }
}

@Suite struct LoggingTests {
    final class Logged: Component, POSTRequestType, CustomSessionRequestType, VerboseLoggingType, StringResponseType {
        static var customSession: Session { .shared }
        var path: String { "https://log.test/login?user=ada&access_token=s3cr3t&page=2" }
        var headers: HTTPHeaders { ["Authorization": "Bearer abc.def", "Cookie": "sid=42", "X-Visible": "yes"] }
        override init(parameterBuilder: ParameterBuilder = ParameterBuilder { TextParameter("it's", name: "note") }) {
            super.init(parameterBuilder: parameterBuilder)
        }
    }
    final class Quiet: Component, GETRequestType, APISessionRequestType, SilentLoggingType, DataResponseType {}

    @Test func verboseLoggingRedactsSecretsEverywhere() async throws {
        let (handler, logger) = InMemoryLogHandler.makeLogger(label: "brick")
        let stub = StubTransport()
        stub.stub(.post, "https://log.test/login?user=ada&access_token=s3cr3t&page=2", status: 200,
                  headers: ["Set-Cookie": "sid=43", "Content-Type": "text/plain"], body: Data("welcome".utf8))
        var configuration = Session.Configuration()
        configuration.interceptors = [RequestLogger(logger: logger)]
        let session = Session(configuration: configuration, transport: stub)
        #expect(try await Session.$current.withValue(session) { try await Logged().response() } == "welcome")
        let text = handler.entries.map { entry in
            ([entry.message.description] + entry.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
                .joined(separator: "\n")
        }.joined(separator: "\n")
        for secret in ["s3cr3t", "abc.def", "sid=42", "sid=43"] { #expect(!text.contains(secret), "\(secret) leaked") }
        #expect(text.contains("access_token=<redacted>&page=2"))
        #expect(text.contains("Authorization: <redacted>"))
        #expect(text.contains("X-Visible: yes"))
        #expect(text.contains("→ 200"))
        #expect(text.contains("response.body=welcome"))
        #expect(handler.entries.first?.metadata["http.response.status_code"] == "200")
        #expect(text.contains(#"curl -X 'POST' 'https://log.test/login?user=ada&access_token=<redacted>&page=2'"#))
        #expect(text.contains(#"--data-binary 'note=it%27s'"#))
    }

    @Test func silentRequestsAreNotLoggedAndDefaultsAreShort() async throws {
        let (handler, logger) = InMemoryLogHandler.makeLogger(label: "brick")
        await LogProbe.entry(RequestLogger(logger: logger), logging: nil).value
        await LogProbe.entry(RequestLogger(logger: logger), logging: .disabled).value
        let messages = handler.entries.map(\.message.description)
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("Probe #1 GET https://p.test/ → 204 in ") == true)
        #expect(messages.first?.contains("\n") == false)
        let fields = try #require(handler.entries.first?.metadata)
        #expect(fields["request"] == "Probe" && fields["attempt"] == "1" && fields["http.request.method"] == "GET")
        #expect(fields["url.full"] == "https://p.test/" && fields["http.response.status_code"] == "204")
        #expect(fields["duration_ms"] != nil && fields["request.headers"] == nil)
    }

    @Test func metadataFromTheCallerFlowsIntoEveryLineOfItsRequests() async throws {
        let (handler, logger) = InMemoryLogHandler.makeLogger(label: "brick")
        await RequestLogger.$metadata.withValue(["request_id": "r-42"]) {
            await LogProbe.entry(RequestLogger(logger: logger), logging: nil).value
        }
        await LogProbe.entry(RequestLogger(logger: logger), logging: nil).value  // outside the scope
        let ids = handler.entries.map { $0.metadata["request_id"] }
        #expect(ids == ["r-42", nil])
    }

    @Test func curlCommandQuotesForTheShell() {
        let request = TransportRequest(method: .put, url: "https://q.test/a", headers: ["X-Q": "it's"], body: .file(path: "/tmp/f b"))
        #expect(CurlCommand.render(request) == #"curl -X 'PUT' 'https://q.test/a' -H 'X-Q: it'\''s' --data-binary '@/tmp/f b'"#)
        // A method is a token, but one from elsewhere is quoted all the same.
        let odd = TransportRequest(method: HTTPMethod("X;rm"), url: "https://q.test/a")
        #expect(CurlCommand.render(odd) == #"curl -X 'X;rm' 'https://q.test/a'"#)
    }

    @Test(arguments: [
        ("https://ada:pa55word@h.test/a?x=1", "https://ada:<redacted>@h.test/a?x=1"),
        ("https://h.test/o?X-Amz-Credential=AKIA&X-Amz-Signature=abc&X-Amz-Expires=60",
         "https://h.test/o?X-Amz-Credential=<redacted>&X-Amz-Signature=<redacted>&X-Amz-Expires=60"),
        ("https://h.test/cb?code=4/0Ab&state=s1", "https://h.test/cb?code=<redacted>&state=s1"),
        ("https://h.test/b?sv=2024&sig=Zm9v%3D", "https://h.test/b?sv=2024&sig=<redacted>"),
        ("https://h.test/p?access%5Ftoken=t0k&page=2", "https://h.test/p?access%5Ftoken=<redacted>&page=2"),
    ])
    func urlsAreRedactedOfPasswordsSignaturesAndEncodedNames(url: String, expected: String) {
        #expect(Redaction().url(url) == expected)
    }

    /// Found by the fuzzer (Tests/Fuzz/Corpus/redaction/regression-query-scheme): a `://` inside the query
    /// was taken for the URL's authority, so redacting twice changed the text again.
    @Test func aSchemeLikeTextInTheQueryIsNotTheAuthority() {
        let url = "/c?sig=x://a&u=http://b:pw@c"
        let once = Redaction().url(url)
        #expect(once == "/c?sig=<redacted>&u=http://b:pw@c")
        #expect(Redaction().url(once) == once)
    }

    @Test func transportErrorsShowURLsWithoutUserInfoOrQuery() {
        let request = TransportRequest(url: "https://ada:pa55@h.test/a b?token=t0k")
        let error = #expect(throws: TransportError.self) { try request.validate() }
        #expect(error?.message.contains("pa55") == false)
        #expect(error?.message.contains("t0k") == false)
        #expect(error?.message.contains("h.test/a b") == true)
    }
}

/// Runs a logger's `process` once, as the session would after a 204.
enum LogProbe {
    static func entry(_ logger: RequestLogger, logging: RequestLogging?) -> Task<Void, Never> {
        let context = RequestContext(requestName: "Probe", requestLogging: logging, request: TransportRequest(url: "https://p.test/"))
        return Task { _ = await logger.process(.success(TransportResponse(head: ResponseHead(status: 204))), context: context) }
    }
}

extension InMemoryLogHandler {
    static func makeLogger(label: String) -> (InMemoryLogHandler, Logger) {
        let handler = InMemoryLogHandler()
        return (handler, Logger(label: label) { _ in handler })
    }
}
