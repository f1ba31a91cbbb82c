/// Sends the request with the `CONNECT` method.
/// Sets: `method` = `.connect`.
public protocol CONNECTRequestType: RequestType {}

extension CONNECTRequestType {
    public var method: HTTPMethod { .connect }
}
