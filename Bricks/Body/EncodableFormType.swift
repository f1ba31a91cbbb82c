/// Sends `form`, an `Encodable` value, as an `application/x-www-form-urlencoded` body whatever the method:
/// each property is a field, as `ParameterEncoder` writes them (nested values in brackets, arrays repeat
/// the name). Sets: `encodeBody(into:)` = the fields of `form`, then `parameterBuilder`'s text parameters
/// in the query.
public protocol EncodableFormType: RequestType {
    /// The type of the value.
    associatedtype Form: Encodable
    /// The value whose properties are sent. No default.
    var form: Form { get }
}

extension EncodableFormType {
    public func encodeBody(into request: inout TransportRequest) throws(RequestEncodingError) {
        try ParameterEncoding.query(parameterBuilder, into: &request)
        ParameterEncoding.formURLEncoded(try ParameterEncoder().encode(form), into: &request)
    }
}
