/// How one transfer behaves: timeouts, redirects, size caps, TLS trust and client certificate, and the
/// route (a proxy, a Unix socket).
///
/// The defaults are safe for calling APIs: TLS verification is always on, only http and https are spoken,
/// at most 10 redirects are followed, and a collected body may not exceed 64 MiB.
public struct TransportOptions: Sendable, Equatable {
    /// How long a connection may take to set up (DNS, TCP and TLS). Default is 30 seconds.
    public var connectTimeout: Duration {
        get { box.values.connectTimeout }
        set { change(.connectTimeout) { $0.connectTimeout = newValue } }
    }
    /// How long the whole request may take, or `nil` for no limit of its own. Default is `nil`: collected
    /// responses are then bounded by ``collectTimeout``, and the low-speed limit still ends a stalled transfer.
    public var timeout: Duration? {
        get { box.values.timeout }
        set { change(.timeout) { $0.timeout = newValue } }
    }
    /// How long a collected response (``TransportTransfer/response()``) may take in all when ``timeout`` is
    /// `nil`, so that a server sending a byte now and then (fast enough for the low-speed limit) cannot hold
    /// a call forever. Streams and downloads are not bounded by it: they are meant to run long. Default is
    /// 5 minutes; `nil` for none.
    public var collectTimeout: Duration? {
        get { box.values.collectTimeout }
        set { change(.collectTimeout) { $0.collectTimeout = newValue } }
    }
    /// A transfer slower than ``lowSpeedLimit`` bytes per second for ``lowSpeedTime`` is ended as stalled.
    /// Default is 1 byte/s for 60 s; `nil` disables the check.
    public var lowSpeedLimit: Int? {
        get { box.values.lowSpeedLimit }
        set { change(.lowSpeedLimit) { $0.lowSpeedLimit = newValue } }
    }
    /// See ``lowSpeedLimit``. Default is 60 seconds.
    public var lowSpeedTime: Duration {
        get { box.values.lowSpeedTime }
        set { change(.lowSpeedTime) { $0.lowSpeedTime = newValue } }
    }
    /// Whether redirects are followed. Default is `true`.
    public var followRedirects: Bool {
        get { box.values.followRedirects }
        set { change(.followRedirects) { $0.followRedirects = newValue } }
    }
    /// How many redirects are followed at most. Default is 10.
    public var maxRedirects: Int {
        get { box.values.maxRedirects }
        set { change(.maxRedirects) { $0.maxRedirects = newValue } }
    }
    /// The largest body ``TransportTransfer/response()`` collects in memory; a larger one fails with
    /// ``TransportError/Kind/responseTooLarge``. Default is 64 MiB. Streamed bodies have no cap.
    public var maxBodySize: Int {
        get { box.values.maxBodySize }
        set { change(.maxBodySize) { $0.maxBodySize = newValue } }
    }
    /// Whether to ask for compressed bodies (gzip, deflate, br, zstd) and decompress them. Default is `true`.
    public var automaticDecompression: Bool {
        get { box.values.automaticDecompression }
        set { change(.automaticDecompression) { $0.automaticDecompression = newValue } }
    }
    /// The most a decompressed body may outgrow the bytes that arrived, once it passes 1 MiB: past it the
    /// transfer fails with ``TransportError/Kind/responseTooLarge`` (a "decompression bomb" inflates a
    /// small download into gigabytes). Applies to collected and streamed bodies. Default is 250 (JSON and
    /// text usually compress 5–20 times); `nil` for no limit.
    public var maxDecompressionRatio: Int? {
        get { box.values.maxDecompressionRatio }
        set { change(.maxDecompressionRatio) { $0.maxDecompressionRatio = newValue } }
    }
    /// A PEM file of certificate authorities to trust instead of the system's: only the authorities in this
    /// file are trusted then (the system's bundle and directory are not). TLS 1.2 is the oldest version
    /// spoken either way. Default is `nil`: the system's bundle.
    public var caBundlePath: String? {
        get { box.values.caBundlePath }
        set { change(.caBundlePath) { $0.caBundlePath = newValue } }
    }
    /// The largest response head (status line, fields and trailers) accepted; a larger one fails with
    /// ``TransportError/Kind/invalidResponse``. Default is 256 KiB (libcurl also refuses a single field over
    /// 100 KiB).
    public var maxHeaderSize: Int {
        get { box.values.maxHeaderSize }
        set { change(.maxHeaderSize) { $0.maxHeaderSize = newValue } }
    }
    /// Public keys the server's certificate must carry one of, as libcurl's pins: `sha256//<base64>` each
    /// (for example from `openssl x509 -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256
    /// -binary | base64`). A server whose key is not pinned fails with ``TransportError/Kind/tlsFailure``,
    /// even with a valid chain. Default is `nil`: no pinning.
    public var pinnedPublicKeys: [String]? {
        get { box.values.pinnedPublicKeys }
        set { change(.pinnedPublicKeys) { $0.pinnedPublicKeys = newValue } }
    }
    /// Bytes buffered for a streaming consumer before the transfer is paused. Default is 1 MiB.
    public var streamBufferSize: Int {
        get { box.values.streamBufferSize }
        set { change(.streamBufferSize) { $0.streamBufferSize = newValue } }
    }
    /// Whether a request may use a connection an earlier one left open, and leave its own open for later
    /// ones. Default is `true`; `false` opens a new connection for the request and closes it after (a full
    /// TLS handshake each time: for measuring, or for a server that misbehaves on reused connections).
    public var reusesConnections: Bool {
        get { box.values.reusesConnections }
        set { change(.reusesConnections) { $0.reusesConnections = newValue } }
    }
    /// Which HTTP versions may be spoken. Default is ``HTTPVersionPolicy/automatic``.
    public var httpVersion: HTTPVersionPolicy {
        get { box.values.httpVersion }
        set { change(.httpVersion) { $0.httpVersion = newValue } }
    }
    /// A Unix domain socket to connect to instead of the URL's host and port (a local daemon: Docker's
    /// `/var/run/docker.sock`). The URL's host still names the server, in `Host`, and its scheme still
    /// decides TLS. No network route is waited for. Default is `nil`: TCP.
    public var unixSocketPath: String? {
        get { box.values.unixSocketPath }
        set { change(.unixSocketPath) { $0.unixSocketPath = newValue } }
    }
    /// The certificate to show a server that asks for one (mutual TLS). Default is `nil`: none.
    public var clientCertificate: ClientCertificate? {
        get { box.values.clientCertificate }
        set { change(.clientCertificate) { $0.clientCertificate = newValue } }
    }
    /// Which proxy requests go through. Default is ``ProxyPolicy/environment``: the one curl's environment
    /// variables name, if any.
    public var proxy: ProxyPolicy {
        get { box.values.proxy }
        set { change(.proxy) { $0.proxy = newValue } }
    }

