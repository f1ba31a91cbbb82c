/// Sends the request with the `PATCH` method.
/// Sets: `method` = `.patch`.
public protocol PATCHRequestType: RequestType {}

extension PATCHRequestType {
    public var method: HTTPMethod { .patch }
}
