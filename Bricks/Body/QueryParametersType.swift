/// Sends the text parameters in the URL's query whatever the method, with no body.
/// Sets: `encodeBody(into:)` = `ParameterEncoding.query(_:into:)` (file parameters fail with
/// `RequestEncodingError.unsupportedParameters(_:)`).
public protocol QueryParametersType: RequestType {}

extension QueryParametersType {
    public func encodeBody(into request: inout TransportRequest) throws(RequestEncodingError) {
        try ParameterEncoding.query(parameterBuilder, into: &request)
    }
}
