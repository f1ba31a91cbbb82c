import BrickSystem
public import Dispatch

/// Sends requests over a transport and keeps track of the ones running, so that one or all can be cancelled.
///
/// `Session.shared` (from `BrickRequest`) serves requests that name no session of their own. Make your own
/// for a different base URL, headers, timeouts or connection pool: each session has its own transport and
/// connections. A session starts no thread until its first request: its transport and its reachability
/// are made then.
public final class Session: Sendable {
    /// What every request of a session starts from.
    public struct Configuration: Sendable {
        /// The base URL that requests' paths are resolved against. Default is `nil` (requests give full URLs).
        public var baseURL: String?
        /// Header fields sent with every request, before the request's own: all of them to the origin of
        /// ``baseURL`` (or to any when there is none); to another origin only `Accept*`, `User-Agent`,
        /// `Cache-Control` and `Pragma` (the fields every origin may see). Default is a
        /// `User-Agent: BrickRequest/<version>` field.
        public var headers: HTTPHeaders = ["User-Agent": "BrickRequest/\(Session.version)"]
        /// Timeouts, redirects, caps and TLS trust of every request, unless a request says otherwise.
        /// Default is `TransportOptions()`.
        public var transportOptions = TransportOptions()
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
        /// and transfers to it are ended at once. Default is `nil`, the session's own: for a libcurl session
        /// (`Session()`, `Session(configuration:)` from `BrickRequest`) the process's netlink monitor,
        /// `SystemReachability.shared`, started with the first request; for a session on a transport you
        /// pass, `UnknownReachability` (the retry rules never wait for a network they cannot see). Tests
        /// pass BrickTesting's `ManualReachability`.
        public var reachability: (any Reachability)?
        /// Told about every retry, wait for the network and give-up, on the request's task. Default is `nil`.
        public var retryObserver: (@Sendable (RetryEvent) -> Void)?
        /// Where GET responses are kept for reuse under HTTP's caching rules (each request's ``CacheMode``
        /// says how it uses them): a ``MemoryResponseCache``, a ``DiskResponseCache`` or your own. Default is
        /// `nil`: nothing is cached.
        public var responseCache: (any ResponseCache)?
        /// What watches every call and attempt (tracing, metrics), outermost first. Default is none.
        public var observers: [any CallObserver] = []
        /// What watches the connections the session keeps open across the network's failures (a reconnecting
        /// WebSocket): each one's opening, losses, reconnects and end (``ConnectionObserver``). Default is
        /// none.
        public var connectionObservers: [any ConnectionObserver] = []
        /// The session's cookie jar: `Set-Cookie` fields are kept and sent back where they belong
        /// (``CookieStore``: `CookieJar`, which `import BrickRequest` brings). Default is `nil`: no cookie is kept,
        /// and none is sent but those a request names.
        public var cookies: (any CookieStore)?
        /// The most attempts one call may make, replays and retries included: a safety net against an
        /// interceptor or error handler that would repeat a request forever. Default is 16.
        public var maxAttempts = 16
        /// What the session keeps per origin so that its calls cannot make a failing origin's trouble worse:
        /// a retry budget, circuit breakers, `Retry-After` shared by every call (``OriginProtection``).
        /// Default is `OriginProtection()`: budgets on, breakers for the calls that ask, `Retry-After` shared.
        public var originProtection = OriginProtection()
        /// Stages of your own around each whole call, below the observers and the cache's lookup, above the
        /// attempt loop (``StageOrder``), in this order. Default is none.
        public var callStages: [any CallStage] = []
        /// Stages of your own around each attempt, below the interceptors, above the cache's validators,
        /// hedging, redirects, cookies, origin protection and the transport (``StageOrder``), in this order:
        /// request coalescing (`RequestCoalescing`) goes here. Default is none.
        public var attemptStages: [any AttemptStage] = []

        /// The default configuration.
        public init() {}

        /// The default configuration with a base URL.
        public init(baseURL: String?) { self.baseURL = baseURL }
    }

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
    public static let version = "0.10.0"

