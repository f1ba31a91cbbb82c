/// A session's defaults on Linux: libcurl sends the requests, the kernel's routing table (through netlink)
/// says which hosts are reachable. Both are made with the session's first request, not before.
extension Session {
    /// The session used by `APISessionRequestType` and by requests that name no other: libcurl, the default
    /// configuration, the process's netlink monitor.
    public static let shared = Session()

    /// Creates a session that sends its requests over libcurl.
    ///
    /// - Parameters:
    ///   - configuration: Base URL, headers, options, interceptors. Its `reachability`, when `nil`, is the
    ///     process's netlink monitor (`SystemReachability.shared`).
    ///   - connectionPool: The libcurl transport's connection limits. Default is `CurlTransport.Configuration()`.
    public convenience init(
        configuration: Configuration = Configuration(), connectionPool: CurlTransport.Configuration = CurlTransport.Configuration()
    ) {
        self.init(
            configuration: configuration,
            makeTransport: { () -> any Transport in
                if let curl = CurlTransport(configuration: connectionPool) { curl } else { UnavailableTransport() }
            },
            defaultReachability: { SystemReachability.shared })
    }
}

/// Stands in when libcurl cannot start (no memory, no threads): every request fails clearly.
private struct UnavailableTransport: Transport {
    func makeTransfer(for request: TransportRequest) -> any TransportTransfer { Failed() }

    final class Failed: TransportTransfer {
        let error = TransportError(.other, message: "the libcurl transport could not start")
        func response() async throws(TransportError) -> TransportResponse { throw error }
        func events() -> TransportEventStream { TransportEventStream(failing: error) }
        func cancel(because reason: TransportError) {}
    }
}
