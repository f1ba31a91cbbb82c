import BrickTransport
import CCurl
import CCurlShim

/// Where a new handle's connections go and how they are secured: the route (a Unix socket, a proxy, or
/// direct) and TLS. Standing options, set once per handle (``configure(receiveBufferSize:pool:last:)``).
extension CurlTransfer {
    /// TLS for an https request: verification always on, TLS 1.2 at least, the trust, the client certificate,
    /// pinned keys, and HTTP/2 when the server offers it.
    static func setTLS(_ setter: inout OptionSetter, _ options: TransportOptions) {
        setter.long(CURLOPT_SSL_VERIFYPEER, 1)
        setter.long(CURLOPT_SSL_VERIFYHOST, 2)
        setter.long(CURLOPT_SSLVERSION, Int(CURL_SSLVERSION_TLSv1_2))
        // Trust: the caller's bundle and only it; else the system bundle file. The CA directory stays
        // unset either way: with it, libcurl cannot cache the parsed store and parses every certificate
        // again for each new connection (~45 ms of CPU here).
        if let caBundle = options.caBundlePath ?? CurlDefaults.caBundle {
            setter.string(CURLOPT_CAINFO, caBundle)
            setter.string(CURLOPT_CAPATH, nil)
        }
        if let certificate = options.clientCertificate {
            setter.string(CURLOPT_SSLCERT, certificate.certificatePath)
            setter.string(CURLOPT_SSLCERTTYPE, "PEM")
            if let key = certificate.keyPath { setter.string(CURLOPT_SSLKEY, key) }
            if let password = certificate.keyPassword { setter.string(CURLOPT_KEYPASSWD, password) }
        }
        if let pins = options.pinnedPublicKeys, !pins.isEmpty { setter.string(CURLOPT_PINNEDPUBLICKEY, pins.joined(separator: ";")) }
        if options.httpVersion == .automatic {
            setter.long(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
            setter.long(CURLOPT_PIPEWAIT, 1)  // wait for a connection that may multiplex rather than open another
        }
    }

    /// No proxy, whatever the environment says: every host bypasses one (`*`). libcurl then reads neither
    /// the environment's proxy variables nor `no_proxy` for a request, and copies no proxy string either
    /// (an empty `CURLOPT_PROXY`, which also says "none", it copies for every request).
    private static func goDirect(_ setter: inout OptionSetter) {
        setter.string(CURLOPT_NOPROXY, "*")
    }

    /// Where the connection goes: a Unix socket, an explicit proxy, none (ignoring the environment), or
    /// whatever curl's environment variables say (libcurl's default, so nothing is set unless they name
    /// no proxy at all).
    static func setRoute(_ setter: inout OptionSetter, _ options: TransportOptions) {
        if let socket = options.unixSocketPath { setter.string(CURLOPT_UNIX_SOCKET_PATH, socket) }
        switch options.proxy {
        case .environment:
            // libcurl reads the environment's proxy variables again for every request; when the process names
            // none (read once, as routes read them), the request goes direct, and saying so spares that.
            if EnvironmentProxy.namesNoProxy { Self.goDirect(&setter) }
        case .direct: Self.goDirect(&setter)
        case .through(let proxy):
            setter.string(CURLOPT_PROXY, proxy.url)
            setter.string(CURLOPT_NOPROXY, proxy.bypass.joined(separator: ","))  // also overrides no_proxy
            if let username = proxy.username {
                setter.string(CURLOPT_PROXYUSERNAME, username)
                setter.string(CURLOPT_PROXYPASSWORD, proxy.password ?? "")
            }
            if Self.isHTTPS(proxy.url) {
                // An HTTPS proxy is verified as a server is, against the same trust.
                setter.long(CURLOPT_PROXY_SSL_VERIFYPEER, 1)
                setter.long(CURLOPT_PROXY_SSL_VERIFYHOST, 2)
                if let caBundle = options.caBundlePath ?? CurlDefaults.caBundle {
                    setter.string(CURLOPT_PROXY_CAINFO, caBundle)
                    setter.string(CURLOPT_PROXY_CAPATH, nil)
                }
            }
        }
    }

    /// Whether `url` starts with `https:` in any case. TLS options matter only there: the transport sends
    /// exactly one request per transfer (redirects are new transfers), so a plain http transfer never
    /// reaches TLS. (An HTTPS proxy's own TLS is set in `setRoute`.)
    static func isHTTPS(_ url: String) -> Bool {
        var url = url
        return url.withUTF8 { bytes in
            // "https" in any case (a letter's bit 0x20 set makes it lowercase), then ":".
            bytes.count >= 6 && bytes[0] | 0x20 == 0x68 && bytes[1] | 0x20 == 0x74 && bytes[2] | 0x20 == 0x74
                && bytes[3] | 0x20 == 0x70 && bytes[4] | 0x20 == 0x73 && bytes[5] == 0x3A
        }
    }
}
