import BrickSystem

/// The proxy curl's environment variables name for a URL, as libcurl reads them: `http_proxy` for http
/// (lowercase only: the uppercase form can be set by a CGI request's `Proxy:` field), `https_proxy` or
/// `HTTPS_PROXY` for https, then `all_proxy` or `ALL_PROXY`; none for a host `no_proxy` (or `NO_PROXY`) lists.
/// What ``RequestRoute`` watches for a request whose proxy is ``ProxyPolicy/environment``.
package enum EnvironmentProxy {
    /// The proxy for `url` under `environment`, or `nil` when it goes direct.
    static func proxy(for url: String, environment: [String: String]) -> Proxy? {
        if environment.isEmpty { return nil }
        let https = url.utf8.prefix(6).lazy.map { $0 | 0x20 }.elementsEqual("https:".utf8)
        let names = https ? httpsNames : httpNames
        guard let value = names.lazy.compactMap({ environment[$0] }).first(where: { !$0.isEmpty }) else { return nil }
        let bypass = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "").split(separator: ",")
            .map { String($0.filter { $0 != " " }) }.filter { !$0.isEmpty }
        let proxy = Proxy(url: value.contains("://") ? value : "http://" + value, bypass: bypass)
        if let host = TransportRequest.host(of: url), proxy.isBypassed(by: host) { return nil }
        return proxy
    }

    /// The variables that name a proxy for an https URL, and for any other, in the order libcurl reads them.
    private static let httpsNames = ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
    private static let httpNames = ["http_proxy", "all_proxy", "ALL_PROXY"]

    /// Whether the process names no proxy at all (only `no_proxy`, or nothing): every request whose proxy is
    /// ``ProxyPolicy/environment`` then goes direct, and the transport can say so once rather than have
    /// libcurl read the environment again for every request.
    package static var namesNoProxy: Bool { process.keys.allSatisfy { $0.lowercased() == "no_proxy" } }

    /// The process's proxy variables, read once, when a route first asks.
    static let process: [String: String] = {
        var found: [String: String] = [:]
        for name in ["http_proxy", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"] {
            if let value = environmentValue(name) { found[name] = value }
        }
        return found
    }()
}
