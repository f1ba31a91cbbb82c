@testable import BrickCore
import Foundation
import Testing

/// HTTP's caching rules as pure functions: what is stored, freshness and age, revalidation and 304 merges.
@Suite struct CachePolicyTests {
    static let date = "Sun, 06 Nov 1994 08:49:37 GMT"
    static let generated = Date(timeIntervalSince1970: 784_111_777)  // that date

    func head(_ status: Int = 200, _ fields: HTTPHeaders) -> ResponseHead { ResponseHead(status: status, headers: fields) }
    func get(_ fields: HTTPHeaders = [:]) -> TransportRequest { TransportRequest(url: "http://h/x", headers: fields) }
    func entry(_ fields: HTTPHeaders, received: Date = generated, sent: Date? = nil) -> CachedResponse {
        CachedResponse(status: 200, headers: fields, body: Data("body".utf8), requestTime: sent ?? received,
                       responseTime: received, varyingFields: [:])
    }

    struct StorableRow: Sendable, CustomTestStringConvertible {
        let status: Int
        let method: HTTPMethod
        let response: [String: String]
        let request: [String: String]
        let storable: Bool
        var testDescription: String { "\(method) \(status) \(response) \(request) → \(storable)" }
    }

    static let storableRows: [StorableRow] = [
        .init(status: 200, method: .get, response: ["Cache-Control": "max-age=60"], request: [:], storable: true),
        .init(status: 200, method: .get, response: ["ETag": "\"a\""], request: [:], storable: true),
        .init(status: 200, method: .get, response: ["Last-Modified": date], request: [:], storable: true),
        .init(status: 200, method: .get, response: ["Expires": date], request: [:], storable: true),
        .init(status: 200, method: .get, response: [:], request: [:], storable: false),  // nothing to go on
        .init(status: 200, method: .get, response: ["Cache-Control": "max-age=60, no-store"], request: [:], storable: false),
        .init(status: 200, method: .get, response: ["Cache-Control": "max-age=60"], request: ["Cache-Control": "no-store"], storable: false),
        .init(status: 200, method: .get, response: ["Cache-Control": "max-age=60", "Vary": "*"], request: [:], storable: false),
        .init(status: 200, method: .post, response: ["Cache-Control": "max-age=60"], request: [:], storable: false),
        .init(status: 404, method: .get, response: ["Cache-Control": "max-age=60"], request: [:], storable: true),
        .init(status: 500, method: .get, response: ["Cache-Control": "max-age=60"], request: [:], storable: true),  // any final status with explicit freshness (RFC 9111 §3)
        .init(status: 206, method: .get, response: ["Cache-Control": "max-age=60"], request: [:], storable: true),  // a part (stored if its Content-Range adds up)
        .init(status: 200, method: .get, response: ["Cache-Control": "no-cache"], request: [:], storable: false),
        .init(status: 200, method: .get, response: ["Cache-Control": "no-cache", "ETag": "\"a\""], request: [:], storable: true),
    ]

    @Test(arguments: storableRows)
    func whatMayBeStored(row: StorableRow) {
        let request = TransportRequest(method: row.method, url: "http://h/x", headers: HTTPHeaders(row.request.map { .init(name: $0.key, value: $0.value) }))
        let response = head(row.status, HTTPHeaders(row.response.map { .init(name: $0.key, value: $0.value) }))
        #expect(CachePolicy.isStorable(response, for: request) == row.storable)
    }

    @Test func directivesParseLikeTheRFCSays() {
        let parsed = CacheControl(["Cache-Control": "public, MAX-AGE=\"30\", must-revalidate", "cache-control": "no-cache"])
        var expected = CacheControl(maxAge: 30, noStore: false, noCache: true, mustRevalidate: true)
        expected.isPublic = true
        #expect(parsed == expected)
        #expect(CacheControl(["Cache-Control": "max-age=soon"]).maxAge == 0)  // invalid means stale
        #expect(CacheControl(["Cache-Control": "max-age=-5"]).maxAge == 0)
        // A server's number is bounded before it is used: past 2³¹ it is 2³¹ (RFC 9111 §1.2.2).
        #expect(CacheControl(["Cache-Control": "max-age=99999999999999999999999"]).maxAge == 1 << 31)
        #expect(CacheControl([:]) == CacheControl(maxAge: nil))
    }

    @Test func freshnessComesFromMaxAgeThenExpiresThenLastModified() {
        #expect(CachePolicy.freshnessLifetime(entry(["Cache-Control": "max-age=60", "Expires": "Sun, 06 Nov 1994 09:49:37 GMT", "Date": Self.date])) == 60)
        #expect(CachePolicy.freshnessLifetime(entry(["Expires": "Sun, 06 Nov 1994 09:49:37 GMT", "Date": Self.date])) == 3600)
        #expect(CachePolicy.freshnessLifetime(entry(["Expires": "0", "Date": Self.date])) == 0)
        // Modified 10 hours before it was generated: fresh for 1 hour by the 10 % heuristic.
        #expect(CachePolicy.freshnessLifetime(entry(["Last-Modified": "Sat, 05 Nov 1994 22:49:37 GMT", "Date": Self.date])) == 3600)
        // A year-old resource: the heuristic stops at a day.
        #expect(CachePolicy.freshnessLifetime(entry(["Last-Modified": "Sat, 06 Nov 1993 08:49:37 GMT", "Date": Self.date])) == 86_400)
        #expect(CachePolicy.freshnessLifetime(entry(["ETag": "\"a\""])) == 0)
    }

