public import FoundationEssentials

/// Decodes the JSON body into `SerializedObject`, a `Decodable` type.
/// Sets: `responseSerializer` = decode with ``jsonDecoder`` (an empty body, invalid JSON or a mismatch
/// throws ``ResponseSerializationError``).
public protocol DecodableResponseType: ResponseType where SerializedObject: Decodable {
    /// The decoder used. Default is `JSONDecoder()`.
    var jsonDecoder: JSONDecoder { get }
}

extension DecodableResponseType {
    public var jsonDecoder: JSONDecoder { JSONDecoder() }

    public var responseSerializer: ResponseSerializer<SerializedObject> {
        let decoder = jsonDecoder
        return ResponseSerializer { response in
            guard !response.body.isEmpty else { throw ResponseSerializationError.emptyBody }
            do { return try decoder.decode(SerializedObject.self, from: response.body) } catch let error as DecodingError {
                if case .dataCorrupted = error { throw ResponseSerializationError.invalidJSON(String(describing: error)) }
                throw ResponseSerializationError.undecodable(String(describing: error))
            }
        }
    }
}
