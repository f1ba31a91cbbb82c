import BrickRequest
import Testing
import TestServers

/// A request that is not idempotent reaches the server at most once, whatever the connection does: libcurl
/// resends a request by itself when a reused connection closes without an answer, and the session must
/// stop that for a POST (and say it may have arrived) while letting a GET be resent.
@Suite struct NeverTwiceTests {
    let server: FaultServer
    let session = Session()

    init() throws { server = try FaultServer(keepAlive: true) }

    func url(_ path: String, key: String) -> String { server.baseURL + path + (path.contains("?") ? "&" : "?") + "key=" + key }

    /// One kept-alive connection to the server, so that the next request reuses it.
    func warmUp(_ key: String) async throws {
        let warm = await FaultCall(url("/ok", key: key + "warm"), session: session).dataResponse()
        #expect(try warm.result.get() == "ok")
    }

    @Test func aPostOnAReusedConnectionThatClosesUnansweredIsSentOnceAndSaysItMayHaveArrived() async throws {
        try await warmUp("post")
        let response = await FaultCall(url("/close-after-read", key: "post"), method: .post, session: session).dataResponse()
        #expect(server.count("post") == 1)
        #expect(response.error?.transportError?.kind == .connectionLost)
        #expect(response.error?.transportError?.message.contains("may have arrived") == true)
        #expect(response.attempts.count == 1)
    }

    @Test func aPostWithSoftRetryIsNotRepeatedAfterTheConnectionClosedUnanswered() async throws {
        try await warmUp("soft")
        let call = FaultCall(url("/close-after-read", key: "soft"), method: .post, session: session, rules: .soft)
        let response = await call.dataResponse()
        #expect(server.count("soft") == 1)
        #expect(response.error?.transportError?.kind == .connectionLost)
    }

    @Test func aPostOnAFreshConnectionThatClosesUnansweredIsSentOnce() async throws {
        let response = await FaultCall(url("/close-after-read", key: "fresh"), method: .post, session: session).dataResponse()
        #expect(server.count("fresh") == 1)
        #expect(response.error?.transportError?.kind == .connectionLost)
    }

    /// Found by the chaos run (1 POST applied twice in 58,943 requests): libcurl's own resend of a POST
    /// whose reused connection closed unanswered failed to connect (refused, or no route during an outage),
    /// and that connect error said the request never left, so the retry rules sent it again.
    @Test func aPostWhoseResendCannotConnectIsNotRetriedAsIfItNeverLeft() async throws {
        let server = self.server
        var configuration = Session.Configuration()
        configuration.retryObserver = { event in if case .retrying = event { try? server.serve() } }
        let session = Session(configuration: configuration)
        let warm = await FaultCall(url("/ok", key: "resendwarm"), session: session).dataResponse()
        #expect(try warm.result.get() == "ok")
        let response = await FaultCall(url("/close-then-refuse", key: "resend"), method: .post, session: session).dataResponse()
        #expect(server.count("resend") == 1)
        #expect(response.error?.transportError?.kind == .connectionLost)
        #expect(response.error?.transportError?.message.contains("may have arrived") == true)
    }

    @Test func aGetOnAReusedConnectionThatClosesUnansweredIsResentAndSucceeds() async throws {
        try await warmUp("get")
        let call = FaultCall(url("/close-after-read?times=1", key: "get"), session: session, rules: .none)
        let response = await call.dataResponse()
        #expect(try response.result.get() == "ok")
        #expect(server.count("get") == 2)
    }

    @Test func aPostMarkedIdempotentMayBeResentByTheTransport() async throws {
        try await warmUp("keyed")
        let call = IdempotentPost(url("/close-after-read?times=1", key: "keyed"), session: session)
        let response = await call.dataResponse()
        #expect(try response.result.get() == "ok")
        #expect(server.count("keyed") == 2)
    }
}

/// A POST its author declares idempotent.
final class IdempotentPost: Component, POSTRequestType, IdempotentRequestType, NonAutoRetryType, StringResponseType {
    let session: Session
    let URLString: String
    init(_ url: String, session: Session) {
        self.session = session
        self.URLString = url
        super.init()
    }
}
