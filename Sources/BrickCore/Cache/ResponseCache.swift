/// Where a session keeps responses for reuse (``Session/Configuration/responseCache``), by key (the method
/// and URL, and a digest of the connection identity when the request names one: a client certificate, pins,
/// its own CA, an explicit proxy or a Unix socket). ``MemoryResponseCache`` and ``DiskResponseCache`` are the stock ones; HTTP's rules
/// (``CacheMode``) decide what is stored and when it is used, the cache only keeps it.
///
/// Implementations must be safe under concurrent use: many requests read and write at once.
public protocol ResponseCache: Sendable {
    /// The response stored under `key`, if any.
    func cachedResponse(for key: String) async -> CachedResponse?
    /// Stores `response` under `key`, replacing what was there; a cache may decline (too large).
    func store(_ response: CachedResponse, for key: String) async
    /// Forgets the response under `key`.
    func removeResponse(for key: String) async
    /// Forgets every response.
    func removeAll() async
}
