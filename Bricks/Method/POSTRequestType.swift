/// Sends the request with the `POST` method.
/// Sets: `method` = `.post`.
public protocol POSTRequestType: RequestType {}

extension POSTRequestType {
    public var method: HTTPMethod { .post }
}
