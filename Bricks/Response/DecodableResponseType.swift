public import FoundationEssentials

/// Decodes the JSON body into `SerializedObject`, a `Decodable` type.
/// Sets: `responseSerializer` = decode with ``jsonDecoder`` (an empty body, invalid JSON or a mismatch
/// throws `ResponseSerializationError`).
public protocol DecodableResponseType: ResponseType where SerializedObject: Decodable {
    /// The decoder used. Default is `JSONDecoder()`.
    var jsonDecoder: JSONDecoder { get }
}

extension DecodableResponseType {
    public var jsonDecoder: JSONDecoder { JSONDecoder() }

    public var responseSerializer: ResponseSerializer<SerializedObject> {
        JSONSerializers.decodable(SerializedObject.self, decoder: jsonDecoder)
    }
}
