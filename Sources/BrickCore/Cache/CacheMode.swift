/// How a GET uses its session's ``ResponseCache`` (one of three modes), on top of HTTP's
/// caching rules (`CachePolicy`).
///
/// - ``cacheResponse``: a response HTTP allows to be stored is stored.
/// - ``returnCachedResponse``: a stored response is returned while it is fresh; a stale one is revalidated
///   with `If-None-Match`/`If-Modified-Since`, and a `304` answer is served from the cache. Without
///   ``invokeRequest``, whatever is stored is returned, stale or not.
/// - ``invokeRequest``: the network is used when the cache cannot answer.
///
/// Nothing is cached unless the session has a ``Session/Configuration/responseCache``.
public struct CacheMode: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Store responses that HTTP allows to be stored.
    public static let cacheResponse = CacheMode(rawValue: 1)
    /// Answer from the cache: fresh responses directly, stale ones after revalidation.
    public static let returnCachedResponse = CacheMode(rawValue: 2)
    /// Go to the network when the cache cannot answer.
    public static let invokeRequest = CacheMode(rawValue: 4)
    /// Offline is answered from the cache: while the route to the host is down (the session's reachability),
    /// any stored response answers at once, stale or not, instead of waiting for the route; and when an
    /// attempt could not reach the server at all (its name not resolved, no route, the connection refused or
    /// not made in time: a server that is down), the stored response answers instead of the error, as
    /// `stale-if-error` (RFC 5861) would allow. Without it, only a response whose `stale-if-error` time has
    /// not passed answers then.
    public static let staleWhenOffline = CacheMode(rawValue: 8)

    /// All three: HTTP caching as a browser does it. The default of every request.
    public static let `default`: CacheMode = [.cacheResponse, .returnCachedResponse, .invokeRequest]
    /// The cache is neither read nor written.
    public static let withoutCache: CacheMode = [.invokeRequest]
    /// Always the network, and the answer refreshes the cache.
    public static let notReturnCachedResponse: CacheMode = [.cacheResponse, .invokeRequest]
    /// Only the cache, stale or not (``CacheStatus/stale`` tells which); a miss fails with
    /// ``BrickError/notCached(url:)``. Nothing is sent.
    public static let cacheOnly: CacheMode = [.returnCachedResponse]
    /// HTTP caching, and while the route to the host is down or its server cannot be reached, any stored
    /// response (offline first).
    public static let offlineFirst: CacheMode = [.cacheResponse, .returnCachedResponse, .invokeRequest, .staleWhenOffline]
}
