/// Sends the request with the `OPTIONS` method.
/// Sets: `method` = `.options`.
public protocol OPTIONSRequestType: RequestType {}

extension OPTIONSRequestType {
    public var method: HTTPMethod { .options }
}
