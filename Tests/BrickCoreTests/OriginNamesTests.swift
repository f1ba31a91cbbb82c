@testable import BrickCore
import BrickTransport
import Testing

/// The session's memo of the last URL's origin and host: a URL after another of the same authority gets the
/// same names without a parse, and a lookalike of it (a longer host, user info, a port, another scheme) gets
/// its own.
struct OriginNamesTests {
    static let base = "http://api.example.test"

    @Test(arguments: [
        "http://api.example.test", "http://api.example.test/", "http://api.example.test/users/1?x=y", "http://api.example.test?q",
        "http://api.example.test#top", "http://api.example.test.evil.example/", "http://api.example.test@127.0.0.1:9/",
        "http://api.example.test:8443/", "http://api.example.testing/", "https://api.example.test/", "http://API.example.test/",
        "http://[::1]:81/a", "http://[::1]:81", "mailto:someone", "http://",
    ])
    func theNamesAfterAnotherURLAreTheNamesOfTheURLItself(url: String) {
        for first in [Self.base, Self.base + "/a", url, "http://[::1]:81/b"] {
            let names = OriginNames()
            _ = names.of(first)
            let found = names.of(url)
            #expect(found.origin == OriginTicket.origin(of: url), "after \(first)")
            #expect(found.host == TransportRequest.host(of: url), "after \(first)")
        }
    }

    @Test func aURLWithTheLastAuthorityIsNotParsedAgain() {
        let names = OriginNames()
        let first = names.of(Self.base + "/a")
        #expect(first.prefix == Self.base)
        #expect(names.of(Self.base + "/b?c").prefix == first.prefix)
        #expect(OriginNames.has(Self.base + "/b", authority: Self.base))
        #expect(!OriginNames.has(Self.base + ".evil.example/b", authority: Self.base))
        #expect(!OriginNames.has(Self.base + "@evil.example/", authority: Self.base))
        #expect(!OriginNames.has(Self.base + ":81/", authority: Self.base))
        #expect(!OriginNames.has("http://api", authority: Self.base))
        #expect(!OriginNames.has(Self.base, authority: ""))
    }
}
