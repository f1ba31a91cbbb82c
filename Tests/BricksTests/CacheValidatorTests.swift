import BrickRequest
import Foundation
import Testing
import TestServers

/// The cache against a server that answers revalidations and ranges in ways that could make it lie:
/// preconditions of the caller's own, a `304` that sets a cookie or names another representation, parts of
/// two representations under one tag, and a body in more codings than the transport decodes. Scripted
/// answers from the fault server (each on a connection of its own), and nginx for the codings (fresh and
/// kept-alive connections).
@Suite struct CacheValidatorTests {
    let server: FaultServer
    init() throws { server = try FaultServer() }

    static func session(_ cache: any ResponseCache = MemoryResponseCache()) -> Session {
        var configuration = Session.Configuration()
        configuration.responseCache = cache
        return Session(configuration: configuration)
    }

    func get(_ key: String, _ headers: HTTPHeaders = [:], session: Session) async -> DataResponse<TransportResponse> {
        await session.dataResponse(for: TransportRequest(url: server.baseURL + "/scripted?key=" + key, headers: headers))
    }

    func body(_ response: DataResponse<TransportResponse>) -> String? { response.value.map { String(decoding: $0.body, as: UTF8.self) } }

    /// A stored v2, fresh for ten minutes: a range asked `If-Range` another validator is the server's to
    /// answer (it sends the whole); with v2's own tag, the range is cut from the stored response.
    @Test func aRangeIsCutFromTheStoredResponseOnlyWhenIfRangeNamesIt() async {
        let whole = CacheRulesTests.answer(200, ["ETag: \"v2\"", "Cache-Control: max-age=600"], body: "0123456789")
        server.script("if-range", [whole, whole])
        let session = Self.session()
        _ = await get("if-range", session: session)
        let other = await get("if-range", ["Range": "bytes=4-", "If-Range": "\"v1\""], session: session)
        #expect(other.value?.head.status == 200 && body(other) == "0123456789", "\(String(describing: other.value?.head))")
        #expect(server.count("if-range") == 2)
        let same = await get("if-range", ["Range": "bytes=4-", "If-Range": "\"v2\""], session: session)
        #expect(same.value?.head.status == 206 && body(same) == "456789" && same.cacheStatus == .hit)
        let date = await get("if-range", ["Range": "bytes=4-", "If-Range": "Sun, 06 Nov 1994 08:49:37 GMT"], session: session)
        #expect(date.cacheStatus == .miss)
        #expect(server.count("if-range") == 3)
    }

    /// The caller's own `If-None-Match`, `If-Match`, `If-Modified-Since` and `If-Unmodified-Since` go to the
    /// server, which answers them (here a 304 and a 412), however fresh the stored response is.
    @Test func preconditionsOfTheCallersOwnGoToTheServer() async {
        let stored = CacheRulesTests.answer(200, ["ETag: \"v2\"", "Cache-Control: max-age=600"], body: "stored")
        let notModified = "HTTP/1.1 304 Not Modified\r\nETag: \"v2\"\r\nConnection: close\r\n\r\n"
        let failed = CacheRulesTests.answer(412, [], body: "")
        server.script("own", [stored, notModified, failed, failed, notModified])
        let session = Self.session()
        _ = await get("own", session: session)
        let statuses = await [
            get("own", ["If-None-Match": "\"v2\""], session: session), get("own", ["If-Match": "\"v9\""], session: session),
            get("own", ["If-Unmodified-Since": "Sun, 06 Nov 1994 08:49:37 GMT"], session: session),
            get("own", ["If-Modified-Since": "Sun, 06 Nov 2094 08:49:37 GMT"], session: session),
        ].map { $0.value?.head.status ?? $0.error?.response?.head.status }
        #expect(statuses == [304, 412, 412, 304])
        #expect(server.count("own") == 5)
        #expect(await get("own", session: session).cacheStatus == .hit)  // and the stored response is still there
    }

