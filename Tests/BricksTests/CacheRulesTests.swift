import BrickRequest
import BrickTesting
import Foundation
import Testing
import TestServers

/// RFC 9111 as the cache keeps it, against the fault server's scripted answers: what is a date, which
/// statuses and fields are stored, `Age`, `Vary`, and what an unsafe request invalidates. "Served" means the
/// second GET did not reach the server.
@Suite struct CacheRulesTests {
    let server: FaultServer
    let session: Session
    init() throws {
        server = try FaultServer()
        var configuration = Session.Configuration()
        configuration.responseCache = MemoryResponseCache()
        session = Session(configuration: configuration)
    }

    static func answer(_ status: Int = 200, _ fields: [String], body: String = "cached") -> String {
        "HTTP/1.1 \(status) Status\r\n" + fields.map { $0 + "\r\n" }.joined() + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
    }

    func get(_ key: String, headers: HTTPHeaders = [:]) async -> DataResponse<TransportResponse> {
        await session.dataResponse(for: TransportRequest(url: server.baseURL + "/scripted?key=" + key, headers: headers))
    }

    /// How many of two GETs of `key`, answered with `fields`, reached the server.
    func arrivals(_ key: String, status: Int = 200, _ fields: [String]) async -> Int {
        server.script(key, [Self.answer(status, fields)])
        _ = await get(key)
        _ = await get(key)
        return server.count(key)
    }

    @Test(arguments: [
        "Thu, 01 Jan 2099 0:00:00 GMT", "Thu, 01 Jan 99 00:00:00 GMT", "Thu, 01-Jan-2099 00:00:00 GMT", "Thu,  01 Jan 2099 00:00:00 GMT",
        "Thu 01 Jan 2099 00:00:00 GMT", "Thu, 01 Jan 2099 00:00:00 UTC", "2099-01-01T00:00:00Z", "Thu, 31 Feb 2099 00:00:00 GMT",
    ])
    func anInvalidExpiresIsInThePast(expires: String) async {
        #expect(await arrivals("expires-\(expires.hashValue)", ["Expires: \(expires)"]) == 2)
    }

    @Test(arguments: ["Thu, 01 Jan 2099 00:00:00 GMT", "thu, 01 JAN 2099 00:00:00 GMT", "Sunday, 01-Jan-60 00:00:00 GMT", "Thu Jan  1 00:00:00 2099"])
    func theThreeFormsOfADateAreDates(expires: String) async {
        #expect(await arrivals("valid-\(expires.hashValue)", ["Expires: \(expires)"]) == 1)
    }

    /// RFC 8246: a fresh immutable response answers a request that asks for a younger one (`max-age=0`, a
    /// reload); `no-cache` (a forced reload) still goes to the server, and without `immutable` so does
    /// `max-age=0`.
    @Test func aFreshImmutableResponseAnswersAReloadButNotAForcedOne() async {
        for (key, fields) in [("immutable", ["Cache-Control: max-age=3600, immutable"]), ("mutable", ["Cache-Control: max-age=3600"])] {
            server.script(key, [Self.answer(200, fields)])
            _ = await get(key)
            #expect(await get(key, headers: ["Cache-Control": "max-age=0"]).cacheStatus == (key == "immutable" ? .hit : .miss))
            _ = await get(key, headers: ["Cache-Control": "no-cache"])
        }
        #expect(server.count("immutable") == 2)
        #expect(server.count("mutable") == 3)
    }

    static func part(_ range: String, of length: Int, _ body: String, tag: String) -> String {
        answer(206, ["Cache-Control: max-age=3600", "ETag: \"\(tag)\"", "Content-Range: bytes \(range)/\(length)"], body: body)
    }

    /// RFC 9111 §3.3 with RFC 9110 §14: a fresh stored response answers a request for one byte range with a
    /// `206` cut from it (a range from the start, to the end, or the last bytes); several ranges, or one past
    /// the end, go to the server.
    @Test func aStoredResponseAnswersARangeWithThoseBytes() async throws {
        server.script("whole", [Self.answer(200, ["Cache-Control: max-age=3600", "ETag: \"w\""], body: "0123456789")])
        _ = await get("whole")
        for (range, body, contentRange) in [("bytes=2-4", "234", "bytes 2-4/10"), ("bytes=-3", "789", "bytes 7-9/10"),
                                            ("bytes=7-", "789", "bytes 7-9/10"), ("bytes=8-20", "89", "bytes 8-9/10")] {
            let answer = await get("whole", headers: ["Range": range])
            let response = try #require(answer.value)
            #expect(answer.cacheStatus == .hit)
            #expect(response.head.status == 206 && String(decoding: response.body, as: UTF8.self) == body)
            #expect(response.head.headers["Content-Range"] == contentRange)
            #expect(response.head.headers["Content-Length"] == String(body.utf8.count))
        }
        #expect(server.count("whole") == 1)
        _ = await get("whole", headers: ["Range": "bytes=0-1,4-5"])
        _ = await get("whole", headers: ["Range": "bytes=10-"])
        #expect(server.count("whole") == 3)
    }

