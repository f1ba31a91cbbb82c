import BrickCurl
import TestServers
import Testing

@Suite struct StatusAndRedirectTests {
    @Test(arguments: [200, 201, 202, 204, 304, 400, 401, 404, 418, 429, 500, 502, 503])
    func everyStatusIsAResponseNotAnError(status: Int) async throws {
        let response = try await send(try httpbin().url("/status/\(status)"))
        #expect(response.head.status == status)
        #expect(response.head.version == "1.1")
    }

    @Test func withoutRedirectsTheEffectiveURLIsTheRequestedOne() async throws {
        let url = try httpbin().url("/get?a=1")
        let response = try await send(url)
        #expect(response.metrics.effectiveURL == url)
        #expect(response.metrics.redirectCount == 0)
    }

    /// The session follows redirects under its own rules (BricksTests' RedirectTests); the transport sends
    /// exactly the request it was given, so it hands every 3xx back, whatever the options say.
    @Test(arguments: [true, false])
    func handsEveryRedirectBack(followRedirects: Bool) async throws {
        var options = TransportOptions()
        options.followRedirects = followRedirects
        let response = try await send(try httpbin().url("/redirect/1"), options: options)
        #expect(response.head.status == 302)
        #expect(response.head.headers["Location"] != nil)
        #expect(response.metrics.redirectCount == 0)
    }

    @Test(arguments: ["ftp://127.0.0.1/", "file:///etc/passwd", "127.0.0.1/no-scheme", "http://", "http://exa mple.com/"])
    func refusesAURLThatIsNotHTTPBeforeSending(url: String) async throws {
        let error = try await failure(url)
        #expect([.unsupportedScheme, .invalidURL].contains(error.kind))
        #expect(error.curlCode == nil)
    }
}
