/// What a transfer cost: per-phase timings, connection reuse and sizes.
///
/// Times are offsets from the start of the transfer, as libcurl measures them; the phase properties give the
/// length of each phase.
public struct TransferMetrics: Sendable, Equatable {
    /// When DNS resolution ended.
    public var nameLookupEnd: Duration = .zero
    /// When the TCP connection was made.
    public var connectEnd: Duration = .zero
    /// When TLS was set up (zero for plain http).
    public var tlsEnd: Duration = .zero
    /// When the request was about to be sent.
    public var requestStart: Duration = .zero
    /// When the first response byte arrived.
    public var firstByte: Duration = .zero
    /// When the transfer ended.
    public var total: Duration = .zero
    /// How long the request waited for one of its host's connections to be free (the pool's connections
    /// per host were all busy) before it could start; zero when one was free. The offsets above include it.
    public var connectionWait: Duration = .zero
    /// Whether the request went over a connection that was already open.
    public var reusedConnection = false
    /// How many redirects were followed.
    public var redirectCount = 0
    /// The last URL fetched (after redirects).
    public var effectiveURL = ""
    /// Bytes of body sent.
    public var bytesSent: Int64 = 0
    /// Bytes of body received (after decompression).
    public var bytesReceived: Int64 = 0

    /// Creates empty metrics.
    public init() {}

    /// How long DNS took.
    public var dns: Duration { nameLookupEnd }
    /// How long the TCP connect took.
    public var connect: Duration { connectEnd > nameLookupEnd ? connectEnd - nameLookupEnd : .zero }
    /// How long the TLS handshake took.
    public var tls: Duration { tlsEnd > connectEnd ? tlsEnd - connectEnd : .zero }
    /// How long the server took from the request being sent to its first byte.
    public var waiting: Duration { firstByte > requestStart ? firstByte - requestStart : .zero }
}
