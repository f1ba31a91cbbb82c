/// Sends text and file parameters as a `multipart/form-data` body, files streamed from disk.
/// Sets: `encodeBody(into:)` = `ParameterEncoding.multipart(_:into:form:)` with a random boundary.
public protocol MultipartBodyType: RequestType {}

extension MultipartBodyType {
    public func encodeBody(into request: inout TransportRequest) throws(RequestEncodingError) {
        try ParameterEncoding.multipart(parameterBuilder, into: &request)
    }
}
