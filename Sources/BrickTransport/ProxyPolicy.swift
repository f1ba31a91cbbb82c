/// Which proxy a request goes through.
public enum ProxyPolicy: Sendable, Equatable {
    /// The one the environment names (`http_proxy`, `https_proxy`, `all_proxy` and `no_proxy`, as curl reads
    /// them), or none. The default.
    case environment
    /// None, whatever the environment says.
    case direct
    /// This one, whatever the environment says.
    case through(Proxy)
}

/// An explicit proxy: an HTTP proxy (`http://proxy:3128`), which tunnels https requests with `CONNECT`,
/// or an HTTPS proxy (`https://proxy:443`), spoken to over TLS and verified as a server is.
public struct Proxy: Sendable, Equatable {
    /// The proxy's URL: scheme, host and port (`http://10.0.0.1:3128`).
    public var url: String
    /// Basic credentials for the proxy (`Proxy-Authorization`); sent to the proxy only, never to a server.
    public var username: String?
    /// See ``username``. Never logged.
    public var password: String?
    /// Hosts reached directly, not through the proxy: names (a leading dot or none matches subdomains too),
    /// IP addresses, or `*` for all.
    public var bypass: [String]

    /// A proxy at `url`, with credentials and hosts that bypass it.
    public init(url: String, username: String? = nil, password: String? = nil, bypass: [String] = []) {
        self.url = url
        self.username = username
        self.password = password
        self.bypass = bypass
    }

    /// The proxy's host, from ``url``.
    public var host: String? { TransportRequest(url: url).host }

    /// Whether a request to `host` goes around the proxy (``bypass``), as libcurl decides it: a name
    /// matches itself and its subdomains, case-insensitively.
    public func isBypassed(by host: String) -> Bool {
        let host = host.lowercased()
        return bypass.contains { entry in
            let entry = entry.lowercased().trimmingPrefix(".")
            return entry == "*" || host == entry || host.hasSuffix("." + entry)
        }
    }
}

extension Proxy: CustomStringConvertible, CustomReflectable {
    /// The URL (a password in its user info hidden), and the user when credentials are set (not the password).
    public var description: String {
        "Proxy(\(URLPassword.redacted(url))" + (username == nil ? ")" : ", user \(username ?? ""))")
    }

    /// What `dump()` and debuggers show: every property, with the password (and one in the URL) hidden.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "url": URLPassword.redacted(url), "username": username as Any,
            "password": password.map { _ in URLPassword.placeholder } as Any, "bypass": bypass,
        ])
    }
}

extension StringProtocol {
    fileprivate func trimmingPrefix(_ prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : String(self)
    }
}
