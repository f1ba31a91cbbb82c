import BrickTransport
import Foundation
import Testing

/// No description, dump or debugger view of the options shows a password or a key's passphrase.
@Suite struct SecretDescriptionTests {
    @Test func neitherTheDescriptionNorDumpShowsAProxyPasswordOrAPassphrase() {
        var options = TransportOptions()
        options.proxy = .through(Proxy(url: "http://alice:urlpass@proxy:3128", username: "bob", password: "fieldpass"))
        options.clientCertificate = ClientCertificate(certificatePath: "/c.pem", keyPath: "/k.pem", keyPassword: "keypass")
        var dumped = ""
        dump(options, to: &dumped)
        let shown = [dumped, "\(options)", String(reflecting: options), "\(options.proxy)", "\(options.clientCertificate!)"]
        for text in shown {
            for secret in ["urlpass", "fieldpass", "keypass"] { #expect(!text.contains(secret), "\(secret) in \(text)") }
        }
        #expect(dumped.contains("http://alice:<redacted>@proxy:3128") && dumped.contains("bob") && dumped.contains("/k.pem"))
        if case .through(let proxy) = options.proxy { #expect(proxy.description == "Proxy(http://alice:<redacted>@proxy:3128, user bob)") }
    }

    /// A request's URL password, token-like query values and credential fields never show in its
    /// description, its dump or a debugger's view, nor do they in its headers', its call line's or the
    /// metrics' effective URL.
    @Test func noRequestHeaderOrMetricsDescriptionShowsASecret() {
        var request = TransportRequest(
            method: .post, url: "https://alice:urlpw@api.example/x?token=tok123&page=2&access%5Ftoken=enc9",
            headers: ["Authorization": "Bearer sekret", "Cookie": "sid=cook", "X-Trace": "visible"])
        request.body = .data(Data("{}".utf8))
        var metrics = TransferMetrics()
        metrics.effectiveURL = request.url
        let response = TransportResponse(head: ResponseHead(status: 200, headers: ["Set-Cookie": "sid=setcook"]), metrics: metrics)
        var shown: [String] = []
        func show<Value>(_ value: Value) {
            var dumped = ""
            dump(value, to: &dumped)
            shown += [dumped, "\(value)", String(reflecting: value)]
        }
        show(request)
        show(request.headers)
        show(CallLine(request))
        show(metrics)
        show(response)
        show(request.headers.fields[0])
        for text in shown {
            for secret in ["urlpw", "tok123", "enc9", "sekret", "sid=cook", "setcook"] { #expect(!text.contains(secret), "\(secret) in \(text)") }
        }
        #expect("\(request)" == "POST https://alice:<redacted>@api.example/x?token=<redacted>&page=2&access%5Ftoken=<redacted> "
            + "[Authorization: <redacted>, Cookie: <redacted>, X-Trace: visible]")
        #expect(shown.joined().contains("X-Trace") && shown.joined().contains("page=2"))
    }
}
