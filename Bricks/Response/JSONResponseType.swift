import FoundationEssentials

/// Serializes the body as a typed `JSON` value.
/// Sets: `SerializedObject` = `JSON`; `responseSerializer` = parse the body as JSON (an empty body or
/// invalid JSON throws `ResponseSerializationError`).
public protocol JSONResponseType: ResponseType where SerializedObject == JSON {}

extension JSONResponseType {
    /// The body parsed as JSON.
    public var responseSerializer: ResponseSerializer<JSON> { JSONSerializers.json }
}
