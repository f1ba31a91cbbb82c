/// Sends the request with the `DELETE` method.
/// Sets: `method` = `.delete`.
public protocol DELETERequestType: RequestType {}

extension DELETERequestType {
    public var method: HTTPMethod { .delete }
}
