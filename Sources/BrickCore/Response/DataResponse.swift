/// What a dispatched request ends with, in both call styles: the request sent, the raw response if one
/// arrived, and the serialized result.
public struct DataResponse<Value: Sendable>: Sendable {
    /// The request as it was sent (after the session's headers and the parameters were applied), or `nil`
    /// when it could not even be built.
    public internal(set) var request: TransportRequest?
    /// The raw response: head, body and metrics, when one arrived.
    public internal(set) var response: TransportResponse?
    /// The serialized value, or why there is none.
    public let result: Result<Value, BrickError>

    /// Every attempt made, oldest first, with why each was repeated; one entry when nothing was repeated,
    /// none when the request could not be built (or a cached answer was served: nothing was sent).
    public var attempts: [AttemptRecord] {
        if let recorded { return recorded }
        guard let request else { return [] }
        return [AttemptRecord(request: request, head: response?.head, error: error, repeatReason: nil)]
    }

    /// The attempts as the attempt loop recorded them; `nil` for a call of one attempt that went straight
    /// (``attempts`` is then made from the request, the response and the error when someone asks).
    @usableFromInline var recorded: [AttemptRecord]?

    /// What the session's response cache did: ``CacheStatus/hit`` (no attempt was made), revalidated by a
    /// `304`, a miss, or not used.
    public internal(set) var cacheStatus: CacheStatus

    /// Creates a response.
    ///
    /// This and the accessors below are inlinable: a caller that names `Value` gets them compiled for it,
    /// rather than code that looks up `DataResponse<Value>`'s layout at run time on every request.
    @inlinable
    public init(
        request: TransportRequest?, response: TransportResponse?, result: Result<Value, BrickError>, attempts: [AttemptRecord] = []
    ) {
        self.init(request: request, response: response, result: result, recorded: attempts, cacheStatus: .notUsed)
    }

    /// Creates a response with the attempts as recorded (`nil`: one attempt, made when asked) and what the
    /// cache did.
    @usableFromInline
    init(
        request: TransportRequest?, response: TransportResponse?, result: Result<Value, BrickError>, recorded: [AttemptRecord]?,
        cacheStatus: CacheStatus
    ) {
        self.request = request
        self.response = response
        self.result = result
        self.recorded = recorded
        self.cacheStatus = cacheStatus
    }

    /// The value, if serialization succeeded.
    @inlinable public var value: Value? { try? result.get() }
    /// The error, if the request failed.
    @inlinable public var error: BrickError? { if case .failure(let error) = result { error } else { nil } }
    /// The status code, if a response arrived.
    @inlinable public var statusCode: Int? { response?.status }
    /// The response's header fields (empty when no response arrived); typed readers for the common ones
    /// (`contentType`, `contentLength`, `eTag`, `lastModified`, `date`, `location`) are on `HTTPHeaders`.
    @inlinable public var headers: HTTPHeaders { response?.head.headers ?? HTTPHeaders() }
    /// Timings and connection reuse, if a response arrived.
    @inlinable public var metrics: TransferMetrics? { response?.metrics }
}
