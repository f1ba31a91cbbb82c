import CCurl
import CCurlShim

/// What this libcurl was built to use when a transfer sets nothing, read once per process.
enum CurlDefaults {
    /// The CA bundle file libcurl verifies servers against by default (Debian's
    /// `/etc/ssl/certs/ca-certificates.crt`), or `nil` when it was built with none.
    static let caBundle: String? = {
        guard let handle = EasyHandle.make() else { return nil }
        defer { handle.destroy() }
        var path: UnsafePointer<CChar>?
        guard brick_easy_getinfo_string(handle.raw, CURLINFO_CAINFO, &path) == CURLE_OK, let path else { return nil }
        let bundle = String(cString: path)
        return bundle.isEmpty ? nil : bundle
    }()
}
