@testable import BrickCore
import Foundation
import Testing

/// The keys a session's cache stores answers under: the URL alone for a request that names no identity,
/// and a digest of the identity otherwise.
@Suite struct CacheKeyTests {
    @Test func theDigestIsSHA256() {
        #expect(SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // Two blocks, and a message whose padding needs a block of its own (56 bytes).
        #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test func eachIdentityHasAKeyOfItsOwnWithoutItsSecrets() {
        let url = "https://api.example/me"
        var plain = TransportOptions()
        #expect(CacheStep.key(for: url, options: plain) == "GET " + url)
        plain.timeout = .seconds(3)  // not an identity
        #expect(CacheStep.key(for: url, options: plain) == "GET " + url)

        func key(_ change: (inout TransportOptions) -> Void) -> String {
            var options = TransportOptions()
            change(&options)
            return CacheStep.key(for: url, options: options)
        }
        let keys = [
            key { $0.clientCertificate = ClientCertificate(certificatePath: "/a.pem") },
            key { $0.clientCertificate = ClientCertificate(certificatePath: "/b.pem") },
            key { $0.clientCertificate = ClientCertificate(certificatePath: "/a.pem", keyPath: "/a.key", keyPassword: "one") },
            key { $0.clientCertificate = ClientCertificate(certificatePath: "/a.pem", keyPath: "/a.key", keyPassword: "two") },
            key { $0.pinnedPublicKeys = ["sha256//AAAA"] },
            key { $0.caBundlePath = "/ca.pem" },
            key { $0.proxy = .through(Proxy(url: "http://proxy:3128", username: "u", password: "secret")) },
            key { $0.proxy = .through(Proxy(url: "http://proxy:3128", username: "u", password: "other")) },
            key { $0.unixSocketPath = "/run/a.sock" },
            key { $0.unixSocketPath = "/run/b.sock" },
        ]
        #expect(Set(keys).count == keys.count)
        #expect(keys.allSatisfy { $0.hasPrefix("GET " + url + " identity:") })
        #expect(!keys.joined().contains("secret") && !keys.joined().contains("/a.key") && !keys.joined().contains("sock"))
    }
}
