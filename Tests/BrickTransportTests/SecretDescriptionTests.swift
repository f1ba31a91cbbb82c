import BrickTransport
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
}
