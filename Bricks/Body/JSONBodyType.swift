public import FoundationEssentials

/// Sends ``jsonBody`` encoded as JSON; text parameters go in the query.
/// Sets: `encodeBody(into:)` = the JSON of ``jsonBody`` with `Content-Type: application/json` (an
/// encoder failure gives `RequestEncodingError.unencodableBody(_:)`).
public protocol JSONBodyType: RequestType {
    /// The type of the body.
    associatedtype JSONBody: Encodable
    /// The value sent. No default.
    var jsonBody: JSONBody { get }
    /// The encoder used. Default is `JSONEncoder()`.
    var jsonEncoder: JSONEncoder { get }
}

extension JSONBodyType {
    public var jsonEncoder: JSONEncoder { JSONEncoder() }

    public func encodeBody(into request: inout TransportRequest) throws(RequestEncodingError) {
        try ParameterEncoding.query(parameterBuilder, into: &request)
        do { request.body = .data(try jsonEncoder.encode(jsonBody)) } catch {
            throw .unencodableBody(String(describing: error))
        }
        ParameterEncoding.setKnownContentType("application/json", on: &request)
    }
}