    @Test func ageCountsTheAgeHeaderTheRequestTimeAndTheTimeStored() {
        let stored = entry(["Date": Self.date, "Age": "10"], received: Self.generated.addingTimeInterval(2), sent: Self.generated)
        // initial age = max(apparent 2, Age 10 + delay 2) = 12; then 30 s resident.
        #expect(CachePolicy.currentAge(stored, now: Self.generated.addingTimeInterval(32)) == 42)
        let skewed = entry(["Date": "Sun, 06 Nov 1994 08:59:37 GMT"])  // a server clock 10 minutes ahead: no negative age
        #expect(CachePolicy.currentAge(skewed, now: Self.generated) == 0)
    }

    /// Found by the `cache` fuzz target: `Age: 9e99999999969999` was read as a floating-point infinity.
    @Test func anAgeThatIsNotDeltaSecondsIsIgnoredAndAHugeOneIsCapped() {
        for text in ["9e99999999969999", "inf", "nan", "-5", "1.5", "0x10"] {
            let stored = entry(["Date": Self.date, "Age": text])
            #expect(CachePolicy.currentAge(stored, now: Self.generated) == 0, "\(text)")
        }
        let huge = entry(["Date": Self.date, "Age": "99999999999999999999"])
        #expect(CachePolicy.currentAge(huge, now: Self.generated) == 2_147_483_648)
    }

    @Test func freshnessAgainstTheClockAndTheRequestsOwnDirectives() {
        let stored = entry(["Cache-Control": "max-age=60", "Date": Self.date])
        #expect(CachePolicy.isFresh(stored, for: get(), now: Self.generated.addingTimeInterval(59)))
        #expect(!CachePolicy.isFresh(stored, for: get(), now: Self.generated.addingTimeInterval(60)))
        #expect(!CachePolicy.isFresh(stored, for: get(["Cache-Control": "no-cache"]), now: Self.generated))
        #expect(!CachePolicy.isFresh(stored, for: get(["Cache-Control": "max-age=5"]), now: Self.generated.addingTimeInterval(6)))
        #expect(CachePolicy.isFresh(stored, for: get(["Cache-Control": "max-age=5"]), now: Self.generated.addingTimeInterval(4)))
        #expect(!CachePolicy.isFresh(entry(["Cache-Control": "max-age=60, no-cache", "Date": Self.date]), for: get(), now: Self.generated))
    }

    @Test func revalidationSendsTheValidatorsItHas() {
        #expect(CachePolicy.conditionalHeaders(for: entry(["ETag": "\"v1\"", "Last-Modified": Self.date]))
            == ["If-None-Match": "\"v1\"", "If-Modified-Since": Self.date])
        #expect(CachePolicy.conditionalHeaders(for: entry(["Cache-Control": "max-age=1"])).isEmpty)
    }

    @Test func a304RefreshesFieldsButNotTheBodyOrItsFraming() {
        let stored = entry(["ETag": "\"v1\"", "Cache-Control": "max-age=1", "Content-Type": "text/plain", "X-Old": "1"])
        let later = Self.generated.addingTimeInterval(100)
        let refreshed = CachePolicy.refreshed(
            stored, with: head(304, ["Cache-Control": "max-age=600", "Content-Length": "0", "ETag": "\"v1\""]),
            requestTime: later, responseTime: later)
        #expect(refreshed.body == stored.body)
        #expect(refreshed.head.headers["Cache-Control"] == "max-age=600")
        #expect(refreshed.head.headers["Content-Length"] == nil)
        #expect(refreshed.head.headers["Content-Type"] == "text/plain")
        #expect(refreshed.head.headers["X-Old"] == "1")
        #expect(refreshed.responseTime == later)
    }

    @Test func varyFieldsMustMatch() {
        let response = head(200, ["Vary": "Accept-Language, accept"])
        let request = get(["Accept-Language": "cs"])
        var stored = entry([:])
        stored.varyingFields = CachePolicy.varyingFields(of: request, for: response)
        #expect(stored.varyingFields == ["accept-language": "cs", "accept": ""])
        #expect(CachePolicy.matches(stored, request))
        #expect(!CachePolicy.matches(stored, get(["Accept-Language": "en"])))
        #expect(!CachePolicy.matches(stored, get(["Accept-Language": "cs", "Accept": "text/html"])))
    }
}

/// `Content-Range` from a server is bounded before the resume arithmetic uses it.
@Suite struct ContentRangeTests {
    @Test(arguments: [
        "bytes 0-9223372036854775807/*", "bytes 5-4/10", "bytes -1-3/10", "bytes 0-9/9", "bytes 0-99999999999999999999/*", "items 0-9/10",
    ])
    func refusesARangeThatCannotBeUsed(value: String) {
        #expect(ContentRange(value) == nil)
    }

    @Test func readsAUsableRange() {
        let range = ContentRange("bytes 100-199/1000")
        #expect(range?.first == 100 && range?.end == 200 && range?.complete == 1000)
    }
}
