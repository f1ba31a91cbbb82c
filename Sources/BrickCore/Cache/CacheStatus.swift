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
}