    /// What this session was made with.
    public let configuration: Configuration
    let registry: RunningRegistry
    let madeTransport: Lazy<any Transport>
    private let madeReachability: Lazy<any Reachability>
    /// Ends transfers whose host became unreachable and wakes the requests waiting for a route; started with
    /// the first transfer (``makeTransfer(for:)``) or the first wait.
    let routeWatch: Lazy<Task<Void, Never>>
    /// The requests waiting for the route to their host.
    let routeWaiters: RouteWaiters
    /// The chains of stages the session's calls run through, one for each ``ChainKind``.
    let chains: SessionChains
    /// The row of mutexes that guard the session's calls' states (``Call``).
    let callLocks = LockStripes()
    /// The session's clock, read as time since the session was made: where its calls' starts, waits and
    /// deadlines are measured.
    let timeline: any Timeline
    /// Whether the configuration has a response cache (read without copying the cache's existential).
    let hasResponseCache: Bool
    /// Whether a stage of the session may ask for an attempt again (an interceptor's replay, an error
    /// handler's retry, a stage of the session's own), so that every call needs the attempt loop. Kept, not
    /// asked of the configuration with each call (which copied its values to read three counts).
    let repeatsAttempts: Bool
    /// The configuration's headers, validated once here rather than with every request they go with (a
    /// list that fails is left unmarked, so that each request fails as the transport's check says).
    let sessionHeaders: HTTPHeaders
    /// The cache keys of stored responses that answered while their host was unreachable and wait for the
    /// route to be revalidated: one revalidation each.
    let offlineRevalidations = Locked<Set<String>>([])
    /// What the session keeps per origin (``Configuration/originProtection``); `nil` when it keeps nothing.
    let origins: OriginTable?
    /// The attempts in flight per origin, when the configuration limits them.
    let bulkheads: Bulkheads?
    /// The origin and host of the last URL its calls named (``OriginNames``).
    let originNames = OriginNames()

    /// Creates a session that sends its requests through `transport`.
    ///
    /// `Session()` and `Session(configuration:connectionPool:)` (from `BrickRequest`) make a session on
    /// libcurl; this one takes any transport: a `StubTransport` from BrickTesting in unit tests.
    /// - Parameters:
    ///   - configuration: Base URL, headers, options, interceptors, reachability.
    ///   - transport: What sends the requests.
    public convenience init(configuration: Configuration = Configuration(), transport: any Transport) {
        self.init(configuration: configuration, makeTransport: { transport }, defaultReachability: { UnknownReachability() })
    }

    /// Creates a session whose transport, and reachability unless the configuration names one, are made
    /// when the first request needs them.
    package init(
        configuration: Configuration, makeTransport: @escaping @Sendable () -> any Transport,
        defaultReachability: @escaping @Sendable () -> any Reachability
    ) {
        self.configuration = configuration
        let timeline = Self.timeline(of: configuration.clock)
        self.timeline = timeline
        let origins = configuration.originProtection.isOff ? nil : OriginTable(configuration.originProtection, timeline: timeline)
        self.origins = origins
        let bulkheads = configuration.originProtection.maxConcurrentCalls.map {
            Bulkheads(limit: $0, queueLimit: configuration.originProtection.maxQueuedCalls, clock: configuration.clock)
        }
        self.bulkheads = bulkheads
        chains = SessionChains { kind in Self.chain(kind, configuration, origins: origins, bulkheads: bulkheads) }
        hasResponseCache = configuration.responseCache != nil
        repeatsAttempts = !configuration.interceptors.isEmpty || !configuration.errorHandlers.isEmpty || !configuration.attemptStages.isEmpty
        sessionHeaders = configuration.headers.validatedForReuse()
        madeTransport = Lazy(makeTransport)
        let chosen = configuration.reachability
        let reachability = Lazy { chosen ?? defaultReachability() }
        madeReachability = reachability
        let registry = RunningRegistry()
        self.registry = registry
        let waiters = RouteWaiters(timeline: timeline)
        routeWaiters = waiters
        routeWatch = Lazy { Self.watchRoutes(of: registry, waking: waiters, with: reachability.value) }
    }

    deinit { routeWatch.ifMade?.cancel() }

    static func timeline(of clock: some Clock<Duration>) -> any Timeline {
        clock is ContinuousClock ? ContinuousTimeline() : ClockTimeline(clock)
    }

    /// What sends its requests (made on first use).
    public var transport: any Transport { madeTransport.value }

    /// Where its requests learn whether their host is reachable (made on first use): the configuration's
    /// ``Configuration/reachability``, or the session's default.
    public var reachability: any Reachability { madeReachability.value }

    /// The configuration's transport options and headers, read in place: a request reaches its session
    /// through a getter, and reading `configuration` from what it returns copies the whole configuration.
    var configuredTransportOptions: TransportOptions { configuration.transportOptions }
    func headersSent(to url: String) -> HTTPHeaders { configuration.headersSent(sessionHeaders, to: url) }

    /// The name of `url`'s origin in the session's tables (``OriginTicket/origin(of:)``), worked out once for
    /// a stream of calls to one origin.
    func originName(of url: String) -> String { originNames.of(url).origin }

    /// The host whose route `request` needs (`RequestRoute.host`), its URL's host found as for
    /// ``originName(of:)``.
    func routeHost(of request: TransportRequest) -> String? { request.route.host(urlHost: originNames.of(request.url).host) }

    /// How many requests are running now.
    public var runningRequestCount: Int { registry.count }

    /// Cancels every running request of `component`; each fails with `cancelled`.
    public func cancel(_ component: Component) { registry.cancel(owner: ObjectIdentifier(component)) }

    /// Cancels every running request of the session; each fails with `cancelled`.
    public func cancelAll() { registry.cancel(owner: nil) }
}