    /// RFC 9111 §3.3: a `206` is stored and answers the ranges it holds, never a request for the whole.
    @Test func aStoredPartAnswersTheRangesItHoldsAndNothingElse() async throws {
        server.script("part", [Self.part("0-4", of: 10, "01234", tag: "p")])
        _ = await get("part", headers: ["Range": "bytes=0-4"])
        let inside = await get("part", headers: ["Range": "bytes=1-3"])
        #expect(inside.cacheStatus == .hit)
        #expect(inside.value.map { String(decoding: $0.body, as: UTF8.self) } == "123")
        #expect(server.count("part") == 1)
        _ = await get("part", headers: ["Range": "bytes=3-6"])
        _ = await get("part")
        #expect(server.count("part") == 3)
    }

    /// RFC 9111 §3.4: two parts of one representation (the same strong `ETag`) are joined; together they are
    /// the whole response, which then answers a request for the whole. Parts with different tags are not.
    @Test func partsWithTheSameStrongValidatorAreJoinedIntoTheWhole() async throws {
        server.script("join", [Self.part("0-5", of: 10, "012345", tag: "j"), Self.part("4-9", of: 10, "456789", tag: "j")])
        _ = await get("join", headers: ["Range": "bytes=0-5"])
        _ = await get("join", headers: ["Range": "bytes=4-9"])
        let whole = await get("join")
        #expect(whole.cacheStatus == .hit)
        #expect(whole.value?.head.status == 200)
        #expect(whole.value.map { String(decoding: $0.body, as: UTF8.self) } == "0123456789")
        #expect(server.count("join") == 2)

        server.script("apart", [Self.part("0-4", of: 10, "01234", tag: "a"), Self.part("5-9", of: 10, "56789", tag: "b"),
                                Self.answer(200, ["Cache-Control: max-age=3600"], body: "0123456789")])
        _ = await get("apart", headers: ["Range": "bytes=0-4"])
        _ = await get("apart", headers: ["Range": "bytes=5-9"])
        #expect(await get("apart").cacheStatus == .miss)
        #expect(server.count("apart") == 3)
    }

    /// A `206` whose body does not fill its `Content-Range`, or whose range is not a byte range of a known
    /// length, is not stored.
    @Test(arguments: ["bytes 0-4/*", "bytes 0-5/10", "bytes 4-0/10", "bytes 0-4/99999999999999999999", "items 0-4/10"])
    func aPartThatDoesNotAddUpIsNotStored(contentRange: String) async {
        let key = "bad-part-\(contentRange.hashValue)"
        server.script(key, [Self.answer(206, ["Cache-Control: max-age=3600", "ETag: \"x\"", "Content-Range: \(contentRange)"], body: "01234")])
        _ = await get(key, headers: ["Range": "bytes=0-4"])
        _ = await get(key, headers: ["Range": "bytes=0-4"])
        #expect(server.count(key) == 2)
    }

    @Test func severalExpiresFieldsAreInvalid() async {
        #expect(await arrivals("two-expires", ["Expires: Thu, 01 Jan 2099 00:00:00 GMT", "Expires: Fri, 02 Jan 2099 00:00:00 GMT"]) == 2)
    }

    @Test func theFirstAgeCountsAndWhatIsServedCarriesItsCurrentAge() async throws {
        #expect(await arrivals("age-list", ["Cache-Control: max-age=3600", "Age: 7200, 0"]) == 2)
        server.script("age", [Self.answer(200, ["Cache-Control: max-age=3600", "Age: 30"])])
        let first = await get("age")
        #expect(first.response?.head.headers["Age"] == "30")
        let served = await get("age")
        #expect(server.count("age") == 1)
        let age = try #require(served.response?.head.headers["Age"].flatMap { Int($0) })
        #expect(age >= 30 && age < 60, "\(age)")
    }

    @Test func theConnectionsFieldsAreNotStoredAndContentLengthIs() async throws {
        server.script("hop", [Self.answer(200, ["Cache-Control: max-age=3600", "Connection: X-Hop", "X-Hop: secret", "X-Kept: yes"], body: "twelve bytes")])
        _ = await get("hop")
        let served = try #require(await get("hop").response)
        #expect(server.count("hop") == 1)
        #expect(served.head.headers["X-Hop"] == nil && served.head.headers["Connection"] == nil)
        #expect(served.head.headers["X-Kept"] == "yes" && served.head.headers["Content-Length"] == "12")
        #expect(served.head.headers["Set-Cookie"] == nil)
    }

