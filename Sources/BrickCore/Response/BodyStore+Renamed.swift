// The names the body stores had before 0.10.0, kept for one minor version so that code written against
// them still builds, with a warning naming the new one.

/// ``BodyStore``'s name before 0.10.0.
@available(*, deprecated, renamed: "BodyStore")
public typealias DataCacheProvider = BodyStore

/// ``FileBodyStore``'s name before 0.10.0.
@available(*, deprecated, renamed: "FileBodyStore")
public typealias FileCacheProvider = FileBodyStore

/// ``MemoryBodyStore``'s name before 0.10.0.
@available(*, deprecated, renamed: "MemoryBodyStore")
public typealias MemoryCacheProvider = MemoryBodyStore
