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
    /// While the route to the host is down (the session's reachability), answer at once with any stored
    /// response, stale or not, instead of waiting for the route. Without it, only a response whose
    /// `stale-if-error` time has not passed answers while offline.
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
    /// HTTP caching, and while the route to the host is down, any stored response at once (offline first).
    public static let offlineFirst: CacheMode = [.cacheResponse, .returnCachedResponse, .invokeRequest, .staleWhenOffline]
}