    /// Every option, behind one reference shared by all copies: a request's options are copied several
    /// times on its way (request, context, attempt records, the engine's handle profile), and a copy is
    /// then one reference, not two hundred bytes with a reference count for every string and array in
    /// them. Never changed once made: setting an option makes a new box.
    private var box: OptionsBox

    private mutating func change(_ option: OptionValues.Field, _ change: (inout OptionValues) -> Void) {
        var values = box.values
        change(&values)
        box = OptionsBox(values, set: box.set.union(option.bit))
    }

    /// These options over `base`: every option set on these (through a setter, even to its default value)
    /// keeps its value here, and every other takes `base`'s. What a session does with a request value's
    /// options: a request that sets no option gets the session's, one that sets some overrides only those.
    public func applied(over base: TransportOptions) -> TransportOptions {
        if box.set.isEmpty || box === base.box { return base }
        var values = base.box.values
        for field in OptionValues.Field.allCases where box.set.contains(field.bit) { field.copy(from: box.values, to: &values) }
        var merged = TransportOptions()
        merged.box = OptionsBox(values, set: base.box.set.union(box.set))
        return merged
    }

    /// Whether both have the same value for every option; at once when they share their box (a request
    /// that kept its session's options).
    public static func == (lhs: TransportOptions, rhs: TransportOptions) -> Bool {
        lhs.box === rhs.box || lhs.box.values == rhs.box.values
    }

