public import FoundationEssentials

/// A URL as the library's calls take it: a `String` (absolute, or a path against the session's base URL)
/// or a Foundation `URL`. The one-line calls accept either.
public protocol URLConvertible: Sendable {
    /// The URL's text, exactly as it will be sent (or resolved against a base URL).
    var urlString: String { get }
}

extension String: URLConvertible {
    /// The string itself.
    public var urlString: String { self }
}

extension Substring: URLConvertible {
    /// The substring's text.
    public var urlString: String { String(self) }
}

extension URL: URLConvertible {
    /// `absoluteString`: a URL made relative to another is sent whole.
    public var urlString: String { absoluteString }
}
