@testable import BrickTransport
import Testing

/// The host whose route a request waits for is the proxy's when the environment names one, as libcurl
/// would use it.
@Suite struct RouteTests {
    static let environment = ["http_proxy": "http://proxy.internal:3128", "HTTPS_PROXY": "secure-proxy:8443", "no_proxy": "localhost, .corp.example"]

    @Test(arguments: [
        ("http://api.example.com/x", "proxy.internal"), ("https://api.example.com/x", "secure-proxy"),
        ("http://localhost:8080/", "localhost"), ("http://build.corp.example/", "build.corp.example"),
        ("http://corp.example/", "corp.example"),
    ])
    func theEnvironmentsProxyIsWatched(url: String, host: String) {
        #expect(TransportRequest(url: url).route.host(environment: Self.environment) == host)
    }

    @Test func uppercaseHTTPProxyIsIgnoredAsLibcurlIgnoresItAndAnExplicitPolicyWins() {
        #expect(TransportRequest(url: "http://a.example/").route.host(environment: ["HTTP_PROXY": "http://p:1"]) == "a.example")
        #expect(TransportRequest(url: "http://a.example/").route.host(environment: ["ALL_PROXY": "http://p:1"]) == "p")
        var direct = TransportOptions()
        direct.proxy = .direct
        #expect(TransportRequest(url: "http://a.example/", options: direct).route.host(environment: Self.environment) == "a.example")
    }
}
