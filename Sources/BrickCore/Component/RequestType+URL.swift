public import FoundationEssentials

extension RequestType {
    /// The URL to call as a Foundation `URL`: ``URLString`` parsed, or `nil` when it is not a valid URL (the
    /// request then fails with ``BrickError/transport(_:)``, `invalidRequest`, without being sent).
    /// ``URLString`` stays the requirement a brick implements; this is its typed neighbour, for reading.
    public var url: URL? { URL(string: URLString) }
}

extension Session.Configuration {
    /// The default configuration with a base URL given as a Foundation `URL`.
    public init(baseURL: URL) { self.init(baseURL: baseURL.absoluteString) }
}
