/// Sends `query`, an `Encodable` value, as the URL's query whatever the method, with no body: each property
/// is a parameter, as `ParameterEncoder` writes them (nested values in brackets, arrays repeat the name).
/// Sets: `encodeBody(into:)` = the parameters of `query` then those of `parameterBuilder`, in the query.
public protocol EncodableQueryType: RequestType {
    /// The type of the value.
    associatedtype Query: Encodable
    /// The value whose properties are sent. No default.
    var query: Query { get }
}

extension EncodableQueryType {
    public func encodeBody(into request: inout TransportRequest) throws(RequestEncodingError) {
        var parameters = try ParameterEncoder().encode(query)
        for parameter in parameterBuilder.textParameters { parameters.add(parameter) }
        try ParameterEncoding.query(parameters, into: &request)
    }
}
