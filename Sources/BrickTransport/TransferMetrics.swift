/// What a transfer cost: per-phase timings, connection reuse and sizes.
///
/// Times are offsets from the start of the transfer, as libcurl measures them; the phase properties give the
/// length of each phase.
public struct TransferMetrics: Sendable, Equatable {
    /// When DNS resolution ended.
    public var nameLookupEnd: Duration {
        get { .microseconds(times.nameLookupEnd) }
        set { times.nameLookupEnd = Times.microseconds(newValue) }
    }
    /// When the TCP connection was made.
    public var connectEnd: Duration {
        get { .microseconds(times.connectEnd) }
        set { times.connectEnd = Times.microseconds(newValue) }
    }
    /// When TLS was set up (zero for plain http).
    public var tlsEnd: Duration {
        get { .microseconds(times.tlsEnd) }
        set { times.tlsEnd = Times.microseconds(newValue) }
    }
    /// When the request was about to be sent.
    public var requestStart: Duration {
        get { .microseconds(times.requestStart) }
        set { times.requestStart = Times.microseconds(newValue) }
    }
    /// When the first response byte arrived.
    public var firstByte: Duration {
        get { .microseconds(times.firstByte) }
        set { times.firstByte = Times.microseconds(newValue) }
    }
    /// When the transfer ended.
    public var total: Duration {
        get { .microseconds(times.total) }
        set { times.total = Times.microseconds(newValue) }
    }
    /// How long the request waited for one of its host's connections to be free (the pool's connections
    /// per host were all busy) before it could start; zero when one was free. The offsets above include it.
    public var connectionWait: Duration {
        get { .microseconds(times.connectionWait) }
        set { times.connectionWait = Times.microseconds(newValue) }
    }

    /// The offsets above in microseconds, as libcurl reports them: a `Duration` is made only when one is
    /// read (making one takes 128-bit arithmetic, and most responses' metrics are never read).
    package var times = Times()

    /// Offsets from the start of the transfer, in microseconds.
    package struct Times: Sendable, Equatable {
        package var nameLookupEnd: Int64 = 0
        package var connectEnd: Int64 = 0
        package var tlsEnd: Int64 = 0
        package var requestStart: Int64 = 0
        package var firstByte: Int64 = 0
        package var total: Int64 = 0
        package var connectionWait: Int64 = 0

        package init() {}

        /// `duration` in whole microseconds, clamped to what an `Int64` of them holds.
        static func microseconds(_ duration: Duration) -> Int64 {
            let (seconds, attoseconds) = duration.components
            guard seconds < Int64.max / 1_000_000, seconds > Int64.min / 1_000_000 else { return seconds < 0 ? Int64.min : Int64.max }
            return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        }
    }

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
