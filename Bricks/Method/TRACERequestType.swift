/// Sends the request with the `TRACE` method.
/// Sets: `method` = `.trace`.
public protocol TRACERequestType: RequestType {}

extension TRACERequestType {
    public var method: HTTPMethod { .trace }
}
