/// Always asks the network, and stores the answer for later requests.
/// Sets: `cacheMode` = `.notReturnCachedResponse`.
public protocol RefreshCacheType: RequestType {}

extension RefreshCacheType {
    public var cacheMode: CacheMode { .notReturnCachedResponse }
}
