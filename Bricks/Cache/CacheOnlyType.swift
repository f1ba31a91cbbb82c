/// Answers only from the session's response cache, stale or not, and never sends; a miss fails with `BrickError.notCached`.
/// Sets: `cacheMode` = `.cacheOnly`.
public protocol CacheOnlyType: RequestType {}

extension CacheOnlyType {
    public var cacheMode: CacheMode { .cacheOnly }
}
