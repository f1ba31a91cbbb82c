/// Sends the request with the `GET` method.
/// Sets: `method` = `.get`.
public protocol GETRequestType: RequestType {}

extension GETRequestType {
    public var method: HTTPMethod { .get }
}
