/// The libcurl transport: one engine thread driving curl's multi interface for many concurrent transfers,
/// reusing connections across all of them.
///
/// Each `Session` owns one. The engine thread starts with the transport and ends when the transport and its
/// last transfer are gone.
public final class CurlTransport: Transport {
    /// Limits of the connection pool and of the receive buffer.
    public struct Configuration: Sendable, Equatable {
        /// Connections open at once, to all hosts; also how many idle ones are kept. Default is 256.
        public var maxConnections = 256
        /// Connections open at once to one host; more transfers wait for a free one. Default is 64.
        public var maxConnectionsPerHost = 64
        /// libcurl's receive buffer per transfer. Default is 100 KiB (libcurl's own is 16 KiB, measurably
        /// slower on large bodies).
        public var receiveBufferSize = 100 * 1024

        /// The default configuration.
        public init() {}
    }

    /// The pool limits this transport was made with.
    public let configuration: Configuration
    let engine: CurlEngine

    /// Starts a transport and its engine thread.
    ///
    /// - Returns: `nil` if libcurl cannot create its multi handle or the thread cannot start (out of
    ///   memory or threads).
    public init?(configuration: Configuration = Configuration()) {
        guard let engine = CurlEngine(configuration: configuration) else { return nil }
        self.configuration = configuration
        self.engine = engine
    }

    deinit { engine.shutdown() }

    /// Stops the engine thread: running transfers fail with `cancelled`, later ones at once; returns once the
    /// thread has ended its loop and libcurl has closed every connection.
    public func shutdown() async { await engine.shutdownAndWait() }

    public func makeTransfer(for request: TransportRequest) -> any TransportTransfer {
        if request.upgrade != nil { return UpgradeTransfer(request: request, transport: self) }
        return CurlTransfer(request: request, transport: self)
    }

    /// The libcurl this transport runs on, for example `libcurl/7.88.1 OpenSSL/3.0.17 …`.
    public static var libcurlVersion: String { CurlVersion.string }
}
