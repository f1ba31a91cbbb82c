public import FoundationEssentials

/// A response kept by a ``ResponseCache``: the head and body as received, when they were asked for and
/// received, and the request fields its `Vary` names.
public struct CachedResponse: Sendable, Equatable, Codable {
    /// The status code.
    public var status: Int
    /// The response's header fields, in arrival order.
    public var headers: HTTPHeaders
    /// The body, decompressed.
    public var body: Data
    /// When the request that fetched (or last revalidated) it was sent.
    public var requestTime: Date
    /// When its response arrived.
    public var responseTime: Date
    /// The request's values of the fields the response's `Vary` names (lowercased names); a later request
    /// must carry the same values to be answered by this response.
    public var varyingFields: [String: String]

    /// Creates an entry.
    public init(
        status: Int, headers: HTTPHeaders, body: Data, requestTime: Date, responseTime: Date, varyingFields: [String: String]
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.varyingFields = varyingFields
    }

    /// The status and header fields as a response head.
    public var head: ResponseHead { ResponseHead(status: status, headers: headers) }

    /// Bytes it occupies, roughly: the body and the header text.
    public var cost: Int { body.count + headers.reduce(64) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 } }
}
