/// Sends the text parameters as an `application/x-www-form-urlencoded` body whatever the method.
/// Sets: `encodeBody(into:)` = `ParameterEncoding.formURLEncoded(_:into:)` (file parameters fail with
/// `RequestEncodingError.unsupportedParameters(_:)`).
public protocol FormURLEncodedBodyType: RequestType {}

extension FormURLEncodedBodyType {
    public func encodeBody(into request: inout TransportRequest) throws(RequestEncodingError) {
        guard parameterBuilder.fileParameters.isEmpty else {
            throw .unsupportedParameters("files need a multipart body, not a form-urlencoded one")
        }
        ParameterEncoding.formURLEncoded(parameterBuilder, into: &request)
    }
}
