import BrickRequest
import Testing
import TestServers

/// A GET of an absolute URL through a session of the test's choosing.
final class AbsoluteGet: Component, GETRequestType, StringResponseType {
    let session: Session
    let URLString: String
    init(_ url: String, session: Session) {
        self.session = session
        URLString = url
        super.init()
    }
}

/// The session's fields (an API key, a token set once for the API) go to the origin of its base URL alone:
/// never to a URL that only starts with the same text. Every request reaches nginx through its Unix socket,
/// whatever host the URL names, so that lookalike hosts are answered too; each is sent twice, on a new
/// connection and then on the kept one.
@Suite struct SessionFieldsTests {
    static let base = "http://api.example.test"
    static let lookalikes = [
        "http://api.example.test.evil.example/session-fields",  // the base's host with a suffix
        "http://api.example.test@127.0.0.1/session-fields",  // the base followed by `@host`
        "http://api.example.test:8443/session-fields",  // a longer port
        "http://api.example.testing/session-fields",  // a longer host label
    ]

    /// What nginx echoes for a lookalike: only `User-Agent` of the session's fields. The URL with user info
    /// carries its own credentials (libcurl sends the user name as Basic authentication, as curl does): the
    /// URL's, never the session's token.
    static func crossOrigin(_ url: String) -> String {
        url.contains("@") ? "key= auth=Basic YXBpLmV4YW1wbGUudGVzdDo= agent=brick-test" : "key= auth= agent=brick-test"
    }

    func session() throws -> (Session, Nginx) {
        let nginx = try Nginx.shared.get()
        var configuration = Session.Configuration(baseURL: Self.base)  // no trailing slash, as the docs write it
        configuration.headers = ["X-Api-Key": "k3y", "Authorization": "Bearer s3cret", "User-Agent": "brick-test"]
        configuration.transportOptions.unixSocketPath = nginx.socketPath
        return (Session(configuration: configuration), nginx)
    }

    @Test func aComponentsLookalikeURLGetsOnlyTheCrossOriginFields() async throws {
        let (session, _) = try session()
        for _ in 0..<2 {
            #expect(try await AbsoluteGet(Self.base + "/session-fields", session: session).response()
                == "key=k3y auth=Bearer s3cret agent=brick-test")
            #expect(try await AbsoluteGet("HTTP://API.Example.Test:80/session-fields", session: session).response()
                == "key=k3y auth=Bearer s3cret agent=brick-test")
            for url in Self.lookalikes {
                #expect(try await AbsoluteGet(url, session: session).response() == Self.crossOrigin(url), "\(url)")
            }
        }
    }

    @Test func sendingALookalikeURLGetsOnlyTheCrossOriginFields() async throws {
        let (session, nginx) = try session()
        let before = nginx.accessLog().count
        for _ in 0..<2 {
            let own = try await session.send(TransportRequest(url: "/session-fields?sent"))
            #expect(String(decoding: own.body, as: UTF8.self) == "key=k3y auth=Bearer s3cret agent=brick-test")
            for url in Self.lookalikes {
                let response = try await session.send(TransportRequest(url: url + "?sent"))
                #expect(String(decoding: response.body, as: UTF8.self) == Self.crossOrigin(url), "\(url)")
            }
        }
        // The second round rode the connections the first one opened.
        let lines = nginx.accessLog().dropFirst(before).filter { $0.hasSuffix(" /session-fields?sent") }
        #expect(lines.count == 10)
        #expect(Set(lines.map { $0.split(separator: " ")[0] }).count < 10, "kept-alive connections: \(lines)")
    }
}
