/// Where a request's connection goes: the host whose network route it needs. Kept apart from the request
/// so that a running transfer can hold it cheaply, and the host is parsed only when someone asks.
package struct RequestRoute: Sendable {
    let url: String
    /// The request's options, for its proxy and Unix socket: kept whole (one reference), so that a running
    /// transfer's route is copied and dropped with two reference counts, not through its proxy policy's cases.
    let options: TransportOptions

    /// The proxy's host when the request goes through one (and its host is not bypassed): an explicit one,
    /// or the one curl's environment variables name (read once per process); the URL's host otherwise, and
    /// `nil` for a Unix socket (no network route to wait for) or a URL without a host.
    package var host: String? { host(environment: EnvironmentProxy.process) }

    /// ``host``, with `environment` as the process's proxy variables.
    func host(environment: [String: String]) -> String? {
        host(urlHost: TransportRequest.host(of: url), environment: environment)
    }

    /// ``host``, given the URL's host (``TransportRequest/host(of:)``) as the caller already knows it.
    package func host(urlHost target: String?) -> String? { host(urlHost: target, environment: EnvironmentProxy.process) }

    private func host(urlHost target: String?, environment: [String: String]) -> String? {
        if options.unixSocketPath != nil { return nil }
        switch options.proxy {
        case .through(let proxy) where !(target.map(proxy.isBypassed(by:)) ?? false): return proxy.host
        case .environment: return EnvironmentProxy.proxy(for: url, environment: environment)?.host ?? target
        default: return target
        }
    }
}

extension TransportRequest {
    /// Where the request's connection goes (``RequestRoute``).
    package var route: RequestRoute {
        RequestRoute(url: url, options: options)
    }
}
