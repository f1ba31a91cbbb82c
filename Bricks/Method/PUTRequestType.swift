/// Sends the request with the `PUT` method.
/// Sets: `method` = `.put`.
public protocol PUTRequestType: RequestType {}

extension PUTRequestType {
    public var method: HTTPMethod { .put }
}
