/// Sends the request with the `HEAD` method.
/// Sets: `method` = `.head`.
public protocol HEADRequestType: RequestType {}

extension HEADRequestType {
    public var method: HTTPMethod { .head }
}
