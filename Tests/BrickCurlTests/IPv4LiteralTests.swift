import BrickTransport
import CCurl
import Testing

/// The hosts code judges (a cookie's domain) are the addresses libcurl connects to: the forms of an IPv4
/// address libcurl's URL parser reads, compared with that parser itself.
@Suite struct IPv4LiteralTests {
    /// libcurl's host for `http://<host>/`, lowercased; `nil` when it refuses the URL.
    static func curlHost(_ host: String) -> String? {
        guard let handle = curl_url() else { return nil }
        defer { curl_url_cleanup(handle) }
        guard curl_url_set(handle, CURLUPART_URL, "http://\(host)/", UInt32(CURLU_NON_SUPPORT_SCHEME)) == CURLUE_OK else { return nil }
        var part: UnsafeMutablePointer<CChar>?
        guard curl_url_get(handle, CURLUPART_HOST, &part, 0) == CURLUE_OK, let part else { return nil }
        defer { curl_free(part) }
        return String(cString: part).lowercased()
    }

    @Test(arguments: [
        "0x7f.0.0.1", "0x0a.0.0.1", "0177.1", "127.1", "2130706433", "127.0.0.1.", "1.2.3.4.5", "0x", "08.0.0.1",
        "4294967296", "4294967295", "0xFFFFFFFF", "1.16777215", "1.16777216", "1.2.65535", "1.2.65536", "256.0.0.1",
        "0X7f.1", "00000000000000000000000000177.0.0.1", "0x000000000000000007f.0.0.1", "1..2", ".1.2.3", "1.2.3.",
        "0.0.0.0", "09", "0", "0x7fg.1", "1e2.0.0.1", "99999999999999999999999", "0xFFFFFFFFFFFFFFFFF", "example.com",
        "Example.COM", "127.0.0.1", "0.0.1", "10.0.0.0x1", "0x1.0x2.0x3.0x4", "012.034.056.077",
    ])
    func aHostIsTheAddressLibcurlReads(host: String) {
        let expected = Self.curlHost(host)
        #expect(expected != nil, "libcurl refused \(host)")
        #expect((IPv4Literal.normalized(host) ?? host.lowercased()) == expected, "\(host)")
    }
}
