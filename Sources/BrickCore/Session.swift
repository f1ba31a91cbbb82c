public import Dispatch

/// Sends requests over a transport and keeps track of the ones running, so that one or all can be cancelled.
///
/// `Session.shared` serves requests that name no session of their own. Make your own for a different base
/// URL, headers, timeouts or connection pool: each session has its own transport and connections.
public final class Session: Sendable {
    /// What every request of a session starts from.
    public struct Configuration: Sendable {
        /// The base URL that requests' paths are resolved against. Default is `nil` (requests give full URLs).
        public var baseURL: String?
        /// Header fields sent with every request, before the request's own: all of them to the origin of
        /// ``baseURL`` (or to any when there is none); to another origin only `Accept*`, `User-Agent`,
        /// `Cache-Control` and `Pragma` (``RedirectRule/crossOriginFields``). Default is a
        /// `User-Agent: BrickRequest/<version>` field.
        public var headers: HTTPHeaders = ["User-Agent": "BrickRequest/\(Session.version)"]
        /// Timeouts, redirects, caps and TLS trust of every request, unless a request says otherwise.
        /// Default is `TransportOptions()`.
        public var transportOptions = TransportOptions()
        /// Connection pool limits of the session's libcurl transport. Default is `CurlTransport.Configuration()`.
        public var connectionPool = CurlTransport.Configuration()
        /// Where callback-style handlers run unless the call names a queue. Default is a global queue; never
        /// the engine thread.
        public var callbackQueue: DispatchQueue = .global()
        /// Interceptors that adapt every request and process every response, in priority order.
        /// Default is none.
        public var interceptors: [any Interceptor] = []
        /// Error handlers asked in order when a request fails; the first that handles it decides.
        /// Default is none.
        public var errorHandlers: [any ErrorHandler] = []
        /// The clock every wait goes through (retry delays). Default is `ContinuousClock()`; tests pass
        /// BrickTesting's `ManualClock`.
        public var clock: any Clock<Duration> = ContinuousClock()
        /// Where requests learn whether their host is reachable: while it is not, retrying requests wait,
        /// and collected transfers to it are ended at once. Default is the process's netlink monitor
        /// (`SystemReachability.shared`); tests pass BrickTesting's `ManualReachability`.
        public var reachability: any Reachability = SystemReachability.shared
        /// Told about every retry, wait for the network and give-up, on the request's task. Default is `nil`.
        public var retryObserver: (@Sendable (RetryEvent) -> Void)?
        /// Where GET responses are kept for reuse under HTTP's caching rules (each request's ``CacheMode``
        /// says how it uses them): a ``MemoryResponseCache``, a ``DiskResponseCache`` or your own. Default is
        /// `nil`: nothing is cached.
        public var responseCache: (any ResponseCache)?
        /// The most attempts one call may make, replays and retries included: a safety net against an
        /// interceptor or error handler that would repeat a request forever. Default is 16.
        public var maxAttempts = 16

        /// The default configuration.
        public init() {}

        /// The default configuration with a base URL.
        public init(baseURL: String?) { self.baseURL = baseURL }
    }

    /// The session used by `APISessionRequestType` and by requests that name no other.
    public static let shared = Session()

    /// A session that the session bricks (`APISessionRequestType`, `CustomSessionRequestType`) use instead
    /// of their own within a scope: a default, not an identity, so that the class a user ships is the
    /// class a user tests. `nil` (the default) outside any scope.
    ///
    /// ```swift
    /// let stubbed = Session(transport: stub)
    /// let user = try await Session.$current.withValue(stubbed) { try await GetUser(userID: "100").response() }
    /// ```
    /// It is a task-local value: tasks started inside the scope see it, other tests running at the same
    /// time with their own stubs do not. A class that stores or computes its own `session` is not affected.
    @TaskLocal public static var current: Session?

    /// The library's version, sent in the default `User-Agent`.
    public static let version = "0.1.0"

    /// What this session was made with.
    public let configuration: Configuration
    /// What sends its requests.
    public let transport: any Transport
    let registry = RunningRegistry()
    private let routeWatch: Task<Void, Never>

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - configuration: Base URL, headers, options and pool limits.
    ///   - transport: What sends the requests. Default is a new libcurl transport with
    ///     ``Configuration/connectionPool``'s limits (a `StubTransport` from BrickTesting in unit tests).
    public init(configuration: Configuration = Configuration(), transport: (any Transport)? = nil) {
        self.configuration = configuration
        self.transport = transport ?? CurlTransport(configuration: configuration.connectionPool) ?? UnavailableTransport()
        routeWatch = Self.watchRoutes(of: registry, with: configuration.reachability)
    }

    deinit { routeWatch.cancel() }

    /// How many requests are running now.
    public var runningRequestCount: Int { registry.count }

    /// Cancels every running request of `component`; each fails with `cancelled`.
    public func cancel(_ component: Component) { registry.cancel(owner: ObjectIdentifier(component)) }

    /// Cancels every running request of the session; each fails with `cancelled`.
    public func cancelAll() { registry.cancel(owner: nil) }
}

/// Stands in when libcurl cannot start (no memory, no threads): every request fails clearly.
private struct UnavailableTransport: Transport {
    func makeTransfer(for request: TransportRequest) -> any TransportTransfer { Failed() }

    final class Failed: TransportTransfer {
        let error = TransportError(.other, message: "the libcurl transport could not start")
        func response() async throws(TransportError) -> TransportResponse { throw error }
        func events() -> TransportEventStream { TransportEventStream(failing: error) }
        func cancel() {}
    }
}