    @Test(arguments: [299, 400, 404, 500, 502, 503, 504, 599])
    func anyFinalStatusWithExplicitFreshnessIsStored(status: Int) async {
        #expect(await arrivals("status-\(status)", status: status, ["Cache-Control: max-age=3600"]) == 1)
    }

    @Test func onlyAHeuristicallyCacheableStatusIsStoredWithoutExplicitFreshness() async {
        #expect(await arrivals("heuristic-200", ["Last-Modified: Thu, 01 Jan 2015 00:00:00 GMT"]) == 1)
        #expect(await arrivals("heuristic-500", status: 500, ["Last-Modified: Thu, 01 Jan 2015 00:00:00 GMT", "ETag: \"v1\""]) == 2)
        #expect(await arrivals("must-understand", ["Cache-Control: must-understand, no-store, max-age=3600"]) == 1)
        #expect(await arrivals("must-understand-unknown", status: 299, ["Cache-Control: must-understand, max-age=3600"]) == 2)
    }

    @Test func varyingFieldsAreComparedNormalized() async {
        server.script("vary", [Self.answer(200, ["Cache-Control: max-age=3600", "Vary: accept-language"])])
        _ = await get("vary", headers: ["Accept-Language": "en,  fr"])
        _ = await get("vary", headers: HTTPHeaders([.init(name: "accept-language", value: "en"), .init(name: "Accept-Language", value: " fr")]))
        #expect(server.count("vary") == 1)
        _ = await get("vary", headers: ["Accept-Language": "de"])
        #expect(server.count("vary") == 2)
    }

    @Test func anUnsafeRequestInvalidatesOnlyOnANonErrorAnswerAndItsLocationsToo() async {
        let url = server.baseURL + "/scripted?key=invalidate"
        server.script("invalidate", [
            Self.answer(200, ["Cache-Control: max-age=3600"]), Self.answer(500, []),
            Self.answer(200, []), Self.answer(200, ["Cache-Control: max-age=3600"]),
        ])
        _ = await get("invalidate")
        _ = await session.dataResponse(for: TransportRequest(method: .post, url: url))  // 500: nothing invalidated
        _ = await get("invalidate")
        #expect(server.count("invalidate") == 2)
        _ = await session.dataResponse(for: TransportRequest(method: .put, url: url))  // 200: invalidated
        _ = await get("invalidate")
        #expect(server.count("invalidate") == 4)

        server.script("elsewhere", [Self.answer(201, ["Location: /scripted?key=invalidate"])])
        _ = await session.dataResponse(for: TransportRequest(method: .post, url: server.baseURL + "/scripted?key=elsewhere"))
        _ = await get("invalidate")
        #expect(server.count("invalidate") == 5, "a POST elsewhere whose Location names it invalidates it")
    }
}

/// RFC 5861 and offline answers: a stale response answers at once when the server allowed it, or while the
/// route to its host is down; a POST is never answered from the cache.
@Suite struct StaleAnswerTests {
    let server: FaultServer
    let reachability = ManualReachability()
    let cache = MemoryResponseCache()
    let session: Session
    init() throws {
        server = try FaultServer()
        var configuration = Session.Configuration()
        configuration.responseCache = cache
        configuration.reachability = reachability
        session = Session(configuration: configuration)
    }

    func get(_ key: String, mode: CacheMode = .default) async -> DataResponse<Data> {
        await CachedGet(server.baseURL + "/scripted?key=" + key, session: session, mode: mode).dataResponse()
    }

    @Test func withinStaleWhileRevalidateTheStaleAnswerComesAtOnceAndIsRevalidatedBehind() async throws {
        server.script("swr", [
            CacheRulesTests.answer(200, ["Cache-Control: max-age=1, stale-while-revalidate=3600", "Age: 5", "ETag: \"v1\""], body: "first"),
            CacheRulesTests.answer(200, ["Cache-Control: max-age=3600", "ETag: \"v2\""], body: "second"),
        ])
        _ = await get("swr")
        let stale = await get("swr")
        #expect(stale.cacheStatus == .stale && stale.value.map { String(decoding: $0, as: UTF8.self) } == "first")
        #expect(Int(stale.response?.head.headers["Age"] ?? "") ?? 0 >= 5)
        await server.waitForArrivals("swr", count: 2)  // the revalidation, in the background
        #expect(server.fieldLines("swr").last?.contains("If-None-Match: \"v1\"") == true)
        // The background task stores the answer right after it arrives: wait for the store itself.
        let key = "GET " + server.baseURL + "/scripted?key=swr"
        for _ in 0..<100_000 where await cache.cachedResponse(for: key)?.headers["ETag"] != "\"v2\"" { await Task.yield() }
        let fresh = await get("swr")
        #expect(fresh.cacheStatus == .hit && fresh.value.map { String(decoding: $0, as: UTF8.self) } == "second")
        #expect(server.count("swr") == 2)
    }

