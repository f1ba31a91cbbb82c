import BrickRequest
import Foundation
import Glibc
import Testing
import TestServers

/// The opt-in cookie jar against httpbin, which sets cookies (also on redirects) and echoes those it gets.
@Suite struct CookieTests {
    static func session(_ jar: CookieJar?) -> Session {
        var configuration = Session.Configuration()
        configuration.cookies = jar
        return Session(configuration: configuration)
    }

    /// The cookies httpbin received, from its `/cookies` echo.
    static func echoed(_ session: Session, _ url: String) async throws -> [String: String] {
        let json = try await session.json(from: url)
        return (json["cookies"]?.objectValue ?? [:]).compactMapValues(\.stringValue)
    }

    @Test func cookiesSetOnARedirectGoWithItsNextHopAndLaterRequestsAndNowhereWithoutAJar() async throws {
        let server = try Httpbin.shared.get()
        let jar = CookieJar()
        let session = Self.session(jar)
        // /cookies/set answers 302 with Set-Cookie, to /cookies, which echoes what it got.
        #expect(try await Self.echoed(session, server.url("/cookies/set?session=abc&theme=dark")) == ["session": "abc", "theme": "dark"])
        #expect(try await Self.echoed(session, server.url("/cookies")) == ["session": "abc", "theme": "dark"])
        #expect(Set(jar.cookies.map(\.name)) == ["session", "theme"])

        let without = Self.session(nil)
        #expect(try await Self.echoed(without, server.url("/cookies/set?session=abc")).isEmpty)
    }

    @Test func aCookieNeverFollowsARedirectToAnotherHostNorGoesThereDirectly() async throws {
        let server = try Httpbin.shared.get()
        let session = Self.session(CookieJar())
        _ = try await session.json(from: server.url("/cookies/set?mine=1"))  // for 127.0.0.1
        let other = "http://localhost:\(server.port)/cookies"
        let redirected = try await Self.echoed(session, server.url("/redirect-to?url=" + other.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!))
        #expect(redirected.isEmpty, "127.0.0.1's cookie went to localhost: \(redirected)")
        #expect(try await Self.echoed(session, other).isEmpty)
        #expect(try await Self.echoed(session, server.url("/cookies")) == ["mine": "1"])
    }

    @Test func pathsScopeCookiesAndSecureOnesAreRefusedFromPlainHTTP() async throws {
        let server = try Httpbin.shared.get()
        let jar = CookieJar()
        let session = Self.session(jar)
        for field in ["scoped=1; Path=/anything/inner", "secret=1; Secure", "gone=1; Max-Age=0", "plain=1; HttpOnly"] {
            let query = field.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            _ = try await session.send(.get, server.url("/response-headers?Set-Cookie=" + query))
        }
        #expect(jar.cookies.map(\.name).sorted() == ["plain", "scoped"])
        #expect(jar.cookies.first { $0.name == "plain" }?.httpOnly == true)
        let inner = try await session.json(from: server.url("/anything/inner/x"))
        #expect(inner["headers"]?["Cookie"]?.stringValue == "scoped=1; plain=1")  // the longer path first
        let outer = try await session.json(from: server.url("/anything/innerness"))
        #expect(outer["headers"]?["Cookie"]?.stringValue == "plain=1")
    }

    @Test func aJarInAFileIsOwnerOnlyLastsAcrossJarsAndCurlReadsIt() async throws {
        let server = try Httpbin.shared.get()
        let directory = try Paths.scratchDirectory("cookies")
        defer { Paths.removeTree(directory) }
        let path = directory + "/cookies.txt"
        let session = Self.session(try CookieJar(file: path))
        for field in ["lasting=kept; Max-Age=3600", "fleeting=gone"] {
            let query = field.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            _ = try await session.send(.get, server.url("/response-headers?Set-Cookie=" + query))
        }
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        let reopened = try CookieJar(file: path)
        #expect(reopened.cookies.map(\.name) == ["lasting"], "session cookies are not written")
        #expect(try await Self.echoed(Self.session(reopened), server.url("/cookies")) == ["lasting": "kept"])

        let curl = try #require(Paths.executable("curl"))
        let echoed = try await PipedChild.run([curl, "-s", "-b", path, server.url("/cookies")])
        #expect(echoed.text.contains("\"lasting\": \"kept\""), "\(echoed.text)")
    }

    @Test func aJarThatKeepsSessionCookiesWritesThemWithExpiryZeroAndOnlySuchAJarReadsThem() async throws {
        let server = try Httpbin.shared.get()
        let directory = try Paths.scratchDirectory("session-cookies")
        defer { Paths.removeTree(directory) }
        let path = directory + "/cookies.txt"
        let session = Self.session(try CookieJar(file: path, keepingSessionCookies: true))
        for field in ["lasting=kept; Max-Age=3600", "fleeting=here"] {
            let query = field.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            _ = try await session.send(.get, server.url("/response-headers?Set-Cookie=" + query))
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains("\tFALSE\t0\tfleeting\there\n"), "\(text)")
        let reopened = try CookieJar(file: path, keepingSessionCookies: true)
        #expect(reopened.cookies.map(\.name) == ["lasting", "fleeting"])
        #expect(reopened.cookies.last?.expires == nil)
        #expect(try await Self.echoed(Self.session(reopened), server.url("/cookies")) == ["lasting": "kept", "fleeting": "here"])
        #expect(try CookieJar(file: path).cookies.map(\.name) == ["lasting"])  // a jar that keeps none reads none

        let curl = try #require(Paths.executable("curl"))
        let echoed = try await PipedChild.run([curl, "-s", "-b", path, server.url("/cookies")])
        #expect(echoed.text.contains("\"fleeting\": \"here\""), "\(echoed.text)")  // curl reads expiry 0 as a session cookie
    }
}
