/// Sends ``rawBody`` as it is, with ``rawBodyContentType``; text parameters go in the query.
/// Sets: `encodeBody(into:)` = ``rawBody`` with its content type.
public protocol RawBodyType: RequestType {
    /// The body: bytes, a file or a stream (`RequestBody`). No default.
    var rawBody: RequestBody { get }
    /// Its `Content-Type`. Default is `application/octet-stream`.
    var rawBodyContentType: String { get }
}

extension RawBodyType {
    public var rawBodyContentType: String { MIMEType.octetStream }

    public func encodeBody(into request: inout TransportRequest) throws(RequestEncodingError) {
        try ParameterEncoding.query(parameterBuilder, into: &request)
        request.body = rawBody
        ParameterEncoding.setContentType(rawBodyContentType, on: &request)
    }
}
