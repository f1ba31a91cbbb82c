import BrickRequest
import Foundation
import Testing
import TestServers

/// What a server sends cannot crash the client or make it misread the answer: absurd dates, huge or
/// endless heads, folded fields and trailers, each on a fresh connection and on a reused keep-alive one.
@Suite struct ServerInputTests {
    let server: FaultServer
    let session = Session()

    init() throws { server = try FaultServer(keepAlive: true) }

    func url(_ path: String, key: String) -> String { server.baseURL + path + (path.contains("?") ? "&" : "?") + "key=" + key }

    /// Runs `check` twice: on a fresh connection of a new session, then on this session's kept-alive one.
    func onFreshAndReusedConnections(_ key: String, _ check: (Session, String) async throws -> Void) async throws {
        try await check(Session(), key + "fresh")
        let warm = await FaultCall(url("/ok", key: key + "warm"), session: session).dataResponse()
        #expect(try warm.result.get() == "ok")
        try await check(session, key + "reused")
    }

    @Test(arguments: ["Sun, 06 Nov 999999999999 08:49:37 GMT", "Sun, 06 Nov -99999999999 08:49:37 GMT", "Sun Nov  6 08:49:37 99999999999999999"])
    func aDateFarOutOfRangeIsNotADate(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    @Test func aRetryAfterFarInTheFutureIsClampedNotATrap() {
        let now = Date(timeIntervalSince1970: 0)
        #expect(RetryAfter.delay("99999999999999999999999", reference: now) == .seconds(10 * 365 * 86_400))
        #expect(RetryAfter.delay("Fri, 31 Dec 9999 23:59:59 GMT", reference: now) == .seconds(10 * 365 * 86_400))
    }

    @Test func aRetryingRequestAnsweredWithAnAbsurdDateFailsCleanly() async throws {
        try await onFreshAndReusedConnections("date") { session, key in
            let date = "Sun,%2006%20Nov%20999999999999%2008:49:37%20GMT"
            let call = FaultCall(url("/status?code=503&retry_after=\(date)&date=\(date)&times=1", key: key), session: session)
            let value = try await call.dataResponse().result.get()
            #expect(value == "ok")
            #expect(server.count(key) == 2)
        }
    }

    @Test func aHeadFieldLargerThanLibcurlAllowsIsAnInvalidResponse() async throws {
        try await onFreshAndReusedConnections("bigfield") { session, key in
            let response = await FaultCall(url("/big-header?bytes=10000000", key: key), session: session, rules: .none).dataResponse()
            #expect(response.error?.transportError?.kind == .invalidResponse, "\(String(describing: response.error))")
            #expect(response.error?.transportError?.message.contains("header") == true)
        }
    }

    @Test func aHeadLargerThanTheCapIsAnInvalidResponseNamingTheCap() async throws {
        try await onFreshAndReusedConnections("many") { session, key in
            let response = await FaultCall(url("/many-headers?count=30000", key: key), session: session, rules: .none).dataResponse()
            #expect(response.error?.transportError?.kind == .invalidResponse)
            #expect(response.error?.transportError?.message == "the response head passed \(256 << 10) bytes")
        }
    }

    @Test func foldedLinesJoinOneFieldInOrder() async throws {
        try await onFreshAndReusedConnections("folded") { session, key in
            let response = await FaultCall(url("/folded?count=20000", key: key), session: session, rules: .none).dataResponse()
            let folded = try #require(response.response?.head.headers["X-Folded"])
            #expect(folded == "start" + String(repeating: " x", count: 20000))
        }
    }

    @Test func trailersNeitherChangeTheStatusNorJoinTheHead() async throws {
        try await onFreshAndReusedConnections("trailers") { session, key in
            let response = await FaultCall(url("/trailers", key: key), session: session, rules: .none).dataResponse()
            let value = try response.result.get()
            #expect(value == "ok")
            #expect(response.response?.head.status == 200)
            #expect(response.response?.head.headers["X-Checksum"] == nil)
        }
    }
}
