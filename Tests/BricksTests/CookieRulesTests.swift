import BrickRequest
import Foundation
import Glibc
import Testing
import TestServers

/// The rules a cookie jar keeps beyond matching by domain and path, each against real servers: no cookie
/// for a public suffix (through a forward proxy of ours that sends every name to httpbin, as a browser's
/// tests resolve names), plain http cannot touch a `Secure` cookie (nginx over http and https, both
/// `localhost`), the last of a repeated attribute counts, the file is saved safely, and a caller's own
/// `Cookie` field follows a redirect within its origin.
@Suite struct CookieRulesTests {
    static func session(_ jar: CookieJar, proxy: ForwardProxy? = nil, caBundle: String? = nil) -> Session {
        var configuration = Session.Configuration()
        configuration.cookies = jar
        if let proxy { configuration.transportOptions.proxy = .through(Proxy(url: proxy.url)) }
        configuration.transportOptions.caBundlePath = caBundle
        return Session(configuration: configuration)
    }

    static func setting(_ field: String) -> String {
        "/response-headers?Set-Cookie=" + field.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    /// The cookies httpbin received at `url`.
    static func echoed(_ session: Session, _ url: String) async throws -> [String: String] {
        let json = try await session.json(from: url)
        return (json["cookies"]?.objectValue ?? [:]).compactMapValues(\.stringValue)
    }

    @Test func noHostCanSetACookieForAPublicSuffixTrailingDotsIncluded() async throws {
        let httpbin = try Httpbin.shared.get()
        let proxy = try ForwardProxy(everyHostTo: httpbin.port)
        defer { proxy.stop() }
        let jar = CookieJar()
        let session = Self.session(jar, proxy: proxy)
        let attacks = [("evil.co.uk", "co.uk", "bank.co.uk"), ("attacker.github.io", "github.io", "victim.github.io"),
                       ("a.example.com.", "com.", "bank.com.")]
        for (attacker, domain, victim) in attacks {
            _ = try await session.send(.get, "http://\(attacker)" + Self.setting("sid=ATTACKER; Domain=\(domain)"))
            #expect(try await Self.echoed(session, "http://\(victim)/cookies").isEmpty, "\(attacker) planted a cookie for \(victim)")
        }
        #expect(jar.cookies.isEmpty)

        // A registrable domain still shares its cookie with its subdomains, and a public suffix that is itself
        // the host keeps its cookie to itself.
        _ = try await session.send(.get, "http://a.example.com" + Self.setting("shared=1; Domain=example.com"))
        #expect(try await Self.echoed(session, "http://b.example.com/cookies") == ["shared": "1"])
        _ = try await session.send(.get, "http://github.io" + Self.setting("own=1; Domain=github.io"))
        #expect(try await Self.echoed(session, "http://github.io/cookies") == ["own": "1"])
        #expect(try await Self.echoed(session, "http://victim.github.io/cookies").isEmpty)
        #expect(proxy.requests.count >= 10, "every request went through the proxy")
    }

    @Test func plainHTTPCanNeitherOverwriteNorDeleteASecureCookie() async throws {
        let nginx = try Nginx.shared.get()
        let jar = CookieJar()
        let session = Self.session(jar, caBundle: nginx.certificatePath)
        let secure = "https://localhost:\(nginx.tlsPort)/cookie/", plain = "http://localhost:\(nginx.port)/cookie/"
        _ = try await session.send(.get, secure + "set/secure-good")
        for attack in ["evil", "evil-delete", "evil-subpath"] {
            _ = try await session.send(.get, plain + "set/" + attack)
            let echoed = try await session.string(from: secure + "echo")
            #expect(echoed == "sid=GOOD", "after \(attack) over http")
        }
        #expect(try await session.string(from: plain + "echo").isEmpty, "a Secure cookie never goes over http")
        #expect(jar.cookies.map(\.value) == ["GOOD"])
    }

    @Test func theSecureAndHostPrefixesAreEnforced() async throws {
        let nginx = try Nginx.shared.get()
        let jar = CookieJar()
        let session = Self.session(jar, caBundle: nginx.certificatePath)
        _ = try await session.send(.get, "http://localhost:\(nginx.port)/cookie/set/prefixes")
        #expect(jar.cookies.isEmpty, "over http: \(jar.cookies.map(\.name))")
        _ = try await session.send(.get, "https://localhost:\(nginx.tlsPort)/cookie/set/prefixes")
        #expect(jar.cookies.map(\.name).sorted() == ["__Host-c", "__Secure-a"])
        // At the root the default path is `/`, but a `__Host-` cookie needs the `Path=/` attribute itself.
        _ = try await session.send(.get, "https://localhost:\(nginx.tlsPort)/host-prefix")
        #expect(jar.cookies.map(\.name).sorted() == ["__Host-c", "__Host-h", "__Secure-a"])
    }

    /// RFC 6265bis §5.7: when a domain holds too many cookies, plain ones go before any `Secure` one, so
    /// plain http cannot flood a `Secure` cookie out and put its own in its place (fresh and kept-alive
    /// connections: the flood comes twice).
    @Test func aFloodOfPlainCookiesDoesNotPushASecureOneOut() async throws {
        let nginx = try Nginx.shared.get()
        let jar = CookieJar()
        let session = Self.session(jar, caBundle: nginx.certificatePath)
        let secure = "https://localhost:\(nginx.tlsPort)/cookie/", plain = "http://localhost:\(nginx.port)/cookie/"
        _ = try await session.send(.get, secure + "set/secure-good")
        for _ in 0..<2 {
            _ = try await session.send(.get, plain + "set/flood")
            let echoed = try await session.string(from: secure + "echo")
            #expect(echoed.contains("sid=GOOD") && !echoed.contains("EVIL"), "\(echoed)")
            #expect(jar.cookies.count == 50)  // the domain's limit
            #expect(jar.cookies.contains { $0.name == "sid" && $0.secure })
        }
    }

    /// A host is judged as the address libcurl connects to: `0x7f.0.0.1` is the address 127.0.0.1, so a
    /// cookie it sets may not name `Domain=0.0.1` and reach `0x0a.0.0.1` (10.0.0.1); without a `Domain` it
    /// is 127.0.0.1's, however that address is written (a forward proxy sends every name to httpbin).
    @Test func aHostWrittenAsANumberIsJudgedAsTheAddressItIs() async throws {
        let httpbin = try Httpbin.shared.get()
        let proxy = try ForwardProxy(everyHostTo: httpbin.port)
        defer { proxy.stop() }
        let jar = CookieJar()
        let session = Self.session(jar, proxy: proxy)
        _ = try await session.send(.get, "http://0x7f.0.0.1" + Self.setting("x=secret; Domain=0.0.1"))
        #expect(try await Self.echoed(session, "http://0x0a.0.0.1/cookies").isEmpty)
        #expect(jar.cookies.isEmpty, "\(jar.cookies)")
        _ = try await session.send(.get, "http://0x7f.0.0.1" + Self.setting("own=1"))
        #expect(try await Self.echoed(session, "http://127.0.0.1/cookies") == ["own": "1"])
        #expect(try await Self.echoed(session, "http://0177.1/cookies") == ["own": "1"])
        #expect(try await Self.echoed(session, "http://0x0a.0.0.1/cookies").isEmpty)
        #expect(jar.cookies.map(\.domain) == ["127.0.0.1"])
    }

    @Test func theLastDomainAndTheLastPathAttributeCount() async throws {
        let httpbin = try Httpbin.shared.get()
        let proxy = try ForwardProxy(everyHostTo: httpbin.port)
        defer { proxy.stop() }
        let jar = CookieJar()
        let session = Self.session(jar, proxy: proxy)
        let host = "http://home.example.org"
        _ = try await session.send(.get, host + Self.setting("kept=1; domain=home.example.com; domain=home.example.org"))
        _ = try await session.send(.get, host + Self.setting("dropped=1; domain=home.example.org; domain=home.example.com"))
        _ = try await session.send(.get, host + Self.setting("dog=1; path=/dog; path="))
        #expect(jar.cookies.map(\.name).sorted() == ["dog", "kept"])
        #expect(jar.cookies.first { $0.name == "dog" }?.path == "/", "an empty last Path means the default path")
        #expect(try await Self.echoed(session, "http://sub.home.example.org/cookies") == ["kept": "1"])
        #expect(try await Self.echoed(session, host + "/cookies") == ["kept": "1", "dog": "1"])
    }

    @Test func theFileIsNeverWrittenThroughAPlantedLinkAndConcurrentSavesLoseNothing() async throws {
        let httpbin = try Httpbin.shared.get()
        let directory = try Paths.scratchDirectory("cookie-link")
        defer { Paths.removeTree(directory) }
        let path = directory + "/jar.txt", victim = directory + "/victim.txt"
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        chmod(victim, 0o644)
        // The names a save used to write through, planted as links to the victim.
        for name in [path + ".tmp-\(getpid())", path + ".tmp"] { #expect(symlink(victim, name) == 0) }
        let session = Self.session(try CookieJar(file: path))
        _ = try await session.send(.get, httpbin.url(Self.setting("first=1; Max-Age=3600")))
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
        var info = stat()
        #expect(stat(victim, &info) == 0 && info.st_mode & 0o777 == 0o644)
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_mode & 0o777 == 0o600)

        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<24 {
                group.addTask { _ = try await session.send(.get, httpbin.url(Self.setting("c\(index)=\(index); Max-Age=3600"))) }
            }
            try await group.waitForAll()
        }
        let reopened = try CookieJar(file: path)
        #expect(reopened.cookies.count == 25, "the last save wrote the whole jar: \(reopened.cookies.map(\.name))")
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: directory))
        #expect(files == ["jar.txt", "victim.txt", "jar.txt.tmp-\(getpid())", "jar.txt.tmp"], "no temporary file left: \(files)")
    }

    @Test func aCallersCookieFieldFollowsARedirectWithinItsOriginAndNoFurther() async throws {
        let httpbin = try Httpbin.shared.get()
        let session = Self.session(CookieJar())
        _ = try await session.send(.get, httpbin.url(Self.setting("jar=1")))
        let same = TransportRequest(url: httpbin.url("/redirect-to?url=/cookies"), headers: ["Cookie": "mine=1"])
        let echoed = try JSON.parse(try await session.send(same).body)
        #expect(echoed["cookies"]?.objectValue?.compactMapValues(\.stringValue) == ["mine": "1", "jar": "1"])
        let other = "http://localhost:\(httpbin.port)/cookies"
        let away = TransportRequest(
            url: httpbin.url("/redirect-to?url=" + other.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!), headers: ["Cookie": "mine=1"])
        let elsewhere = try JSON.parse(try await session.send(away).body)
        #expect(elsewhere["cookies"]?.objectValue?.isEmpty == true)
    }
}
