import CCurl

/// The version of the libcurl the process loaded.
enum CurlVersion {
    /// libcurl's own description, for example `libcurl/7.88.1 OpenSSL/3.0.17 zlib/1.2.13 brotli/1.0.9 …`.
    static var string: String { String(cString: curl_version()) }
}
