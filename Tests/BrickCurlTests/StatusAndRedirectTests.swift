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

    @Test func followsRedirectsAndCountsThem() async throws {
        let response = try await send(try httpbin().url("/redirect/3"))
        #expect(response.head.status == 200)
        #expect(response.metrics.redirectCount == 3)
        #expect(response.metrics.effectiveURL.hasSuffix("/get"))
    }

    @Test func stopsAtTheRedirectLimit() async throws {
        var options = TransportOptions()
        options.maxRedirects = 2
        let error = try await failure(try httpbin().url("/redirect/5"), options: options)
        #expect(error.kind == .tooManyRedirects)
        #expect(error.curlCode == 47)
    }

    @Test func hands3xxBackWhenNotFollowing() async throws {
        var options = TransportOptions()
        options.followRedirects = false
        let response = try await send(try httpbin().url("/redirect/1"), options: options)
        #expect(response.head.status == 302)
        #expect(response.head.headers["Location"] != nil)
    }

    @Test(arguments: ["ftp://127.0.0.1/file", "file:///etc/passwd", "gopher://127.0.0.1/"])
    func refusesARedirectToAnotherScheme(target: String) async throws {
        let error = try await failure(try httpbin().url("/redirect-to?url=\(target)"))
        #expect(error.kind == .redirectRefused)
    }

    @Test(arguments: ["ftp://127.0.0.1/", "file:///etc/passwd", "127.0.0.1/no-scheme", "http://", "http://exa mple.com/"])
    func refusesAURLThatIsNotHTTPBeforeSending(url: String) async throws {
        let error = try await failure(url)
        #expect([.unsupportedScheme, .invalidURL].contains(error.kind))
        #expect(error.curlCode == nil)
    }
}
