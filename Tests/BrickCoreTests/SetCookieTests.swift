@testable import BrickCookies
@testable import BrickCore
import Foundation
import Testing

/// `Set-Cookie` as RFC 6265 reads it, for a request to `https://api.example.com/v1/users`.
@Suite struct SetCookieTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func parse(_ field: String, host: String = "api.example.com", https: Bool = true) -> Cookie? {
        SetCookie.parse(field, host: host, path: "/v1/users", https: https, now: now)
    }

    @Test func theDefaultsComeFromTheRequest() throws {
        let cookie = try #require(Self.parse("id=a3fWa"))
        #expect(cookie == Cookie(name: "id", value: "a3fWa", domain: "api.example.com", hostOnly: true, path: "/v1"))
    }

    @Test func aDomainMustBeTheHostsOwnAndNotABareTopLevelName() throws {
        #expect(try #require(Self.parse("a=1; Domain=.Example.com")).domain == "example.com")
        #expect(try #require(Self.parse("a=1; Domain=example.com")).hostOnly == false)
        #expect(Self.parse("a=1; Domain=other.com") == nil)
        #expect(Self.parse("a=1; Domain=com") == nil)
        #expect(Self.parse("a=1; Domain=le.com") == nil)  // a suffix of the name, not a parent domain
        #expect(Self.parse("a=1; Domain=0.0.1", host: "127.0.0.1") == nil)
        #expect(try #require(Self.parse("a=1; Domain=127.0.0.1", host: "127.0.0.1")).hostOnly)
    }

    @Test func lifetimesAreBoundedAndMaxAgeWins() throws {
        let day: TimeInterval = 86_400
        #expect(try #require(Self.parse("a=1; Max-Age=60; Expires=Wed, 21 Oct 2015 07:28:00 GMT")).expires == Self.now.addingTimeInterval(60))
        #expect(try #require(Self.parse("a=1; Max-Age=999999999999")).expires == Self.now.addingTimeInterval(400 * day))
        #expect(try #require(Self.parse("a=1; Expires=Fri, 31 Dec 9999 23:59:59 GMT")).expires == Self.now.addingTimeInterval(400 * day))
        #expect(try #require(Self.parse("a=1; Max-Age=-5")).expires! < Self.now)  // deletes
        #expect(try #require(Self.parse("a=1; Max-Age=12x")).expires == nil)  // not a number: ignored
    }

    @Test func whatCannotBeACookieIsIgnored() throws {
        #expect(Self.parse("novalue") == nil)
        #expect(Self.parse("=1") == nil)
        #expect(Self.parse("a=1\u{0}; Path=/") == nil)
        #expect(Self.parse("a=1\t.evil.com\tTRUE") == nil)  // a tab would make fields of the cookie file
        #expect(try #require(Self.parse("a=1; Path=/x\ty")).path == "/v1")
        #expect(Self.parse("a=" + String(repeating: "x", count: 5000)) == nil)
        #expect(Self.parse("a=1; Secure", https: false) == nil)
    }

    @Test func pathsMatchWholeSegments() {
        #expect(Cookie.pathMatches("/v1/users", "/v1"))
        #expect(Cookie.pathMatches("/v1/", "/v1/"))
        #expect(!Cookie.pathMatches("/v10", "/v1"))
        #expect(Cookie.pathMatches("/anything", "/"))
    }

    @Test func theFileFormatReadsBackWhatItWrote() {
        let lasting = Cookie(name: "a", value: "1", domain: "example.com", hostOnly: false, path: "/x", secure: true,
                             httpOnly: true, expires: Self.now.addingTimeInterval(3600))
        let session = Cookie(name: "b", value: "2", domain: "example.com")
        let text = NetscapeCookieFile.write([lasting, session])
        #expect(text.contains("#HttpOnly_.example.com\tTRUE\t/x\tTRUE\t1800003600\ta\t1\n"))
        #expect(NetscapeCookieFile.read(text, now: Self.now) == [lasting])
        #expect(NetscapeCookieFile.read(text, now: Self.now.addingTimeInterval(7200)).isEmpty)  // expired
        #expect(NetscapeCookieFile.read("junk\n\t\t\n.x\tTRUE\t/\tFALSE\tsoon\tn\tv\n", now: Self.now).isEmpty)
    }
}
