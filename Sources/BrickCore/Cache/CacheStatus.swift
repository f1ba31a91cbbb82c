/// What the session's ``ResponseCache`` did for a call; found in ``DataResponse/cacheStatus``.
public enum CacheStatus: String, Sendable, Equatable {
    /// No cache was involved: the session has none, the request is not a GET, or its mode is
    /// ``CacheMode/withoutCache``.
    case notUsed
    /// The cache had nothing usable; the response came from the network (and was stored if allowed).
    case miss
    /// A stored response answered; nothing was sent.
    case hit
    /// A stored response was stale; the server confirmed it with `304 Not Modified`, and it answered.
    case revalidated
    /// A stored response answered although stale, as the server allowed or the caller asked: within its
    /// `stale-while-revalidate` time (it is revalidated in the background), within its `stale-if-error` time
    /// after the server failed or could not be reached, or while the route to the host was down. Its `Age`
    /// says how old it is.
    case stale
}