    /// A 304 that sets a cookie and names the connection's own fields: the caller that revalidated sees its
    /// cookie; the stored response keeps neither, in memory or on disk.
    @Test(arguments: ["memory", "disk"])
    func a304sCookieAndHopByHopFieldsAreNotStored(store: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("validators-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let session = Self.session(store == "memory" ? MemoryResponseCache() : try DiskResponseCache(directory: directory))
        let key = "cookie-304-\(store)"
        server.script(key, [
            CacheRulesTests.answer(200, ["ETag: \"v1\"", "Cache-Control: max-age=0"], body: "stored"),
            "HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\nCache-Control: max-age=300\r\nSet-Cookie: session=SECRET-OF-CALLER-A\r\n"
                + "Connection: close, X-Hop\r\nX-Hop: 1\r\nKeep-Alive: timeout=5\r\nX-Kept: yes\r\n\r\n",
        ])
        _ = await get(key, session: session)
        let callerA = await get(key, session: session)
        #expect(callerA.cacheStatus == .revalidated && body(callerA) == "stored")
        #expect(callerA.value?.head.headers["Set-Cookie"] == "session=SECRET-OF-CALLER-A")
        let next = await get(key, session: session)
        #expect(next.cacheStatus == .hit && body(next) == "stored")
        let fields = next.value?.head.headers
        #expect(fields?["Set-Cookie"] == nil && fields?["X-Hop"] == nil && fields?["Keep-Alive"] == nil && fields?["X-Kept"] == "yes")
        if store == "disk" {
            let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            let text = try files.map { String(decoding: try Data(contentsOf: directory.appendingPathComponent($0)), as: UTF8.self) }.joined()
            #expect(text.contains("stored") && !text.contains("SECRET"))
        }
    }

    /// Stored v1; the revalidation's 304 says v2: nothing stored is v2, so nothing is updated, and the
    /// request goes again without validators and gets v2 itself.
    @Test func a304NamingAnotherRepresentationUpdatesNothingAndTheRequestGoesAgain() async {
        server.script("other-304", [
            CacheRulesTests.answer(200, ["ETag: \"v1\"", "Cache-Control: max-age=0"], body: "version one"),
            "HTTP/1.1 304 Not Modified\r\nETag: \"v2\"\r\nCache-Control: max-age=300\r\nConnection: close\r\n\r\n",
            CacheRulesTests.answer(200, ["ETag: \"v2\"", "Cache-Control: max-age=300"], body: "version two"),
        ])
        let session = Self.session()
        _ = await get("other-304", session: session)
        let answer = await get("other-304", session: session)
        #expect(body(answer) == "version two" && answer.value?.head.headers["ETag"] == "\"v2\"")
        #expect(answer.attempts.count == 2)
        let conditions = server.fieldLines("other-304").map { $0.first { $0.lowercased().hasPrefix("if-none-match") } }
        #expect(conditions == [nil, "If-None-Match: \"v1\"", nil])
        let later = await get("other-304", session: session)
        #expect(later.cacheStatus == .hit && body(later) == "version two")
    }

    /// Two parts under one strong tag but of two languages (`Vary: Accept-Language`) are never joined into a
    /// whole.
    @Test func partsAskedWithOtherVaryingFieldsAreNotJoined() async {
        func part(_ range: String, _ body: String) -> String {
            CacheRulesTests.answer(206, ["ETag: \"x\"", "Vary: Accept-Language", "Cache-Control: max-age=600", "Content-Range: bytes \(range)/8"], body: body)
        }
        server.script("vary-parts", [part("0-3", "abcd"), part("4-7", "WXYZ"), CacheRulesTests.answer(200, ["Cache-Control: no-store"], body: "wxyzWXYZ")])
        let session = Self.session()
        _ = await get("vary-parts", ["Accept-Language": "en", "Range": "bytes=0-3"], session: session)
        _ = await get("vary-parts", ["Accept-Language": "fr", "Range": "bytes=4-7"], session: session)
        let whole = await get("vary-parts", ["Accept-Language": "fr"], session: session)
        #expect(body(whole) == "wxyzWXYZ" && whole.cacheStatus == .miss)
        #expect(server.count("vary-parts") == 3)
    }

    /// Past four codings the transport hands the body over as it came: the stored copy keeps its
    /// `Content-Encoding`, so the next caller is told what the bytes are. Four codings are decoded, and
    /// stored decoded without it.
    @Test func aBodyLeftInItsCodingsIsStoredWithTheirName() async throws {
        let nginx = try Nginx.shared.get()
        let session = Self.session()
        for round in 1...2 {  // the second round on a kept-alive connection
            let five = await session.dataResponse(for: TransportRequest(url: nginx.url("/coded/five?\(round)")))
            let again = await session.dataResponse(for: TransportRequest(url: nginx.url("/coded/five?\(round)")))
            #expect(five.cacheStatus == .miss && again.cacheStatus == .hit)
            #expect(again.value?.head.headers["Content-Encoding"] == "gzip, gzip, gzip, gzip, gzip")
            #expect(again.value?.body == five.value?.body && again.value?.body.prefix(2) == Data([0x1F, 0x8B]))
            _ = await session.dataResponse(for: TransportRequest(url: nginx.url("/coded/four?\(round)")))
            let four = await session.dataResponse(for: TransportRequest(url: nginx.url("/coded/four?\(round)")))
            #expect(four.cacheStatus == .hit && four.value?.head.headers["Content-Encoding"] == nil)
            #expect(four.value.map { String(decoding: $0.body, as: UTF8.self) } == Nginx.compactJSON)
        }
    }
}