    @Test func withinStaleIfErrorAServerErrorOrARefusedConnectionGetsTheStaleAnswer() async throws {
        server.script("sie", [
            CacheRulesTests.answer(200, ["Cache-Control: max-age=1, stale-if-error=3600", "Age: 5"], body: "kept"),
            CacheRulesTests.answer(503, []),
        ])
        _ = await get("sie")
        let afterError = await get("sie")
        #expect(afterError.cacheStatus == .stale && afterError.statusCode == 200, "\(String(describing: afterError.error))")
        #expect(server.count("sie") == 2)
        server.stop()
        let refused = await get("sie")
        #expect(refused.cacheStatus == .stale && refused.value.map { String(decoding: $0, as: UTF8.self) } == "kept")
    }

    /// A server that is down (its connection refused) is offline to an offline-first GET: the stored answer
    /// comes after the first refused attempt, stale or not, with no `stale-if-error` from the server and the
    /// route up; the retry rules' backoff never starts. The default mode still says the server is down.
    @Test func aServerThatIsDownAnswersAnOfflineFirstGetFromTheCacheAtOnce() async throws {
        server.script("down", [CacheRulesTests.answer(200, ["Cache-Control: max-age=1", "Age: 5"], body: "stored")])
        let url = server.baseURL + "/scripted?key=down"
        _ = await OfflineFirstGet(url, session: session).dataResponse()
        server.stop()
        let offline = await OfflineFirstGet(url, session: session).dataResponse()
        #expect(offline.cacheStatus == .stale && offline.value.map { String(decoding: $0, as: UTF8.self) } == "stored", "\(String(describing: offline.error))")
        #expect(offline.attempts.count == 1, "\(offline.timeline)")
        let plain = await get("down")
        #expect(plain.error?.transportError?.kind == .connectionRefused)
    }

    @Test func whileTheRouteIsDownAStaleAnswerTheServerOrTheModeAllowsComesAtOnceAndAPostIsNotAnswered() async throws {
        server.script("offline", [CacheRulesTests.answer(200, ["Cache-Control: max-age=1, stale-if-error=3600", "Age: 5"], body: "offline")])
        server.script("strict", [CacheRulesTests.answer(200, ["Cache-Control: max-age=1", "Age: 5"], body: "strict")])
        _ = await get("offline")
        _ = await get("strict")
        reachability.goOffline()
        let allowed = await get("offline")
        #expect(allowed.cacheStatus == .stale && allowed.value.map { String(decoding: $0, as: UTF8.self) } == "offline")
        let asked = await get("strict", mode: .offlineFirst)
        #expect(asked.cacheStatus == .stale && asked.value.map { String(decoding: $0, as: UTF8.self) } == "strict")
        #expect(server.count("offline") == 1 && server.count("strict") == 1, "nothing was sent while offline")
        let post = await session.dataResponse(for: TransportRequest(method: .post, url: server.baseURL + "/scripted?key=offline"))
        #expect(post.cacheStatus != .stale && post.cacheStatus != .hit)
        reachability.goOnline()
    }
}

/// "Cached first, then fresh": the stored value at once, then the network's.
@Suite struct CachedThenFreshTests {
    @Test func aStaleStoredValueComesFirstThenTheFreshOneAndAFreshStoredValueAlone() async throws {
        let server = try FaultServer()
        defer { server.stop() }
        var configuration = Session.Configuration()
        configuration.responseCache = MemoryResponseCache()
        let session = Session(configuration: configuration)
        server.script("dashboard", [
            CacheRulesTests.answer(200, ["Cache-Control: max-age=1", "Age: 5"], body: "old"),
            CacheRulesTests.answer(200, ["Cache-Control: max-age=3600"], body: "new"),
        ])
        let url = server.baseURL + "/scripted?key=dashboard"
        var first: [String] = []
        for await value in CachedGet(url, session: session).cachedThenFresh() { first.append(value.value.map { String(decoding: $0, as: UTF8.self) } ?? "-") }
        #expect(first == ["old"], "nothing stored: the network's value alone")
        var second: [(String, CacheStatus)] = []
        for await value in CachedGet(url, session: session).cachedThenFresh() {
            second.append((value.value.map { String(decoding: $0, as: UTF8.self) } ?? "-", value.cacheStatus))
        }
        #expect(second.map(\.0) == ["old", "new"] && second.first?.1 == .stale)
        var third: [String] = []
        for await value in CachedGet(url, session: session).cachedThenFresh() { third.append(value.value.map { String(decoding: $0, as: UTF8.self) } ?? "-") }
        #expect(third == ["new"], "a fresh stored value alone")
        #expect(server.count("dashboard") == 2)
    }
}
