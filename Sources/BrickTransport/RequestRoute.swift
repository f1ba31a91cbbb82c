/// Where a request's connection goes: the host whose network route it needs. Kept apart from the request
/// so that a running transfer can hold it cheaply, and the host is parsed only when someone asks.
public struct RequestRoute: Sendable {
    let url: String
    let proxy: ProxyPolicy
    let unixSocket: Bool

    /// The proxy's host when the request goes through an explicit one (and its host is not bypassed), the
    /// URL's host otherwise, and `nil` for a Unix socket (no network route to wait for) or a URL without a
    /// host. A proxy the environment names is not known here: the URL's host is watched.
    public var host: String? {
        if unixSocket { return nil }
        let target = TransportRequest.host(of: url)
        if case .through(let proxy) = proxy, !(target.map(proxy.isBypassed(by:)) ?? false) { return proxy.host }
        return target
    }
}

extension TransportRequest {
    /// Where the request's connection goes (``RequestRoute``).
    public var route: RequestRoute {
        RequestRoute(url: url, proxy: options.proxy, unixSocket: options.unixSocketPath != nil)
    }
}