    /// Which HTTP versions a transfer may speak.
    public enum HTTPVersionPolicy: Sendable, Equatable {
        /// HTTP/2 over TLS when the server offers it (ALPN), with concurrent requests to one host sharing
        /// one connection; HTTP/1.1 otherwise, and always over plain TCP.
        case automatic
        /// HTTP/1.1 only: each request in flight has a connection of its own.
        case http1Only
    }

    /// The default options.
    public init() { box = OptionsBox.defaults }
}

/// The values of ``TransportOptions``, with their defaults.
struct OptionValues: Sendable, Equatable {
    var connectTimeout: Duration = .seconds(30)
    var timeout: Duration?
    var collectTimeout: Duration? = .seconds(300)
    var lowSpeedLimit: Int? = 1
    var lowSpeedTime: Duration = .seconds(60)
    var followRedirects = true
    var maxRedirects = 10
    var maxBodySize = 64 << 20
    var automaticDecompression = true
    var maxDecompressionRatio: Int? = 250
    var caBundlePath: String?
    var maxHeaderSize = 256 << 10
    var pinnedPublicKeys: [String]?
    var streamBufferSize = 1 << 20
    var reusesConnections = true
    var httpVersion = TransportOptions.HTTPVersionPolicy.automatic
    var unixSocketPath: String?
    var clientCertificate: ClientCertificate?
    var proxy = ProxyPolicy.environment
}

extension OptionValues {
    /// One option, for remembering which were set.
    enum Field: Int, CaseIterable {
        case connectTimeout, timeout, collectTimeout, lowSpeedLimit, lowSpeedTime, followRedirects, maxRedirects
        case maxBodySize, automaticDecompression, maxDecompressionRatio, caBundlePath, maxHeaderSize, pinnedPublicKeys
        case streamBufferSize, reusesConnections, httpVersion, unixSocketPath, clientCertificate, proxy

        var bit: OptionsBox.SetOptions { OptionsBox.SetOptions(rawValue: 1 << UInt32(rawValue)) }

        /// Copies this option's value from `source` into `target`.
        func copy(from source: OptionValues, to target: inout OptionValues) {
            switch self {
            case .connectTimeout: target.connectTimeout = source.connectTimeout
            case .timeout: target.timeout = source.timeout
            case .collectTimeout: target.collectTimeout = source.collectTimeout
            case .lowSpeedLimit: target.lowSpeedLimit = source.lowSpeedLimit
            case .lowSpeedTime: target.lowSpeedTime = source.lowSpeedTime
            case .followRedirects: target.followRedirects = source.followRedirects
            case .maxRedirects: target.maxRedirects = source.maxRedirects
            case .maxBodySize: target.maxBodySize = source.maxBodySize
            case .automaticDecompression: target.automaticDecompression = source.automaticDecompression
            case .maxDecompressionRatio: target.maxDecompressionRatio = source.maxDecompressionRatio
            case .caBundlePath: target.caBundlePath = source.caBundlePath
            case .maxHeaderSize: target.maxHeaderSize = source.maxHeaderSize
            case .pinnedPublicKeys: target.pinnedPublicKeys = source.pinnedPublicKeys
            case .streamBufferSize: target.streamBufferSize = source.streamBufferSize
            case .reusesConnections: target.reusesConnections = source.reusesConnections
            case .httpVersion: target.httpVersion = source.httpVersion
            case .unixSocketPath: target.unixSocketPath = source.unixSocketPath
            case .clientCertificate: target.clientCertificate = source.clientCertificate
            case .proxy: target.proxy = source.proxy
            }
        }
    }
}

/// ``OptionValues`` behind a reference, with which options were set; never changed once made (a change
/// makes a new box), so sharing it between copies of the options is safe.
final class OptionsBox: Sendable {
    let values: OptionValues
    /// The options set through a setter since `TransportOptions()`.
    let set: SetOptions
    init(_ values: OptionValues, set: SetOptions = []) {
        self.values = values
        self.set = set
    }

    /// A set of ``OptionValues/Field``s.
    struct SetOptions: OptionSet, Sendable {
        let rawValue: UInt32
    }

    /// The default options' box, shared by every `TransportOptions()`.
    static let defaults = OptionsBox(OptionValues())
}
