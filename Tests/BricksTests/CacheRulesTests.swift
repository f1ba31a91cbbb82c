import BrickRequest
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
