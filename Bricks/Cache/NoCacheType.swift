/// Never reads or writes the session's response cache.
/// Sets: `cacheMode` = `.withoutCache`.
public protocol NoCacheType: RequestType {}

extension NoCacheType {
    public var cacheMode: CacheMode { .withoutCache }
}
