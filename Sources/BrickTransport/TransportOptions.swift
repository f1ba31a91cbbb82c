/// How one transfer behaves: timeouts, redirects, size caps, TLS trust and client certificate, and the
/// route (a proxy, a Unix socket).
///
/// The defaults are safe for calling APIs: TLS verification is always on, only http and https are spoken,
/// at most 10 redirects are followed, and a collected body may not exceed 64 MiB.
public struct TransportOptions: Sendable, Equatable {
    /// How long a connection may take to set up (DNS, TCP and TLS). Default is 30 seconds.
    public var connectTimeout: Duration {
        get { box.values.connectTimeout }
        set { change { $0.connectTimeout = newValue } }
    }
    /// How long the whole request may take, or `nil` for no limit of its own. Default is `nil`: collected
    /// responses are then bounded by ``collectTimeout``, and the low-speed limit still ends a stalled transfer.
    public var timeout: Duration? {
        get { box.values.timeout }
        set { change { $0.timeout = newValue } }
    }
    /// How long a collected response (``TransportTransfer/response()``) may take in all when ``timeout`` is
    /// `nil`, so that a server sending a byte now and then (fast enough for the low-speed limit) cannot hold
    /// a call forever. Streams and downloads are not bounded by it: they are meant to run long. Default is
    /// 5 minutes; `nil` for none.
    public var collectTimeout: Duration? {
        get { box.values.collectTimeout }
        set { change { $0.collectTimeout = newValue } }
    }
    /// A transfer slower than ``lowSpeedLimit`` bytes per second for ``lowSpeedTime`` is ended as stalled.
    /// Default is 1 byte/s for 60 s; `nil` disables the check.
    public var lowSpeedLimit: Int? {
        get { box.values.lowSpeedLimit }
        set { change { $0.lowSpeedLimit = newValue } }
    }
    /// See ``lowSpeedLimit``. Default is 60 seconds.
    public var lowSpeedTime: Duration {
        get { box.values.lowSpeedTime }
        set { change { $0.lowSpeedTime = newValue } }
    }
    /// Whether redirects are followed. Default is `true`.
    public var followRedirects: Bool {
        get { box.values.followRedirects }
        set { change { $0.followRedirects = newValue } }
    }
    /// How many redirects are followed at most. Default is 10.
    public var maxRedirects: Int {
        get { box.values.maxRedirects }
        set { change { $0.maxRedirects = newValue } }
    }
    /// The largest body ``TransportTransfer/response()`` collects in memory; a larger one fails with
    /// ``TransportError/Kind/responseTooLarge``. Default is 64 MiB. Streamed bodies have no cap.
    public var maxBodySize: Int {
        get { box.values.maxBodySize }
        set { change { $0.maxBodySize = newValue } }
    }
    /// Whether to ask for compressed bodies (gzip, deflate, br, zstd) and decompress them. Default is `true`.
    public var automaticDecompression: Bool {
        get { box.values.automaticDecompression }
        set { change { $0.automaticDecompression = newValue } }
    }
    /// The most a decompressed body may outgrow the bytes that arrived, once it passes 1 MiB: past it the
    /// transfer fails with ``TransportError/Kind/responseTooLarge`` (a "decompression bomb" inflates a
    /// small download into gigabytes). Applies to collected and streamed bodies. Default is 250 (JSON and
    /// text usually compress 5–20 times); `nil` for no limit.
    public var maxDecompressionRatio: Int? {
        get { box.values.maxDecompressionRatio }
        set { change { $0.maxDecompressionRatio = newValue } }
    }
    /// A PEM file of certificate authorities to trust instead of the system's: only the authorities in this
    /// file are trusted then (the system's bundle and directory are not). TLS 1.2 is the oldest version
    /// spoken either way. Default is `nil`: the system's bundle.
    public var caBundlePath: String? {
        get { box.values.caBundlePath }
        set { change { $0.caBundlePath = newValue } }
    }
    /// The largest response head (status line, fields and trailers) accepted; a larger one fails with
    /// ``TransportError/Kind/invalidResponse``. Default is 256 KiB (libcurl also refuses a single field over
    /// 100 KiB).
    public var maxHeaderSize: Int {
        get { box.values.maxHeaderSize }
        set { change { $0.maxHeaderSize = newValue } }
    }
    /// Public keys the server's certificate must carry one of, as libcurl's pins: `sha256//<base64>` each
    /// (for example from `openssl x509 -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256
    /// -binary | base64`). A server whose key is not pinned fails with ``TransportError/Kind/tlsFailure``,
    /// even with a valid chain. Default is `nil`: no pinning.
    public var pinnedPublicKeys: [String]? {
        get { box.values.pinnedPublicKeys }
        set { change { $0.pinnedPublicKeys = newValue } }
    }
    /// Bytes buffered for a streaming consumer before the transfer is paused. Default is 1 MiB.
    public var streamBufferSize: Int {
        get { box.values.streamBufferSize }
        set { change { $0.streamBufferSize = newValue } }
    }
    /// Whether a request may use a connection an earlier one left open, and leave its own open for later
    /// ones. Default is `true`; `false` opens a new connection for the request and closes it after (a full
    /// TLS handshake each time: for measuring, or for a server that misbehaves on reused connections).
    public var reusesConnections: Bool {
        get { box.values.reusesConnections }
        set { change { $0.reusesConnections = newValue } }
    }
    /// Which HTTP versions may be spoken. Default is ``HTTPVersionPolicy/automatic``.
    public var httpVersion: HTTPVersionPolicy {
        get { box.values.httpVersion }
        set { change { $0.httpVersion = newValue } }
    }
    /// A Unix domain socket to connect to instead of the URL's host and port (a local daemon: Docker's
    /// `/var/run/docker.sock`). The URL's host still names the server, in `Host`, and its scheme still
    /// decides TLS. No network route is waited for. Default is `nil`: TCP.
    public var unixSocketPath: String? {
        get { box.values.unixSocketPath }
        set { change { $0.unixSocketPath = newValue } }
    }
    /// The certificate to show a server that asks for one (mutual TLS). Default is `nil`: none.
    public var clientCertificate: ClientCertificate? {
        get { box.values.clientCertificate }
        set { change { $0.clientCertificate = newValue } }
    }
    /// Which proxy requests go through. Default is ``ProxyPolicy/environment``: the one curl's environment
    /// variables name, if any.
    public var proxy: ProxyPolicy {
        get { box.values.proxy }
        set { change { $0.proxy = newValue } }
    }

    /// Every option, behind one reference shared by all copies: a request's options are copied several
    /// times on its way (request, context, attempt records, the engine's handle profile), and a copy is
    /// then one reference, not two hundred bytes with a reference count for every string and array in
    /// them. Never changed once made: setting an option makes a new box.
    private var box: OptionsBox

    private mutating func change(_ change: (inout OptionValues) -> Void) {
        var values = box.values
        change(&values)
        box = OptionsBox(values)
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

/// ``OptionValues`` behind a reference; never changed once made (a change makes a new box), so sharing
/// it between copies of the options is safe.
final class OptionsBox: Sendable {
    let values: OptionValues
    init(_ values: OptionValues) { self.values = values }

    /// The default options' box, shared by every `TransportOptions()`.
    static let defaults = OptionsBox(OptionValues())
}
